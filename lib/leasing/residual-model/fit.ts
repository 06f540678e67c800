/**
 * Fitting the residual value model from the calibration CSV: pure (text in, model file out), so the fit
 * script and the test that refits it run exactly the same code.
 */
import { EXPECTED_SOH_LOSS_PCT_PER_YEAR, NORMAL_KM_PER_YEAR } from "@/lib/leasing/residual-value-rules";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv, type CalibrationRow } from "./calibration-data";
import { excessKm, featureRow, MODEL_FEATURES, sohDeficitPp, type ModelFeature } from "./features";
import type { ResidualModelFile } from "./model-file";
import { constrainedLeastSquares } from "./constrained-ls";
import { olsQr, type OlsFit } from "./ols";
import { studentTQuantile } from "./student-t";

/** The version this code fits; a new dataset or feature set is a new version (docs/methodology/residual-value-model.md "Version policy"). */
export const RESIDUAL_MODEL_VERSION = "rv-2027.01";
/** The fit date is part of the version, not the clock, so that refitting is byte-for-byte reproducible. */
export const RESIDUAL_MODEL_FITTED_ON = "2026-11-24";
/** Two-sided prediction interval level (90 %). */
export const INTERVAL_LEVEL = 0.9;

/** NORMAL_KM_PER_YEAR in the excess-km feature's unit (10,000 km): 1.5 — a year of age at the same odometer is 1.5 units less excess. */
export const NORMAL_10K_KM_PER_YEAR = NORMAL_KM_PER_YEAR / 10_000;

const along = (entries: Partial<Record<ModelFeature, number>>): number[] => MODEL_FEATURES.map((f) => entries[f] ?? 0);

/**
 * The economic constraints the fit respects, each a·b ≤ 0 on the coefficients (docs/methodology/
 * residual-value-model.md, "Constraints"). Solved as inequality-constrained least squares
 * (constrained-ls.ts): a constraint the unconstrained fit already satisfies changes nothing; one it
 * violates is held as an equality and the model refitted on that boundary.
 *
 * - Sign constraints: an older car (at the normal mileage and SoH for its age), more kilometres above
 *   normal or a weaker battery than average never raise the value of an otherwise identical car.
 * - Monotonicity in age at the same odometer. The features measure mileage and SoH against the normal
 *   for the age, so one more year at the same RAW odometer lowers excess_10k_km by
 *   NORMAL_10K_KM_PER_YEAR (1.5) and, at the same raw SoH, lowers soh_deficit_pp by
 *   EXPECTED_SOH_LOSS_PCT_PER_YEAR (2.3). The change of ln(value) per year is then
 *     b_age − 1.5·b_exc                 at the same odometer and the same SoH deficit (a battery as far
 *                                       below the average as before: SoH = expectedSohPct(age) − const),
 *     b_age − 1.5·b_exc − 2.3·b_soh     at the same odometer and the same SoH reading,
 *   and neither may be positive: an older car with the same odometer (and battery) is never worth more.
 *   Given b_soh ≤ 0 the second implies the first; both are listed so the model file says which binds.
 *   On the second's boundary b_age = 1.5·b_exc + 2.3·b_soh: the model is ln(value) = b0 +
 *   b_exc·odometer_10k + b_soh·(100 − SoH) + b_phev·phev, age has no effect beyond the kilometres and
 *   battery wear it brings, and b_age is reported as derived from b_exc and b_soh.
 */
export const FIT_CONSTRAINTS = [
  { name: "age_never_raises_value", rule: "b_age ≤ 0", a: along({ age_years: 1 }) },
  { name: "excess_km_never_raises_value", rule: "b_exc ≤ 0", a: along({ excess_10k_km: 1 }) },
  { name: "soh_deficit_never_raises_value", rule: "b_soh ≤ 0", a: along({ soh_deficit_pp: 1 }) },
  {
    name: "no_gain_with_age_at_fixed_odometer",
    rule: `d ln(value)/d age at fixed odometer and SoH deficit = b_age − ${NORMAL_10K_KM_PER_YEAR}·b_exc ≤ 0`,
    a: along({ age_years: 1, excess_10k_km: -NORMAL_10K_KM_PER_YEAR }),
  },
  {
    name: "no_gain_with_age_at_fixed_odometer_and_soh",
    rule: `d ln(value)/d age at fixed odometer and SoH = b_age − ${NORMAL_10K_KM_PER_YEAR}·b_exc − ${EXPECTED_SOH_LOSS_PCT_PER_YEAR}·b_soh ≤ 0`,
    a: along({ age_years: 1, excess_10k_km: -NORMAL_10K_KM_PER_YEAR, soh_deficit_pp: -EXPECTED_SOH_LOSS_PCT_PER_YEAR }),
  },
] as const;

/** The sign constraints by feature: when one is active, that feature is held at zero (`held_at_zero`). */
const SIGN_CONSTRAINT_FEATURE: Record<string, ModelFeature> = {
  age_never_raises_value: "age_years",
  excess_km_never_raises_value: "excess_10k_km",
  soh_deficit_never_raises_value: "soh_deficit_pp",
};

const rowFeatures = (r: CalibrationRow) => featureRow({ ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain });
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const minMax = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

