import { predictResidualValue } from "@/lib/leasing/predict-residual-value";
import { residualModelParamsSchema, residualModelQuerySchema, residualValuePredictionSchema } from "@/lib/schemas/leasing-residual-model";
import { defineOperation } from "./define-operation";

/** Endpoint 20. */
export const predictResidualValueOperation = defineOperation({
  id: "predictResidualValue",
  method: "GET",
  path: "/predict/residual-value/{device_id}",
  access: { scope: "predictions:read" },
  reads: "replica",
  tag: "Leasing",
  summary: "Model-based residual value: a log-linear regression on age, mileage, state of health and powertrain",
  description:
    "Method, calibration data and limits: docs/methodology/residual-value-model.md. Every query parameter is optional: a missing one falls back to the device's master data or telemetry, and `inputs` says which were supplied, derived or missing. `factors` needs the `residual_factors` entitlement (null otherwise).",
  input: { path: residualModelParamsSchema, query: residualModelQuerySchema },
  output: residualValuePredictionSchema,
  errors: { 404: "Unknown device, or one of another tenant (the two look the same)." },
  requestExample: { path: { device_id: "sbx-001" }, query: { battery_soh_pct: "92.5", original_price_eur: "48000" } },
  verb: predictResidualValue,
});
