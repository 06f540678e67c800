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
import { dot, invertSpd } from "./linalg";
import type { ResidualModelFile } from "./model-file";
import { validate, type FitRow } from "./validate";

/** The version this code fits; a new dataset, prior or feature set is a new version (methodology "Version policy"). */
export const RESIDUAL_MODEL_VERSION = "rv-2027.02";
/** The fit date is part of the version, not the clock, so that refitting is byte-for-byte reproducible. */
export const RESIDUAL_MODEL_FITTED_ON = "2026-11-29";
/** Two-sided prediction interval level: 80 %, the highest level 22 held-out rows can show (validate.ts). */
export const INTERVAL_LEVEL = 0.8;
/** Two-sided standard normal quantile for INTERVAL_LEVEL (z at 0.9). */
export const NORMAL_QUANTILE = 1.2815515655446004;

/**
 * Prior standard deviations of the adjustment (log scale), FDP's choices (methodology "Prior"): the
 * trade level within ±10 % of the curve, each tilt within ±5 % a year, a PHEV within ±15 % of a BEV;
 * the basis terms are nuisance parameters, nearly free (±100 %).
 */
export const PRIOR_SD: Readonly<Record<ModelFeature, number>> = {
  level: 0.1,
  tilt_12_36m: 0.05,
  tilt_36_60m: 0.05,
  phev: 0.15,
  basis_part_exchange_uk: 1,
  basis_unstated_uk: 1,
  basis_listing_us: 1,
};

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

export interface AdjustmentFit {
  /** One per MODEL_FEATURES entry; 0 for a column not in the fit. */
  coefficients: number[];
  /** Posterior covariance in MODEL_FEATURES order (zero rows/columns for a column not fitted or held at its bound). */
  covariance: number[][];
  sigma2: number;
  effectiveDf: number;
  rss: number;
  atBound: ModelFeature[];
}

/**
 * The MAP fit of the adjustment on `rows` with `columns` (the others held at 0) and upper `bounds`:
 * for each subset of bounded columns held at their bound, the penalised least squares of the rest;
 * the feasible candidate with the smallest penalised objective is the constrained optimum (convex
 * problem). σ² is re-estimated as RSS / (n − effective degrees of freedom) until it settles.
 */
export function fitAdjustment(rows: readonly FitRow[], columns: readonly ModelFeature[], bounds: Readonly<Record<string, number>>): AdjustmentFit {
  const idx = columns.map((c) => MODEL_FEATURES.indexOf(c));
  const z = rows.map((r) => idx.map((j) => r.z[j]!));
  const target = rows.map((r) => r.y - r.offset);
  const precision = columns.map((c) => 1 / PRIOR_SD[c] ** 2);
  const bounded = columns.flatMap((c, k) => (bounds[c] !== undefined ? [k] : []));
  const n = rows.length;
  let sigma2 = target.reduce((s, t) => s + t * t, 0) / n || 0.01;
  let best: { b: number[]; cov: number[][]; rss: number; edf: number; held: number[] } | null = null;
  for (let iter = 0; iter < 200; iter++) {
    best = null;
    let bestObjective = Infinity;
    for (let mask = 0; mask < 1 << bounded.length; mask++) {
      const held = bounded.filter((_, i) => (mask >> i) & 1);
      const free = columns.map((_, k) => k).filter((k) => !held.includes(k));
      const b = columns.map((c, k) => (held.includes(k) ? bounds[c]! : 0));
      const resid = target.map((t, i) => t - held.reduce((s, k) => s + z[i]![k]! * b[k]!, 0));
      const a = free.map((p) => free.map((q) => z.reduce((s, row) => s + row[p]! * row[q]!, 0) / sigma2 + (p === q ? precision[p]! : 0)));
      const rhs = free.map((p) => z.reduce((s, row, i) => s + row[p]! * resid[i]!, 0) / sigma2);
      const ainv = invertSpd(a);
      free.forEach((p, i) => (b[p] = dot(ainv[i]!, rhs)));
      if (bounded.some((k) => b[k]! > bounds[columns[k]!]! + 1e-12)) continue;
      const rss = target.reduce((s, t, i) => s + (t - dot(z[i]!, b)) ** 2, 0);
      const objective = rss / sigma2 + b.reduce((s, v, k) => s + v * v * precision[k]!, 0);
      if (objective >= bestObjective) continue;
      bestObjective = objective;
      // Effective degrees of freedom: trace of the hat matrix of the free columns.
      let edf = 0;
      free.forEach((p, i) => free.forEach((q, j) => (edf += (ainv[i]![j]! * z.reduce((s, row) => s + row[q]! * row[p]!, 0)) / sigma2)));
      const cov = columns.map(() => columns.map(() => 0));
      free.forEach((p, i) => free.forEach((q, j) => (cov[p]![q] = ainv[i]![j]!)));
      best = { b, cov, rss, edf, held };
    }
    if (best === null) throw new Error("residual model fit: no feasible solution");
    const next = best.rss / Math.max(1, n - best.edf);
    const settled = Math.abs(next - sigma2) <= 1e-14 * sigma2;
    sigma2 = next;
    if (settled) break;
  }
  const fit = best!;
  const coefficients = MODEL_FEATURES.map(() => 0);
  const covariance = MODEL_FEATURES.map(() => MODEL_FEATURES.map(() => 0));
  idx.forEach((j, k) => {
    coefficients[j] = fit.b[k]!;
    idx.forEach((j2, k2) => (covariance[j]![j2] = fit.cov[k]![k2]!));
  });
  return { coefficients, covariance, sigma2, effectiveDf: fit.edf, rss: fit.rss, atBound: fit.held.map((k) => columns[k]!) };
}

/** The published rows as fit rows: features, price basis, ln(retained), ln(prior) and the design row on the row's own basis. */
export function fitRows(csvText: string): FitRow[] {
  return parseCalibrationCsv(csvText)
    .filter((r) => r.kind === "published")
    .map((r) => {
      const features: VehicleFeatures = { ageMonths: r.age_months, odometerKm: r.odometer_km, sohPct: r.soh_pct, powertrain: r.powertrain };
      const basis: PriceBasis = priceBasisOf(r);
      return { row_id: r.row_id, source: r.source, features, basis, retained_pct: r.retained_pct, y: Math.log(r.retained_pct / 100), offset: Math.log(priorRetention(features)), z: featureRow(features, basis) };
    });
}

/** The columns of the full model and of the basis-only baseline ("the rule-based value on the row's price basis"). */
export const MODEL_COLUMNS: readonly ModelFeature[] = MODEL_FEATURES;
export const BASELINE_COLUMNS: readonly ModelFeature[] = ["level", "basis_part_exchange_uk", "basis_unstated_uk", "basis_listing_us"];

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
