import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createRng } from "@/lib/seed/prng";
import { computeTas, emissionBand, KNOCKOUT_SCORE_CAP, mileageRatioScore, TAS_SCORE_VERSION, tasGradeFor, type TasInput } from "@/lib/scores/tas";
import { TAS_WEIGHTS, tasWeightsFor } from "@/lib/scores/tas-weights";
import { TAS_PILLARS } from "@/lib/vocabulary/scores";
import { tasInput } from "../../helpers/tas-input";

const now = new Date("2026-11-20T12:00:00Z");

const base = tasInput;

/** Deterministic PRNG (mulberry32) for seeded property loops. */
/** Seeded uniform [0, 1) numbers for the property loops (the seed generator's PRNG). */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

function randomInput(r: () => number): TasInput {
  const maybe = <T>(v: T): T | null => (r() < 0.2 ? null : v);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  return {
    device_id: `dev-${Math.floor(r() * 1000)}`,
    powertrain: pick(["BEV", "PHEV", "HEV", "ICE", null, "weird"]),
    fuel_type: maybe(pick(["petrol", "diesel", "electricity"])),
    asset_class: pick(["passenger_car", "light_commercial", "heavy_truck", "other", null, "spaceship"]),
    year: maybe(1995 + Math.floor(r() * 32)),
    age_months: maybe(Math.floor(r() * 240)),
    battery: { soh_pct: maybe(r() * 110 - 5), soh_trend_pp_per_year: maybe(r() * 20 - 15) },
    mileage: {
      odometer_km: maybe(r() * 400_000),
      km_per_year: maybe(r() * 80_000),
      contract_km: maybe(pick([0, 40_000, 60_000, 120_000])),
      lease_months: maybe(pick([0, 24, 36, 48])),
    },
    behaviour: {
      period_days: 30,
      period_km: maybe(r() * 5000),
      speeding: r() < 0.2 ? null : { over_130_share: r() * 0.2, over_160_share: r() * 0.05, basis: "distance", exposure_km: r() * 5000, exposure_hours: r() * 100 },
      night_share: maybe(r()),
      icy_share: maybe(r()),
      harsh_events: maybe(Math.floor(r() * 60)),
    },
    compliance: {
      active_dtcs: maybe(["P0301", "C0035", "B1234", "U0100", "P0420", "P0A80"].slice(0, Math.floor(r() * 7))),
      weak_12v: maybe(r() < 0.3),
      emissions_class: maybe(pick(["Euro 6d", "EURO5", "euro IV", "Euro 3", "ZEV", "unknown"])),
    },
    odometer_manipulation: pick([true, false, null, false, false]),
    data: {
      latest_telemetry_at: maybe(new Date(now.getTime() - r() * 60 * 86_400_000)),
      coverage_pct: maybe(r() * 100),
    },
  };
}

describe("tas-weights", () => {
  it("every vertical's weights sum to 1 and cover the four pillars", () => {
    for (const [name, w] of Object.entries(TAS_WEIGHTS)) {
      const sum = TAS_PILLARS.reduce((s, p) => s + w[p], 0);
      expect(sum, name).toBeCloseTo(1, 10);
      expect(Object.keys(w).sort()).toEqual([...TAS_PILLARS].sort());
      for (const p of TAS_PILLARS) expect(w[p]).toBeGreaterThan(0);
    }
  });
  it("unknown verticals use default", () => {
    expect(tasWeightsFor("heavy_truck")).toBe(TAS_WEIGHTS.default);
    expect(tasWeightsFor("other")).toBe(TAS_WEIGHTS.default);
    expect(tasWeightsFor("light_commercial")).toBe(TAS_WEIGHTS.light_commercial);
  });
});

