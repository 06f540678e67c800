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
