import { describe, expect, it } from "vitest";
import { buildResidualPrediction } from "@/lib/leasing/predict-residual-value";
import { CURRENT_RESIDUAL_MODEL as model } from "@/lib/leasing/residual-model/current-model";
import type { VehicleFeatures } from "@/lib/leasing/residual-model/features";
import { CONFIDENCE_HALF_WIDTH, confidenceOf, factorsOf, predictResidual, referenceVehicle } from "@/lib/leasing/residual-model/predict";
import { expectedSohPct, normalMileageKm } from "@/lib/leasing/residual-value-rules";
import { dataQualityOf, resolveInputs, type DeviceResidualFacts } from "@/lib/leasing/residual-model/resolve-inputs";
import { residualModelQuerySchema, residualValuePredictionSchema, type ResidualModelQuery } from "@/lib/schemas/leasing-residual-model";

const NOW = new Date("2026-11-24T12:00:00Z");
const base: VehicleFeatures = { ageMonths: 36, odometerKm: 45_000, sohPct: 93, powertrain: "BEV" };
const ages12to72 = Array.from({ length: 61 }, (_, i) => 12 + i);
const pct = (v: Partial<VehicleFeatures>) => predictResidual(model, { ...base, ...v }).pct;

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

describe("prediction is monotone in age and the wear inputs", () => {
  it("older → lower at the same excess mileage and SoH deficit (the normal car of each age)", () => {
    for (const age of [12, 24, 36, 48, 60]) expect(pct(normalAt(age + 12))).toBeLessThan(pct(normalAt(age)));
  });

  it("older → lower at the same excess mileage and SoH deficit, for a worn car too", () => {
    const worn = (age: number) => ({ ageMonths: age, odometerKm: normalMileageKm(age) + 30_000, sohPct: expectedSohPct(age) - 6 });
    for (const age of [12, 36, 60]) expect(pct(worn(age + 24))).toBeLessThan(pct(worn(age)));
  });

  it("never rises with age at the same raw odometer and SoH reading, month by month from 12 to 72 months", () => {
    for (const odometerKm of [15_000, 45_000, 90_000, 150_000])
      for (const sohPct of [97, 92, 85]) {
        const curve = ages12to72.map((ageMonths) => pct({ ageMonths, odometerKm, sohPct }));
        curve.slice(1).forEach((v, i) => expect(v, `${odometerKm} km, SoH ${sohPct}, ${ages12to72[i + 1]} months`).toBeLessThanOrEqual(curve[i]! * (1 + 1e-12)));
        // rv-2027.01 lies on this constraint's boundary: an older car with the same odometer and SoH gets the same estimate.
        expect(curve.at(-1)! / curve[0]!).toBeCloseTo(1, 10);
      }
  });

  it("never rises with age at the same raw odometer and a battery the same distance below the average for the age", () => {
    for (const odometerKm of [30_000, 90_000])
      for (const below of [0, 3, 6]) {
        const curve = ages12to72.map((ageMonths) => pct({ ageMonths, odometerKm, sohPct: expectedSohPct(ageMonths) - below }));
        curve.slice(1).forEach((v, i) => expect(v, `${odometerKm} km, ${below} pp below average, ${ages12to72[i + 1]} months`).toBeLessThanOrEqual(curve[i]! * (1 + 1e-12)));
      }
  });

  it("older at the normal mileage (15,000 km a year) and the same SoH → lower", () => {
    for (let age = 12; age < 72; age += 6) expect(pct({ ageMonths: age + 6, odometerKm: normalMileageKm(age + 6), sohPct: 92 })).toBeLessThan(pct({ ageMonths: age, odometerKm: normalMileageKm(age), sohPct: 92 }));
  });

  it("more kilometres → lower value", () => {
    for (const km of [0, 20_000, 60_000, 150_000]) expect(pct({ odometerKm: km + 10_000 })).toBeLessThan(pct({ odometerKm: km }));
  });

  it("lower SoH → lower value", () => {
    for (const soh of [100, 95, 88, 75]) expect(pct({ sohPct: soh - 5 })).toBeLessThan(pct({ sohPct: soh }));
  });

  it("a car exactly at the normal mileage and SoH for its age is priced on age and powertrain alone", () => {
    const c = model.coefficients;
    for (const age of [12, 36, 60]) expect(pct(normalAt(age))).toBeCloseTo(100 * Math.exp(c.intercept + c.age_years * (age / 12)), 9);
  });

  it("the interval contains the estimate and is wider where the data are thin (PHEV: two published rows)", () => {
    const bev = predictResidual(model, base);
    const phev = predictResidual(model, { ...base, powertrain: "PHEV" });
    expect(bev.lowPct).toBeLessThan(bev.pct);
    expect(bev.highPct).toBeGreaterThan(bev.pct);
    expect(phev.relativeHalfWidth).toBeGreaterThan(bev.relativeHalfWidth);
  });
});

/** A BEV at the normal mileage (15,000 km a year) and the fleet-average SoH for its age. */
function normalAt(ageMonths: number): VehicleFeatures {
  return { ageMonths, odometerKm: normalMileageKm(ageMonths), sohPct: expectedSohPct(ageMonths), powertrain: "BEV" };
}

