/**
 * The estimator of the residual value model's adjustment (fit.ts describes the model): the MAP fit of
 * the adjustment on fit rows, under the prior and the tilts' upper bounds. Its own module because both
 * the fit (fit.ts) and its out-of-sample validation (validate.ts, which refits on held-out subsets) run it.
 */
import type { PriceBasis } from "./calibration-data";
import { MODEL_FEATURES, type ModelFeature, type VehicleFeatures } from "./features";
import { dot, invertSpd } from "./linalg";

export interface FitRow {
  row_id: string;
  source: string;
  features: VehicleFeatures;
  basis: PriceBasis;
  retained_pct: number;
  /** ln(retained_pct / 100). */
  y: number;
  /** ln(prior). */
  offset: number;
  /** Design row on the row's own price basis. */
  z: number[];
}

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

/** The columns of the full model and of the basis-only baseline ("the rule-based value on the row's price basis"). */
export const MODEL_COLUMNS: readonly ModelFeature[] = MODEL_FEATURES;
export const BASELINE_COLUMNS: readonly ModelFeature[] = ["level", "basis_part_exchange_uk", "basis_unstated_uk", "basis_listing_us"];

interface AdjustmentFit {
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
