/**
 * The model's features: how a vehicle's age, odometer, state of health and powertrain become the
 * regression's columns. One function for fitting (scripts/fit-residual-model.ts) and predicting
 * (predict.ts), so the two can never transform an input differently.
 */

/** Columns of the design matrix, in order; the model file stores one coefficient per name. */
export const MODEL_FEATURES = ["intercept", "age_years", "odometer_10k_km", "soh_deficit_pp", "phev"] as const;
export type ModelFeature = (typeof MODEL_FEATURES)[number];

export interface VehicleFeatures {
  ageMonths: number;
  odometerKm: number;
  sohPct: number;
  powertrain: "BEV" | "PHEV";
}

/**
 * ln(retained fraction) = β₀ + β₁·age_years + β₂·odometer/10,000 km + β₃·(100 − SoH) + β₄·[PHEV].
 * Log-linear (hedonic) form: each year and each 10,000 km take a constant share of the remaining value,
 * and the prediction is always positive.
 */
export function featureRow(v: VehicleFeatures): number[] {
  return [1, v.ageMonths / 12, v.odometerKm / 10_000, 100 - v.sohPct, v.powertrain === "PHEV" ? 1 : 0];
}

/**
 * Average state of health loss per year of a fleet EV: Geotab, 22,700 EVs across 21 models, 2.3 %/yr
 * (2025 study; 1.8 %/yr in its 2024 study; FreightWaves 2026-02-04,
 * https://www.freightwaves.com/news/ev-battery-degradation-geotab-study-2026;
 * docs/methodology/residual-value-model.md). Used to give the published rows (which state no SoH) the SoH
 * of an average vehicle of their age, and to fill a missing SoH the same way.
 */
export const GEOTAB_SOH_LOSS_PP_PER_YEAR = 2.3;

export function expectedSohPct(ageMonths: number): number {
  return Math.max(0, 100 - (GEOTAB_SOH_LOSS_PP_PER_YEAR * ageMonths) / 12);
}
