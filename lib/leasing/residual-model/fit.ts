/**
 * Fitting the residual value model (rv-2027.02) from the calibration CSV: pure (text in, model file
 * out), so the fit script and the test that refits it run exactly the same code.
 *
 * A shrinkage (ridge-to-prior, Gaussian MAP) fit: ln(retained / 100) = ln(prior) + z·b + ε, where the
 * prior is the rule-based method's core value (features.ts priorRetention) and b ~ N(0, PRIOR_SD²): with
 * no data the model IS the rule-based value, and the published rows move it only as far as they
 * outweigh the prior. Only published rows are fitted: the synthesised rows of the CSV re-encode the
 * rule-based method's own mileage and SoH assumptions, which the prior already carries. Every row's
 * price basis has its own term (calibration-data.ts PRICE_BASIS_BY_SOURCE); answers are on the trade
 * basis. The tilts are bounded above so that the model never lets an older car (same odometer, SoH
 * and powertrain) be worth more, nor lose less than MIN_DECLINE_PER_YEAR a year (CONTRACT "Evidence and
 * trust"). Leave-one-out validation against the rule-based method decides whether the model's
 * adjustment is used at all (validate.ts).
 */
import { RESIDUAL_RULES_VERSION } from "@/lib/leasing/residual-value-rules";
import { CALIBRATION_CSV_PATH, datasetHash, parseCalibrationCsv, priceBasisOf, type PriceBasis } from "./calibration-data";
import { ANSWER_BASIS, excessKm, featureRow, MODEL_FEATURES, priorRetention, type ModelFeature, type VehicleFeatures } from "./features";
import { fitAdjustment, MODEL_COLUMNS, PRIOR_SD, type FitRow } from "./adjustment-fit";
import type { ResidualModelFile } from "./model-file";
import { INTERVAL_LEVEL, validate } from "./validate";

/** The version this code fits; a new dataset, prior or feature set is a new version (methodology "Version policy"). */
const RESIDUAL_MODEL_VERSION = "rv-2027.02";
/** The fit date is part of the version, not the clock, so that refitting is byte-for-byte reproducible. */
const RESIDUAL_MODEL_FITTED_ON = "2026-11-29";
/** Two-sided standard normal quantile for INTERVAL_LEVEL (validate.ts; z at 0.9). */
const NORMAL_QUANTILE = 1.2815515655446004;

/** FDP rule: between 12 and 60 months, a year of age alone (same odometer, SoH, powertrain) takes at least 2 % of the value. */
export const MIN_DECLINE_PER_YEAR = 0.02;

const TILT_SEGMENTS: readonly { feature: ModelFeature; fromMonths: number; toMonths: number }[] = [
  { feature: "tilt_12_36m", fromMonths: 12, toMonths: 36 },
  { feature: "tilt_36_60m", fromMonths: 36, toMonths: 60 },
];

/**
 * Upper bound of each tilt: minus the prior's least steep fall in ln(value) per year of age at a
 * fixed odometer, SoH and powertrain, over the segment's months and a grid of odometers (0–2,000,000
 * km) and SoH readings (none, 50–100 %), less MIN_DECLINE_PER_YEAR. A tilt at its bound still leaves
 * every such car losing at least 2 % of its value a year.
 */
export function tiltBounds(): Record<string, number> {
  const odometers = [...Array.from({ length: 121 }, (_, i) => i * 5_000), ...Array.from({ length: 56 }, (_, i) => 625_000 + i * 25_000)];
  const sohs: (number | null)[] = [null, ...Array.from({ length: 51 }, (_, i) => 50 + i)];
  const out: Record<string, number> = {};
  for (const seg of TILT_SEGMENTS) {
    let leastSteep = -Infinity;
    for (let a = seg.fromMonths; a < seg.toMonths; a++)
      for (const powertrain of ["BEV", "PHEV"] as const)
        for (const odometerKm of odometers)
          for (const sohPct of sohs) {
            const v0 = priorRetention({ ageMonths: a, odometerKm, sohPct, powertrain });
            const v1 = priorRetention({ ageMonths: a + 1, odometerKm, sohPct, powertrain });
            leastSteep = Math.max(leastSteep, 12 * Math.log(v1 / v0));
          }
    out[seg.feature] = round12(-leastSteep - MIN_DECLINE_PER_YEAR);
  }
  return out;
}

