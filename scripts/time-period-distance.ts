/**
 * Times the period distance's odometer read (lib/distance/queries/period-distance-sql.ts) on a
 * `bench:seed` tenant: the read from the rollups' odometer chain (`odometerRunsPart`, what the emissions
 * and CSRD reports use) against the raw read of every reading (`odometerRunsPartRaw`, the read before
 * migration 0016), for 30-, 90- and 365-day periods ending now, alternately, and checks that both give
 * the same evidence. A measuring tool for developers; nothing calls it.
 *
 *   tsx scripts/time-period-distance.ts [--devices 1000] [--days 365] [--readings 3] [--reps 3]
 *
 * Seeds a throw-away Postgres database on BENCH_PG_ADMIN_URL (bench/lib/database.ts; DATABASE_URL to
 * use one), with the benchmark's generator (bench/seed-large-tenant.ts: SEED_* are its defaults, the
 * flags override them), its rollups built as the seed builds them; prints the median times and ratios.
 */
import { isDeepStrictEqual } from "node:util";
import { sql } from "drizzle-orm";
import { rows } from "@/lib/db/sql-values";
import { prepareDatabase } from "@/bench/lib/database";
import { currentUtcHour, seedLargeTenant } from "@/bench/seed-large-tenant";
import { loadPeriodDistance } from "@/lib/distance/queries/period-distance-sql";
import { createTenant } from "@/lib/tenants/create-tenant";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const devices = Number(arg("devices") ?? 1000);
  const days = Number(arg("days") ?? 365);
  const readingsPerDay = Number(arg("readings") ?? 3);
  const reps = Number(arg("reps") ?? 3);
  const database = await prepareDatabase((m) => console.log(m));
  try {
    const db = database.handle.db;
    const { tenantId } = await createTenant({ ctx: { db }, input: { name: "time period distance" } });
    const anchor = currentUtcHour();
    const t0 = performance.now();
    const seeded = await seedLargeTenant({ db, tenantId, options: { devices, days, readingsPerDay, anchor } });
    console.log(
      `seeded ${seeded.counts.devices} devices, ${seeded.counts.telemetry} readings (${days} d × ${readingsPerDay} a day) with rollups in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const list = (await rows<{ device_id: string }>(db, sql`select device_id from devices where tenant_id = ${tenantId} order by device_id`)).map((r) => r.device_id);
    const ctx = { db, tenantId };
    const until = new Date(anchor.getTime() - 1).toISOString();
    console.log(`period (days) | rollups ms (median of ${reps}) | raw ms | raw / rollups | same evidence`);
    for (const period of [30, 90, 365]) {
      const since = new Date(anchor.getTime() - period * 86_400_000).toISOString();
      const rolled: number[] = [];
      const raw: number[] = [];
      let same = true;
      for (let i = 0; i < reps; i++) {
        // Alternate which goes first, so neither always meets a warmer cache.
        const order: ("rollups" | "raw")[] = i % 2 === 0 ? ["rollups", "raw"] : ["raw", "rollups"];
        const got: Partial<Record<"rollups" | "raw", unknown>> = {};
        for (const read of order) {
          const t = performance.now();
          got[read] = await loadPeriodDistance({ ctx, deviceIds: list, since, until, read });
          (read === "rollups" ? rolled : raw).push(performance.now() - t);
        }
        same &&= isDeepStrictEqual(got.rollups, got.raw);
      }
      const r = median(rolled);
      const w = median(raw);
      console.log(`${period} | ${r.toFixed(0)} | ${w.toFixed(0)} | ${(w / r).toFixed(1)}× | ${same ? "yes" : "NO"}`);
    }
  } finally {
    await database.dispose();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
