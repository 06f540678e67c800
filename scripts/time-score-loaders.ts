/**
 * Times the score loaders (lib/scores/queries/load-*.ts) on the seeded sandbox, one device at a time
 * and as one batch of every sandbox device, on either database, and optionally dumps what they loaded
 * (to show that a change to the SQL leaves every input unchanged). A measuring tool for developers;
 * nothing calls it. Seed once, then time as often as needed against the same data:
 *
 *   tsx scripts/time-score-loaders.ts --pglite /tmp/fdp-time --seed
 *   tsx scripts/time-score-loaders.ts --pglite /tmp/fdp-time [--reps 3] [--dump out.json] [--only tas,fleet]
 *   tsx scripts/time-score-loaders.ts --pg postgres://postgres@127.0.0.1:5432/fdp_time --seed
 *   tsx scripts/time-score-loaders.ts --pglite /tmp/fdp-time --explain tas [--device sbx-001|all] [--explain-options summary] [--warm 30]
 *
 * `--now` (ISO, default 2026-11-23T12:00:00Z) anchors the seed and the loaders' windows alike, so
 * every run sees the same data and the same windows.
 */
import { writeFileSync } from "node:fs";
import { eq, sql, type SQL } from "drizzle-orm";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { rows } from "@/lib/db/sql-values";
import type { Db } from "@/lib/db/client";
import { devices } from "@/lib/db/schema";
import { loadBatterySnapshotInputs } from "@/lib/scores/queries/load-battery-snapshot-inputs";
import { loadDeviceFleetInputs } from "@/lib/scores/queries/load-device-fleet-inputs";
import { loadFleetInputs } from "@/lib/scores/queries/load-fleet-inputs";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";
import { seedSandbox } from "@/lib/seed/seed-sandbox";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value.entries()].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([k, v]) => [k, plain(v)]));
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

async function main(): Promise<void> {
  const pglite = arg("pglite");
  const pg = arg("pg");
  if (!pglite && !pg) throw new Error("--pglite DIR or --pg URL");
  const now = new Date(arg("now") ?? "2026-11-23T12:00:00.000Z");
  const reps = Number(arg("reps") ?? 3);
  const only = arg("only")?.split(",");
  const handle = await openDatabase(pg ? { url: pg } : { dataDir: pglite, url: null });
  try {
    if (flag("seed")) {
      await migrateWithPartitions(handle);
      const t = Date.now();
      await seedSandbox({ db: handle.db, now, force: true });
      console.log(`seeded the sandbox (${handle.kind}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
      return;
    }
    const explain = arg("explain");
    // --explain: every statement a loader sends runs as EXPLAIN ANALYZE, and the plan is printed.
    const db: Db = explain
      ? new Proxy(handle.db, {
          get: (target, prop, receiver) =>
            prop === "execute"
              ? async (query: SQL) => {
                  const plan = await rows(target, sql`explain (${sql.raw(arg("explain-options") ?? "analyze, buffers")}) ${query}`);
                  console.log(plan.map((r) => Object.values(r)[0]).join("\n"));
                  return [];
                }
              : (Reflect.get(target, prop, receiver) as unknown),
        })
      : handle.db;
    const ctx = { db, tenantId: SANDBOX_TENANT_ID };
    const ids = (await handle.db.select({ id: devices.deviceId }).from(devices).where(eq(devices.tenantId, SANDBOX_TENANT_ID)).orderBy(devices.deviceId)).map((r) => r.id);
    const loaders: Record<string, (deviceIds: string[]) => Promise<unknown>> = {
      tas: (deviceIds) => loadTasInputs({ ctx, deviceIds, now }),
      vehicle_health: (deviceIds) => loadVehicleHealthInputs({ ctx, deviceIds, now }),
      battery_snapshot: (deviceIds) => loadBatterySnapshotInputs({ ctx, deviceIds }),
      device_fleet: (deviceIds) => loadDeviceFleetInputs({ ctx, deviceIds, now }),
    };
    const fleet = (periodDays: number) => loadFleetInputs({ ctx: ctx as Parameters<typeof loadFleetInputs>[0]["ctx"], periodDays, now });
    if (explain) {
      const device = arg("device");
      const run = (c: typeof ctx) =>
        explain.startsWith("fleet")
          ? loadFleetInputs({ ctx: c as Parameters<typeof loadFleetInputs>[0]["ctx"], periodDays: Number(explain.replace(/\D/g, "") || 30), now })
          : (
              {
                tas: loadTasInputs,
                vehicle_health: loadVehicleHealthInputs,
                battery_snapshot: loadBatterySnapshotInputs,
                device_fleet: loadDeviceFleetInputs,
              } as unknown as Record<string, typeof loadTasInputs>
            )[explain]?.({
              ctx: c,
              deviceIds: device === "all" ? ids : [device ?? ids[0] ?? ""],
              now,
            });
      for (let i = 0; i < Number(arg("warm") ?? 1); i++) await run({ db: handle.db, tenantId: SANDBOX_TENANT_ID }); // the plan shows the steady state
      await run(ctx);
      return;
    }
    const dump: Record<string, unknown> = {};
    console.log(`${handle.kind}: ${ids.length} sandbox devices, now ${now.toISOString()}, median of ${reps}`);
    console.log("loader               1 device (mean ms/call)   all devices (ms)");
    for (const [name, load] of Object.entries(loaders)) {
      if (only && !only.includes(name)) continue;
      await load(ids.slice(0, 1)); // warm-up (plan caches, buffers)
      const single: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t = performance.now();
        for (const id of ids) await load([id]);
        single.push((performance.now() - t) / ids.length);
      }
      const batch: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t = performance.now();
        dump[name] = plain(await load(ids));
        batch.push(performance.now() - t);
      }
      console.log(`${name.padEnd(20)} ${median(single).toFixed(1).padStart(12)} ${median(batch).toFixed(0).padStart(22)}`);
    }
    for (const periodDays of [7, 30]) {
      const name = `fleet_${periodDays}d`;
      if (only && !only.includes("fleet") && !only.includes(name)) continue;
      await fleet(periodDays);
      const times: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t = performance.now();
        dump[name] = plain(await fleet(periodDays));
        times.push(performance.now() - t);
      }
      console.log(`${name.padEnd(20)} ${"—".padStart(12)} ${median(times).toFixed(0).padStart(22)}`);
    }
    const out = arg("dump");
    if (out) writeFileSync(out, `${JSON.stringify(dump, null, 1)}\n`);
  } finally {
    await handle.close().catch(() => {});
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
