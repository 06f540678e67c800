import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildResidualPrediction } from "@/lib/leasing/predict-residual-value";
import { CURRENT_RESIDUAL_MODEL as model } from "@/lib/leasing/residual-model/current-model";
import { priorRetention, type VehicleFeatures } from "@/lib/leasing/residual-model/features";
import { confidenceOf, factorsOf, predictResidual, referenceVehicle, valueOf } from "@/lib/leasing/residual-model/predict";
import { expectedSohPct, normalMileageKm } from "@/lib/leasing/residual-value-rules";
import { dataQualityOf, resolveInputs, type DeviceResidualFacts } from "@/lib/leasing/residual-model/resolve-inputs";
import { residualModelQuerySchema, residualValuePredictionSchema, type ResidualModelQuery } from "@/lib/schemas/leasing-residual-model";

const NOW = new Date("2026-11-24T12:00:00Z");
const base: VehicleFeatures = { ageMonths: 36, odometerKm: 45_000, sohPct: 93, powertrain: "BEV" };
const pct = (v: Partial<VehicleFeatures>) => predictResidual(model, { ...base, ...v }).pct;
const round1 = (x: number) => Math.round(x * 10) / 10;

const device = (over: Partial<DeviceResidualFacts> = {}): DeviceResidualFacts => ({
  device_id: "dev-1",
  make: "Kia",
  model: "EV6",
  year: 2023,
  powertrain: "BEV",
  battery_kwh: 77.4,
  original_price_eur: 54_000,
  lease_start: "2023-11-24",
  latest_odometer: { km: 60_000, at: new Date("2026-11-20T00:00:00Z") },
  odometer_rollback: null,
  soh: { pct: 91, at: new Date("2026-11-20T00:00:00Z") },
  entitlements: [],
  ...over,
});
const query = (q: Record<string, string> = {}): ResidualModelQuery => residualModelQuerySchema.parse(q);

const powertrain = fc.constantFrom("BEV" as const, "PHEV" as const);
const soh = fc.option(fc.double({ min: 1, max: 100, noNaN: true }), { nil: null });
const odometer = fc.double({ min: 0, max: 2_000_000, noNaN: true });

describe("CONTRACT: monotone in age and SoH (property tests over the whole input range)", () => {
  it("at equal odometer, SoH and powertrain an older vehicle is valued strictly lower (a difference in age alone changes the value), never higher after rounding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 599 }), fc.integer({ min: 1, max: 120 }), odometer, soh, powertrain, (age, older, odometerKm, sohPct, pt) => {
        const young = predictResidual(model, { ageMonths: age, odometerKm, sohPct, powertrain: pt }).pct;
        const old = predictResidual(model, { ageMonths: Math.min(600, age + older), odometerKm, sohPct, powertrain: pt }).pct;
        if (age + older > 600) return;
        expect(old).toBeLessThan(young);
        expect(round1(old)).toBeLessThanOrEqual(round1(young));
      }),
      { numRuns: 3000, seed: 27 },
    );
  });

  it("between 12 and 120 months at ordinary odometers and SoH, a year of age alone moves even the rounded answer", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 12, max: 108 }),
        fc.double({ min: 0, max: 300_000, noNaN: true }),
        fc.option(fc.double({ min: 60, max: 100, noNaN: true }), { nil: null }),
        powertrain,
        (age, odometerKm, sohPct, pt) => {
          const young = predictResidual(model, { ageMonths: age, odometerKm, sohPct, powertrain: pt }).pct;
          const old = predictResidual(model, { ageMonths: age + 12, odometerKm, sohPct, powertrain: pt }).pct;
          expect(round1(old)).toBeLessThan(round1(young));
        },
      ),
      { numRuns: 2000, seed: 27 },
    );
  });

  it("at equal age, odometer and powertrain a lower SoH gives a strictly lower value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 600 }),
        odometer,
        fc.double({ min: 1, max: 100, noNaN: true }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        powertrain,
        (ageMonths, odometerKm, high, drop, pt) => {
          const low = Math.max(0.5, high - drop);
          if (low >= high) return;
          expect(predictResidual(model, { ageMonths, odometerKm, sohPct: low, powertrain: pt }).pct).toBeLessThan(
            predictResidual(model, { ageMonths, odometerKm, sohPct: high, powertrain: pt }).pct,
          );
        },
      ),
      { numRuns: 3000, seed: 27 },
    );
  });

  it("more kilometres never raise the value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 600 }), odometer, fc.double({ min: 1, max: 200_000, noNaN: true }), soh, powertrain, (ageMonths, odometerKm, more, sohPct, pt) => {
        expect(predictResidual(model, { ageMonths, odometerKm: odometerKm + more, sohPct, powertrain: pt }).pct).toBeLessThanOrEqual(
          predictResidual(model, { ageMonths, odometerKm, sohPct, powertrain: pt }).pct,
        );
      }),
      { numRuns: 1000, seed: 27 },
    );
  });
});

