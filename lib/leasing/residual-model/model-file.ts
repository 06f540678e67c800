/**
 * The versioned model file (lib/leasing/residual-model/model-<version>.json): everything a prediction
 * needs, written by scripts/fit-residual-model.ts and never edited by hand. Its zod schema checks the
 * file when it is loaded, so a hand edit that breaks it fails at startup, not inside a request.
 */
import { z } from "zod";
import { PRICE_BASES } from "./calibration-data";
import { MODEL_FEATURES } from "./features";

const byFeature = () => z.object(Object.fromEntries(MODEL_FEATURES.map((f) => [f, z.number()])) as Record<(typeof MODEL_FEATURES)[number], z.ZodNumber>);
const range = () => z.tuple([z.number(), z.number()]);
const errors = () =>
  z.object({
    n: z.number().int(),
    mae_pp: z.number(),
    rmse_pp: z.number(),
    bias_pp: z.number(),
    by_age_band: z.array(z.object({ band: z.string(), n: z.number().int(), mae_pp: z.number(), rmse_pp: z.number(), bias_pp: z.number() })),
    interval_half_width_log: z.number(),
  });
const methods = () => z.object({ rule_based: errors(), rule_based_basis: errors(), model: errors() });

export const residualModelFileSchema = z.object({
  model_version: z.string(),
  form: z.string(),
  /** The prior: the rule-based method's version, and each coefficient's prior SD (log scale). */
  prior: z.object({ method: z.string(), sd: byFeature() }),
  /** The price basis every answer is on. */
  answer_basis: z.enum(PRICE_BASES),
  features: z.array(z.enum(MODEL_FEATURES)),
  coefficients: byFeature(),
  /** Posterior SDs (0 for a coefficient held at its bound). */
  standard_errors: byFeature(),
  /** Upper bounds of the tilts (monotonicity in age, fit.ts tiltBounds) and which ones bind. */
  upper_bounds: z.record(z.string(), z.number()),
  at_bound: z.array(z.enum(MODEL_FEATURES)),
  min_decline_per_year: z.number(),
  posterior_covariance: z.array(z.array(z.number())),
  residual_se: z.number().positive(),
  effective_df: z.number(),
  interval: z.object({ level: z.number(), method: z.string(), normal_quantile: z.number(), loo_half_width_log: z.number().positive() }),
  /** `model`: answers use the model; `rule_based`: the model did not beat the rule-based method out of sample, and answers give the rule-based value. */
  estimate_source: z.enum(["model", "rule_based"]),
  validation: z.object({
    scheme: z.string(),
    n_published: z.number().int(),
    loo: methods(),
    leave_one_source_out: methods(),
    model_beats_rule_based: z.boolean(),
    rows: z.array(
      z.object({
        row_id: z.string(),
        source: z.string(),
        basis: z.enum(PRICE_BASES),
        age_months: z.number(),
        retained_pct: z.number(),
        rule_based_pct: z.number(),
        rule_based_basis_pct: z.number(),
        model_pct: z.number(),
      }),
    ),
  }),
  /** Calibrated range of the inputs: age, kilometres above normal (published rows), powertrains. */
  training_range: z.object({ age_months: range(), excess_km: range(), powertrain: z.array(z.enum(["BEV", "PHEV"])) }),
  /** The age of the typical vehicle `factors` compare against: the mean age of the published rows. */
  reference: z.object({ age_months: z.number() }),
  dataset: z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), rows: z.number().int(), published_rows_fitted: z.number().int() }),
  fitted_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type ResidualModelFile = z.output<typeof residualModelFileSchema>;
