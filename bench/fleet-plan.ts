/**
 * `npx tsx bench/fleet-plan.ts`: GET /fleet's statement on a tenant Postgres has not analysed yet (a new
 * customer's first bulk ingest of 10,000 vehicles, beside an older analysed tenant), before and after
 * ANALYZE, for the shape it has now (the page first, then a LATERAL index probe of each selected
 * vehicle's open alerts: lib/fleet/list-fleet.ts) and the shape it had before issue 13 (an aggregate of
 * the tenant's open alerts, joined to the snapshot, then LIMIT). Server-side execution time from
 * EXPLAIN (ANALYZE), alternating the two shapes, median of RUNS each. Writes
 * bench/results/fleet-plan-<timestamp>.json. Env as bench/run.ts (BENCH_PG_ADMIN_URL, DATABASE_URL).
 */
import { disableAutovacuum } from "../tests/helpers/storage-tables";
import { and, asc, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import type { TenantCtx } from "@/lib/context";
import { alerts, devices, fleetSnapshot } from "@/lib/db/schema";
import { fleetPageQuery } from "@/lib/fleet/list-fleet";
import { ANALYZE_AFTER_NEW_DEVICES } from "@/lib/db/analyze-after-bulk-ingest";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger, setRootLogger, createLogger } from "@/lib/log/logger";
import { createTenant } from "@/lib/tenants/create-tenant";
import { SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { prepareDatabase } from "./lib/database";
import { writeResultsFile } from "./lib/results-file";
import { runMain } from "./lib/run-main";
import { median } from "./lib/timing";

const VEHICLES = 10_000;
const PAGE = 500;
const RUNS = Math.max(1, Number(process.env.BENCH_PLAN_RUNS ?? 15));
const log = (m: string) => process.stderr.write(`[fleet-plan] ${m}\n`);

/** The statement as it was before issue 13, kept here only to be measured against. */
function previousShape(ctx: TenantCtx, limit: number) {
  const rankCases = sql.raw(SEVERITIES.map((s) => `when '${s}' then ${SEVERITY_RANK[s]}`).join(" "));
  const openAlerts = ctx.db
    .select({ deviceId: alerts.deviceId, rank: sql<number>`max(case ${alerts.severity} ${rankCases} else 0 end)::int`.as("rank") })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.acknowledged, false)))
    .groupBy(alerts.deviceId)
    .as("open_alerts");
  return ctx.db
    .select({ deviceId: fleetSnapshot.deviceId, name: devices.name, ts: fleetSnapshot.ts, rank: openAlerts.rank })
    .from(fleetSnapshot)
    .innerJoin(devices, and(eq(devices.tenantId, fleetSnapshot.tenantId), eq(devices.deviceId, fleetSnapshot.deviceId)))
    .leftJoin(openAlerts, eq(openAlerts.deviceId, fleetSnapshot.deviceId))
    .where(eq(fleetSnapshot.tenantId, ctx.tenantId))
    .orderBy(asc(fleetSnapshot.deviceId))
    .limit(limit);
}

const vins = (prefix: string) => {
  let n = 0;
  return () => `${prefix}${String(++n).padStart(17 - prefix.length, "0")}`;
};

