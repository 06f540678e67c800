import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { ANALYZE_AFTER_NEW_DEVICES } from "@/lib/db/analyze-after-bulk-ingest";
import { textArray } from "@/lib/db/pg-array";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { rollupRowsSelect } from "@/lib/telemetry/queries/behaviour-rollup-sql";
import { REFRESH_CHUNK_DEVICES, refreshTelemetryRollups, settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { disableAutovacuum } from "../helpers/storage-tables";
import { planNodes, type PlanNode } from "../helpers/explain-plan";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { iso, vinSequence } from "../helpers/ingest-api";

/**
 * The rollup refresh right after a new tenant's first bulk ingest, when Postgres has not analysed its
 * rows yet and believes the tenant has about one device (issue 13, "Query plans that do not depend on
 * fresh statistics"). The refresh of a chunk must run the per-day pipelines once per device of the
 * chunk. `npm run bench`'s score batches met the other plan: Postgres scanned the tenant's devices and
 * ran the pipelines for every pair of a device and a listed device before matching them (a chunk of
 * 200 devices of a 1,000-device tenant ran for minutes).
 */

const VEHICLES = 1_000;
const DAY = 86_400_000;

let tdb: TestDatabase;
let raw: postgres.Sql;
let fresh: TenantCtx;

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  raw = postgres(tdb.url!, { max: 1, onnotice: () => {} });
  const db = tdb.handle.db;
  await disableAutovacuum(raw, ["devices", "fleet_snapshot", "alerts", "telemetry", "driving_events", "telemetry_daily", "telemetry_rollup_state"]);

  // An older tenant, analysed: the statistics the planner generalises from.
  const old = await createTenantWithKey(db, { name: "Old" });
  const oldCtx: TenantCtx = { db, tenantId: old.tenantId, isSandbox: false, log: rootLogger() };
  const oldVin = vinSequence("OLDROLL0000");
  // 01:00 UTC three days ago: the new tenant's six readings per vehicle (11 h apart, plus up to 17 min
  // per vehicle) then fall on days −3, −2 and −1 whatever the time of day. From "now − 3 days" they
  // crossed a midnight for some vehicles when the test ran in the 17 minutes before one (two days rolled,
  // not three).
  const t0 = Math.floor(Date.now() / DAY) * DAY - 3 * DAY + 3_600_000;
  await ingestTelemetry({ ctx: oldCtx, input: { vehicles: Array.from({ length: 300 }, () => ({ vin: oldVin(), timestamp: iso(t0), speed_kmh: 0, soc_percent: 60 })) } });
  await settleBackgroundRollupRefresh(old.tenantId);
  await raw`analyze`;

  // The new tenant: three days of readings per vehicle, ingested in batches below
  // ANALYZE_AFTER_NEW_DEVICES, so the ingest's own background ANALYZE does not start.
  const neu = await createTenantWithKey(db, { name: "New" });
  fresh = { db, tenantId: neu.tenantId, isSandbox: false, log: rootLogger() };
  const vin = vinSequence("NEWROLL0000");
  const vins = Array.from({ length: VEHICLES }, () => vin());
  for (let i = 0; i < VEHICLES; i += ANALYZE_AFTER_NEW_DEVICES - 1) {
    const batch = vins.slice(i, i + ANALYZE_AFTER_NEW_DEVICES - 1).flatMap((v, k) =>
      [0, 1, 2, 3, 4, 5].map((j) => ({
        vin: v,
        timestamp: iso(t0 + j * 11 * 3_600_000 + k * 1_000),
        speed_kmh: 40 + j,
        odometer_km: 1_000 + 10 * j,
        lat: 60.2 + j / 100,
        lon: 24.9,
      })),
    );
    await ingestTelemetry({ ctx: fresh, input: { vehicles: batch } });
  }
  // The ingests' background refresh: left undone, the cases below run it themselves.
  await settleBackgroundRollupRefresh(neu.tenantId);
  await raw`delete from telemetry_daily where tenant_id = ${neu.tenantId}`;
  await raw`update telemetry_rollup_state set clean_before = '-infinity' where tenant_id = ${neu.tenantId}`;
}, 300_000);

afterAll(async () => {
  await raw?.end({ timeout: 5 });
  await tdb?.dispose();
});

describe("the rollup refresh on a freshly ingested, unanalysed tenant", () => {
  it("the new tenant's devices are really unanalysed (the planner believes it has almost none)", async () => {
    const [explain] = await raw<{ "QUERY PLAN": { Plan: { "Plan Rows": number } }[] }[]>`explain (format json) select * from devices where tenant_id = ${fresh.tenantId}`;
    expect(explain!["QUERY PLAN"][0]!.Plan["Plan Rows"]).toBeLessThan(VEHICLES / 10);
  });

  it("a chunk's statement runs each per-day pipeline once per device of the chunk", async () => {
    const ids = (await raw<{ device_id: string }[]>`select device_id from devices where tenant_id = ${fresh.tenantId} order by device_id limit ${REFRESH_CHUNK_DEVICES}`).map(
      (r) => r.device_id,
    );
    expect(ids).toHaveLength(REFRESH_CHUNK_DEVICES);
    const x = sql`unnest(${textArray(ids)}::text[], ${textArray(ids.map(() => null))}::date[]) as x(device_id, from_day)`;
    const today = iso(Date.now()).slice(0, 10);
    const [plan] = await rows<{ "QUERY PLAN": unknown }>(fresh.db, sql`explain (analyze, format json) ${rollupRowsSelect({ tenantId: fresh.tenantId, devices: x, today })}`);
    const doc = plan!["QUERY PLAN"];
    const root = ((typeof doc === "string" ? JSON.parse(doc) : doc) as { Plan: PlanNode }[])[0]!.Plan;
    const nodes = planNodes(root);
    // Three days per device (days −3, −2 and −1; four if the day changed since the setup).
    expect(root["Actual Rows"]).toBeGreaterThanOrEqual(3 * REFRESH_CHUNK_DEVICES);
    expect(root["Actual Rows"]).toBeLessThanOrEqual(4 * REFRESH_CHUNK_DEVICES);
    const scans = nodes.filter((n) => /^(telemetry(_\d{4}_\d{2}|_default)?|driving_events|telemetry_daily)$/.test(n["Relation Name"] ?? ""));
    expect(scans.length).toBeGreaterThan(0);
    for (const n of scans) expect(n["Actual Loops"], `${n["Node Type"]} on ${n["Relation Name"]}`).toBeLessThanOrEqual(REFRESH_CHUNK_DEVICES);
    // The tenant's devices are read once at most (a probe per listed device, or one pass), never a scan per listed device.
    const deviceRows = nodes.filter((n) => n["Relation Name"] === "devices").reduce((s, n) => s + n["Actual Rows"] * n["Actual Loops"], 0);
    expect(deviceRows).toBeLessThanOrEqual(VEHICLES);
  });

  it("the refresh rolls up the whole tenant", async () => {
    const result = await refreshTelemetryRollups({ db: fresh.db, tenantId: fresh.tenantId });
    expect(result.devices).toBe(VEHICLES);
    const [counted] = await raw<
      { n: number; devices: number }[]
    >`select count(*)::int as n, count(distinct device_id)::int as devices from telemetry_daily where tenant_id = ${fresh.tenantId}`;
    expect(counted!.devices).toBe(VEHICLES);
    expect(counted!.n).toBe(result.days);
  });
});
