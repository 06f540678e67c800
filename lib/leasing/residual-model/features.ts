/**
 * The model's features: how a vehicle's age, odometer, state of health and powertrain become the
 * regression's columns. One function for fitting (scripts/fit-residual-model.ts) and predicting
 * (predict.ts), so the two can never transform an input differently.
 *
 * Why these columns (docs/methodology/residual-value-model.md, "Why this parameterisation"): every
 * published figure ties mileage and SoH to age (a car of 36 months at 36,000 miles, at the fleet-average
 * battery), so age, odometer and SoH as raw columns are nearly collinear and the fit cannot tell them
 * apart (rv-2027.01's first fit gave age a positive sign). Measured against what is normal FOR THE AGE,
 * mileage and SoH become deviations that are about zero on the published rows: the unconstrained age
 * slope is then identified by the published age curve, and the deviation slopes by the rows that carry a
 * documented deviation. That split still rests on FDP's mileage assumption; where it conflicts with the
 * published curve, the fit's monotonicity constraint (fit.ts FIT_CONSTRAINTS) binds and age has no effect
 * beyond the kilometres and battery wear it brings.
 */
import { expectedSohPct, NORMAL_KM_PER_YEAR } from "@/lib/leasing/residual-value-rules";

/** Columns of the design matrix, in order; the model file stores one coefficient per name. */
export const MODEL_FEATURES = ["intercept", "age_years", "excess_10k_km", "soh_deficit_pp", "phev"] as const;
export type ModelFeature = (typeof MODEL_FEATURES)[number];

export interface VehicleFeatures {
  ageMonths: number;
  odometerKm: number;
  sohPct: number;
  powertrain: "BEV" | "PHEV";
}

/**
 * Kilometres above the normal mileage for the age (negative = below it). The normal is the rule-based
 * method's NORMAL_KM_PER_YEAR (15,000 km a year, the Autovista calibration point's 45,000 km in 36
 * months), imported so the two residual value methods price the same "normal" car.
 */
export function excessKm(ageMonths: number, odometerKm: number): number {
  return odometerKm - (NORMAL_KM_PER_YEAR * ageMonths) / 12;
}

/** SoH points below the fleet-average SoH for the age (negative = a better battery than average); expectedSohPct is the rule-based method's (Geotab, 2.3 pp a year). */
export function sohDeficitPp(ageMonths: number, sohPct: number): number {
  return expectedSohPct(ageMonths) - sohPct;
}

/**
 * ln(retained fraction) = β₀ + β₁·age_years + β₂·excess_km/10,000 + β₃·SoH deficit (pp) + β₄·[PHEV].
 * Log-linear (hedonic) form: each year, each 10,000 km above normal and each SoH point below the
 * average for the age take a constant share of the remaining value, and the prediction is always
 * positive. Age enters linearly: a concave term (age², ln(1 + age)) was tried and not supported by the
 * data (methodology page, "Model form").
 */
export function featureRow(v: VehicleFeatures): number[] {
  return [1, v.ageMonths / 12, excessKm(v.ageMonths, v.odometerKm) / 10_000, sohDeficitPp(v.ageMonths, v.sohPct), v.powertrain === "PHEV" ? 1 : 0];
}