export function fitResidualModel(csvText: string): ResidualModelFile {
  const rows = parseCalibrationCsv(csvText);
  const published = rows.filter((r) => r.kind === "published");
  const x = rows.map(rowFeatures);
  const y = rows.map((r) => Math.log(r.retained_pct / 100));
  const designEffect = rows.length / published.length;
  const unconstrained = olsQr(x, y);
  const fit = constrainedLeastSquares(x, y, FIT_CONSTRAINTS);
  const zeroed = fit.active.flatMap((name) => (name in SIGN_CONSTRAINT_FEATURE ? [SIGN_CONSTRAINT_FEATURE[name]!] : []));
  // Depreciation with age is the dominant effect: a dataset on which even a normal car would not lose
  // value with age is refused rather than shipped with age switched off.
  if (zeroed.includes("age_years")) throw new Error("calibration data: the age coefficient is held at zero by the constraints; the dataset cannot identify depreciation with age, so no model is written");
  // Each active constraint fixes one coefficient through the others: the fit spends fewer degrees of freedom.
  const df = published.length - fit.freeParameters;
  // Synthesised rows repeat their parent's residual: the variance is the RSS per published row over
  // the published rows' degrees of freedom.
  const sigma2 = fit.rss / designEffect / df;
  const se = fit.xtxInverse.map((row, i) => Math.sqrt(sigma2 * designEffect * row[i]!));
  const pubIdx = rows.flatMap((r, i) => (r.kind === "published" ? [i] : []));
  const pubMean = pubIdx.reduce((s, i) => s + y[i]!, 0) / pubIdx.length;
  let pubRss = 0;
  let pubTss = 0;
  for (const i of pubIdx) {
    const fitted = x[i]!.reduce((s, v, j) => s + v * fit.coefficients[j]!, 0);
    pubRss += (y[i]! - fitted) ** 2;
    pubTss += (y[i]! - pubMean) ** 2;
  }
  const named = (values: number[]) => Object.fromEntries(MODEL_FEATURES.map((f, i) => [f, values[i]!])) as ResidualModelFile["coefficients"];
  const meanAge = published.reduce((s, r) => s + r.age_months, 0) / published.length;
  return {
    model_version: RESIDUAL_MODEL_VERSION,
    form: `ln(retained_pct / 100) = intercept + age_years·b1 + excess_10k_km·b2 + soh_deficit_pp·b3 + phev·b4; excess_10k_km = (odometer_km − ${NORMAL_KM_PER_YEAR} × age_years) / 10,000; soh_deficit_pp = (100 − ${EXPECTED_SOH_LOSS_PCT_PER_YEAR} × age_years) − SoH; phev = 1 for PHEV`,
    features: [...MODEL_FEATURES],
    coefficients: named(fit.coefficients),
    standard_errors: named(se),
    held_at_zero: zeroed,
    constraints: FIT_CONSTRAINTS.map((c) => ({ name: c.name, rule: c.rule, active: fit.active.includes(c.name), unconstrained_value: dot(c.a, unconstrained.coefficients) })),
    xtx_inverse: fit.xtxInverse,
    residual_se: Math.sqrt(sigma2),
    design_effect: designEffect,
    degrees_of_freedom: df,
    interval_level: INTERVAL_LEVEL,
    t_quantile: studentTQuantile(0.5 + INTERVAL_LEVEL / 2, df),
    fit: {
      n_rows: rows.length,
      n_published: published.length,
      n_synthesised: rows.length - published.length,
      unconstrained: unconstrainedSummary(unconstrained, designEffect, published.length),
      r_squared: 1 - fit.rss / fit.tss,
      r_squared_published: 1 - pubRss / pubTss,
      rss: fit.rss,
    },
    training_range: {
      age_months: minMax(rows.map((r) => r.age_months)),
      // The deviations the model prices, not the raw readings: a 12-month car at 15,000 km is normal
      // even though no calibration row has so few kilometres.
      excess_km: minMax(rows.map((r) => excessKm(r.age_months, r.odometer_km))),
      soh_deficit_pp: minMax(rows.map((r) => Math.round(sohDeficitPp(r.age_months, r.soh_pct) * 1e6) / 1e6)),
      powertrain: [...new Set(rows.map((r) => r.powertrain))].sort(),
    },
    reference: { age_months: meanAge },
    dataset: { path: CALIBRATION_CSV_PATH, sha256: datasetHash(csvText), rows: rows.length },
    fitted_on: RESIDUAL_MODEL_FITTED_ON,
  };
}

/** The model file's text: stable key order, two-space indent, trailing newline. */
export function serialiseModel(model: ResidualModelFile): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}

/** The unconstrained fit's coefficients and t statistics, kept in the model file so the constraint's effect is visible. */
function unconstrainedSummary(fit: OlsFit, designEffect: number, nPublished: number): Record<ModelFeature, { coefficient: number; t: number }> {
  const sigma2 = fit.rss / designEffect / (nPublished - MODEL_FEATURES.length);
  return Object.fromEntries(
    MODEL_FEATURES.map((f, j) => [f, { coefficient: fit.coefficients[j]!, t: fit.coefficients[j]! / Math.sqrt(sigma2 * designEffect * fit.xtxInverse[j]![j]!) }]),
  ) as Record<ModelFeature, { coefficient: number; t: number }>;
}
