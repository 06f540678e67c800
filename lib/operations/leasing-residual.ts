import { getResidualValue } from "@/lib/leasing/get-residual-value";
import { residualValueSchema } from "@/lib/schemas/leasing-residual";
import { deviceIdParamsSchema } from "@/lib/schemas/scores-device";
import { defineOperation } from "./define-operation";

/** Endpoint 10 (SPEC 2.9). */
export const getResidualValueOperation = defineOperation({
  id: "getResidualValue",
  method: "GET",
  path: "/vehicles/{device_id}/residual-value",
  access: { scope: "predictions:read" },
  reads: "replica",
  tag: "Leasing",
  summary: "Rule-based residual value estimate (percent of list price, and euros when the price is known)",
  description:
    "An indicative estimate, not a valuation or an offer: a depreciation curve by age, mileage and battery penalties, small bounded adjustments from the vehicle's scores, and a penalty for an EOL knockout. `data_quality.missing_fields` names what was not known. Method and sources: docs/methodology/residual-value.md.",
  input: { path: deviceIdParamsSchema },
  output: residualValueSchema,
  errors: { 404: "Unknown device, or one of another tenant (the two look the same)." },
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getResidualValue,
});
