/**
 * Times the resting 12 V part (lib/devices/device-parts.ts `parts.electrical`) on one synthetic
 * device that never rests the 6 h settle time: a reading every `--every` seconds, parked (ignition 0,
 * 12.4 V) for `--park-min` minutes, then awake (ignition 1) for one reading, for `--days` days, the last
 * `--old-days` of them before the 90-day window. Every parked reading of that history is a candidate and
 * none is settled: the worst case of the raw walk. It then builds the device's daily rollups and times the
 * part as the scores read it (rolled-up days, raw telemetry since the last refresh) against the raw walk
 * over the whole window (`rollups: false`), alternately. A measuring tool for developers; nothing calls it.
 *
 *   tsx scripts/time-resting-12v.ts --pglite /tmp/fdp-12v [--every 10] [--park-min 60] [--days 30] [--old-days 30] [--reps 3]
 *
 * Runs on a fresh PGlite folder (or `--pg URL`, a throw-away database) and prints the median times.
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { rows } from "@/lib/db/sql-values";
import { DAY_MS, DEVICE_WINDOW_DAYS } from "@/lib/scores/derived-measures";
import { queryDevices } from "@/lib/devices/device-query";
import { windowsAt } from "@/lib/scores/derived-measures";
import { electricalPart } from "@/lib/telemetry/queries/resting-12v-sql";
import { markTelemetryRollupsStale, refreshTelemetryRollups } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const pglite = arg("pglite");
  const pg = arg("pg");
  if (!pglite && !pg) throw new Error("--pglite DIR or --pg URL");
  const every = Number(arg("every") ?? 10);
  const parkMin = Number(arg("park-min") ?? 60);
  const days = Number(arg("days") ?? 30);
  const oldDays = Number(arg("old-days") ?? 30);
  const reps = Number(arg("reps") ?? 3);
  const now = new Date("2026-11-23T12:00:00.000Z");
  const handle = await openDatabase(pg ? { url: pg } : { dataDir: pglite, url: null });
  try {
    await migrateWithPartitions(handle);
    const db = handle.db;
    const tenantId = "time-12v";
    await db.execute(sql`insert into tenants (id, name, ingest_secret) values (${tenantId}, 'time 12 V', 'x') on conflict do nothing`);
    await db.execute(sql`insert into devices (tenant_id, device_id, name) values (${tenantId}, 'never-rests', 'never rests') on conflict do nothing`);
    const start = new Date(now.getTime() - (DEVICE_WINDOW_DAYS + oldDays) * DAY_MS);
    const end = new Date(start.getTime() + (days + oldDays) * DAY_MS);
    const cycle = Math.round((parkMin * 60) / every) + 1;
    await db.execute(sql`delete from telemetry where tenant_id = ${tenantId}`);
    const t0 = performance.now();
    await db.execute(sql`
      insert into telemetry (tenant_id, device_id, ts, speed_kmh, ignition, battery_voltage)
      select ${tenantId}, 'never-rests', ts, 0, case when n % ${cycle}::int = 0 then 1 else 0 end, case when n % ${cycle}::int = 0 then 14.1 else 12.4 end
      from (select ts, (row_number() over (order by ts))::int as n
            from generate_series(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, make_interval(secs => ${every}::float8)) ts) g`);
    if (handle.kind === "postgres") await db.execute(sql`analyze telemetry`);
    const n = (await rows<{ n: number }>(db, sql`select count(*)::int as n from telemetry where tenant_id = ${tenantId}`))[0]?.n ?? 0;
    console.log(
      `${handle.kind}: ${n} readings (every ${every} s, parked ${parkMin} min between awake readings, ${oldDays} d before the 90-day window, ${days} d in it), inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    let t1 = performance.now();
    await markTelemetryRollupsStale({ db, tenantId });
    const refreshed = await refreshTelemetryRollups({ db, tenantId, now });
    console.log(`rollups: ${refreshed.days} days built in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const w = windowsAt(now);
    const run = (rollups: boolean) => queryDevices("electrical", { ctx: { db, tenantId }, deviceIds: ["never-rests"] }, [electricalPart(w, { rollups })]);
    const [rolled, raw] = [await run(true), await run(false)];
    console.log(`resting_12v: ${String(rolled[0]?.resting_12v)} (raw walk: ${String(raw[0]?.resting_12v)})`);
    const times = { rolled: [] as number[], raw: [] as number[] };
    for (let r = 0; r < reps; r++) {
      for (const rollups of r % 2 === 0 ? [true, false] : [false, true]) {
        t1 = performance.now();
        await run(rollups);
        times[rollups ? "rolled" : "raw"].push(performance.now() - t1);
      }
    }
    console.log(
      `electrical part, 1 device: ${median(times.rolled).toFixed(1)} ms with the rollups, ${median(times.raw).toFixed(1)} ms by the raw walk (medians of ${reps}, alternating)`,
    );
  } finally {
    await handle.close().catch(() => {});
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
