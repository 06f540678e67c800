import { describe, expect, it } from "vitest";
import {
  ageOf,
  ASSUMED_AGE_MONTHS,
  BATTERY_PENALTY_CAP_PCT,
  computeResidualValue,
  curveRetention,
  expectedSohPct,
  KNOCKOUT_PENALTY_PCT,
  MILEAGE_CREDIT_CAP_PCT,
  MILEAGE_LINEAR_ZONE_PCT,
  MILEAGE_PENALTY_MAX_PCT,
  mileagePenaltyPct,
  monthsBetween,
  RESIDUAL_RULES_VERSION,
  SCORE_ADJUSTMENTS,
  type ResidualInput,
} from "@/lib/leasing/residual-value-rules";
import { residualValueSchema } from "@/lib/schemas/leasing-residual";

const now = new Date("2026-11-20T12:00:00Z");

/** A 36-month-old BEV at the calibration mileage with an as-expected battery and neutral scores. */
function bev(over: Partial<ResidualInput> = {}): ResidualInput {
  return {
    device_id: "ev-1",
    powertrain: "BEV",
    year: 2023,
    lease_start: "2023-11-20",
    original_price_eur: 40_000,
    mileage_km: 45_000,
    soh_pct: expectedSohPct(36),
    soh_at: new Date("2026-11-19T08:00:00Z"),
    vehicle_health_score: 75,
    fleet_risk_score: 50,
    green_fleet_score: 50,
    eol_grade: "B",
    knockouts: [],
    ...over,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const pct = (over: Partial<ResidualInput> = {}) => computeResidualValue(bev(over), { now }).estimated_residual_pct;

describe("the 90-day SoH rule (CONTRACT Evidence and trust)", () => {
  const days = (d: number) => new Date(now.getTime() - d * 86_400_000);

  it("a reading 91 days old is not priced as today's SoH: no credit, status outdated, named, confidence at most medium", () => {
    const fresh = computeResidualValue(bev({ soh_pct: 99, soh_at: days(10) }), { now });
    const old = computeResidualValue(bev({ soh_pct: 99, soh_at: days(91) }), { now });
    expect(fresh.depreciation_curve.battery_penalty_pct).toBeLessThan(0); // a credit for a better battery than expected
    expect(old.depreciation_curve.battery_penalty_pct).toBe(0);
    expect(old.factors.battery_soh_pct).toBeNull();
    expect(old.data_quality.battery_soh_status).toBe("outdated");
    expect(old.data_quality.missing_fields).toContain("battery_soh_pct");
    expect(old.data_quality.notes.join(" ")).toMatch(/99 % on 2026-08-21, is 91 days old/);
    expect(old.confidence).not.toBe("high");
    expect(old.estimated_residual_pct).toBeLessThan(fresh.estimated_residual_pct);
    expect(computeResidualValue(bev({ soh_pct: 99, soh_at: days(90) }), { now }).data_quality.battery_soh_status).toBe("measured");
  });

  it("an old low reading still costs value: a battery does not regain capacity", () => {
    const oldLow = computeResidualValue(bev({ soh_pct: 75, soh_at: days(400) }), { now });
    const freshLow = computeResidualValue(bev({ soh_pct: 75, soh_at: days(1) }), { now });
    expect(oldLow.depreciation_curve.battery_penalty_pct).toBe(freshLow.depreciation_curve.battery_penalty_pct);
    expect(oldLow.depreciation_curve.battery_penalty_pct).toBeGreaterThan(0);
  });
});

describe("depreciation curve", () => {
  it("is calibrated on Autovista's 47 % at 36 months and front-loaded", () => {
    expect(curveRetention(0)).toBe(1);
    expect(curveRetention(36)).toBeCloseTo(0.47061, 4);
    const year1Loss = 1 - curveRetention(12);
    const year3Loss = 1 - curveRetention(36) / curveRetention(24);
    expect(year1Loss).toBeGreaterThan(year3Loss);
  });

  it("falls strictly with age and stays within (0, 1]", () => {
    let prev = 1.0000001;
    for (let m = 0; m <= 300; m += 1) {
      const v = curveRetention(m);
      expect(v).toBeLessThan(prev);
      expect(v).toBeGreaterThan(0);
      prev = v;
    }
  });

  it("a neutral calibration vehicle gets the curve's value, no penalty", () => {
    const r = computeResidualValue(bev(), { now });
    expect(r.estimated_residual_pct).toBe(47.1);
    expect(r.estimated_residual_eur).toBe(Math.round(40_000 * 0.471));
    expect(r.depreciation_curve.mileage_penalty_pct).toBe(0);
    expect(r.depreciation_curve.battery_penalty_pct).toBe(0);
    expect(r.adjustments.total_pct).toBe(0);
    // 36 months is the first month of the fourth year of life.
    expect(r.depreciation_curve.annual_rate_pct).toBe(15);
    expect(r.estimation_method).toBe(RESIDUAL_RULES_VERSION);
    expect(r.confidence).toBe("high");
    expect(residualValueSchema.safeParse(r).success).toBe(true);
  });
});

describe("monotonic in every input", () => {
  it("older → lower, at the same mileage", () => {
    const values = [2026, 2025, 2024, 2023, 2021, 2018, 2012].map((y) => pct({ year: y, lease_start: `${y}-11-20`, mileage_km: 60_000 }));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]!);
  });

  it("more km → lower, including below the normal mileage and far above it; flat only below the credit cap and at the stated floor", () => {
    // Normal at 36 months: 45,000 km. The credit is capped 25,000 km below it; above it the penalty
    // keeps growing (0.4 %/1,000 km to 50,000 km above normal, then 0.2 % of the remaining value per 1,000 km).
    const values = [20_000, 30_000, 45_000, 60_000, 90_000, 95_000, 140_000, 200_000, 300_000, 500_000].map((km) => pct({ mileage_km: km }));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]!);
    expect(pct({ mileage_km: 0 })).toBe(pct({ mileage_km: 20_000 }));
    // The floor: mileage never takes more than MILEAGE_PENALTY_MAX_PCT of the curve value.
    expect(mileagePenaltyPct(2_000_000, 36)).toBe(MILEAGE_PENALTY_MAX_PCT);
    expect(mileagePenaltyPct(1_500_000, 36)).toBe(MILEAGE_PENALTY_MAX_PCT);
  });

  it("has no mileage cliff: a 6-year car at 140,000, 200,000 and 300,000 km, a 1-year car at 65,000 and 150,000 km all value differently", () => {
    const at = (months: number, km: number) => {
      const start = new Date(now);
      start.setUTCMonth(start.getUTCMonth() - months);
      return computeResidualValue(bev({ lease_start: start.toISOString().slice(0, 10), mileage_km: km }), { now });
    };
    const six = [140_000, 200_000, 300_000].map((km) => at(72, km));
    expect(six.map((r) => r.factors.age_months)).toEqual([72, 72, 72]);
    expect(six[1]!.estimated_residual_pct).toBeLessThan(six[0]!.estimated_residual_pct);
    expect(six[2]!.estimated_residual_pct).toBeLessThan(six[1]!.estimated_residual_pct);
    // 50,000 km above normal keeps the linear zone's 20 %; 110,000 and 210,000 km above it compound 0.2 % per 1,000 km beyond.
    expect(six.map((r) => r.depreciation_curve.mileage_penalty_pct)).toEqual([20, round2(100 * (1 - 0.8 * 0.998 ** 60)), round2(100 * (1 - 0.8 * 0.998 ** 160))]);
    const one = [65_000, 150_000].map((km) => at(12, km));
    expect(one[1]!.estimated_residual_pct).toBeLessThan(one[0]!.estimated_residual_pct);
  });

  it("lower SoH → lower, including a better-than-expected battery", () => {
    const values = [99, 95, 93.1, 90, 80, 70].map((soh) => pct({ soh_pct: soh }));
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]!);
  });

  it("worse vehicle health → lower; riskier driving → lower; greener → higher", () => {
    expect(pct({ vehicle_health_score: 85 })).toBeGreaterThan(pct({ vehicle_health_score: 75 }));
    expect(pct({ vehicle_health_score: 60 })).toBeLessThan(pct({ vehicle_health_score: 75 }));
    expect(pct({ vehicle_health_score: 40 })).toBeLessThan(pct({ vehicle_health_score: 60 }));
    expect(pct({ fleet_risk_score: 90 })).toBeLessThan(pct({ fleet_risk_score: 50 }));
    expect(pct({ green_fleet_score: 90 })).toBeGreaterThan(pct({ green_fleet_score: 50 }));
  });
});

