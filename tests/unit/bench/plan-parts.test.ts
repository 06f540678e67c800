import { describe, expect, it } from "vitest";
import { parseSettings, FLEET_STATEMENT_PARTS } from "@/bench/explain-fleet-risk";
import { planParts, SPINE, type PlanNode } from "@/bench/lib/plan-parts";

/** A plan node: `t` is Postgres's per-loop average time (ms), `hit` its shared hits with the children's. */
const n = (type: string, t: number, loops: number, extra: Partial<PlanNode> & { hit?: number } = {}, plans: PlanNode[] = []): PlanNode => {
  const { hit, ...rest } = extra;
  return { "Node Type": type, "Actual Total Time": t, "Actual Loops": loops, "Shared Hit Blocks": hit ?? 0, ...rest, ...(plans.length ? { Plans: plans } : {}) };
};

/**
 * The fleet statement's shape on 10 devices: a spine of nested loops over the devices' scan, an inner
 * side per lateral (the pipeline under Memoize with its alias, day K flattened, the harsh events as a
 * bitmap scan), and the alert counts hashed.
 */
const plan = n("Hash Join", 120, 1, { hit: 400 }, [
  n("Nested Loop", 110, 1, { hit: 390 }, [
    n("Nested Loop", 95, 1, { hit: 370 }, [
      n("Nested Loop", 20, 1, { hit: 60 }, [
        n("Index Scan", 2, 1, { "Relation Name": "devices", Alias: "d", hit: 20 }),
        // Day K: the rollup state and a backward scan of the rollup rows, no alias left.
        n("Nested Loop", 1.5, 10, { hit: 40 }, [
          n("Index Scan", 0.3, 10, { "Relation Name": "telemetry_rollup_state", Alias: "rs", hit: 20 }),
          n("Limit", 1, 10, { hit: 20 }, [n("Index Scan", 0.9, 10, { "Relation Name": "telemetry_daily", Alias: "r", hit: 20 })]),
        ]),
      ]),
      n("Memoize", 7, 10, { hit: 300 }, [
        n("Subquery Scan", 6.5, 10, { Alias: "bac", hit: 300 }, [
          n("Aggregate", 6, 10, { hit: 300 }, [n("Index Scan", 4, 10, { "Relation Name": "telemetry_2026_11", Alias: "t_3", hit: 300 })]),
        ]),
      ]),
    ]),
    n("Aggregate", 1.2, 10, { hit: 20 }, [
      n("Bitmap Heap Scan", 1, 10, { "Relation Name": "driving_events", Alias: "de", hit: 20 }, [n("Bitmap Index Scan", 0.5, 10, { hit: 10 })]),
    ]),
  ]),
  n("Hash", 5, 1, { hit: 10 }, [n("Subquery Scan", 4.5, 1, { Alias: "al", hit: 10 }, [n("Seq Scan", 3, 1, { "Relation Name": "alerts", Alias: "alerts", hit: 10 })])]),
]);

describe("planParts", () => {
  const parts = planParts(plan, FLEET_STATEMENT_PARTS);
  const ms = (part: string) => parts.get(part)?.ms ?? NaN;

  it("gives each part its nodes' time over all loops, children's time taken off once", () => {
    // The pipeline: Memoize 7 ms × 10 loops, all of it below the alias or in the Memoize above it.
    expect(ms("bac")).toBeCloseTo(70, 9);
    // Day K, flattened: its nested loop 1.5 ms × 10, named by the rollup tables it reads.
    expect(ms("rollups")).toBeCloseTo(15, 9);
    // The harsh events: the aggregate, the heap scan, and the bitmap index scan that names no table.
    expect(ms("brh")).toBeCloseTo(12, 9);
    // The alert counts: the Hash over the aliased subquery.
    expect(ms("al")).toBeCloseTo(5, 9);
    // The spine: the devices' scan and the joins' own time.
    expect(ms(SPINE)).toBeCloseTo(120 - 70 - 15 - 12 - 5, 9);
    expect([...parts.keys()].sort()).toEqual(["al", "bac", "brh", "rollups", SPINE].sort());
  });

  it("adds up to the root's total time, and every node is counted once", () => {
    const sum = [...parts.values()].reduce((s, p) => s + p.ms, 0);
    expect(sum).toBeCloseTo(120, 9);
    let count = 0;
    const walk = (x: PlanNode) => {
      count += 1;
      for (const c of x.Plans ?? []) walk(c);
    };
    walk(plan);
    expect([...parts.values()].reduce((s, p) => s + p.nodes, 0)).toBe(count);
    expect(parts.get("bac")!.nodes).toBe(4);
    expect(parts.get("brh")!.nodes).toBe(3);
  });

  it("takes each node's own buffers (its count minus its children's)", () => {
    expect(parts.get("bac")!.sharedHit).toBe(300);
    expect(parts.get("rollups")!.sharedHit).toBe(40);
    expect(parts.get("brh")!.sharedHit).toBe(20);
    expect([...parts.values()].reduce((s, p) => s + p.sharedHit, 0)).toBe(400);
  });

  it("tells the rollup tables from the telemetry partitions by name", () => {
    const scan = (relation: string) => [...planParts(n("Index Scan", 1, 1, { "Relation Name": relation }), FLEET_STATEMENT_PARTS).keys()];
    expect(scan("telemetry_daily")).toEqual(["rollups"]);
    expect(scan("telemetry_rollup_state")).toEqual(["rollups"]);
    expect(scan("telemetry_2025_11")).toEqual(["bac"]);
    expect(scan("telemetry_default")).toEqual(["bac"]);
    expect(scan("telemetry")).toEqual(["bac"]);
    expect(scan("devices")).toEqual([SPINE]);
  });
});

describe("EXPLAIN_SETTINGS", () => {
  it("reads name=value pairs separated by commas", () => {
    expect(parseSettings(undefined)).toEqual([]);
    expect(parseSettings(" enable_memoize=off , work_mem=64MB ")).toEqual([
      { name: "enable_memoize", value: "off" },
      { name: "work_mem", value: "64MB" },
    ]);
  });

  it("refuses anything else, so nothing but a setting reaches the SET statement", () => {
    for (const bad of ["enable_memoize", "enable_memoize=", "enable_memoize=off'; drop table devices; --", "Enable=on", "a=b c", "x=1;y=2"]) {
      expect(() => parseSettings(bad), bad).toThrow(/EXPLAIN_SETTINGS/);
    }
  });
});
