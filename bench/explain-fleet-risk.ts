/**
 * `npx tsx bench/explain-fleet-risk.ts`: where the fleet-risk statement spends its server time, per
 * part of the plan, on a large tenant (docs/performance.md, "Fleet risk: where a device's time goes").
 *
 * It records the statement `getFleetRisk` sends (bench/lib/statements.ts; a fresh process sends one
 * statement for the whole fleet), runs it once to warm the cache, then under `EXPLAIN (ANALYZE, TIMING
 * OFF)` (the statement's time without the per-node clock reads, which inflate every node that runs
 * once per device) and under `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`, whose nodes are added up by
 * part (bench/lib/plan-parts.ts): the lateral subqueries of the statement by their aliases (`brx` /
 * `bry` the two rollup rows, `bac` the head-and-tail pipeline, `brf` the OEM-coverage probe, `brh` the
 * harsh events, `al` the alert counts; day K's probe as `rollups`), and the spine (the devices' scan,
 * the joins, the output). Each part is printed with its time per device.
 *
 * Env: DATABASE_URL (a database holding the tenant: `npm run bench:seed` with SEED_KEEP_DATABASE=1, or
 * `npm run bench` with DATABASE_URL set), SEED_TENANT_NAME (default: the newest tenant whose name starts
 * with "bench large tenant", case-insensitively), EXPLAIN_PERIOD_DAYS (365), EXPLAIN_SETTINGS (planner
 * settings for the statement's connection, `name=value` separated by commas, e.g. `enable_memoize=off`,
 * to see what a plan variant costs). Prints one JSON line per part, then a summary line.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { openDatabase } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { rootLogger } from "@/lib/log/logger";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { planParts, SPINE, type PartNames, type PlanNode, type PlanPart } from "./lib/plan-parts";
import { recordStatements } from "./lib/statements";
import { runMain } from "./lib/run-main";

/**
 * The fleet statement's parts (lib/scores/queries/load-fleet-inputs.ts, behaviour-rollup-sql.ts,
 * rollup-window.ts): its lateral subqueries by alias where the plan keeps one, else by the tables they
 * read. Day K's lateral is always flattened (no alias left); without Memoize nodes Postgres also drops
 * the Subquery Scans of the others, and their rollup rows fall under "rollups" too.
 */
export const FLEET_STATEMENT_PARTS: PartNames & { labels: Readonly<Record<string, string>> } = {
  aliases: ["al", "brx", "bry", "bac", "brf", "brh"],
  relations: [
    { relation: /^telemetry_(rollup_state|daily)$/, part: "rollups" },
    { relation: /^telemetry(_\d{4}_\d{2}|_default)?$/, part: "bac" },
    { relation: /^driving_events$/, part: "brh" },
    { relation: /^alerts$/, part: "al" },
  ],
  labels: {
    [SPINE]: "devices scan, joins and output",
    al: "alert counts of the period",
    rollups: "day K: rollup state and backward scan (and any rollup probe the plan left unnamed)",
    brx: "rollup row before K",
    bry: "rollup row before the window",
    bac: "head-and-tail pipeline (raw readings)",
    brf: "OEM-coverage probe",
    brh: "harsh events (head and tail)",
  },
};

export interface FleetRiskExplain {
  devices: number;
  fleetRiskScore: number;
  /** The statement run as the verb sent it, rows fetched (ms, client side). */
  replayMs: number;
  /** Server execution time without per-node timing, and with it (the plan the parts come from). */
  executionMsTimingOff: number;
  executionMsTimed: number;
  /** The root node's total time: what the parts add up to. */
  rootMs: number;
  planningMs: number;
  /** The planner settings that differ from the server's defaults, as Postgres reports them (`EXPLAIN (SETTINGS)`). */
  plannerSettings: Record<string, string>;
  parts: Map<string, PlanPart>;
}

/** A planner setting for the statement's connection (EXPLAIN_SETTINGS). */
export interface PlannerSetting {
  name: string;
  value: string;
}

/** Parses EXPLAIN_SETTINGS: `name=value` pairs separated by commas; names are lower-case GUC names. */
export function parseSettings(text: string | undefined): PlannerSetting[] {
  return (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => {
      const m = /^([a-z_]+)=([A-Za-z0-9_.]+)$/.exec(s);
      if (!m) throw new Error(`EXPLAIN_SETTINGS: "${s}" is not name=value (a setting's name, then letters, digits, _ and .)`);
      return { name: m[1]!, value: m[2]! };
    });
}

