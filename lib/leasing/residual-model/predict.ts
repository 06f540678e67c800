/**
 * Predicting from a fitted model file: the estimate (the model's, or the rule-based value when the
 * model did not beat the rules out of sample), its prediction interval, whether the inputs lie inside
 * the calibration range, the confidence that follows with its reasons, and the direction of each
 * input's effect (the `factors` of endpoint 20). Pure: no clock, no database.
 */
import { BATTERY_CREDIT_MAX_SOH_POINTS, BATTERY_PCT_PER_SOH_POINT, BATTERY_PENALTY_CAP_PCT, expectedSohPct, normalMileageKm } from "@/lib/leasing/residual-value-rules";
import { excessKm, featureRow, priorRetention, sohDeficitPp, type VehicleFeatures } from "./features";
import { dot, matVec } from "./linalg";
import type { ResidualModelFile } from "./model-file";

type ModelInputName = "age_months" | "odometer_km" | "battery_soh_pct" | "powertrain";

interface ResidualPrediction {
  /** Value retained, percent of the original price (unrounded): the estimate the answer gives. */
  pct: number;
  /** The rule-based value (the prior) and the model's value, both on the trade basis. */
  rulePct: number;
  modelPct: number;
  lowPct: number;
  highPct: number;
  /** Half the interval's width relative to the estimate. */
  relativeHalfWidth: number;
  /** The model inputs outside the range the model was calibrated on (query parameter names). */
  outsideTrainingRange: ModelInputName[];
}

/** The SoH deficit range the battery slope is documented for: the rule-based caps (5 points better, 25 % / 0.5 = 50 points worse for a BEV). */
function sohDeficitRange(powertrain: "BEV" | "PHEV"): [number, number] {
  return [-BATTERY_CREDIT_MAX_SOH_POINTS, BATTERY_PENALTY_CAP_PCT / BATTERY_PCT_PER_SOH_POINT[powertrain]];
}

/** ln(model value / prior) for a vehicle on the answer basis. */
const adjustment = (model: ResidualModelFile, v: VehicleFeatures) =>
  dot(
    featureRow(v),
    model.features.map((f) => model.coefficients[f]),
  );

/** The value of `v` (fraction of the price) the answer gives: the model's, or the prior when estimate_source is rule_based. */
export function valueOf(model: ResidualModelFile, v: VehicleFeatures): number {
  const prior = priorRetention(v);
  return Math.min(1, model.estimate_source === "model" ? prior * Math.exp(adjustment(model, v)) : prior);
}

export function predictResidual(model: ResidualModelFile, v: VehicleFeatures): ResidualPrediction {
  const prior = priorRetention(v);
  const x = featureRow(v);
  const modelValue = Math.min(1, prior * Math.exp(adjustment(model, v)));
  const value = valueOf(model, v);
  // Jackknife half-width from the held-out errors, with the posterior uncertainty of x·b for the answer basis.
  const postVar = model.estimate_source === "model" ? dot(x, matVec(model.posterior_covariance, x)) : 0;
  const half = Math.sqrt(model.interval.loo_half_width_log ** 2 + model.interval.normal_quantile ** 2 * postVar);
  const pct = 100 * value;
  const lowPct = pct * Math.exp(-half);
  const highPct = Math.min(100, pct * Math.exp(half));
  const r = model.training_range;
  const outside: ModelInputName[] = [];
  if (v.ageMonths < r.age_months[0] || v.ageMonths > r.age_months[1]) outside.push("age_months");
  const excess = excessKm(v.ageMonths, v.odometerKm);
  if (excess < r.excess_km[0] || excess > r.excess_km[1]) outside.push("odometer_km");
  if (v.sohPct !== null) {
    const [lo, hi] = sohDeficitRange(v.powertrain);
    const d = sohDeficitPp(v.ageMonths, v.sohPct);
    if (d < lo || d > hi) outside.push("battery_soh_pct");
  }
  if (!r.powertrain.includes(v.powertrain)) outside.push("powertrain");
  return { pct, rulePct: 100 * prior, modelPct: 100 * modelValue, lowPct, highPct, relativeHalfWidth: (highPct - lowPct) / 2 / pct, outsideTrainingRange: outside };
}

/** Interval cut-offs of the confidence (FDP's; no published standard exists): within ±15 % high, ±30 % medium, wider low. */
const CONFIDENCE_HALF_WIDTH = { high: 0.15, medium: 0.3 } as const;

interface ConfidenceContext {
  /** Model inputs with nothing known (filled with a typical value): age, odometer. */
  missingInputs: readonly ModelInputName[];
  /** A plug-in whose SoH was not measured. */
  sohNotMeasured: boolean;
}