const round12 = (x: number) => Math.round(x * 1e12) / 1e12;

/** The published rows as fit rows: features, price basis, ln(retained), ln(prior) and the design row on the row's own basis. */
function fitRows(csvText: string): FitRow[] {
  return parseCalibrationCsv(csvText)
    .filter((r) => r.kind === "published")
    .map((r) => {
      const features: VehicleFeatures = { ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain };
      const basis: PriceBasis = priceBasisOf(r);
      return {
        row_id: r.row_id,
        source: r.source,
        features,
        basis,
        retained_pct: r.retained_pct,
        y: Math.log(r.retained_pct / 100),
        offset: Math.log(priorRetention(features)),
        z: featureRow(features, basis),
      };
    });
}

const minMax = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];
const named = (values: number[]) => Object.fromEntries(MODEL_FEATURES.map((f, i) => [f, values[i]!])) as Record<ModelFeature, number>;

export function fitResidualModel(csvText: string): ResidualModelFile {
  const rows = fitRows(csvText);
  const bounds = tiltBounds();
  const fit = fitAdjustment(rows, MODEL_COLUMNS, bounds);
  const validation = validate(rows, bounds);
  const estimateSource = validation.model_beats_rule_based ? "model" : "rule_based";
  return {
    model_version: RESIDUAL_MODEL_VERSION,
    form:
      "ln(retained_pct / 100) = ln(prior) + level + tilt_12_36m·(clamp(age_years, 1, 3) − 3) + tilt_36_60m·(clamp(age_years, 3, 5) − 3) + phev·[PHEV] (+ the calibration row's price-basis term); " +
      `prior = the rule-based method ${RESIDUAL_RULES_VERSION} without its score adjustments: curve(age) × (1 − mileage penalty) × (1 − battery penalty); coefficients ~ N(0, prior_sd²), MAP`,
    prior: { method: RESIDUAL_RULES_VERSION, sd: named(MODEL_FEATURES.map((f) => PRIOR_SD[f])) },
    answer_basis: ANSWER_BASIS,
    features: [...MODEL_FEATURES],
    coefficients: named(fit.coefficients),
    standard_errors: named(fit.covariance.map((row, i) => Math.sqrt(row[i]!))),
    upper_bounds: Object.fromEntries(TILT_SEGMENTS.map((s) => [s.feature, bounds[s.feature]!])),
    at_bound: fit.atBound,
    min_decline_per_year: MIN_DECLINE_PER_YEAR,
    posterior_covariance: fit.covariance,
    residual_se: Math.sqrt(fit.sigma2),
    effective_df: fit.effectiveDf,
    interval: {
      level: INTERVAL_LEVEL,
      method: "jackknife: the ⌈(n+1)·level⌉-th smallest leave-one-out |log error| of the estimate source, combined with the posterior SD of x·b (z quantile)",
      normal_quantile: NORMAL_QUANTILE,
      loo_half_width_log: estimateSource === "model" ? validation.loo.model.interval_half_width_log : validation.loo.rule_based_basis.interval_half_width_log,
    },
    estimate_source: estimateSource,
    validation,
    training_range: {
      age_months: minMax(rows.map((r) => r.features.ageMonths)),
      excess_km: minMax(rows.map((r) => Math.round(excessKm(r.features.ageMonths, r.features.odometerKm)))),
      powertrain: [...new Set(rows.map((r) => r.features.powertrain))].sort(),
    },
    reference: { age_months: rows.reduce((s, r) => s + r.features.ageMonths, 0) / rows.length },
    dataset: { path: CALIBRATION_CSV_PATH, sha256: datasetHash(csvText), rows: parseCalibrationCsv(csvText).length, published_rows_fitted: rows.length },
    fitted_on: RESIDUAL_MODEL_FITTED_ON,
  };
}

/** The model file's text: stable key order, two-space indent, trailing newline. */
export function serialiseModel(model: ResidualModelFile): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}
