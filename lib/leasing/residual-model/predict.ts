/**
 * Predicting from a fitted model file: the point estimate, its prediction interval, whether the inputs
 * lie inside the calibration range, the confidence that follows, and the direction of each input's
 * effect (the `factors` of endpoint 20). Pure: no clock, no database.
 */
import { expectedSohPct, normalMileageKm } from "@/lib/leasing/residual-value-rules";
import { excessKm, featureRow, MODEL_FEATURES, sohDeficitPp, type VehicleFeatures } from "./features";
import type { ResidualModelFile } from "./model-file";

export interface ResidualPrediction {
  /** Value retained, percent of the original price (unrounded). */
  pct: number;
  lowPct: number;
  highPct: number;
  /** Half the interval's width relative to the estimate. */
  relativeHalfWidth: number;
  /** The model inputs outside the range the model was calibrated on (query parameter names). */
  outsideTrainingRange: ("age_months" | "odometer_km" | "battery_soh_pct" | "powertrain")[];
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

export function predictResidual(model: ResidualModelFile, v: VehicleFeatures): ResidualPrediction {
  const x = featureRow(v);
  const beta = model.features.map((f) => model.coefficients[f]);
  const mean = dot(x, beta);
  // Leverage x'(X'X)⁻¹x, scaled by the design effect (synthesised rows repeat information).
  const leverage = dot(x, model.xtx_inverse.map((row) => dot(row, x)));
  const seLog = model.residual_se * Math.sqrt(1 + model.design_effect * leverage);
  const half = model.t_quantile * seLog;
  const pct = 100 * Math.exp(mean);
  const lowPct = 100 * Math.exp(mean - half);
  const highPct = 100 * Math.exp(mean + half);
  const r = model.training_range;
  const outside: ResidualPrediction["outsideTrainingRange"] = [];
  if (v.ageMonths < r.age_months[0] || v.ageMonths > r.age_months[1]) outside.push("age_months");
  const excess = excessKm(v.ageMonths, v.odometerKm);
  const deficit = sohDeficitPp(v.ageMonths, v.sohPct);
  if (excess < r.excess_km[0] || excess > r.excess_km[1]) outside.push("odometer_km");
  if (deficit < r.soh_deficit_pp[0] || deficit > r.soh_deficit_pp[1]) outside.push("battery_soh_pct");
  if (!r.powertrain.includes(v.powertrain)) outside.push("powertrain");
  return { pct, lowPct, highPct, relativeHalfWidth: (highPct - lowPct) / 2 / pct, outsideTrainingRange: outside };
}

/**
 * Confidence from the interval (FDP's cut-offs; no published standard exists): a 90 % interval within
 * ±15 % of the estimate is high, within ±30 %
 * medium, wider is low; any input outside the calibration range is low whatever the width (the interval
 * assumes the log-linear form holds there, which the data cannot show). rv-2027.01's narrowest interval
 * is about ±23 %, so it answers medium at best: the published figures it is fitted on scatter widely.
 */
export const CONFIDENCE_HALF_WIDTH = { high: 0.15, medium: 0.3 } as const;

export function confidenceOf(p: ResidualPrediction): "high" | "medium" | "low" {
  if (p.outsideTrainingRange.length > 0) return "low";
  if (p.relativeHalfWidth <= CONFIDENCE_HALF_WIDTH.high) return "high";
  if (p.relativeHalfWidth <= CONFIDENCE_HALF_WIDTH.medium) return "medium";
  return "low";
}

/**
 * The typical vehicle `factors` compares against: a BEV of the published rows' mean age, at the normal
 * mileage and the fleet-average SoH for that age (zero excess kilometres, zero SoH deficit: the
 * rule-based method's normal car). A car older than it shows age as a negative factor; mileage and SoH
 * count against the normal for the car's OWN age, as the model does.
 */
export function referenceVehicle(model: ResidualModelFile): VehicleFeatures {
  const ageMonths = model.reference.age_months;
  return { ageMonths, odometerKm: normalMileageKm(ageMonths), sohPct: expectedSohPct(ageMonths), powertrain: "BEV" };
}

export type FactorFeature = "age_months" | "odometer_km" | "battery_soh_pct" | "powertrain";

const FEATURE_INPUT: Record<(typeof MODEL_FEATURES)[number], FactorFeature | null> = {
  intercept: null,
  age_years: "age_months",
  excess_10k_km: "odometer_km",
  soh_deficit_pp: "battery_soh_pct",
  phev: "powertrain",
};

/**
 * Which inputs moved THIS prediction, and which way: the sign of coefficient × (value − reference) for
 * each feature, against the reference vehicle of the same age. Features with no effect here (equal to
 * the reference, or held at zero by the fit) are left out. Directions only, never the weights (SPEC 2.16).
 */
export function factorsOf(model: ResidualModelFile, v: VehicleFeatures): { feature: FactorFeature; direction: "positive" | "negative" }[] {
  const x = featureRow(v);
  const ref = featureRow(referenceVehicle(model));
  const out: { feature: FactorFeature; direction: "positive" | "negative" }[] = [];
  model.features.forEach((f, j) => {
    const input = FEATURE_INPUT[f];
    const effect = model.coefficients[f] * (x[j]! - ref[j]!);
    if (input === null || Math.abs(effect) < 1e-6) return;
    out.push({ feature: input, direction: effect > 0 ? "positive" : "negative" });
  });
  return out;
}
