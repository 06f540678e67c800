import { describe, expect, it } from "vitest";
import { assertFigureColumns, FLEET_RISK_FIGURES, toBehaviour, toFleetRiskBehaviour } from "@/lib/telemetry/queries/behaviour-sql";

/** The `bh_` columns a row mapper reads. */
function columnsRead(mapper: (r: Record<string, unknown>) => unknown): string[] {
  const read = new Set<string>();
  mapper(new Proxy({}, { get: (_, key) => (read.add(String(key)), undefined), has: () => true }));
  return [...read].filter((k) => k.startsWith("bh_")).sort();
}

const SOURCES = ["bh_events_reported_ms", "bh_dense_speed_ms"];

describe("fleet risk's own figures (FLEET_RISK_FIGURES)", () => {
  // The fleet verb selects only FLEET_RISK_FIGURES. A column its mapper reads that is not in the list
  // would read as 0, silently: the list and the mapper must name the same columns.
  it("are exactly the columns toFleetRiskBehaviour reads", () => {
    expect(columnsRead(toFleetRiskBehaviour)).toEqual([...FLEET_RISK_FIGURES.map((f) => `bh_${f}`), ...SOURCES].sort());
  });

  it("are a subset of what toBehaviour reads, which reads every figure", () => {
    const all = columnsRead(toBehaviour);
    for (const f of FLEET_RISK_FIGURES) expect(all).toContain(`bh_${f}`);
    expect(all.length).toBeGreaterThan(FLEET_RISK_FIGURES.length + SOURCES.length);
  });

  it("a row without one of them is refused, not read as 0", () => {
    const row = Object.fromEntries([...FLEET_RISK_FIGURES.map((f) => `bh_${f}`), ...SOURCES].map((k) => [k, 1]));
    expect(() => assertFigureColumns(row, FLEET_RISK_FIGURES)).not.toThrow();
    const { bh_pt_pp: _dropped, ...without } = row;
    expect(() => assertFigureColumns(without, FLEET_RISK_FIGURES)).toThrow(/bh_pt_pp/);
  });
});
