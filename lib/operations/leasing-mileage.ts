import { predictMileage } from "@/lib/leasing/mileage-prediction";
import { mileageForecastPathSchema, mileageForecastQuerySchema, mileageForecastSchema } from "@/lib/schemas/leasing-mileage";
import { defineOperation } from "./define-operation";

/** Endpoint 19. */
export const predictMileageOperation = defineOperation({
  id: "predictMileage",
  method: "GET",
  path: "/predict/mileage/{device_id}",
  access: { scope: "predictions:read" },
  reads: "replica",
  tag: "Leasing",
  summary: "Odometer forecast to the lease end, with an 80 % interval, overage and overrun risk",
  description:
    "Method, backtest and limitations: docs/methodology/mileage-forecast.md. `contract_km` and `lease_months` in the query win over the device's master data; the lease starts on the master data's `lease_start`, else on the first day with an odometer reading.",
  input: { path: mileageForecastPathSchema, query: mileageForecastQuerySchema },
  output: mileageForecastSchema,
  errors: {
    404: "Unknown device, or one of another tenant (the two look the same).",
    422: "The device has reported no plausible odometer reading yet (`unprocessable`).",
  },
  requestExample: { path: { device_id: "sbx-001" }, query: { contract_km: "100000", lease_months: "36" } },
  verb: predictMileage,
});