describe("computeTas: shape", () => {
  it("has every SPEC 2.14 field with the right type and no weights", () => {
    const r = computeTas(base(), { now });
    expect(Object.keys(r).sort()).toEqual(
      ["confidence", "data_quality", "device_id", "fuel_type", "generated_at", "knockout_flags", "pillars", "score_version", "tas_grade", "tas_score", "vertical"].sort(),
    );
    // FDP's addition: how fresh the inputs were.
    expect(r.data_quality.freshness).toMatch(/^Newest telemetry used is .* old|^No telemetry/);
    expect(r.data_quality.data_age_seconds === null || r.data_quality.data_age_seconds >= 0).toBe(true);
    expect(r.device_id).toBe("dev-1");
    expect(["A", "B", "C", "D", "E", "F"]).toContain(r.tas_grade);
    expect(typeof r.tas_score).toBe("number");
    expect(r.score_version).toBe(TAS_SCORE_VERSION);
    expect(["high", "medium", "low"]).toContain(r.confidence);
    expect(Object.keys(r.pillars).sort()).toEqual([...TAS_PILLARS].sort());
    for (const p of TAS_PILLARS) {
      expect(Object.keys(r.pillars[p]).sort()).toEqual(["score", "source"]);
      expect(typeof r.pillars[p].score).toBe("number");
      expect(typeof r.pillars[p].source).toBe("string");
    }
    expect(r.knockout_flags).toEqual([]);
    expect(r.vertical).toBe("passenger_car");
    expect(r.fuel_type).toBe("electricity");
    expect(r.generated_at).toBe("2026-11-20T12:00:00.000Z");
    expect(JSON.stringify(r)).not.toMatch(/weight/i);
  });

  it("a healthy, well-used BEV with full data scores high-confidence and a good grade", () => {
    const r = computeTas(base(), { now });
    expect(r.confidence).toBe("high");
    expect(r.pillars.battery_health).toEqual({ score: 80, source: "oem_bms" });
    expect(r.pillars.usage_behaviour.source).toBe("telemetry_derived");
    expect(r.pillars.contractual_market_risk.source).toBe("telemetry_and_master_data");
    expect(r.pillars.regulatory_compliance).toEqual({ score: 100, source: "telemetry_derived" });
    expect(["A", "B"]).toContain(r.tas_grade);
  });

  it("vertical defaults to passenger_car when asset_class is null or unknown", () => {
    expect(computeTas(base({ asset_class: null }), { now }).vertical).toBe("passenger_car");
    expect(computeTas(base({ asset_class: "spaceship" }), { now }).vertical).toBe("passenger_car");
    expect(computeTas(base({ asset_class: "light_commercial" }), { now }).vertical).toBe("light_commercial");
    expect(computeTas(base({ asset_class: "heavy_truck" }), { now }).vertical).toBe("heavy_truck");
  });

  it("fuel_type is null when unknown", () => {
    expect(computeTas(base({ fuel_type: null }), { now }).fuel_type).toBeNull();
  });
});

describe("computeTas: grade bands", () => {
  it("maps scores to A–F at the documented boundaries", () => {
    expect(tasGradeFor(100)).toBe("A");
    expect(tasGradeFor(85)).toBe("A");
    expect(tasGradeFor(84.9)).toBe("B");
    expect(tasGradeFor(70)).toBe("B");
    expect(tasGradeFor(69.9)).toBe("C");
    expect(tasGradeFor(55)).toBe("C");
    expect(tasGradeFor(54.9)).toBe("D");
    expect(tasGradeFor(40)).toBe("D");
    expect(tasGradeFor(39.9)).toBe("E");
    expect(tasGradeFor(25)).toBe("E");
    expect(tasGradeFor(24.9)).toBe("F");
    expect(tasGradeFor(0)).toBe("F");
  });
  it("mileage ratio score: 90 % → 100, 100 % → 85, 150 % → 0", () => {
    expect(mileageRatioScore(0.5)).toBe(100);
    expect(mileageRatioScore(0.9)).toBe(100);
    expect(mileageRatioScore(1)).toBeCloseTo(85, 10);
    expect(mileageRatioScore(1.5)).toBe(0);
    expect(mileageRatioScore(3)).toBe(0);
  });
  it("emission proxy from declaration, else powertrain and year", () => {
    expect(emissionBand("BEV", null, 2005)).toBe("zero_emission");
    expect(emissionBand("ICE", "Euro 6d-TEMP", 2005)).toBe("euro6_or_newer");
    expect(emissionBand("ICE", "EURO5", null)).toBe("euro5");
    expect(emissionBand("ICE", "euro IV", null)).toBe("euro4");
    expect(emissionBand("ICE", null, 2016)).toBe("euro6_or_newer");
    expect(emissionBand("ICE", null, 2012)).toBe("euro5");
    expect(emissionBand("ICE", null, 2007)).toBe("euro4");
    expect(emissionBand("ICE", null, 2001)).toBe("euro3_or_older");
    expect(emissionBand("ICE", null, null)).toBeNull();
  });
});