const LEVELS = ["low", "medium", "high"] as const;
type Level = (typeof LEVELS)[number];

/**
 * The confidence and, for anything below high, why: each rule caps the level and says what it means.
 *   low     an input outside the calibration range; the age unknown; two or more model inputs unknown;
 *           an interval wider than ±30 %
 *   medium  the SoH not measured (no battery adjustment); one model input unknown; an interval wider
 *           than ±15 %; the answer is the rule-based value (the model did not beat it)
 */
export function confidenceOf(model: ResidualModelFile, p: ResidualPrediction, ctx: ConfidenceContext): { confidence: Level; reasons: string[] } {
  let level: Level = "high";
  const reasons: string[] = [];
  const cap = (to: Level, reason: string) => {
    if (LEVELS.indexOf(to) < LEVELS.indexOf(level)) level = to;
    reasons.push(`${to}: ${reason}`);
  };
  const pm = (x: number) => `±${Math.round(100 * x)} %`;
  if (p.outsideTrainingRange.length > 0)
    cap(
      "low",
      `outside the calibration range (${p.outsideTrainingRange.join(", ")}): the estimate extrapolates the rule-based curve with no published figure behind it, and the interval may not cover the value.`,
    );
  if (ctx.missingInputs.includes("age_months")) cap("low", "the vehicle's age is unknown: a typical age was assumed, and age is the largest driver of the value.");
  else if (ctx.missingInputs.length >= 2) cap("low", `${ctx.missingInputs.join(" and ")} unknown: typical values for the age were assumed.`);
  else if (ctx.missingInputs.length === 1) cap("medium", `${ctx.missingInputs[0]} unknown: the typical value for the age was assumed.`);
  if (ctx.sohNotMeasured)
    cap(
      "medium",
      "battery state of health not measured: no battery adjustment was made; a weak battery would lower the value by about 0.5 % per SoH point below the average for the age.",
    );
  if (p.relativeHalfWidth > CONFIDENCE_HALF_WIDTH.medium) cap("low", `the ${Math.round(100 * model.interval.level)} % interval is ${pm(p.relativeHalfWidth)} of the estimate.`);
  else if (p.relativeHalfWidth > CONFIDENCE_HALF_WIDTH.high) {
    cap(
      "medium",
      `the ${Math.round(100 * model.interval.level)} % interval is ${pm(p.relativeHalfWidth)} of the estimate: published figures for cars of the same age differ by up to 20 points between models and markets.`,
    );
  }
  if (model.estimate_source === "rule_based") cap("medium", "the model did not beat the rule-based method out of sample, so the estimate is the rule-based value.");
  return { confidence: level, reasons };
}

/**
 * The typical vehicle `factors` compares against: a BEV of the published rows' mean age, at the normal
 * mileage and the fleet-average SoH for that age (the rule-based method's normal car).
 */
export function referenceVehicle(model: ResidualModelFile): VehicleFeatures {
  const ageMonths = model.reference.age_months;
  return { ageMonths, odometerKm: normalMileageKm(ageMonths), sohPct: expectedSohPct(ageMonths), powertrain: "BEV" };
}

/**
 * Which inputs moved THIS prediction, and which way, each against the normal car: age (a normal car
 * of this age against one of the reference age), odometer (against the normal mileage for the car's
 * own age), SoH (against the average SoH for its age; left out when not measured), powertrain (PHEV
 * against BEV). Inputs with no effect are left out. Directions only, never weights (SPEC 2.16).
 */
export function factorsOf(model: ResidualModelFile, v: VehicleFeatures): { feature: ModelInputName; direction: "positive" | "negative" }[] {
  const ln = (w: VehicleFeatures) => Math.log(valueOf(model, w));
  const normal = (ageMonths: number): VehicleFeatures => ({ ageMonths, odometerKm: normalMileageKm(ageMonths), sohPct: expectedSohPct(ageMonths), powertrain: "BEV" });
  const own = normal(v.ageMonths);
  const effects: [ModelInputName, number][] = [
    ["age_months", ln(own) - ln(referenceVehicle(model))],
    ["odometer_km", ln({ ...own, odometerKm: v.odometerKm }) - ln(own)],
    ["battery_soh_pct", v.sohPct === null ? 0 : ln({ ...own, sohPct: v.sohPct }) - ln(own)],
    ["powertrain", ln({ ...v, powertrain: v.powertrain }) - ln({ ...v, powertrain: "BEV" })],
  ];
  return effects.filter(([, e]) => Math.abs(e) >= 1e-6).map(([feature, e]) => ({ feature, direction: e > 0 ? "positive" : "negative" }));
}