async function main(): Promise<void> {
  setRootLogger(createLogger({ level: "warn" }));
  const database = await prepareDatabase(log);
  const raw = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const db = database.handle.db;
    // telemetry is partitioned by month (migration 0010): the setting lives on each partition.
    await disableAutovacuum(raw, ["devices", "fleet_snapshot", "alerts", "telemetry"]);
    const t0 = new Date(Date.now() - 3_600_000).toISOString();
    const ctxOf = (tenantId: string): TenantCtx => ({ db, tenantId, isSandbox: false, log: rootLogger() });

    const old = await createTenant({ ctx: { db }, input: { name: "Older customer" } });
    const oldVin = vins("OLDFLEET000");
    await ingestTelemetry({ ctx: ctxOf(old.tenantId), input: { vehicles: Array.from({ length: 200 }, () => ({ vin: oldVin(), timestamp: t0, speed_kmh: 0, soc_percent: 60 })) } });
    await raw`analyze`;

    const neu = await createTenant({ ctx: { db }, input: { name: "New customer" } });
    const ctx = ctxOf(neu.tenantId);
    const vin = vins("NEWFLEET000");
    const started = Date.now();
    // In batches below ANALYZE_AFTER_NEW_DEVICES, so that the ingest's own background ANALYZE (which
    // would fix the statistics) does not start: the plan must be right without it.
    for (let left = VEHICLES; left > 0; left -= ANALYZE_AFTER_NEW_DEVICES - 1) {
      const n = Math.min(left, ANALYZE_AFTER_NEW_DEVICES - 1);
      await ingestTelemetry({
        ctx: ctx,
        input: { vehicles: Array.from({ length: n }, () => ({ vin: vin(), timestamp: t0, speed_kmh: 12, soc_percent: 55, lat: 60.2, lon: 24.9 })) },
      });
    }

    await raw`
      insert into alerts (id, tenant_id, device_id, agent, severity, prediction, confidence, technical_data, acknowledged, created_at)
      select 'alt_plan_' || d.device_id || '_' || k, d.tenant_id, d.device_id, 'battery', (array['INFO','WARNING','CRITICAL'])[k], 'bench', 0.5, '{}'::jsonb, k = 1, now()
      from devices d cross join generate_series(1, 3) k where d.tenant_id = ${neu.tenantId}`;
    log(`new tenant: ${VEHICLES} vehicles ingested and 30,000 alerts inserted in ${((Date.now() - started) / 1000).toFixed(1)} s, not analysed`);

    const shapes = { now: fleetPageQuery({ ctx, input: { limit: PAGE } }).toSQL(), before: previousShape(ctx, PAGE).toSQL() };
    const explain = async (q: { sql: string; params: unknown[] }) => {
      const [row] = await raw.unsafe<{ "QUERY PLAN": { "Execution Time": number }[] }[]>(`explain (analyze, format json) ${q.sql}`, q.params as never[]);
      return row!["QUERY PLAN"][0]!["Execution Time"];
    };
    if (process.env.BENCH_PLAN_SHOW === "1") {
      for (const [k, q] of Object.entries(shapes)) {
        const rows = await raw.unsafe<{ "QUERY PLAN": string }[]>(`explain (analyze, costs on, timing on) ${q.sql}`, q.params as never[]);
        process.stderr.write(`\n--- ${k}, unanalysed\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n`);
      }
    }
    const results: Record<string, Record<string, number>> = {};
    for (const phase of ["unanalysed", "analysed"] as const) {
      if (phase === "analysed") await raw`analyze`;
      const times: Record<"now" | "before", number[]> = { now: [], before: [] };
      await explain(shapes.now);
      await explain(shapes.before);
      for (let i = 0; i < RUNS; i++) {
        for (const k of i % 2 === 0 ? (["now", "before"] as const) : (["before", "now"] as const)) times[k].push(await explain(shapes[k]));
      }
      results[phase] = { nowMs: Number(median(times.now).toFixed(2)), beforeMs: Number(median(times.before).toFixed(2)) };
      log(`${phase}: now ${results[phase].nowMs} ms, before ${results[phase].beforeMs} ms (median of ${RUNS}, server execution time)`);
    }
    process.stdout.write(
      [
        "",
        `GET /fleet?limit=${PAGE} statement, ${VEHICLES.toLocaleString("en-US")}-vehicle tenant, server execution time (median of ${RUNS})`,
        "statistics   | now (page, LATERAL probe) | before (aggregate, join) | before / now",
        "-------------|---------------------------|--------------------------|-------------",
        ...Object.entries(results).map(
          ([phase, r]) => `${phase.padEnd(12)} | ${`${r.nowMs} ms`.padStart(25)} | ${`${r.beforeMs} ms`.padStart(24)} | ×${(r.beforeMs! / r.nowMs!).toFixed(1)}`,
        ),
        "",
      ].join("\n"),
    );
    process.stdout.write(`Raw figures: ${writeResultsFile("fleet-plan", { vehicles: VEHICLES, page: PAGE, runs: RUNS, results })}\n`);
  } finally {
    await raw.end({ timeout: 5 });
    await database.dispose();
  }
}

runMain(main, log);
