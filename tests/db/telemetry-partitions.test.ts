import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { ensureTelemetryPartitions, listTelemetryPartitions, monthStart } from "@/lib/db/telemetry-partitions";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { createPostgresDatabase, createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { migrateUpTo, runMigrationFile } from "../helpers/migration-files";

/**
 * Telemetry history partitioned by UTC month (migration 0010): on both databases the migration
 * leaves one partition per month ahead, readings go to their month's partition, a month without one
 * keeps its readings in the default partition until `ensureTelemetryPartitions` creates it and moves
 * them, and a re-sent payload still stores nothing twice. Where the rows are is read from Postgres
 * (`tableoid`), not from the code. And the migration itself moves an existing history without loss.
 */

const where = (db: TestDatabase) =>
  rows<{ part: string; n: number }>(db.handle.db, sql`select tableoid::regclass::text as part, count(*)::int as n from telemetry group by 1 order by 1`);

describe.each(["postgres", "pglite"] as const)("telemetry partitions (%s)", (kind) => {
  let tdb: TestDatabase;
  let ctx: TenantCtx;
  const ingest = (records: Record<string, unknown>[]) => ingestTelemetry({ ctx, input: { vehicles: records } as never });

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
  }, 60_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("a migrated database (as db:migrate and the start-up leave it) has the partitions of last month, this one and the next two, and a default one", async () => {
    const names = (await listTelemetryPartitions(tdb.handle.db)).map((p) => p.name);
    const now = new Date();
    for (const offset of [-1, 0, 1, 2]) expect(names).toContain(`telemetry_${monthStart(now, offset).slice(0, 7).replace("-", "_")}`);
    expect(names.at(-1)).toBe("telemetry_default");
  });

  it("a reading goes to its month's partition; a re-sent payload stores nothing twice", async () => {
    const ts = new Date(Date.now() - 3_600_000).toISOString();
    const record = { vin: "PARTNOW1", timestamp: ts, speed_kmh: 30, odometer_km: 100 };
    await ingest([record]);
    await ingest([record]);
    const month = `telemetry_${ts.slice(0, 7).replace("-", "_")}`;
    expect(await where(tdb)).toEqual([{ part: month, n: 1 }]);
  });

  it("readings of a month without a partition wait in the default one until the month is created, then move there", async () => {
    await ingest([
      { vin: "PARTOLD1", timestamp: "2024-03-10T12:00:00Z", speed_kmh: 50, odometer_km: 1000 },
      { vin: "PARTOLD1", timestamp: "2024-03-31T23:59:59.999Z", speed_kmh: 0, odometer_km: 1010 },
      { vin: "PARTOLD1", timestamp: "2024-04-01T00:00:00Z", speed_kmh: 0, odometer_km: 1010 },
    ]);
    const before = await where(tdb);
    expect(before.find((r) => r.part === "telemetry_default")?.n).toBe(3);

    const created = await ensureTelemetryPartitions({ db: tdb.handle.db, now: new Date("2024-03-15T00:00:00Z") });
    expect(created).toEqual(["2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"]);
    const after = await where(tdb);
    expect(after.find((r) => r.part === "telemetry_2024_03")?.n).toBe(2);
    expect(after.find((r) => r.part === "telemetry_2024_04")?.n).toBe(1);
    expect(after.find((r) => r.part === "telemetry_default")).toBeUndefined();
    // Nothing lost or doubled, and a second call creates nothing.
    expect(after.reduce((s, r) => s + r.n, 0)).toBe(before.reduce((s, r) => s + r.n, 0));
    expect(await ensureTelemetryPartitions({ db: tdb.handle.db, now: new Date("2024-03-15T00:00:00Z") })).toEqual([]);
  });
});

describe("migration 0010 on an existing history (postgres)", () => {
  let db: { url: string; drop(): Promise<void> };
  let pg: postgres.Sql;

  beforeAll(async () => {
    db = await createPostgresDatabase("fdp_partmig");
    pg = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await pg?.end({ timeout: 5 });
    await db?.drop();
  });

  it("moves every reading into its month's partition, keeps the key and the defaults", async () => {
    const migration = await migrateUpTo(pg, "0010_");
    await pg`insert into telemetry (tenant_id, device_id, ts, speed_kmh)
             select 't1', 'd' || (i % 7), timestamptz '2025-01-01T00:00:00Z' + make_interval(hours => i * 7), i % 130
             from generate_series(0, 4999) i`;
    const before =
      await pg`select md5(string_agg(tenant_id || device_id || ts::text || coalesce(speed_kmh::text, ''), ',' order by tenant_id, device_id, ts)) as h, count(*)::int as n from telemetry`;
    await runMigrationFile(pg, migration);
    const after =
      await pg`select md5(string_agg(tenant_id || device_id || ts::text || coalesce(speed_kmh::text, ''), ',' order by tenant_id, device_id, ts)) as h, count(*)::int as n from telemetry`;
    expect(after).toEqual(before);
    const parts = await pg`select tableoid::regclass::text as part, min(ts) as lo, max(ts) as hi from telemetry group by 1 order by 1`;
    expect(parts.length).toBe(48); // 5,000 readings 7 h apart from January 2025: 34,993 h, January 2025 to December 2028
    for (const p of parts) {
      expect(p.part).toMatch(/^telemetry_\d{4}_\d{2}$/);
      expect(p.lo.toISOString().slice(0, 7).replace("-", "_")).toBe(p.part.slice(10));
      expect(p.hi.toISOString().slice(0, 7).replace("-", "_")).toBe(p.part.slice(10));
    }
    await expect(pg`insert into telemetry (tenant_id, device_id, ts) values ('t1', 'd0', '2025-01-01T00:00:00Z')`).rejects.toThrow(/duplicate key/);
    const [fresh] = await pg`insert into telemetry (tenant_id, device_id, ts) values ('t1', 'dx', now()) returning received_at`;
    expect(fresh!.received_at).toBeInstanceOf(Date);
  });
});
