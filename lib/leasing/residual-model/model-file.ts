/**
 * The versioned model file (lib/leasing/residual-model/model-<version>.json): everything a prediction
 * needs, written by scripts/fit-residual-model.ts and never edited by hand. Its zod schema checks the
 * file when it is loaded, so a hand edit that breaks it fails at startup, not inside a request.
 */
import { z } from "zod";
import { MODEL_FEATURES } from "./features";

const byFeature = () => z.object(Object.fromEntries(MODEL_FEATURES.map((f) => [f, z.number()])) as Record<(typeof MODEL_FEATURES)[number], z.ZodNumber>);
const range = () => z.tuple([z.number(), z.number()]);

export const residualModelFileSchema = z.object({
  model_version: z.string(),
  form: z.string(),
  features: z.array(z.enum(MODEL_FEATURES)),
  coefficients: byFeature(),
  /** Standard errors from the constrained fit's covariance (a derived coefficient's SE is mapped back from the ones it derives from); 0 for a feature held at zero (fit.ts). */
  standard_errors: byFeature(),
  held_at_zero: z.array(z.enum(MODEL_FEATURES)),
  /**
   * The fit's inequality constraints (fit.ts FIT_CONSTRAINTS), whether each is active (held as an
   * equality: the fit lies on its boundary) and a·b in the unconstrained fit (positive = violated there).
   */
  constraints: z.array(z.object({ name: z.string(), rule: z.string(), active: z.boolean(), unconstrained_value: z.number() })),
  /** (X'X)⁻¹ of the fit, in `features` order: N(N'X'XN)⁻¹N' when constraints are active (constrained-ls.ts). The leverage term of the prediction interval. */
  xtx_inverse: z.array(z.array(z.number())),
  /** Residual standard error on the log scale, counted on the published rows (see the methodology). */
  residual_se: z.number().positive(),
  /** Rows per published row (n / n_published): synthesised rows repeat information, so the parameter variance is scaled up by it. */
  design_effect: z.number().min(1),
  degrees_of_freedom: z.number().int().positive(),
  interval_level: z.number(),
  t_quantile: z.number().positive(),
  fit: z.object({ n_rows: z.number().int(), n_published: z.number().int(), n_synthesised: z.number().int(),
    unconstrained: z.record(z.enum(MODEL_FEATURES), z.object({ coefficient: z.number(), t: z.number() })),
    r_squared: z.number(), r_squared_published: z.number(), rss: z.number() }),
  /** Calibrated range of each model input: age, kilometres above normal, SoH points below the average for the age. */
  training_range: z.object({ age_months: range(), excess_km: range(), soh_deficit_pp: range(), powertrain: z.array(z.enum(["BEV", "PHEV"])) }),
  /** The age of the typical vehicle `factors` compare against: the mean age of the published rows (its mileage and SoH are the normal ones for its age). */
  reference: z.object({ age_months: z.number() }),
  dataset: z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), rows: z.number().int() }),
  fitted_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type ResidualModelFile = z.output<typeof residualModelFileSchema>;
