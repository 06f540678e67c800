import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";

/** A node of Postgres's `EXPLAIN (ANALYZE, FORMAT JSON)` plan, as the plan tests read it. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  Plans?: PlanNode[];
}

/** The node and every node under it. */
export const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/**
 * Telemetry rows a statement reads, from `EXPLAIN (ANALYZE)` on either driver, summed over every scan of
 * the history (its monthly partitions, or the table itself) × its loops:
 * - `rows`: the rows the scans returned;
 * - `visited`: those and the rows the scans read and then discarded by their filter. A scan that reaches
 *   a device's rows through other rows (the tenant's whole period read once per device, as a planner
 *   without statistics did through the dropped `(tenant_id, ts)` index) visits them all;
 * - `rounding`: how far either can be below the truth: Postgres shows a node's rows per loop rounded to an
 *   integer, so each figure may be off by half a row per loop.
 */
export async function telemetryRowsRead(db: Db, statement: SQL): Promise<{ rows: number; visited: number; rounding: number }> {
  const [plan] = await rows<{ "QUERY PLAN": unknown }>(db, sql`explain (analyze, format json) ${statement}`);
  const doc = plan!["QUERY PLAN"];
  const root = (typeof doc === "string" ? JSON.parse(doc) : doc) as { Plan: PlanNode }[];
  const scans = planNodes(root[0]!.Plan).filter((n) => /^telemetry(_\d{4}_\d{2}|_default)?$/.test(n["Relation Name"] ?? ""));
  const sum = (f: (n: PlanNode) => number) => scans.reduce((total, n) => total + f(n) * n["Actual Loops"], 0);
  return {
    rows: sum((n) => n["Actual Rows"]),
    visited: sum((n) => n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)),
    rounding: sum((n) => (n["Rows Removed by Filter"] === undefined ? 0.5 : 1)),
  };
}
