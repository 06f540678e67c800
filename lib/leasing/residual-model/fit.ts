/**
 * Fitting the residual value model from the calibration CSV: pure (text in, model file out), so the fit
 * script and the test that refits it run exactly the same code.
 */
import { EXPECTED_SOH_LOSS_PCT_PER_YEAR, NORMAL_KM_PER_YEAR } from "@/lib/leasing/residual-value-rules";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv, type CalibrationRow } from "./calibration-data";
import { excessKm, featureRow, MODEL_FEATURES, sohDeficitPp, type ModelFeature } from "./features";
import type { ResidualModelFile } from "./model-file";
import { olsQr, type OlsFit } from "./ols";
import { studentTQuantile } from "./student-t";

/** The version this code fits; a new dataset or feature set is a new version (docs/methodology/residual-value-model.md "Version policy"). */
export const RESIDUAL_MODEL_VERSION = "rv-2027.01";
/** The fit date is part of the version, not the clock, so that refitting is byte-for-byte reproducible. */
export const RESIDUAL_MODEL_FITTED_ON = "2026-11-24";
/** Two-sided prediction interval level (90 %). */
export const INTERVAL_LEVEL = 0.9;

/**
 * Features whose coefficient must not be positive: an older car, more kilometres above normal or a
 * weaker battery than average never raise the value of an otherwise identical car. If the
 * unconstrained fit gives one of them the wrong sign, that feature is held at zero and the model file
 * says so (`held_at_zero`, `fit.unconstrained`). Age is the exception: depreciation with age is the
 * dominant effect, so a dataset that cannot estimate it with the right sign is refused (fitResidualModel
 * throws) rather than shipped with age switched off.
 */
export const NON_POSITIVE_FEATURES: readonly ModelFeature[] = ["age_years", "excess_10k_km", "soh_deficit_pp"];

/**
 * Least squares with the sign constraints above, by the active-set rule: fit, and while a constrained
 * coefficient has the wrong sign, hold the one with the largest t statistic in the wrong direction at
 * zero and refit on the remaining columns. The result is embedded back in the full feature order (zeros
 * for the held features, in the coefficients and in (X'X)⁻¹).
 */
function signConstrainedFit(x: number[][], y: number[], designEffect: number, nPublished: number): { fit: OlsFit; zeroed: ModelFeature[] } {
  const zeroed: ModelFeature[] = [];
  for (;;) {
    const active = MODEL_FEATURES.flatMap((f, j) => (zeroed.includes(f) ? [] : [j]));
    const sub = olsQr(x.map((row) => active.map((j) => row[j]!)), y);
    const sigma2 = sub.rss / designEffect / (nPublished - active.length);
    let worst: { feature: ModelFeature; t: number } | null = null;
    active.forEach((j, k) => {
      const feature = MODEL_FEATURES[j]!;
      if (!NON_POSITIVE_FEATURES.includes(feature) || sub.coefficients[k]! <= 0) return;
      const t = sub.coefficients[k]! / Math.sqrt(sigma2 * designEffect * sub.xtxInverse[k]![k]!);
      if (worst === null || t > worst.t) worst = { feature, t };
    });
    if (worst === null) {
      const full = MODEL_FEATURES.length;
      const pos = (j: number) => active.indexOf(j);
      return {
        zeroed,
        fit: {
          ...sub,
          p: full,
          coefficients: MODEL_FEATURES.map((_, j) => (pos(j) < 0 ? 0 : sub.coefficients[pos(j)]!)),
          xtxInverse: MODEL_FEATURES.map((_, i) => MODEL_FEATURES.map((_, j) => (pos(i) < 0 || pos(j) < 0 ? 0 : sub.xtxInverse[pos(i)]![pos(j)]!))),
        },
      };
    }
    zeroed.push((worst as { feature: ModelFeature }).feature);
  }
}

const rowFeatures = (r: CalibrationRow) => featureRow({ ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain });
const minMax = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

export function fitResidualModel(csvText: string): ResidualModelFile {
  const rows = parseCalibrationCsv(csvText);
  const published = rows.filter((r) => r.kind === "published");
  const x = rows.map(rowFeatures);
  const y = rows.map((r) => Math.log(r.retained_pct / 100));
  const designEffect = rows.length / published.length;
  const { fit, zeroed } = signConstrainedFit(x, y, designEffect, published.length);
  if (zeroed.includes("age_years")) throw new Error("calibration data: the age coefficient comes out positive; the dataset cannot identify depreciation with age, so no model is written");
  const p = MODEL_FEATURES.length - zeroed.length;
  const df = published.length - p;
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
      unconstrained: unconstrainedSummary(x, y, designEffect, published.length),
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
function unconstrainedSummary(x: number[][], y: number[], designEffect: number, nPublished: number): Record<ModelFeature, { coefficient: number; t: number }> {
  const fit = olsQr(x, y);
  const sigma2 = fit.rss / designEffect / (nPublished - MODEL_FEATURES.length);
  return Object.fromEntries(
    MODEL_FEATURES.map((f, j) => [f, { coefficient: fit.coefficients[j]!, t: fit.coefficients[j]! / Math.sqrt(sigma2 * designEffect * fit.xtxInverse[j]![j]!) }]),
  ) as Record<ModelFeature, { coefficient: number; t: number }>;
}