/** Records the fleet-risk statement of `tenantId` over `periodDays` and explains it (see the header). */
export async function explainFleetRisk({
  url,
  tenantId,
  periodDays,
  now = new Date(),
  settings = [],
}: {
  url: string;
  tenantId: string;
  periodDays: number;
  now?: Date;
  settings?: readonly PlannerSetting[];
}): Promise<FleetRiskExplain> {
  const recorded = await recordStatements(url, (db) => getFleetRisk({ ctx: { db, tenantId, isSandbox: false, log: rootLogger() }, input: { period: periodDays }, now }));
  const statements = recorded.statements.filter((s) => /^\s*(with|select)\b/i.test(s.sql));
  if (statements.length !== 1) throw new Error(`expected the verb to send one statement for the fleet, got ${statements.length}`);
  const statement = statements[0]!;

  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { jit: "off" } });
  drizzle(client); // the app's date/time handling, so the recorded parameters bind as they did
  try {
    const params = statement.params as postgres.ParameterOrJSON<never>[];
    for (const s of settings) await client.unsafe(`set ${s.name} = '${s.value}'`);
    const t = performance.now();
    const found = await client.unsafe(statement.sql, params);
    const replayMs = performance.now() - t;
    const [untimed] = await client.unsafe(`explain (analyze, timing off, format json) ${statement.sql}`, params);
    const [timed] = await client.unsafe(`explain (analyze, buffers, settings, format json) ${statement.sql}`, params);
    type Explained = { Plan: PlanNode; "Execution Time": number; "Planning Time": number; Settings?: Record<string, string> }[];
    const plan = (timed!["QUERY PLAN"] as Explained)[0]!;
    return {
      devices: found.length,
      fleetRiskScore: recorded.result.fleet_risk_score,
      replayMs,
      executionMsTimingOff: (untimed!["QUERY PLAN"] as Explained)[0]!["Execution Time"],
      executionMsTimed: plan["Execution Time"],
      rootMs: (plan.Plan["Actual Total Time"] ?? 0) * (plan.Plan["Actual Loops"] ?? 1),
      planningMs: plan["Planning Time"],
      plannerSettings: plan.Settings ?? {},
      parts: planParts(plan.Plan, FLEET_STATEMENT_PARTS),
    };
  } finally {
    await client.end({ timeout: 5 });
  }
}

const out = (o: Record<string, unknown>) => process.stdout.write(JSON.stringify(o) + "\n");
const log = (m: string) => process.stderr.write(`[explain-fleet-risk] ${m}\n`);

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL must name the database that holds the large tenant (see the header)");
  const periodDays = Number(process.env.EXPLAIN_PERIOD_DAYS ?? 365);
  if (!Number.isInteger(periodDays) || periodDays < 1) throw new Error(`EXPLAIN_PERIOD_DAYS must be a positive integer, not ${process.env.EXPLAIN_PERIOD_DAYS}`);
  const settings = parseSettings(process.env.EXPLAIN_SETTINGS);
  const name = process.env.SEED_TENANT_NAME ?? "bench large tenant";

  const handle = await openDatabase({ url });
  let tenant: { id: string; devices: number } | undefined;
  try {
    [tenant] = await rows<{ id: string; devices: number }>(
      handle.db,
      sql`select t.id, (select count(*)::int from devices d where d.tenant_id = t.id) as devices
          from tenants t where lower(t.name) like ${name.toLowerCase() + "%"} order by t.created_at desc limit 1`,
    );
  } finally {
    await handle.close();
  }
  if (!tenant) throw new Error(`no tenant named ${name}: run npm run bench:seed first`);
  log(`tenant ${tenant.id}, ${tenant.devices} devices, ${periodDays} days`);

  const e = await explainFleetRisk({ url, tenantId: tenant.id, periodDays, settings });
  for (const [part, p] of [...e.parts.entries()].sort((a, b) => b[1].ms - a[1].ms)) {
    out({
      part,
      what: FLEET_STATEMENT_PARTS.labels[part] ?? part,
      ms: Math.round(p.ms),
      us_per_device: e.devices > 0 ? Math.round((1000 * p.ms) / e.devices) : null,
      share: e.rootMs > 0 ? Math.round((100 * p.ms) / e.rootMs) / 100 : null,
      plan_nodes: p.nodes,
      shared_hit: p.sharedHit,
      shared_read: p.sharedRead,
    });
  }
  out({
    summary: true,
    devices: e.devices,
    period_days: periodDays,
    fleet_risk_score: e.fleetRiskScore,
    planner_settings: e.plannerSettings,
    replay_ms: Math.round(e.replayMs),
    execution_ms_timing_off: Math.round(e.executionMsTimingOff),
    execution_ms_timed: Math.round(e.executionMsTimed),
    planning_ms: Math.round(e.planningMs),
  });
}

// Run only as a script: tests import explainFleetRisk.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runMain(main, log);
