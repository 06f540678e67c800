import { z } from "zod";
import type { Powertrain } from "@/lib/vocabulary/powertrain";
import { dateTime, deviceIdPath, numberQueryParam, optionalIntQueryParam, text } from "./common";

/**
 * Endpoint 20 (SPEC 2.16, query parameters SPEC 4.4). Every parameter is optional; a malformed one is a
 * 400 naming it (never clamped, never ignored); unknown parameters are ignored.
 */

/** The powertrains the model is calibrated for (SPEC 4.4: `BEV` or `PHEV`, default BEV). */
export const MODEL_POWERTRAINS = ["BEV", "PHEV"] as const satisfies readonly Powertrain[];
export type ModelPowertrain = (typeof MODEL_POWERTRAINS)[number];

export const residualModelQuerySchema = z.object({
  make: text({ max: 100 }).optional().meta({ description: "Vehicle make; default: the device's master data. Reported, not used by the model." }),
  model: text({ max: 100 }).optional().meta({ description: "Vehicle model; default: the device's master data. Reported, not used by the model." }),
  year: optionalIntQueryParam({ min: 1990, max: 2100, description: "Model year; gives the age (from 1 July of that year) when `age_months` is not given." }),
  powertrain: z
    .enum(MODEL_POWERTRAINS, { message: "must be BEV or PHEV" })
    .optional()
    .meta({ description: "BEV or PHEV. Default: the device's master data when it is BEV or PHEV, else BEV (SPEC 4.4); `inputs` says which." }),
  age_months: optionalIntQueryParam({ min: 0, max: 600, description: "Vehicle age in months; default: from `year`, else the lease start, else the model year." }),
  odometer_km: numberQueryParam({ min: 0, max: 2_000_000, description: "Current odometer, km; default: the device's latest odometer reading." }),
  battery_soh_pct: numberQueryParam({ min: 0, max: 100, description: "Battery state of health, 0–100; default: the device's latest plausible SoH reading." }),
  battery_kwh: numberQueryParam({ min: 0, exclusiveMin: true, max: 500, description: "Battery capacity, kWh; default: master data. Reported, not used by the model." }),
  original_price_eur: numberQueryParam({
    min: 0,
    exclusiveMin: true,
    max: 10_000_000,
    description: "Original price in EUR; default: master data. Without one, `estimated_residual_eur` is null.",
  }),
  electric_range_km: numberQueryParam({ min: 0, exclusiveMin: true, max: 3_000, description: "WLTP electric range, km. Reported, not used by the model." }),
  power_kw: numberQueryParam({ min: 0, exclusiveMin: true, max: 3_000, description: "Motor power, kW. Reported, not used by the model." }),
  mass_kg: numberQueryParam({ min: 0, exclusiveMin: true, max: 20_000, description: "Curb mass, kg. Reported, not used by the model." }),
});
export type ResidualModelQuery = z.output<typeof residualModelQuerySchema>;

export const residualModelParamsSchema = deviceIdPath();
export type ResidualModelRequest = z.output<typeof residualModelParamsSchema> & ResidualModelQuery;

export const INPUT_NAMES = [
  "make",
  "model",
  "year",
  "powertrain",
  "age_months",
  "odometer_km",
  "battery_soh_pct",
  "battery_kwh",
  "original_price_eur",
  "electric_range_km",
  "power_kw",
  "mass_kg",
] as const;
export type InputName = (typeof INPUT_NAMES)[number];
export const INPUT_STATUSES = ["supplied", "derived", "missing"] as const;
export type InputStatus = (typeof INPUT_STATUSES)[number];

const inputSchema = z
  .object({
    status: z.enum(INPUT_STATUSES).meta({ description: "supplied (query), derived (FDP's master data or telemetry), missing." }),
    value: z.union([z.number(), z.string()]).nullable().meta({ description: "The value used; for a missing model input, the typical value filled in (see `source`)." }),
    source: z.string().meta({ description: "Where the value came from, e.g. `query`, `master_data.lease_start`, `telemetry.latest_odometer`, `imputed.typical_for_age`." }),
    used_by_model: z.boolean(),
  })
  .meta({ id: "ResidualModelInput" });

const FACTOR_DIRECTIONS = ["positive", "negative"] as const;

export const residualValuePredictionSchema = z
  .object({
    device_id: z.string(),
    estimated_residual_pct: z.number().meta({ description: "Predicted value retained, percent of the original price, one decimal." }),
    estimated_residual_eur: z.number().nullable().meta({ description: "estimated_residual_pct × original_price_eur, whole euros; null without a known original price." }),
    original_price_eur: z.number().nullable(),
    confidence: z
      .enum(["high", "medium", "low"])
      .meta({ description: "From the prediction interval's width, the inputs known and the calibration range; `confidence_reasons` says why it is not high." }),
    data_quality: z
      .enum(["high", "medium", "low"])
      .meta({ description: "high: every model input supplied or derived; medium: one missing; low: two or more. Details in `inputs`." }),
    model_version: z.string(),
    factors: z
      .array(z.object({ feature: z.string(), direction: z.enum(FACTOR_DIRECTIONS) }))
      .nullable()
      .meta({
        description:
          "The inputs that moved this prediction away from a typical vehicle of its age, and which way; never weights. Null for tenants without the `residual_factors` entitlement.",
      }),
    generated_at: dateTime(),
    price_basis: z.string().meta({ description: "The price basis of the estimate: trade_de (trade value, Germany: the basis the rule-based curve is calibrated on)." }),
    estimate_source: z.enum(["model", "rule_based"]).meta({
      description:
        "model: the model beat the rule-based method out of sample (see validation) and gives the estimate; rule_based: it did not, and the estimate is the rule-based value (the model's adjustment is in limitations).",
    }),
    rule_based_pct: z
      .number()
      .meta({ description: "The rule-based value for the same inputs (the model's prior: age curve × mileage × battery, no score adjustments), one decimal." }),
    confidence_reasons: z.array(z.string()).meta({ description: "Why the confidence is below high, each prefixed with the level it caps to, in words (empty when high)." }),
    validation: z
      .object({
        scheme: z.string(),
        published_rows: z.number().int(),
        model_mae_pp: z.number(),
        rule_based_mae_pp: z.number(),
        rule_based_on_row_basis_mae_pp: z.number(),
        model_beats_rule_based: z.boolean(),
      })
      .meta({
        description: "How the model did out of sample on the published calibration rows (docs/methodology/residual-value-model.md): mean absolute errors in percentage points.",
      }),
    prediction_interval: z
      .object({ level: z.number(), low_pct: z.number(), high_pct: z.number(), method: z.string() })
      .meta({ description: "Prediction interval of estimated_residual_pct (level 0.8), from the held-out errors of the validation." }),
    inputs: z.record(z.enum(INPUT_NAMES), inputSchema).meta({ description: "Each query parameter: supplied, derived or missing, and the value used." }),
    limitations: z.array(z.string()),
  })
  .meta({ id: "ResidualValuePrediction", description: "Model-based residual value (docs/methodology/residual-value-model.md)." });
export type ResidualValuePrediction = z.input<typeof residualValuePredictionSchema>;