describe("confidence", () => {
  it("follows the interval's relative half-width", () => {
    const p = predictResidual(model, base);
    expect(confidenceOf({ ...p, relativeHalfWidth: CONFIDENCE_HALF_WIDTH.high })).toBe("high");
    expect(confidenceOf({ ...p, relativeHalfWidth: CONFIDENCE_HALF_WIDTH.high + 0.01 })).toBe("medium");
    expect(confidenceOf({ ...p, relativeHalfWidth: CONFIDENCE_HALF_WIDTH.medium + 0.01 })).toBe("low");
    expect(confidenceOf(p)).toBe("medium");
  });

  it("is low outside the calibration range, whatever the width", () => {
    const old = predictResidual(model, normalAt(120));
    expect(old.outsideTrainingRange).toEqual(["age_months"]);
    expect(confidenceOf(old)).toBe("low");
    expect(predictResidual(model, { ...base, sohPct: 60 }).outsideTrainingRange).toEqual(["battery_soh_pct"]);
    expect(predictResidual(model, { ...base, odometerKm: 250_000 }).outsideTrainingRange).toEqual(["odometer_km"]);
    // The range is on the deviations the model prices: a 12-month car at the normal 15,000 km is inside,
    // although no calibration row has so few kilometres; a 10-year-old car at 45,000 km is far below normal.
    expect(predictResidual(model, normalAt(12)).outsideTrainingRange).toEqual([]);
    expect(predictResidual(model, { ...base, ageMonths: 120 }).outsideTrainingRange).toEqual(["age_months", "odometer_km", "battery_soh_pct"]);
  });
});

describe("factors", () => {
  it("name the inputs that moved this prediction and which way, never weights", () => {
    const worn = factorsOf(model, { ...base, odometerKm: 90_000, sohPct: 85 });
    // base is 36 months, older than the reference (the published rows' mean age, about 33 months).
    expect(worn).toEqual([
      { feature: "age_months", direction: "negative" },
      { feature: "odometer_km", direction: "negative" },
      { feature: "battery_soh_pct", direction: "negative" },
    ]);
    const kept = factorsOf(model, { ...base, odometerKm: 10_000, sohPct: 99, powertrain: "PHEV" });
    expect(kept).toEqual([
      { feature: "age_months", direction: "negative" },
      { feature: "odometer_km", direction: "positive" },
      { feature: "battery_soh_pct", direction: "positive" },
      { feature: "powertrain", direction: "positive" },
    ]);
    for (const f of kept) expect(Object.keys(f).sort()).toEqual(["direction", "feature"]);
  });

  it("are empty for the reference vehicle itself", () => {
    expect(factorsOf(model, referenceVehicle(model))).toEqual([]);
  });

  it("name age negative for a normal car older than the reference, positive for a younger one", () => {
    const refAge = model.reference.age_months;
    expect(factorsOf(model, normalAt(refAge + 12))).toEqual([{ feature: "age_months", direction: "negative" }]);
    expect(factorsOf(model, normalAt(refAge - 12))).toEqual([{ feature: "age_months", direction: "positive" }]);
  });
});

describe("resolving the inputs", () => {
  it("the query wins over master data and telemetry", () => {
    const r = resolveInputs({ query: query({ odometer_km: "10000", battery_soh_pct: "99", age_months: "6", powertrain: "PHEV" }), device: device(), model, now: NOW });
    expect(r.features).toEqual({ ageMonths: 6, odometerKm: 10_000, sohPct: 99, powertrain: "PHEV" });
    for (const k of ["odometer_km", "battery_soh_pct", "age_months", "powertrain"] as const) expect(r.inputs[k]).toMatchObject({ status: "supplied", source: "query", used_by_model: true });
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

  it("takes the age from the query's year (from 1 July), then from the master year when there is no lease start", () => {
    expect(resolveInputs({ query: query({ year: "2024" }), device: device(), model, now: NOW }).inputs.age_months).toMatchObject({ status: "derived", source: "query.year", value: 28 });
    expect(resolveInputs({ query: query(), device: device({ lease_start: null, year: 2022 }), model, now: NOW }).inputs.age_months).toMatchObject({ source: "master_data.year", value: 52 });
    // A model year still in the future is age 0, not negative.
    expect(resolveInputs({ query: query({ year: "2027" }), device: device(), model, now: NOW }).features.ageMonths).toBe(0);
  });

  it("fills a missing odometer and SoH with the typical values for the age and says so", () => {
    const r = resolveInputs({ query: query(), device: device({ latest_odometer: null, soh: null }), model, now: NOW });
    expect(r.inputs.odometer_km).toMatchObject({ status: "missing", source: "imputed.typical_for_age" });
    expect(r.inputs.battery_soh_pct).toMatchObject({ status: "missing", source: "imputed.typical_for_age", value: 93.1 });
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
        odometer_rollback: { highest: { km: 80_200, at: at("2026-11-10") }, firstLower: { km: 15_000, at: at("2026-11-12") }, latest: { km: 15_080, at: at("2026-11-20") }, readingsSince: 3 },
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
    expect(a.model_version).toBe("rv-2027.01");
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
