import postgres from "postgres";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { ANALYZE_AFTER_NEW_DEVICES } from "@/lib/db/analyze-after-bulk-ingest";
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
let batchTimes: number[];

// Ignition and charging power travel in raw_data (lib/schemas/ingest.ts).
const parked = { speed_kmh: 0, charging_status: "not_charging", raw_data: { ignition: false } };
/**
 * How each vehicle spends the batches (vehicle i follows PATTERNS[i % 9]), with the batches in which it
 * is awake: the known truth. Four end awake, each in one of the ways the awake rule knows
 * (lib/vocabulary/readings.ts awakeSql), so their newest reading is the answer; five end parked, so
 * the context reads their history, where they were last awake in each of those ways, or never.
 */
const PATTERNS: { name: string; reading: (b: number) => Record<string, unknown>; awake: (b: number) => boolean }[] = [
  { name: "moving, then parked", reading: (b) => (b < BATCHES / 2 ? { speed_kmh: 40 } : parked), awake: (b) => b < BATCHES / 2 },
  { name: "parked, moving at the end", reading: (b) => (b === BATCHES - 1 ? { speed_kmh: 30 } : parked), awake: (b) => b === BATCHES - 1 },
  { name: "ignition on at the end", reading: (b) => (b === BATCHES - 1 ? { speed_kmh: 0, raw_data: { ignition: true } } : parked), awake: (b) => b === BATCHES - 1 },
  { name: "a charging word at the end", reading: (b) => (b === BATCHES - 1 ? { speed_kmh: 0, charging_status: " Fast-Charging " } : parked), awake: (b) => b === BATCHES - 1 },
  {
    name: "charging power at the end, a charging word before",
    reading: (b) => (b === BATCHES - 1 ? { speed_kmh: 0, raw_data: { charging_power_kw: 7.2 } } : b === 1 ? { speed_kmh: 0, charging_status: "CHARGING" } : parked),
    awake: (b) => b === BATCHES - 1 || b === 1,
  },
  { name: "never awake", reading: () => parked, awake: () => false },
  { name: "ignition on, then parked", reading: (b) => (b === 2 ? { speed_kmh: 0, raw_data: { ignition: true } } : parked), awake: (b) => b === 2 },
  { name: "a charging word, then parked", reading: (b) => (b === 3 ? { speed_kmh: 0, charging_status: "AC charging" } : parked), awake: (b) => b === 3 },
  { name: "charging power, then parked", reading: (b) => (b === 1 ? { speed_kmh: 0, raw_data: { charging_power_kw: 11 } } : parked), awake: (b) => b === 1 },
];
const endsParked = (i: number) => !PATTERNS[i % PATTERNS.length]!.awake(BATCHES - 1);

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  raw = postgres(tdb.url!, { max: 1, onnotice: () => {} });
  const db = tdb.handle.db;
  await disableAutovacuum(raw, ["devices", "fleet_snapshot", "telemetry"]);

  // An older tenant, analysed: the statistics the planner generalises from.
  const old = await createTenantWithKey(db, { name: "Old" });
  const oldVin = vinSequence("OLDCTX0000");
  const t0 = Date.now() - 3 * 3_600_000;
  await ingestTelemetry({
    ctx: { db, tenantId: old.tenantId, isSandbox: false, log: rootLogger() },
    input: { vehicles: Array.from({ length: 200 }, () => ({ vin: oldVin(), timestamp: iso(t0), speed_kmh: 0, soc_percent: 60 })) },
  });
  await raw`analyze`;

  // The new tenant's first batches through the real ingest, each vehicle awake in its own way (below).
  const neu = await createTenantWithKey(db, { name: "New" });
  fresh = { db, tenantId: neu.tenantId, isSandbox: false, log: rootLogger() };
  const vins = Array.from({ length: VEHICLES }, vinSequence("NEWCTX0000"));
  for (let b = 0; b < BATCHES; b++) {
    await ingestTelemetry({
      ctx: fresh,
      input: { vehicles: vins.map((vin, i) => ({ vin, timestamp: iso(t0 + b * STEP_MS), soc_percent: 55, battery_voltage: 12.6, ...PATTERNS[i % PATTERNS.length]!.reading(b) })) },
    });
  }
  deviceIds = vins.map((vin) => `oem-${vin}`);
  batchTimes = Array.from({ length: BATCHES }, (_, b) => t0 + b * STEP_MS);
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
      const rows = (await tdb.handle.db.execute(sql`explain (analyze, format json) ${query}`)) as { "QUERY PLAN": { Plan: PlanNode }[] }[];
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
    expect(reading.map((n) => n["Relation Name"]!.replace(/_\d{4}_\d{2}$|_default$/, "")).sort()).toEqual(expect.arrayContaining(["devices", "fleet_snapshot", "telemetry"]));
    for (const n of reading) {
      expect(n["Node Type"], `${n["Relation Name"]}`).toMatch(/^Index (Only )?Scan/);
      expect(n["Index Name"] ?? "", `${n["Relation Name"]}`).toMatch(/(_pk|_pkey)$/);
    }
    const telemetryRows = scans
      .filter((n) => n["Relation Name"]!.startsWith("telemetry"))
      .reduce((sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)) * n["Actual Loops"], 0);
    // Only a vehicle whose newest reading is not awake has its history read: each scan of the
    // telemetry runs once per such vehicle (the others sit under the snapshot's one-time filter), and
    // reads at most the vehicle's own readings of the last SETTLE_MS (here BATCHES each).
    const parkedAtEnd = deviceIds.filter((_, i) => endsParked(i)).length;
    expect(parkedAtEnd).toBeGreaterThan(0);
    expect(parkedAtEnd).toBeLessThan(VEHICLES);
    expect(SETTLE_MS).toBeGreaterThan(BATCHES * STEP_MS);
    expect(telemetryRows).toBeLessThanOrEqual(parkedAtEnd * BATCHES);
    const telemetryScans = scans.filter((n) => n["Relation Name"]!.startsWith("telemetry"));
    expect(telemetryScans.length).toBeGreaterThan(0);
    // Each monthly partition is scanned at most once per such vehicle; one whose window of the last SETTLE_MS
    // lies wholly in another month prunes it at run time (Actual Loops 0: on the 1st of a month the
    // windows straddle two partitions), so together they run at least once per vehicle.
    for (const n of telemetryScans) expect(n["Actual Loops"], n["Relation Name"]).toBeLessThanOrEqual(parkedAtEnd);
    expect(telemetryScans.reduce((sum, n) => sum + n["Actual Loops"], 0)).toBeGreaterThanOrEqual(parkedAtEnd);
  });

  it("returns each vehicle's newest reading and its latest awake reading, whichever way it was awake", async () => {
    const found = await readDeviceContexts(tdb.handle.db, fresh.tenantId, deviceIds);
    expect(found.size).toBe(VEHICLES);
    const newest = batchTimes[BATCHES - 1]!;
    const seen = new Set<string>();
    deviceIds.forEach((id, i) => {
      const pattern = PATTERNS[i % PATTERNS.length]!;
      const awakeBatches = batchTimes.filter((_, b) => pattern.awake(b));
      const expected = awakeBatches.length > 0 ? Math.max(...awakeBatches) : null;
      const c = found.get(id)!;
      expect(c.previous?.ts.getTime(), pattern.name).toBe(newest);
      expect(c.lastAwakeAt?.getTime() ?? null, pattern.name).toBe(expected);
      seen.add(pattern.name);
    });
    expect(seen.size).toBe(PATTERNS.length);
  });
});