describe("the constructed vehicles of issue 27 (rv-2027.01 valued them 53.3, 52.7 and 52.2 %)", () => {
  const a = pct({ ageMonths: 12, odometerKm: 10_000, sohPct: 95 });
  const b = pct({ ageMonths: 12, odometerKm: 10_000, sohPct: 75 });
  const c = pct({ ageMonths: 72, odometerKm: 15_000, sohPct: null });

  it("the battery: 20 SoH points lower is worth about 0.5 % of the value per point less (Autovista), exactly the prior's factor", () => {
    expect(b).toBeLessThan(a);
    expect(b / a).toBeCloseTo(Math.exp(-0.005 * 20), 9);
  });

  it("the age: a 6-year-old car is worth far less than a 1-year-old one, even at a similar odometer", () => {
    expect(c).toBeLessThan(b);
    expect(a - c).toBeGreaterThan(15);
  });

  it("high mileage keeps lowering the value (no cliff): 140,000 > 200,000 > 300,000 km at 72 months", () => {
    const [k140, k200, k300] = [140_000, 200_000, 300_000].map((odometerKm) => pct({ ageMonths: 72, odometerKm, sohPct: null }));
    expect(k200!).toBeLessThan(k140!);
    expect(k300!).toBeLessThan(k200!);
  });
});

describe("the estimate and its prior", () => {
  it("is the prior (the rule-based value) times the fitted adjustment; with estimate_source rule_based it would be the prior alone", () => {
    const v: VehicleFeatures = { ageMonths: 30, odometerKm: 50_000, sohPct: 90, powertrain: "BEV" };
    const p = predictResidual(model, v);
    expect(p.rulePct).toBeCloseTo(100 * priorRetention(v), 9);
    expect(p.pct).toBeCloseTo(model.estimate_source === "model" ? p.modelPct : p.rulePct, 9);
    expect(predictResidual({ ...model, estimate_source: "rule_based" }, v).pct).toBeCloseTo(p.rulePct, 9);
  });

  it("a SoH not measured gets no battery adjustment: the same as a battery exactly at the average for its age", () => {
    expect(pct({ ageMonths: 40, sohPct: null })).toBeCloseTo(pct({ ageMonths: 40, sohPct: expectedSohPct(40) }), 9);
  });

  it("the interval contains the estimate", () => {
    for (const v of [base, { ...base, powertrain: "PHEV" as const }, { ...base, ageMonths: 12 }, { ...base, ageMonths: 60, odometerKm: 75_000 }]) {
      const p = predictResidual(model, v);
      expect(p.lowPct).toBeLessThan(p.pct);
      expect(p.highPct).toBeGreaterThan(p.pct);
    }
  });
});

