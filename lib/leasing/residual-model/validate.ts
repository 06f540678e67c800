/**
 * Out-of-sample validation of the residual value model against the rule-based method, on the
 * published calibration rows: leave-one-out (each row predicted by a fit on the other 21) and
 * leave-one-source-out (each source's rows by a fit on the other sources). Three predictors:
 *   rule_based        the rule-based value itself (the prior), which claims the trade basis;
 *   rule_based_basis  the rule-based value moved to the row's price basis by the basis terms alone
 *                     (BASELINE_COLUMNS): what the rules would score if they knew the basis;
 *   model             the full model (MODEL_COLUMNS) on the row's price basis.
 * Errors in percentage points of the original price. The model's adjustment is used only if it beats
 * both rule-based predictors on MAE and RMSE in leave-one-out (`model_beats_rule_based`).
 */
import { BASELINE_COLUMNS, fitAdjustment, MODEL_COLUMNS, type FitRow } from "./adjustment-fit";
import type { PriceBasis } from "./calibration-data";
import { dot } from "./linalg";

/** Two-sided prediction interval level: 80 %, the highest level 22 held-out rows can show (`errorsOf` below). */
export const INTERVAL_LEVEL = 0.8;

export const AGE_BANDS = [
  { band: "12 months", from: 0, to: 12 },
  { band: "13–24 months", from: 13, to: 24 },
  { band: "25–36 months", from: 25, to: 36 },
  { band: "37–60 months", from: 37, to: 60 },
] as const;

export const PREDICTORS = ["rule_based", "rule_based_basis", "model"] as const;
type Predictor = (typeof PREDICTORS)[number];

interface Prediction {
  row_id: string;
  source: string;
  basis: PriceBasis;
  age_months: number;
  retained_pct: number;
  pct: Record<Predictor, number>;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

function errorsOf(preds: readonly Prediction[], p: Predictor) {
  const stats = (ps: readonly Prediction[]) => {
    const e = ps.map((x) => x.pct[p] - x.retained_pct);
    return {
      n: ps.length,
      mae_pp: r4(e.reduce((s, v) => s + Math.abs(v), 0) / e.length),
      rmse_pp: r4(Math.sqrt(e.reduce((s, v) => s + v * v, 0) / e.length)),
      bias_pp: r4(e.reduce((s, v) => s + v, 0) / e.length),
    };
  };
  const logErrors = preds.map((x) => Math.abs(Math.log(x.pct[p] / x.retained_pct))).sort((a, b) => a - b);
  const k = Math.ceil((preds.length + 1) * INTERVAL_LEVEL);
  if (k > preds.length) throw new Error(`validation: ${preds.length} rows cannot support a ${INTERVAL_LEVEL} interval`);
  return {
    ...stats(preds),
    by_age_band: AGE_BANDS.map((b) => ({ band: b.band, ...stats(preds.filter((x) => x.age_months >= b.from && x.age_months <= b.to)) })),
    interval_half_width_log: r4(logErrors[k - 1]!),
  };
}

function crossValidate(rows: readonly FitRow[], bounds: Readonly<Record<string, number>>, groupOf: (r: FitRow) => string): Prediction[] {
  const groups = [...new Set(rows.map(groupOf))];
  const out: Prediction[] = [];
  for (const g of groups) {
    const train = rows.filter((r) => groupOf(r) !== g);
    const model = fitAdjustment(train, MODEL_COLUMNS, bounds).coefficients;
    const baseline = fitAdjustment(train, BASELINE_COLUMNS, {}).coefficients;
    for (const r of rows.filter((x) => groupOf(x) === g)) {
      out.push({
        row_id: r.row_id,
        source: r.source,
        basis: r.basis,
        age_months: r.features.ageMonths,
        retained_pct: r.retained_pct,
        pct: { rule_based: 100 * Math.exp(r.offset), rule_based_basis: 100 * Math.exp(r.offset + dot(r.z, baseline)), model: 100 * Math.exp(r.offset + dot(r.z, model)) },
      });
    }
  }
  return out.sort((a, b) => (a.row_id < b.row_id ? -1 : 1));
}

export function validate(rows: readonly FitRow[], bounds: Readonly<Record<string, number>>) {
  const loo = crossValidate(rows, bounds, (r) => r.row_id);
  const lso = crossValidate(rows, bounds, (r) => r.source);
  const summary = (preds: Prediction[]) => Object.fromEntries(PREDICTORS.map((p) => [p, errorsOf(preds, p)])) as Record<Predictor, ReturnType<typeof errorsOf>>;
  const looSummary = summary(loo);
  const m = looSummary.model;
  const beats =
    m.mae_pp < Math.min(looSummary.rule_based.mae_pp, looSummary.rule_based_basis.mae_pp) &&
    m.rmse_pp < Math.min(looSummary.rule_based.rmse_pp, looSummary.rule_based_basis.rmse_pp);
  return {
    scheme: "leave-one-out and leave-one-source-out over the published calibration rows; errors in percentage points of the original price",
    n_published: rows.length,
    loo: looSummary,
    leave_one_source_out: summary(lso),
    model_beats_rule_based: beats,
    rows: loo.map((p) => ({
      row_id: p.row_id,
      source: p.source,
      basis: p.basis,
      age_months: p.age_months,
      retained_pct: p.retained_pct,
      rule_based_pct: r4(p.pct.rule_based),
      rule_based_basis_pct: r4(p.pct.rule_based_basis),
      model_pct: r4(p.pct.model),
    })),
  };
}