describe("penalties and adjustments are bounded", () => {
  it("the mileage penalty is 0.4 % per 1,000 km to 50,000 km above normal, then 0.2 % of the rest per 1,000 km to a stated floor; the credit is capped", () => {
    const r = computeResidualValue(bev({ mileage_km: 55_000 }), { now });
    expect(r.depreciation_curve.mileage_penalty_pct).toBe(4);
    // The linear zone ends 50,000 km above normal at MILEAGE_LINEAR_ZONE_PCT (20 %); the penalty goes on beyond it.
    expect(computeResidualValue(bev({ mileage_km: 95_000 }), { now }).depreciation_curve.mileage_penalty_pct).toBe(MILEAGE_LINEAR_ZONE_PCT);
    expect(computeResidualValue(bev({ mileage_km: 96_000 }), { now }).depreciation_curve.mileage_penalty_pct).toBe(round2(100 * (1 - 0.8 * 0.998)));
    expect(computeResidualValue(bev({ mileage_km: 400_000 }), { now }).depreciation_curve.mileage_penalty_pct).toBe(round2(100 * (1 - 0.8 * 0.998 ** 305)));
    expect(computeResidualValue(bev({ mileage_km: 900_000 }), { now }).depreciation_curve.mileage_penalty_pct).toBe(MILEAGE_PENALTY_MAX_PCT);
    expect(computeResidualValue(bev({ mileage_km: 0 }), { now }).depreciation_curve.mileage_penalty_pct).toBe(-MILEAGE_CREDIT_CAP_PCT);
  });

  it("the battery penalty is 0.5 % per SoH point below expected (Autovista), half for a PHEV, none for ICE/HEV", () => {
    const expected = expectedSohPct(36);
    expect(computeResidualValue(bev({ soh_pct: expected - 10 }), { now }).depreciation_curve.battery_penalty_pct).toBe(5);
    expect(computeResidualValue(bev({ powertrain: "PHEV", soh_pct: expected - 10 }), { now }).depreciation_curve.battery_penalty_pct).toBe(2.5);
    expect(computeResidualValue(bev({ powertrain: "HEV", soh_pct: expected - 10 }), { now }).depreciation_curve.battery_penalty_pct).toBe(0);
    expect(computeResidualValue(bev({ powertrain: "ICE", soh_pct: null }), { now }).depreciation_curve.battery_penalty_pct).toBe(0);
    // Credit capped at 5 points (2.5 %), penalty capped.
    expect(computeResidualValue(bev({ soh_pct: 100 }), { now }).depreciation_curve.battery_penalty_pct).toBe(-2.5);
    expect(computeResidualValue(bev({ soh_pct: 1 }), { now }).depreciation_curve.battery_penalty_pct).toBe(BATTERY_PENALTY_CAP_PCT);
  });

  it("score adjustments stay within their bounds whatever the scores", () => {
    for (const vh of [0, 100]) {
      for (const risk of [0, 100]) {
        for (const green of [0, 100]) {
          const a = computeResidualValue(bev({ vehicle_health_score: vh, fleet_risk_score: risk, green_fleet_score: green }), { now }).adjustments;
          expect(a.vehicle_health_pct).toBeGreaterThanOrEqual(SCORE_ADJUSTMENTS.vehicleHealth.min);
          expect(a.vehicle_health_pct).toBeLessThanOrEqual(SCORE_ADJUSTMENTS.vehicleHealth.max);
          expect(a.total_pct).toBeGreaterThanOrEqual(SCORE_ADJUSTMENTS.total.min);
          expect(a.total_pct).toBeLessThanOrEqual(SCORE_ADJUSTMENTS.total.max);
        }
      }
    }
  });

  it("the estimate stays within 0–100 at the extremes", () => {
    const extremes: Partial<ResidualInput>[] = [
      { year: 2027, lease_start: "2027-06-01", mileage_km: 0, soh_pct: 100, vehicle_health_score: 100, fleet_risk_score: 0, green_fleet_score: 100 },
      {
        year: 1950,
        lease_start: null,
        mileage_km: 5_000_000,
        soh_pct: 1,
        vehicle_health_score: 0,
        fleet_risk_score: 100,
        green_fleet_score: 0,
        knockouts: ["soh_below_60", "odometer_manipulation"],
      },
      { vehicle_health_score: 1e9, fleet_risk_score: -5, green_fleet_score: Number.NaN, mileage_km: -10, soh_pct: 0 },
    ];
    for (const over of extremes) {
      const r = computeResidualValue(bev(over), { now });
      expect(r.estimated_residual_pct).toBeGreaterThanOrEqual(0);
      expect(r.estimated_residual_pct).toBeLessThanOrEqual(100);
      expect(residualValueSchema.safeParse(r).success).toBe(true);
    }
  });

  it("a brand-new car (lease starting now or later) keeps 100 % before adjustments", () => {
    const r = computeResidualValue(bev({ year: 2027, lease_start: "2027-01-10", mileage_km: 0, soh_pct: 100 }), { now });
    expect(r.factors.age_months).toBe(0);
    // Curve 100 %, mileage credit 0 (normal mileage at 0 months is 0), battery credit 0 (expected 100).
    expect(r.estimated_residual_pct).toBe(100);
  });
});

