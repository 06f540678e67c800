/**
 * Where a statement's server time goes, per part of the statement: the own time of every node of an
 * `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` plan, added up by the part it belongs to. Used by
 * bench/explain-fleet-risk.ts for the fleet statement, a spine of joins over the tenant's devices with
 * one lateral subquery per part (docs/performance.md, "Fleet risk: where a device's time goes").
 */

/** A node of Postgres's JSON plan (the fields read here). */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  "Actual Total Time"?: number;
  "Actual Loops"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/** One part's share of the statement: own time (ms) over all loops, plan nodes, own buffers. */
export interface PlanPart {
  ms: number;
  nodes: number;
  sharedHit: number;
  sharedRead: number;
}

/** How a statement's parts are recognised in its plan. */
export interface PartNames {
  /** Subquery aliases that name a part (Postgres keeps them on a Subquery Scan, when one is left). */
  aliases: readonly string[];
  /** A scanned relation's part, first match wins (for scans under no part alias). */
  relations: readonly { relation: RegExp; part: string }[];
}

/** Nodes that join parts, and scans of no known relation: the statement's own work. */
export const SPINE = "statement";

/** A node's time over all its loops (ms): Postgres reports a loop's average. */
const totalMs = (n: PlanNode) => (n["Actual Total Time"] ?? 0) * (n["Actual Loops"] ?? 1);

/**
 * The parts of a plan. A node belongs to the part whose alias it or its nearest ancestor carries; under
 * no part alias, a scan belongs to its relation's part, and any other node to the part of every scan
 * below it when they all agree, to its parent's when there is none (a bitmap index scan), else to the
 * spine (a join of two parts, the output). Each node adds its
 * own time and buffers, its figures over all loops minus its children's (Postgres counts a node's
 * children in its own), so the parts add up to the root's total time.
 */
export function planParts(plan: PlanNode, names: PartNames): Map<string, PlanPart> {
  const parts = new Map<string, PlanPart>();
  const relationPart = (relation: string) => names.relations.find((r) => r.relation.test(relation))?.part ?? SPINE;
  /** The parts of the scans in a subtree (outside any part alias, which decides for its own subtree). */
  const scanParts = new Map<PlanNode, Set<string>>();
  const collect = (node: PlanNode): Set<string> => {
    const found = new Set<string>();
    if (node.Alias !== undefined && names.aliases.includes(node.Alias)) found.add(node.Alias);
    else {
      if (node["Relation Name"] !== undefined) found.add(relationPart(node["Relation Name"]));
      for (const c of node.Plans ?? []) for (const p of collect(c)) found.add(p);
    }
    scanParts.set(node, found);
    return found;
  };
  collect(plan);
  const visit = (node: PlanNode, aliasPart: string | undefined, parentPart: string) => {
    const ownAlias = node.Alias !== undefined && names.aliases.includes(node.Alias) ? node.Alias : aliasPart;
    const below = scanParts.get(node)!;
    // No relation below (a bitmap index scan, a Result): the parent's part.
    const part = ownAlias ?? (below.size === 1 ? [...below][0]! : below.size === 0 ? parentPart : SPINE);
    const children = node.Plans ?? [];
    const ownOf = (f: (n: PlanNode) => number) => Math.max(0, f(node) - children.reduce((s, c) => s + f(c), 0));
    const p = parts.get(part) ?? { ms: 0, nodes: 0, sharedHit: 0, sharedRead: 0 };
    p.ms += ownOf(totalMs);
    p.nodes += 1;
    p.sharedHit += ownOf((n) => n["Shared Hit Blocks"] ?? 0);
    p.sharedRead += ownOf((n) => n["Shared Read Blocks"] ?? 0);
    parts.set(part, p);
    for (const c of children) visit(c, ownAlias, part);
  };
  visit(plan, undefined, SPINE);
  return parts;
}
