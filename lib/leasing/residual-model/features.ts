/**
 * The model's prior and its columns. rv-2027.02 is a shrinkage model: the rule-based method's core
 * (its age curve × mileage penalty × battery penalty, lib/leasing/residual-value-rules.ts) is the prior
 * mean, and the published calibration rows only move it where they support it, through a few
 * adjustment columns whose coefficients are shrunk towards zero (docs/methodology/residual-value-model.md).
 * One function for fitting and predicting, so the two can never transform an input differently.
 */
import { BATTERY_PCT_PER_SOH_POINT, curveRetention, expectedSohPct, mileagePenaltyPct, NORMAL_KM_PER_YEAR } from "@/lib/leasing/residual-value-rules";
import type { PriceBasis } from "./calibration-data";

/**
 * Columns of the adjustment, in order; the model file stores one coefficient per name.
 *   level             the answer basis's (trade, Germany) level against the rule-based curve
 *   tilt_12_36m       per year of age between 12 and 36 months (constant outside), against the curve
 *   tilt_36_60m       per year of age between 36 and 60 months (constant outside)
 *   phev              a PHEV against a BEV of the same age, mileage and SoH
 *   basis_*           the price basis of a calibration row against trade (fit only: every answer is on the trade basis)
 */
export const MODEL_FEATURES = ["level", "tilt_12_36m", "tilt_36_60m", "phev", "basis_part_exchange_uk", "basis_unstated_uk", "basis_listing_us"] as const;
export type ModelFeature = (typeof MODEL_FEATURES)[number];

/** The basis every answer is given on: the rule-based curve's calibration basis (Autovista: trade, Germany). */
export const ANSWER_BASIS: PriceBasis = "trade_de";
const BASIS_COLUMN: Record<PriceBasis, ModelFeature | null> = {
  trade_de: null,
  part_exchange_uk: "basis_part_exchange_uk",
  unstated_uk: "basis_unstated_uk",
  listing_us: "basis_listing_us",
};

export interface VehicleFeatures {
  ageMonths: number;
  odometerKm: number;
  /** Null: not measured (no battery adjustment, as in the rule-based method). */
  sohPct: number | null;
  powertrain: "BEV" | "PHEV";
}

/** Kilometres above the normal mileage for the age (negative = below it); the rule-based method's normal. */
export function excessKm(ageMonths: number, odometerKm: number): number {
  return odometerKm - (NORMAL_KM_PER_YEAR * ageMonths) / 12;
}

/** SoH points below the fleet-average SoH for the age (negative = a better battery than average); the rule-based method's expectation (Geotab, 2.3 pp a year). */
export function sohDeficitPp(ageMonths: number, sohPct: number): number {
  return expectedSohPct(ageMonths) - sohPct;
}

/**
 * The battery factor of the prior: exp(−w · SoH deficit), w = the rule-based method's Autovista weight
 * (0.5 % of the value per SoH point for a BEV, 0.25 % for a PHEV), the same slope as the rules near the
 * expected SoH but without their caps (a 5-point credit, a 25 % penalty), so that a lower SoH always
 * gives a lower value (CONTRACT "Evidence and trust"); a deficit beyond the caps is outside the
 * calibration range (confidence low). 1 when the SoH was not measured: no adjustment is invented.
 */
function batteryFactor(v: Pick<VehicleFeatures, "ageMonths" | "sohPct" | "powertrain">): number {
  if (v.sohPct === null) return 1;
  return Math.exp((-BATTERY_PCT_PER_SOH_POINT[v.powertrain] / 100) * sohDeficitPp(v.ageMonths, v.sohPct));
}

/**
 * The prior: the rule-based method's value without its score adjustments and knockouts (endpoint 20
 * sees no scores), its battery term as in batteryFactor, as a fraction of the original price.
 * Decreases strictly with age at the same odometer and SoH: the curve loses at least 10 % a year
 * (ln 0.105), more than a year of age gives back through the mileage allowance (at most ln 0.075) and
 * the expected SoH (0.5 % × 2.3 points).
 */
export function priorRetention(v: VehicleFeatures): number {
  return curveRetention(v.ageMonths) * (1 - mileagePenaltyPct(v.odometerKm, v.ageMonths) / 100) * batteryFactor(v);
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The tilt columns: piecewise linear in age, flat below 12 and above 60 months (no data there: the prior's own slope applies). */
function tiltColumns(ageMonths: number): [number, number] {
  const years = ageMonths / 12;
  return [clamp(years, 1, 3) - 3, clamp(years, 3, 5) - 3];
}

/** The adjustment's design row for a vehicle valued on `basis` (answers: ANSWER_BASIS). */
export function featureRow(v: VehicleFeatures, basis: PriceBasis = ANSWER_BASIS): number[] {
  const [t1, t2] = tiltColumns(v.ageMonths);
  const col = BASIS_COLUMN[basis];
  return MODEL_FEATURES.map((f) => {
    if (f === "level") return 1;
    if (f === "tilt_12_36m") return t1;
    if (f === "tilt_36_60m") return t2;
    if (f === "phev") return v.powertrain === "PHEV" ? 1 : 0;
    return f === col ? 1 : 0;
  });
}