describe("knockouts", () => {
  it("an EOL knockout takes the documented penalty and makes the confidence low", () => {
    const clean = computeResidualValue(bev({ soh_pct: 75 }), { now });
    const ko = computeResidualValue(bev({ soh_pct: 75, eol_grade: "F", knockouts: ["odometer_manipulation"] }), { now });
    expect(ko.knockouts).toEqual(["odometer_manipulation"]);
    expect(ko.adjustments.knockout_penalty_pct).toBe(KNOCKOUT_PENALTY_PCT);
    expect(ko.confidence).toBe("low");
    expect(ko.estimated_residual_pct).toBeCloseTo(clean.estimated_residual_pct * (1 - KNOCKOUT_PENALTY_PCT / 100), 0);
    // Two knockouts: one penalty, both named.
    const both = computeResidualValue(bev({ soh_pct: 55, eol_grade: "F", knockouts: ["soh_below_60", "odometer_manipulation", "soh_below_60"] }), { now });
    expect(both.knockouts).toEqual(["soh_below_60", "odometer_manipulation"]);
    expect(both.adjustments.knockout_penalty_pct).toBe(KNOCKOUT_PENALTY_PCT);
  });
});

describe("age", () => {
  it("counts whole months", () => {
    expect(monthsBetween(new Date("2023-11-20T00:00:00Z"), now)).toBe(36);
    expect(monthsBetween(new Date("2023-11-21T00:00:00Z"), now)).toBe(35);
    expect(monthsBetween(new Date("2027-01-01T00:00:00Z"), now)).toBe(0);
  });

  it("lease_start wins over the year, unless the lease began more than a year after the model year (a used car)", () => {
    expect(ageOf({ year: 2023, lease_start: "2024-02-01" }, now)).toEqual({ months: 33, basis: "lease_start" });
    expect(ageOf({ year: 2019, lease_start: "2024-02-01" }, now)).toEqual({ months: monthsBetween(new Date("2019-07-01T00:00:00Z"), now), basis: "year" });
    expect(ageOf({ year: 2022, lease_start: null }, now)).toEqual({ months: 52, basis: "year" });
    expect(ageOf({ year: null, lease_start: "not-a-day" }, now)).toBeNull();
  });
});

