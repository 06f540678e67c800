import { describe, expect, it } from "vitest";
import { buildEolSummary, gradeForHealthScore, type EolInput } from "@/lib/scores/eol-summary";

const now = new Date("2026-11-20T12:00:00Z");
const input = (over: Partial<EolInput> = {}): EolInput => ({
  device_id: "ev-1",
  vehicle_health_score: 90,
  soh_pct: 95,
  odometer_manipulation: false,
  powertrain: "BEV",
  ...over,
});

describe("buildEolSummary", () => {
  it("returns the SPEC 2.7 fields", () => {
    const r = buildEolSummary(input(), { now });
    // eol-2027.01 adds confidence, knockout_evidence and excluded_readings to the SPEC 2.7 fields.
    expect(Object.keys(r).sort()).toEqual(
      ["condition_grade", "confidence", "device_id", "excluded_readings", "generated_at", "knockout_evidence", "limitations", "vehicle_health_score"].sort(),
    );
    expect(r).toMatchObject({ device_id: "ev-1", condition_grade: "A", vehicle_health_score: 90, generated_at: "2026-11-20T12:00:00.000Z" });
    expect(r.limitations.every((l) => typeof l === "string")).toBe(true);
  });

  it("bands: A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, F below", () => {
    const cases: Array<[number, string]> = [
      [100, "A"], [85, "A"], [84.9, "B"], [70, "B"], [69.9, "C"], [55, "C"], [54.9, "D"], [40, "D"], [39.9, "F"], [0, "F"],
    ];
    for (const [s, g] of cases) {
      expect(gradeForHealthScore(s)).toBe(g);
      expect(buildEolSummary(input({ vehicle_health_score: s }), { now }).condition_grade).toBe(g);
    }
  });

  it("never uses E", () => {
    for (let s = 0; s <= 100; s += 0.5) {
      expect(["A", "B", "C", "D", "F"]).toContain(buildEolSummary(input({ vehicle_health_score: s }), { now }).condition_grade);
    }
  });

  it("knockout: SoH below 60 % → F (60 % itself is not)", () => {
    const r = buildEolSummary(input({ soh_pct: 59.9 }), { now });
    expect(r.condition_grade).toBe("F");
    expect(r.limitations.join(" ")).toMatch(/soh_below_60/);
    expect(buildEolSummary(input({ soh_pct: 60 }), { now }).condition_grade).toBe("C");
  });

  it("SoH caps: below 70 % at most C, below 85 % at most B", () => {
    expect(buildEolSummary(input({ soh_pct: 69 }), { now }).condition_grade).toBe("C");
    expect(buildEolSummary(input({ soh_pct: 84 }), { now }).condition_grade).toBe("B");
    expect(buildEolSummary(input({ soh_pct: 84, vehicle_health_score: 50 }), { now }).condition_grade).toBe("D");
  });

  it("knockout: odometer manipulation → F", () => {
    const r = buildEolSummary(input({ odometer_manipulation: true }), { now });
    expect(r.condition_grade).toBe("F");
    expect(r.limitations.join(" ")).toMatch(/odometer_manipulation/);
  });

  it("no health score → placeholder D, said to be not measured, confidence low; null score in the answer", () => {
    const r = buildEolSummary(input({ vehicle_health_score: null }), { now });
    expect(r.condition_grade).toBe("D");
    expect(r.vehicle_health_score).toBeNull();
    expect(r.confidence).toBe("low");
    expect(r.limitations[0]).toMatch(/^Not measured:/);
    expect(buildEolSummary(input({ vehicle_health_score: null, soh_pct: 50 }), { now }).condition_grade).toBe("F");
  });

  it("names a missing OEM SoH for plug-in vehicles but not for ICE", () => {
    expect(buildEolSummary(input({ soh_pct: null }), { now }).limitations.join(" ")).toMatch(/state of health/);
    expect(buildEolSummary(input({ soh_pct: null, powertrain: "ICE" }), { now }).limitations.join(" ")).not.toMatch(/state of health/);
  });

  it("clamps out-of-range scores and is deterministic", () => {
    expect(buildEolSummary(input({ vehicle_health_score: 140 }), { now }).vehicle_health_score).toBe(100);
    expect(buildEolSummary(input({ vehicle_health_score: -5 }), { now }).vehicle_health_score).toBe(0);
    expect(buildEolSummary(input({ vehicle_health_score: Number.NaN }), { now }).vehicle_health_score).toBeNull();
    expect(buildEolSummary(input(), { now })).toEqual(buildEolSummary(input(), { now }));
  });

  it("lower health score never gives a better grade", () => {
    const order = ["A", "B", "C", "D", "F"];
    let prev = 0;
    for (let s = 100; s >= 0; s -= 0.1) {
      const g = order.indexOf(buildEolSummary(input({ vehicle_health_score: s, soh_pct: null }), { now }).condition_grade);
      expect(g).toBeGreaterThanOrEqual(prev);
      prev = g;
    }
  });

  it("confidence follows the evidence: the health score's, one level lower per gap", () => {
    expect(buildEolSummary(input({ vehicle_health_confidence: "high" }), { now }).confidence).toBe("high");
    expect(buildEolSummary(input({ vehicle_health_confidence: "high", soh_pct: null }), { now }).confidence).toBe("medium");
    expect(buildEolSummary(input({ vehicle_health_confidence: "high", soh_pct: null, odometer_manipulation: null }), { now }).confidence).toBe("low");
    // ICE: no SoH is expected, so none missing is no gap.
    expect(buildEolSummary(input({ vehicle_health_confidence: "high", soh_pct: null, powertrain: "ICE" }), { now }).confidence).toBe("high");
  });

  it("a knockout names its evidence; an implausible SoH is never a knockout", () => {
    const at = new Date("2026-11-01T00:00:00Z");
    const r = buildEolSummary(input({ soh_pct: 55, soh_at: at }), { now });
    expect(r.condition_grade).toBe("F");
    expect(r.knockout_evidence).toEqual([
      expect.objectContaining({ knockout: "soh_below_60", readings: [{ role: "latest_plausible_soh", value: 55, unit: "%", at: at.toISOString() }] }),
    ]);
    const zero = buildEolSummary(input({ soh_pct: 0 }), { now });
    expect(zero.condition_grade).not.toBe("F");
    expect(zero.knockout_evidence).toEqual([]);
  });
});
