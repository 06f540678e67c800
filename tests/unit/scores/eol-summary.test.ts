import { describe, expect, it } from "vitest";
import { buildEolSummary, gradeForHealthScore, type EolInput } from "@/lib/scores/eol-summary";

const now = new Date("2026-11-20T12:00:00Z");
const input = (over: Partial<EolInput> = {}): EolInput => ({
  device_id: "ev-1",
  vehicle_health_score: 90,
  soh_pct: 95,
  soh_at: new Date("2026-11-19T08:00:00Z"),
  odometer_manipulation: false,
  powertrain: "BEV",
  ...over,
});

describe("buildEolSummary", () => {
  it("returns the SPEC 2.7 fields", () => {
    const r = buildEolSummary(input(), { now });
    // eol-2027.01 adds confidence, knockout_evidence and excluded_readings to the SPEC 2.7 fields, eol-2027.02 soh_evidence.
    expect(Object.keys(r).sort()).toEqual(
      ["condition_grade", "confidence", "device_id", "excluded_readings", "generated_at", "knockout_evidence", "limitations", "soh_evidence", "vehicle_health_score"].sort(),
    );
    expect(r).toMatchObject({ device_id: "ev-1", condition_grade: "A", vehicle_health_score: 90, generated_at: "2026-11-20T12:00:00.000Z" });
    expect(r.limitations.every((l) => typeof l === "string")).toBe(true);
  });

  it("bands: A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, F below", () => {
    const cases: Array<[number, string]> = [
      [100, "A"],
      [85, "A"],
      [84.9, "B"],
      [70, "B"],
      [69.9, "C"],
      [55, "C"],
      [54.9, "D"],
      [40, "D"],
      [39.9, "F"],
      [0, "F"],
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

  describe("the 90-day SoH rule (CONTRACT Evidence and trust)", () => {
    const daysBefore = (d: number) => new Date(now.getTime() - d * 86_400_000);

    it("a BEV with no SoH at all is at most C with confidence low, however healthy the rest", () => {
      const r = buildEolSummary(input({ vehicle_health_score: 98.4, vehicle_health_confidence: "high", soh_pct: null, soh_at: null }), { now });
      expect(r.condition_grade).toBe("C");
      expect(r.confidence).toBe("low");
      expect(r.soh_evidence.status).toBe("none");
      expect(r.limitations.join(" ")).toMatch(/not measured.*at most C/);
    });

    it("the same for a PHEV and for an unknown powertrain, not for an ICE or an HEV", () => {
      const noSoh = { vehicle_health_score: 98.4, vehicle_health_confidence: "high" as const, soh_pct: null, soh_at: null };
      expect(buildEolSummary(input({ ...noSoh, powertrain: "PHEV" }), { now }).condition_grade).toBe("C");
      expect(buildEolSummary(input({ ...noSoh, powertrain: null }), { now }).condition_grade).toBe("C");
      expect(buildEolSummary(input({ ...noSoh, powertrain: "ICE" }), { now })).toMatchObject({ condition_grade: "A", soh_evidence: { status: "not_applicable" } });
      expect(buildEolSummary(input({ ...noSoh, powertrain: "HEV" }), { now }).condition_grade).toBe("A");
    });

    it("a 99 % reading 23 months old does not give an A: at most C, confidence low, the reading and its age named", () => {
      const r = buildEolSummary(input({ vehicle_health_score: 98.3, vehicle_health_confidence: "high", soh_pct: 99, soh_at: daysBefore(700) }), { now });
      expect(r.condition_grade).toBe("C");
      expect(r.confidence).toBe("low");
      expect(r.soh_evidence).toMatchObject({ status: "outdated", last_reading_pct: 99, age_days: 700 });
      expect(r.limitations.join(" ")).toMatch(/last plausible reading, 99 % on 2024-12-20, is 700 days old/);
    });

    it("90 days old still counts; 91 does not", () => {
      expect(buildEolSummary(input({ soh_pct: 95, soh_at: daysBefore(90) }), { now })).toMatchObject({ condition_grade: "A", soh_evidence: { status: "measured" } });
      expect(buildEolSummary(input({ soh_pct: 95, soh_at: daysBefore(91) }), { now })).toMatchObject({ condition_grade: "C", confidence: "low" });
    });

    it("an old low reading still knocks out (a battery does not regain capacity), with confidence low", () => {
      const r = buildEolSummary(input({ soh_pct: 55, soh_at: daysBefore(200) }), { now });
      expect(r.condition_grade).toBe("F");
      expect(r.knockout_evidence.map((k) => k.knockout)).toEqual(["soh_below_60"]);
      expect(r.confidence).toBe("low");
    });
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

  it("confidence follows the evidence: the health score's, one level lower per gap, low without a measured SoH", () => {
    expect(buildEolSummary(input({ vehicle_health_confidence: "high" }), { now }).confidence).toBe("high");
    expect(buildEolSummary(input({ vehicle_health_confidence: "high", odometer_manipulation: null }), { now }).confidence).toBe("medium");
    // A plug-in without a measured SoH is low whatever else (CONTRACT "Evidence and trust").
    expect(buildEolSummary(input({ vehicle_health_confidence: "high", soh_pct: null }), { now }).confidence).toBe("low");
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