describe("data quality", () => {
  it("a complete BEV lists nothing missing and is 100 % complete", () => {
    const r = computeResidualValue(bev(), { now });
    expect(r.data_quality).toEqual({ completeness_pct: 100, missing_fields: [], age_basis: "lease_start", battery_soh_status: "measured", notes: [] });
  });

  it("names each missing input, and completeness is the share of applicable inputs present", () => {
    const r = computeResidualValue(bev({ original_price_eur: null, soh_pct: null, fleet_risk_score: null }), { now });
    expect(r.data_quality.missing_fields).toEqual(["battery_soh_pct", "fleet_risk_score", "original_price_eur"]);
    // 9 applicable inputs for a BEV, 6 present.
    expect(r.data_quality.completeness_pct).toBe(66.7);
    expect(r.estimated_residual_eur).toBeNull();
    expect(r.factors.battery_soh_pct).toBeNull();
    expect(r.confidence).toBe("medium");
  });

  it("a plug-in whose SoH was not measured (null): no battery adjustment, says so, confidence at most medium", () => {
    for (const powertrain of ["BEV", "PHEV", null]) {
      const r = computeResidualValue(bev({ powertrain, soh_pct: null }), { now });
      expect(r.depreciation_curve.battery_penalty_pct).toBe(0);
      expect(r.factors.battery_soh_pct).toBeNull();
      expect(r.data_quality.battery_soh_status).toBe("not_measured");
      expect(r.data_quality.missing_fields).toContain("battery_soh_pct");
      expect(r.confidence).not.toBe("high");
      expect(r.data_quality.notes.join(" ")).toMatch(/state of health not measured/i);
    }
    // The same car measured at the expected SoH: the same value (no adjustment either way), but high confidence.
    const measured = computeResidualValue(bev(), { now });
    const unmeasured = computeResidualValue(bev({ soh_pct: null }), { now });
    expect(unmeasured.estimated_residual_pct).toBe(measured.estimated_residual_pct);
    expect(measured.confidence).toBe("high");
    expect(unmeasured.confidence).toBe("medium");
    expect(computeResidualValue(bev({ powertrain: "ICE", soh_pct: null }), { now }).data_quality.battery_soh_status).toBe("not_applicable");
  });

  it("an ICE is not asked for a SoH nor a green fleet score of its own", () => {
    const r = computeResidualValue(bev({ powertrain: "ICE", soh_pct: null, green_fleet_score: null }), { now });
    expect(r.data_quality.missing_fields).toEqual([]);
    expect(r.data_quality.completeness_pct).toBe(100);
    // Valued on the BEV curve: never high.
    expect(r.confidence).toBe("medium");
  });

  it("without an age, the age follows from the mileage at the normal rate (confidence low)", () => {
    const r = computeResidualValue(bev({ year: null, lease_start: null, mileage_km: 30_000 }), { now });
    expect(r.factors.age_months).toBeNull();
    expect(r.data_quality.age_basis).toBe("mileage");
    expect(r.data_quality.missing_fields).toContain("age_months");
    expect(r.depreciation_curve.mileage_penalty_pct).toBe(0);
    expect(r.estimated_residual_pct).toBeCloseTo(100 * curveRetention(24) * (1 - r.depreciation_curve.battery_penalty_pct / 100), 0);
    expect(r.confidence).toBe("low");
  });

  it("with neither age nor mileage, the calibration point is assumed and both are named", () => {
    const r = computeResidualValue(
      {
        device_id: "x",
        powertrain: null,
        year: null,
        lease_start: null,
        original_price_eur: null,
        mileage_km: null,
        soh_pct: null,
        soh_at: null,
        vehicle_health_score: null,
        fleet_risk_score: null,
        green_fleet_score: null,
        eol_grade: null,
        knockouts: [],
      },
      { now },
    );
    expect(r.data_quality.age_basis).toBe("assumed");
    expect(r.factors.mileage_km).toBe(45_000);
    expect(r.estimated_residual_pct).toBe(Math.round(1000 * curveRetention(ASSUMED_AGE_MONTHS)) / 10);
    expect(r.data_quality.completeness_pct).toBe(0);
    expect(r.data_quality.missing_fields).toEqual([
      "age_months",
      "mileage_km",
      "battery_soh_pct",
      "vehicle_health_score",
      "fleet_risk_score",
      "green_fleet_score",
      "eol_grade",
      "powertrain",
      "original_price_eur",
    ]);
    expect(r.confidence).toBe("low");
    expect(residualValueSchema.safeParse(r).success).toBe(true);
  });

  it("the disclaimer says what the estimate is not and what it does not see", () => {
    const d = computeResidualValue(bev(), { now }).disclaimer;
    for (const word of ["not a valuation", "offer", "condition", "damage", "options", "market"]) expect(d).toContain(word);
  });

  it("the disclaimer of a vehicle that is not a BEV says the curve is the BEV one, and which way that likely errs", () => {
    expect(computeResidualValue(bev(), { now }).disclaimer).not.toContain("likely low");
    for (const [powertrain, words] of [
      ["ICE", "combustion-engine cars"],
      ["HEV", "hybrids"],
      ["PHEV", "plug-in hybrids"],
      [null, "vehicles whose powertrain is not declared"],
    ] as const) {
      const d = computeResidualValue(bev({ powertrain, soh_pct: null }), { now }).disclaimer;
      expect(d).toContain(`no published figures were found to calibrate one for ${words}, so the same curve is used`);
      expect(d).toContain("the estimate is likely low");
    }
  });
});