describe("computeTas: knockouts", () => {
  it("SoH below 60 % forces F with soh_below_60; exactly 60 % does not", () => {
    const r = computeTas(base({ battery: { soh_pct: 59.9, soh_trend_pp_per_year: null } }), { now });
    expect(r.tas_grade).toBe("F");
    expect(r.knockout_flags).toEqual(["soh_below_60"]);
    expect(r.tas_score).toBeLessThanOrEqual(KNOCKOUT_SCORE_CAP);
    const ok = computeTas(base({ battery: { soh_pct: 60, soh_trend_pp_per_year: null } }), { now });
    expect(ok.knockout_flags).toEqual([]);
  });
  it("odometer manipulation forces F even with perfect pillars", () => {
    const r = computeTas(base({ odometer_manipulation: true, battery: { soh_pct: 100, soh_trend_pp_per_year: 0 } }), { now });
    expect(r.tas_grade).toBe("F");
    expect(r.knockout_flags).toEqual(["odometer_manipulation"]);
  });
  it("both knockouts are listed", () => {
    const r = computeTas(base({ odometer_manipulation: true, battery: { soh_pct: 50, soh_trend_pp_per_year: null } }), { now });
    expect(r.knockout_flags).toEqual(["soh_below_60", "odometer_manipulation"]);
  });
  it("any knockout → F over random inputs", () => {
    const r = rng(7);
    for (let i = 0; i < 500; i++) {
      const out = computeTas(randomInput(r), { now });
      if (out.knockout_flags.length > 0) {
        expect(out.tas_grade).toBe("F");
        expect(out.tas_score).toBeLessThanOrEqual(KNOCKOUT_SCORE_CAP);
      }
    }
  });
});

describe("computeTas: properties (seeded loops)", () => {
  it("is bounded: score and every pillar in [0, 100], grade consistent with the score", () => {
    const r = rng(42);
    for (let i = 0; i < 2000; i++) {
      const out = computeTas(randomInput(r), { now });
      expect(out.tas_score).toBeGreaterThanOrEqual(0);
      expect(out.tas_score).toBeLessThanOrEqual(100);
      expect(Number.isFinite(out.tas_score)).toBe(true);
      for (const p of TAS_PILLARS) {
        expect(out.pillars[p].score).toBeGreaterThanOrEqual(0);
        expect(out.pillars[p].score).toBeLessThanOrEqual(100);
      }
      if (out.knockout_flags.length === 0) expect(out.tas_grade).toBe(tasGradeFor(out.tas_score));
    }
  });

  it("is deterministic: the same input gives the same output and the input is not mutated", () => {
    const r = rng(1);
    for (let i = 0; i < 300; i++) {
      const input = randomInput(r);
      const copy = structuredClone(input);
      const a = computeTas(input, { now });
      const b = computeTas(copy, { now });
      expect(a).toEqual(b);
      expect(input).toEqual(copy);
    }
  });

  it("lower SoH (all else equal) never raises the battery pillar or the TAS", () => {
    const r = rng(99);
    for (let i = 0; i < 500; i++) {
      const input = randomInput(r);
      const hi = 40 + r() * 60;
      const lo = hi - r() * 40;
      const a = computeTas({ ...input, battery: { ...input.battery, soh_pct: hi } }, { now });
      const b = computeTas({ ...input, battery: { ...input.battery, soh_pct: lo } }, { now });
      expect(b.pillars.battery_health.score).toBeLessThanOrEqual(a.pillars.battery_health.score);
      expect(b.tas_score).toBeLessThanOrEqual(a.tas_score);
    }
  });

  it("strictly lower SoH lowers the battery pillar in the graded range", () => {
    const s = (soh: number) => computeTas(base({ battery: { soh_pct: soh, soh_trend_pp_per_year: null } }), { now });
    expect(s(90).pillars.battery_health.score).toBeGreaterThan(s(80).pillars.battery_health.score);
    expect(s(90).tas_score).toBeGreaterThan(s(80).tas_score);
  });

  it("faster-than-average degradation lowers the battery pillar", () => {
    const s = (trend: number) => computeTas(base({ battery: { soh_pct: 90, soh_trend_pp_per_year: trend } }), { now });
    expect(s(-2).pillars.battery_health.score).toBe(75);
    expect(s(-5.3).pillars.battery_health.score).toBe(60);
    expect(s(-50).pillars.battery_health.score).toBe(55);
  });
});

