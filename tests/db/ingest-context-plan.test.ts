import postgres from "postgres";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { ANALYZE_AFTER_NEW_DEVICES } from "@/lib/db/analyze-after-bulk-ingest";
import { textArray } from "@/lib/db/pg-array";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { readDeviceContexts } from "@/lib/ingest/store-batch";
import { rootLogger } from "@/lib/log/logger";
import { SETTLE_MS } from "@/lib/vocabulary/readings";
import { disableAutovacuum } from "../helpers/storage-tables";
import { planNodes, type PlanNode } from "../helpers/explain-plan";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { iso, vinSequence } from "../helpers/ingest-api";

/**
 * The ingest's first statement (readDeviceContexts: each batch device's master data, newest reading and
 * latest awake reading) on a tenant whose rows Postgres has not analysed yet, next to an analysed one:
 * a new customer's first minutes (issue 13). Its plan must not depend on statistics. The shape before
 * (joins of devices and snapshot, `max(ts)` over a plain `ts` range) was planned for a two-row tenant
 * there: the snapshot nested-looped against every snapshot row of the tenant, and the awake range read
 * through the (tenant_id, ts) index, i.e. the whole tenant's last SETTLE_MS for every device
 * (docs/performance.md "Ingest against the raw driver": 0.3–0.4 s per 1,000-device batch).
 */

const VEHICLES = ANALYZE_AFTER_NEW_DEVICES - 1; // below the ingest's own background ANALYZE
const BATCHES = 6;
const STEP_MS = 60_000;


let tdb: TestDatabase;
let raw: postgres.Sql;
let fresh: TenantCtx;
let deviceIds: string[];

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  raw = postgres(tdb.url!, { max: 1, onnotice: () => {} });
  const db = tdb.handle.db;
  await disableAutovacuum(raw, ["devices", "fleet_snapshot", "telemetry"]);

  // An older tenant, analysed: the statistics the planner generalises from.
  const old = await createTenantWithKey(db, { name: "Old" });
  const oldVin = vinSequence("OLDCTX0000");
  const t0 = Date.now() - 3 * 3_600_000;
  await ingestTelemetry({ ctx: { db, tenantId: old.tenantId, isSandbox: false, log: rootLogger() }, input: { vehicles: Array.from({ length: 200 }, () => ({ vin: oldVin(), timestamp: iso(t0), speed_kmh: 0, soc_percent: 60 })) } as never });
  await raw`analyze`;

  // The new tenant's first batches through the real ingest: moving, then parked.
  const neu = await createTenantWithKey(db, { name: "New" });
  fresh = { db, tenantId: neu.tenantId, isSandbox: false, log: rootLogger() };
  const vins = Array.from({ length: VEHICLES }, vinSequence("NEWCTX0000"));
  for (let b = 0; b < BATCHES; b++) {
    const speed = b < BATCHES / 2 ? 40 : 0;
    await ingestTelemetry({ ctx: fresh, input: { vehicles: vins.map((vin) => ({ vin, timestamp: iso(t0 + b * STEP_MS), speed_kmh: speed, soc_percent: 55, battery_voltage: 12.6 })) } as never });
  }
  deviceIds = vins.map((vin) => `oem-${vin}`);
}, 300_000);

afterAll(async () => {
  await raw?.end({ timeout: 5 });
  await tdb?.dispose();
});

/** Runs `readDeviceContexts` with every statement it sends wrapped in EXPLAIN ANALYZE; returns the plan. */
async function planOfRead(): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  const explaining = {
    execute: async (query: SQL) => {
      const rows = (await tdb.handle.db.execute(sql`explain (analyze, format json) ${query}`)) as unknown as { "QUERY PLAN": { Plan: PlanNode }[] }[];
      plan = rows[0]!["QUERY PLAN"][0]!.Plan;
      return [];
    },
  } as unknown as Db;
  await readDeviceContexts(explaining, fresh.tenantId, deviceIds);
  return plan!;
}

describe("readDeviceContexts on a tenant without statistics", () => {
  it("reads each batch device by its primary keys: no join filter, no telemetry read beyond the device's own range", async () => {
    const [stats] = await raw<{ n_live: number }[]>`
      select coalesce(sum(reltuples), 0)::float8 as n_live from pg_class where relname like 'telemetry_2%' and reltuples > 0`;
    const analysed = stats?.n_live ?? 0;
    // The new tenant's readings are not in the statistics (only the old tenant's 200 are).
    expect(analysed).toBeLessThan(1000);

    const all = planNodes(await planOfRead());
    expect(all.filter((n) => (n["Rows Removed by Join Filter"] ?? 0) > 0)).toEqual([]);
    const scans = all.filter((n) => n["Relation Name"] !== undefined);
    // Every scan that read a row (an empty partition may be scanned any way) is a primary-key probe.
    const reading = scans.filter((n) => n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0) > 0);
    expect(reading.map((n) => n["Relation Name"]!.replace(/_\d{4}_\d{2}$|_default$/, "")).sort()).toEqual(
      expect.arrayContaining(["devices", "fleet_snapshot", "telemetry"]),
    );
    for (const n of reading) {
      expect(n["Node Type"], `${n["Relation Name"]}`).toMatch(/^Index (Only )?Scan/);
      expect(n["Index Name"] ?? "", `${n["Relation Name"]}`).toMatch(/(_pk|_pkey)$/);
    }
    const telemetryRows = scans
      .filter((n) => n["Relation Name"]!.startsWith("telemetry"))
      .reduce((sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)) * n["Actual Loops"], 0);
    // At most the device's own readings of the last SETTLE_MS: here BATCHES per device.
    expect(SETTLE_MS).toBeGreaterThan(BATCHES * STEP_MS);
    expect(telemetryRows).toBeLessThanOrEqual(VEHICLES * BATCHES);
  });

  it("returns what the plain join returns", async () => {
    const found = await readDeviceContexts(tdb.handle.db, fresh.tenantId, deviceIds);
    const reference = await raw.unsafe<{ device_id: string; ts: Date | null; last_awake_at: Date | null }[]>(
      `select d.device_id, s.ts, (select max(tw.ts) from telemetry tw
                where tw.tenant_id = d.tenant_id and tw.device_id = d.device_id and tw.ts <= s.ts
                  and tw.ts > s.ts - make_interval(secs => $3::float8) and coalesce(tw.speed_kmh, 0) > 0) as last_awake_at
         from devices d left join fleet_snapshot s on s.tenant_id = d.tenant_id and s.device_id = d.device_id
        where d.tenant_id = $1 and d.device_id = any($2::text[])`,
      [fresh.tenantId, textArray(deviceIds), SETTLE_MS / 1000],
    );
    expect(found.size).toBe(VEHICLES);
    for (const r of reference) {
      const c = found.get(r.device_id)!;
      expect(c.previous?.ts.getTime()).toBe(r.ts?.getTime());
      expect(c.lastAwakeAt?.getTime() ?? null).toBe(r.last_awake_at?.getTime() ?? null);
    }
    // Moving for the first half of the batches: the latest awake reading is the last moving one.
    const [first] = reference;
    expect(first?.last_awake_at).not.toBeNull();
  });
});
