import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { ANALYZE_AFTER_NEW_DEVICES, settleAnalyzeAfterBulkIngest } from "@/lib/db/analyze-after-bulk-ingest";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { disableAutovacuum } from "../helpers/storage-tables";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { iso, vinSequence } from "../helpers/ingest-api";

/**
 * After a bulk first ingest the tables it fills are analysed in the background, so the planner stops
 * believing the new tenant has no rows. Counted where it happens: Postgres's own `analyze_count`; that
 * an ingest analysed nothing, by `pg_class.reltuples`, which only ANALYZE (and VACUUM, off on these
 * tables) changes, in the same transaction: no wait for the statistics collector.
 */

const TABLES = ["devices", "fleet_snapshot", "alerts", "telemetry", "driving_events"];
let tdb: TestDatabase;
let raw: postgres.Sql;
let ctx: TenantCtx;
const vin = vinSequence("BULKFLEET00");
const t0 = Date.now() - 3_600_000;

/** The telemetry partition of the month the test's readings are in (its parent has no statistics counters of its own). */
const TELEMETRY_PART = `telemetry_${new Date(t0).toISOString().slice(0, 7).replace("-", "_")}`;

async function analyzeCounts(): Promise<Record<string, number>> {
  const names = TABLES.map((t) => (t === "telemetry" ? TELEMETRY_PART : t));
  const rows = await raw<{ relname: string; analyze_count: number }[]>`
    select relname, analyze_count::int from pg_stat_user_tables where relname = any(${names})`;
  return Object.fromEntries(rows.map((r) => [r.relname === TELEMETRY_PART ? "telemetry" : r.relname, r.analyze_count]));
}

/** Every table's row estimate (-1 before the first ANALYZE), read from the catalogue. */
async function rowEstimates(): Promise<Record<string, number>> {
  const names = TABLES.map((t) => (t === "telemetry" ? TELEMETRY_PART : t));
  const rows = await raw<{ relname: string; reltuples: number }[]>`
    select relname, reltuples::float8 as reltuples from pg_class where relname = any(${names}) and relnamespace = 'public'::regnamespace`;
  expect(rows).toHaveLength(TABLES.length);
  return Object.fromEntries(rows.map((r) => [r.relname === TELEMETRY_PART ? "telemetry" : r.relname, r.reltuples]));
}

/** Postgres publishes a session's statistics within about a second: poll until `ok` or the deadline. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

const ingest = (n: number) => ingestTelemetry({ ctx, input: { vehicles: Array.from({ length: n }, () => ({ vin: vin(), timestamp: iso(t0), speed_kmh: 10, soc_percent: 50 })) } });

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  raw = postgres(tdb.url!, { max: 1, onnotice: () => {} });
  await disableAutovacuum(raw, TABLES);
  ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
});

afterAll(async () => {
  await raw?.end({ timeout: 5 });
  await tdb?.dispose();
});

describe("ANALYZE after a bulk ingest", () => {
  it("not for an ingest that creates fewer new devices than the threshold", async () => {
    const before = await rowEstimates();
    await ingest(ANALYZE_AFTER_NEW_DEVICES - 1);
    expect(await settleAnalyzeAfterBulkIngest()).toBe(false);
    expect(await rowEstimates()).toEqual(before);
  });

  it("for one that creates the threshold's worth: every table an ingest fills, once; the planner then knows the tenant's size", async () => {
    const before = await analyzeCounts();
    await ingest(ANALYZE_AFTER_NEW_DEVICES);
    expect(await settleAnalyzeAfterBulkIngest()).toBe(true);
    const after = await until(analyzeCounts, (c) => TABLES.every((t) => (c[t] ?? 0) > (before[t] ?? 0)));
    for (const t of TABLES) expect(after[t], t).toBe((before[t] ?? 0) + 1);
    const [explain] = await raw<{ "QUERY PLAN": { Plan: { "Plan Rows": number } }[] }[]>`explain (format json) select * from fleet_snapshot where tenant_id = ${ctx.tenantId}`;
    const estimate = explain!["QUERY PLAN"][0]!.Plan["Plan Rows"];
    const total = 2 * ANALYZE_AFTER_NEW_DEVICES - 1;
    expect(estimate).toBeGreaterThan(total / 2);
    expect(estimate).toBeLessThan(total * 2);
  });

  it("at most once a minute: a second bulk ingest right after does not analyse again", async () => {
    const before = await rowEstimates();
    await ingest(ANALYZE_AFTER_NEW_DEVICES);
    expect(await settleAnalyzeAfterBulkIngest()).toBe(false);
    expect(await rowEstimates()).toEqual(before);
  });
});