describe("computeTas: missing data and confidence", () => {
  const order = { high: 2, medium: 1, low: 0 } as const;

  it("missing pillars fall back to neutral 50 with source insufficient_data", () => {
    const r = computeTas(
      base({
        battery: { soh_pct: null, soh_trend_pp_per_year: null },
        behaviour: { period_days: 30, period_km: null, speeding: null, night_share: null, icy_share: null, harsh_events: null },
      }),
      { now },
    );
    expect(r.pillars.battery_health).toEqual({ score: 50, source: "insufficient_data" });
    expect(r.pillars.usage_behaviour).toEqual({ score: 50, source: "insufficient_data" });
    expect(r.confidence).toBe("low");
  });

  it("an ICE's battery pillar is not applicable and does not lower confidence", () => {
    const r = computeTas(base({ powertrain: "ICE", fuel_type: "petrol", battery: { soh_pct: null, soh_trend_pp_per_year: null } }), { now });
    expect(r.pillars.battery_health.source).toBe("not_applicable");
    expect(r.confidence).toBe("high");
  });

  it("confidence drops for one missing pillar, stale data, or low coverage", () => {
    expect(computeTas(base(), { now }).confidence).toBe("high");
    expect(computeTas(base({ battery: { soh_pct: null, soh_trend_pp_per_year: null } }), { now }).confidence).toBe("medium");
    expect(computeTas(base({ data: { latest_telemetry_at: new Date("2026-11-01T00:00:00Z"), coverage_pct: 90 } }), { now }).confidence).toBe("medium");
    expect(computeTas(base({ data: { latest_telemetry_at: null, coverage_pct: null } }), { now }).confidence).toBe("low");
    expect(computeTas(base({ data: { latest_telemetry_at: new Date("2026-11-20T11:00:00Z"), coverage_pct: 20 } }), { now }).confidence).toBe("medium");
  });

  it("removing data never raises confidence (seeded)", () => {
    const r = rng(2024);
    for (let i = 0; i < 500; i++) {
      const input = randomInput(r);
      const full = computeTas(input, { now });
      const stripped = computeTas(
        {
          ...input,
          battery: { soh_pct: null, soh_trend_pp_per_year: null },
          data: { latest_telemetry_at: null, coverage_pct: input.data.coverage_pct },
        },
        { now },
      );
      expect(order[stripped.confidence]).toBeLessThanOrEqual(order[full.confidence]);
    }
  });

  it("stays a full answer when every input is unknown", () => {
    const r = computeTas(
      {
        device_id: "x",
        powertrain: null,
        fuel_type: null,
        asset_class: null,
        year: null,
        age_months: null,
        battery: { soh_pct: null, soh_trend_pp_per_year: null },
        mileage: { odometer_km: null, km_per_year: null, contract_km: null, lease_months: null },
        behaviour: { period_days: 30, period_km: null, speeding: null, night_share: null, icy_share: null, harsh_events: null },
        compliance: { active_dtcs: null, weak_12v: null, emissions_class: null },
        odometer_manipulation: null,
        data: { latest_telemetry_at: null, coverage_pct: null },
      },
      { now },
    );
    expect(r.tas_score).toBe(50);
    expect(r.tas_grade).toBe("D");
    expect(r.confidence).toBe("low");
    for (const p of TAS_PILLARS) expect(r.pillars[p].source).toBe("insufficient_data");
  });
});

