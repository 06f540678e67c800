/**
 * `npx tsx bench/rollups-large.ts`: on a database seeded by `npm run bench:seed` (DATABASE_URL, kept
 * with SEED_KEEP_DATABASE=1 or seeded into your own database), migrates it (0010 partitions the
 * history: timed), rebuilds the large tenant's daily rollups (timed), then times the fleet-risk and
 * green-fleet verbs, the emissions report and the CSRD report (JSON) for 30 and 365 days, median of ROLLUP_BENCH_RUNS (3), and
 * the great-circle km of every device (the emissions report's distance for a vehicle without odometer;
 * the seed's vehicles all have one, so the report itself never asks for it here) from the rollups
 * against the raw positions, alternating, with the largest difference between the two. Env: SEED_TENANT_NAME
 * (default: the newest tenant whose name starts with the seed's "bench large tenant"). Prints one JSON line per step. See docs/performance.md "Daily rollups".
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { rows } from "@/lib/db/sql-values";
import { rootLogger } from "@/lib/log/logger";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { getEmissionsReport } from "@/lib/reports/get-emissions-report";
import { generateCsrdReport } from "@/lib/reports/generate-csrd-report";
import { queryDevices, type DevicePart } from "@/lib/devices/device-query";
import { greatCirclePart, greatCirclePartRaw } from "@/lib/telemetry/queries/great-circle-sql";
import { markTelemetryRollupsStale, refreshTelemetryRollups } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";

const out = (o: Record<string, unknown>) => process.stdout.write(JSON.stringify(o) + "\n");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const handle = await openDatabase();
try {
  let t = performance.now();
  await migrateWithPartitions(handle);
  out({ step: "migrate", ms: Math.round(performance.now() - t) });
  const db = handle.db;
  const name = process.env.SEED_TENANT_NAME ?? "bench large tenant";
  const [tenant] = await rows<{ id: string; devices: number }>(
    db,
    sql`select t.id, (select count(*)::int from devices d where d.tenant_id = t.id) as devices from tenants t where t.name like ${name + "%"} order by t.created_at desc limit 1`,
  );
  if (!tenant) throw new Error(`no tenant named ${name}: run npm run bench:seed first`);
  const ctx = { db, tenantId: tenant.id, isSandbox: false, log: rootLogger() };
  if (process.env.ROLLUP_BENCH_SKIP_REFRESH !== "1") {
    await markTelemetryRollupsStale({ db, tenantId: tenant.id });
    t = performance.now();
    const r = await refreshTelemetryRollups({ db, tenantId: tenant.id });
    out({ step: "refresh rollups", devices: r.devices, days: r.days, chunks: r.chunks, ms: Math.round(performance.now() - t) });
    await db.execute(sql`analyze telemetry_daily`);
    await db.execute(sql`analyze telemetry_rollup_state`);
  }
  const runs = Number(process.env.ROLLUP_BENCH_RUNS ?? 3);
  for (const period of [30, 365]) {
    for (const [label, verb] of [
      ["fleet risk", getFleetRisk],
      ["green fleet", getGreenFleet],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        t = performance.now();
        await verb({ ctx, input: { period } });
        times.push(performance.now() - t);
      }
      out({ step: `${label} ${period} d`, devices: tenant.devices, median_ms: Math.round(median(times)), runs: times.map((x) => Math.round(x)) });
    }
    const end = new Date();
    const input = { start_date: new Date(end.getTime() - (period - 1) * 86_400_000).toISOString().slice(0, 10), end_date: end.toISOString().slice(0, 10), format: "json" as const };
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      await getEmissionsReport({ ctx, input, now: end });
      times.push(performance.now() - t);
    }
    out({ step: `emissions report ${period} d`, devices: tenant.devices, median_ms: Math.round(median(times)), runs: times.map((x) => Math.round(x)) });
    const csrd: number[] = [];
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      await generateCsrdReport({ ctx, input: { ...input, format: "json" }, now: end });
      csrd.push(performance.now() - t);
    }
    out({ step: `CSRD report ${period} d (JSON)`, devices: tenant.devices, median_ms: Math.round(median(csrd)), runs: csrd.map((x) => Math.round(x)) });
  }
  // The great-circle part alone over the whole fleet: rollups vs raw positions, alternating.
  const ids = (await rows<{ device_id: string }>(db, sql`select device_id from devices where tenant_id = ${tenant.id} order by device_id`)).map((r) => r.device_id);
  for (const period of [30, 365]) {
    const since = new Date(Date.now() - period * 86_400_000).toISOString();
    const until = new Date().toISOString();
    const times = { rolled: [] as number[], raw: [] as number[] };
    let maxRelDiff = 0;
    let totalKm = 0;
    for (let i = 0; i < Number(process.env.ROLLUP_BENCH_RAW_RUNS ?? 1); i++) {
      const timed = async (part: DevicePart) => {
        const t0 = performance.now();
        const found = await queryDevices("great circle", { ctx, deviceIds: ids }, [part]);
        return { ms: performance.now() - t0, km: new Map(found.map((r) => [String(r.device_id), Number(r.gc_km)])) };
      };
      const rolled = await timed(greatCirclePart({ since, until }));
      const raw = await timed(greatCirclePartRaw({ since, until }));
      times.rolled.push(rolled.ms);
      times.raw.push(raw.ms);
      totalKm = 0;
      for (const [id, km] of raw.km) {
        totalKm += km;
        maxRelDiff = Math.max(maxRelDiff, Math.abs((rolled.km.get(id) ?? NaN) - km) / Math.max(1, km));
      }
    }
    out({
      step: `great-circle km, every device, ${period} d`,
      devices: ids.length,
      rolled_ms: times.rolled.map((x) => Math.round(x)),
      raw_ms: times.raw.map((x) => Math.round(x)),
      fleet_km: Math.round(totalKm),
      max_relative_difference: maxRelDiff,
    });
  }
} finally {
  await handle.close();
}