describe("confidence and its reasons", () => {
  const conf = (v: VehicleFeatures, missingInputs: ("age_months" | "odometer_km")[] = []) =>
    confidenceOf(model, predictResidual(model, v), { missingInputs, sohNotMeasured: v.sohPct === null });

  it("a normal car inside the calibration range: no worse than medium, and anything below high says why", () => {
    const c = conf({ ageMonths: 36, odometerKm: 45_000, sohPct: expectedSohPct(36), powertrain: "BEV" });
    expect(c.confidence).not.toBe("low");
    if (c.confidence !== "high") expect(c.reasons.length).toBeGreaterThan(0);
  });

  it("is low outside the calibration range and says which input", () => {
    const c = conf({ ...base, ageMonths: 140 });
    expect(c.confidence).toBe("low");
    expect(c.reasons.join(" ")).toMatch(/calibration range \(age_months/);
    expect(conf({ ...base, sohPct: 30 }).reasons.join(" ")).toMatch(/battery_soh_pct/);
  });

  it("a SoH not measured caps it at medium and says so; an unknown age makes it low", () => {
    const c = conf({ ageMonths: 36, odometerKm: 45_000, sohPct: null, powertrain: "BEV" });
    expect(c.confidence).not.toBe("high");
    expect(c.reasons.join(" ")).toMatch(/state of health not measured/);
    expect(conf(base, ["age_months"]).confidence).toBe("low");
  });
});

describe("factors", () => {
  it("name the inputs that moved this prediction and which way, never weights", () => {
    expect(factorsOf(model, { ageMonths: 48, odometerKm: 90_000, sohPct: 85, powertrain: "BEV" })).toEqual([
      { feature: "age_months", direction: "negative" },
      { feature: "odometer_km", direction: "negative" },
      { feature: "battery_soh_pct", direction: "negative" },
    ]);
    expect(factorsOf(model, { ageMonths: 12, odometerKm: 5_000, sohPct: 99.5, powertrain: "PHEV" })).toEqual([
      { feature: "age_months", direction: "positive" },
      { feature: "odometer_km", direction: "positive" },
      { feature: "battery_soh_pct", direction: "positive" },
      { feature: "powertrain", direction: "positive" },
    ]);
  });

  it("are empty for the reference vehicle itself, and leave out a SoH that was not measured", () => {
    expect(factorsOf(model, referenceVehicle(model))).toEqual([]);
    const ref = referenceVehicle(model);
    expect(factorsOf(model, { ...ref, ageMonths: 50, odometerKm: normalMileageKm(50), sohPct: null }).map((f) => f.feature)).toEqual(["age_months"]);
    expect(valueOf(model, ref)).toBeGreaterThan(0);
  });
});

describe("resolving the inputs", () => {
  it("the query wins over master data and telemetry", () => {
    const r = resolveInputs({ query: query({ odometer_km: "10000", battery_soh_pct: "99", age_months: "6", powertrain: "PHEV" }), device: device(), model, now: NOW });
    expect(r.features).toEqual({ ageMonths: 6, odometerKm: 10_000, sohPct: 99, powertrain: "PHEV" });
    for (const k of ["odometer_km", "battery_soh_pct", "age_months", "powertrain"] as const)
      expect(r.inputs[k]).toMatchObject({ status: "supplied", source: "query", used_by_model: true });
  });

  it("falls back to the device: lease start for the age, latest odometer, latest plausible SoH, master powertrain and price", () => {
    const r = resolveInputs({ query: query(), device: device(), model, now: NOW });
    expect(r.features).toEqual({ ageMonths: 36, odometerKm: 60_000, sohPct: 91, powertrain: "BEV" });
    expect(r.inputs.age_months).toMatchObject({ status: "derived", source: "master_data.lease_start", value: 36 });
    expect(r.inputs.odometer_km).toMatchObject({ status: "derived", source: "telemetry.latest_odometer" });
    expect(r.inputs.battery_soh_pct).toMatchObject({ status: "derived", source: "telemetry.latest_plausible_soh" });
    expect(r.inputs.powertrain).toMatchObject({ status: "derived", source: "master_data.powertrain", value: "BEV" });
    expect(r.originalPriceEur).toBe(54_000);
    expect(dataQualityOf(r.inputs)).toBe("high");
  });

  it("a SoH read more than 90 days ago is not today's: the lower of it and the SoH expected at this age, named as such (CONTRACT Evidence and trust)", () => {
    const days = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
    const high = resolveInputs({ query: query(), device: device({ soh: { pct: 99, at: days(91) } }), model, now: NOW });
    expect(high.inputs.battery_soh_pct).toMatchObject({ status: "derived", source: "telemetry.outdated_soh_upper_bound", value: Math.round(expectedSohPct(36) * 10) / 10 });
    expect(high.limitations.join(" ")).toMatch(/not measured in the 90 days up to .*99 % on .* 91 days old/);
    const low = resolveInputs({ query: query(), device: device({ soh: { pct: 70, at: days(400) } }), model, now: NOW });
    expect(low.features.sohPct).toBe(70);
    // 90 days old still counts as measured.
    expect(resolveInputs({ query: query(), device: device({ soh: { pct: 99, at: days(90) } }), model, now: NOW }).inputs.battery_soh_pct).toMatchObject({
      source: "telemetry.latest_plausible_soh",
      value: 99,
    });
    // The old high reading earns no more than an as-expected battery; the old low one still costs value.
    expect(valueOf(model, high.features)).toBeCloseTo(valueOf(model, { ...high.features, sohPct: expectedSohPct(36) }), 10);
    expect(valueOf(model, low.features)).toBeLessThan(valueOf(model, high.features));
  });

  it("takes the age from the query's year (from 1 July), then from the master year when there is no lease start", () => {
    expect(resolveInputs({ query: query({ year: "2024" }), device: device(), model, now: NOW }).inputs.age_months).toMatchObject({
      status: "derived",
      source: "query.year",
      value: 28,
    });
    expect(resolveInputs({ query: query(), device: device({ lease_start: null, year: 2022 }), model, now: NOW }).inputs.age_months).toMatchObject({
      source: "master_data.year",
      value: 52,
    });
    // A model year still in the future is age 0, not negative.
    expect(resolveInputs({ query: query({ year: "2027" }), device: device(), model, now: NOW }).features.ageMonths).toBe(0);
  });

  it("fills a missing odometer with the typical value for the age, leaves a missing SoH not measured (null, no SoH invented), and says so", () => {
    const r = resolveInputs({ query: query(), device: device({ latest_odometer: null, soh: null }), model, now: NOW });
    expect(r.inputs.odometer_km).toMatchObject({ status: "missing", source: "imputed.typical_for_age" });
    expect(r.inputs.battery_soh_pct).toMatchObject({ status: "missing", source: "not_measured", value: null });
    expect(r.features.sohPct).toBeNull();
    expect(r.limitations.join(" ")).toMatch(/state of health not measured/);
    expect(dataQualityOf(r.inputs)).toBe("low");
    expect(r.limitations).toHaveLength(2);
    expect(dataQualityOf(resolveInputs({ query: query(), device: device({ soh: null }), model, now: NOW }).inputs)).toBe("medium");
  });

  it("uses the highest reading before a rollback, not the clocked one, and says so", () => {
    const at = (d: string) => new Date(`${d}T00:00:00Z`);
    const r = resolveInputs({
      query: query(),
      device: device({
        latest_odometer: { km: 15_080, at: at("2026-11-20") },
        odometer_rollback: {
          highest: { km: 80_200, at: at("2026-11-10") },
          firstLower: { km: 15_000, at: at("2026-11-12") },
          latest: { km: 15_080, at: at("2026-11-20") },
          readingsSince: 3,
        },
      }),
      model,
      now: NOW,
    });
    expect(r.inputs.odometer_km).toMatchObject({ status: "derived", source: "telemetry.highest_before_rollback", value: 80_200 });
    expect(r.limitations.join(" ")).toMatch(/turned back/);
  });

  it("values an ICE or unknown powertrain as a BEV (SPEC default) and records it as missing", () => {
    const ice = resolveInputs({ query: query(), device: device({ powertrain: "ICE" }), model, now: NOW });
    expect(ice.inputs.powertrain).toMatchObject({ status: "missing", value: "BEV", source: "default.spec_4_4" });
    expect(ice.limitations.join(" ")).toMatch(/ICE/);
    expect(resolveInputs({ query: query(), device: device({ powertrain: "PHEV" }), model, now: NOW }).features.powertrain).toBe("PHEV");
  });
});

describe("the answer (pure)", () => {
  const answer = (q: Record<string, string>, d: Partial<DeviceResidualFacts> = {}) =>
    buildResidualPrediction({ input: { device_id: "dev-1", ...query(q) }, device: device(d), model, now: NOW });

  it("carries every SPEC 2.16 field and validates against the response schema", () => {
    const a = answer({});
    expect(residualValuePredictionSchema.parse(a)).toBeTruthy();
    expect(a.model_version).toBe("rv-2027.02");
    expect(a.generated_at).toBe(NOW.toISOString());
    expect(a.estimated_residual_eur).toBe(Math.round((54_000 * predictResidual(model, { ageMonths: 36, odometerKm: 60_000, sohPct: 91, powertrain: "BEV" }).pct) / 100));
  });

  it("has no euro figure without a price, and takes the query's price over master data", () => {
    const none = answer({}, { original_price_eur: null });
    expect(none.estimated_residual_eur).toBeNull();
    expect(none.original_price_eur).toBeNull();
    const q = answer({ original_price_eur: "40000" });
    expect(q.original_price_eur).toBe(40_000);
    const unrounded = predictResidual(model, { ageMonths: 36, odometerKm: 60_000, sohPct: 91, powertrain: "BEV" }).pct;
    expect(q.estimated_residual_eur).toBe(Math.round(400 * unrounded));
    expect(q.inputs.original_price_eur).toMatchObject({ status: "supplied", value: 40_000 });
  });

  it("gives factors only with the residual_factors entitlement", () => {
    expect(answer({}).factors).toBeNull();
    expect(answer({}, { entitlements: ["residual_factors"] }).factors).toEqual(expect.any(Array));
    expect(answer({}, { entitlements: ["something_else"] }).factors).toBeNull();
  });
});