describe("tas-2027.01 (issue 8): battery pillar, knockouts on evidence, regulatory pillar", () => {
  it("the battery pillar is monotone over plausible SoH (fixed trend)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.option(fc.double({ min: -20, max: 5, noNaN: true })),
        (a, b, trend) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const at = (soh: number) => computeTas(base({ battery: { soh_pct: soh, soh_trend_pp_per_year: trend } }), { now }).pillars.battery_health.score;
          expect(at(lo)).toBeLessThanOrEqual(at(hi));
        },
      ),
    );
  });

  it("SoH 0 is not a reading: no knockout, no battery score from it (was F 'SoH 0 %' and pillar 50 above SoH 61's 2.5)", () => {
    const zero = computeTas(base({ battery: { soh_pct: 0, soh_trend_pp_per_year: null } }), { now });
    expect(zero.knockout_flags).toEqual([]);
    expect(zero.pillars.battery_health.source).toBe("insufficient_data");
    expect(computeTas(base({ battery: { soh_pct: 61, soh_trend_pp_per_year: null } }), { now }).pillars.battery_health.score).toBeGreaterThan(0);
  });

  it("a knockout names its evidence in data_quality", () => {
    const at = new Date("2026-11-01T00:00:00Z");
    const r = computeTas(base({ battery: { soh_pct: 55, soh_at: at, soh_trend_pp_per_year: null } }), { now });
    expect(r.tas_grade).toBe("F");
    expect(r.data_quality.knockout_evidence).toEqual([
      expect.objectContaining({ knockout: "soh_below_60", readings: [{ role: "latest_plausible_soh", value: 55, unit: "%", at: at.toISOString() }] }),
    ]);
    const odo = computeTas(
      base({
        odometer_manipulation: true,
        odometer_evidence: {
          highest: { km: 80_000, at: new Date("2026-10-01T00:00:00Z") },
          firstLower: { km: 15_000, at: new Date("2026-10-02T00:00:00Z") },
          latest: { km: 15_100, at: new Date("2026-10-03T00:00:00Z") },
          readingsSince: 2,
        },
      }),
      { now },
    );
    expect(odo.knockout_flags).toEqual(["odometer_manipulation"]);
    expect(odo.data_quality.knockout_evidence[0]).toMatchObject({ knockout: "odometer_manipulation", readings_since: 2 });
    expect(odo.data_quality.knockout_evidence[0]!.readings.map((x) => x.role)).toEqual(["highest_earlier", "first_lower", "latest"]);
  });

  it("flagged SoH readings appear in data_quality.excluded_readings", () => {
    const r = computeTas(
      base({ battery: { soh_pct: 90, soh_trend_pp_per_year: null, soh_flags: [{ pct: 0, at: new Date("2026-11-19T00:00:00Z"), reason: "implausible_value" }] } }),
      { now },
    );
    expect(r.data_quality.excluded_readings).toEqual([expect.objectContaining({ signal: "soh_pct", value: 0, reason: "implausible_value" })]);
  });

  it("regulatory pillar: distinct problems by relevance; a repeated code counts once; a safety code weighs more than a comfort code", () => {
    const reg = (active_dtcs: string[] | null, weak_12v: boolean | null = false) =>
      computeTas(base({ compliance: { active_dtcs, weak_12v, emissions_class: null } }), { now }).pillars.regulatory_compliance.score;
    expect(reg([])).toBe(100);
    expect(reg(["C0035"])).toBeLessThan(reg(["B1234"]));
    expect(reg(["P0301", "p0301 ", "P0301"])).toBe(reg(["P0301"]));
    expect(reg([], true)).toBeLessThan(reg([], false));
    // Driving is not regulatory: the pillar has no alert input at all.
    expect(Object.keys(base().compliance).sort()).toEqual(["active_dtcs", "emissions_class", "weak_12v"]);
  });

  it("HEV without SoH: battery not applicable (the same rule as vehicle health)", () => {
    const r = computeTas(base({ powertrain: "HEV", battery: { soh_pct: null, soh_trend_pp_per_year: null } }), { now });
    expect(r.pillars.battery_health.source).toBe("not_applicable");
  });
});

describe("usage_behaviour from measured behaviour (tas-2027.01)", () => {
  const usage = (behaviour: Partial<TasInput["behaviour"]>) => computeTas(base({ behaviour: { ...base().behaviour, ...behaviour } }), { now }).pillars.usage_behaviour;

  it("is a rate over exposure: speeding share of the distance, not a count of overspeed alerts", () => {
    const calm = usage({ harsh_events: 0 });
    // 4 % of the distance above 130 km/h: index 40 × 0.6 = 24 points.
    const speeder = usage({ harsh_events: 0, speeding: { over_130_share: 0.04, over_160_share: 0, basis: "distance", exposure_km: 1500, exposure_hours: 15 } });
    expect(calm.score).toBe(100);
    expect(speeder.score).toBeCloseTo(76, 6);
    // Severe band costs more.
    const severe = usage({ harsh_events: 0, speeding: { over_130_share: 0.04, over_160_share: 0.02, basis: "distance", exposure_km: 1500, exposure_hours: 15 } });
    expect(severe.score).toBeLessThan(speeder.score);
  });

  it("weights harsh events by severity band and rates them per km", () => {
    const moderate = usage({ harsh_events: 3, harsh_events_weighted: 3 });
    const severe = usage({ harsh_events: 3, harsh_events_weighted: 6 });
    expect(moderate.score).toBeCloseTo(80, 6); // 2 per 1,000 km × 10
    expect(severe.score).toBeLessThan(moderate.score);
    expect(usage({ harsh_events: 3, harsh_events_weighted: 3, period_km: 3000 }).score).toBeGreaterThan(moderate.score);
  });

  it("counts night and near-freezing exposure, and is insufficient without speed or events", () => {
    expect(usage({ harsh_events: 0, night_share: 0.5 }).score).toBeCloseTo(90, 6);
    expect(usage({ harsh_events: 0, icy_share: 1 }).score).toBeCloseTo(90, 6);
    expect(usage({ speeding: null, harsh_events: null })).toEqual({ score: 50, source: "insufficient_data" });
    expect(usage({ period_km: 50 })).toEqual({ score: 50, source: "insufficient_data" });
  });
});
