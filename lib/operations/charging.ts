import { getChargingRecommendation } from "@/lib/charging/get-charging-recommendation";
import { chargingParamsSchema, chargingQuerySchema, chargingRecommendationSchema } from "@/lib/schemas/charging";
import { defineOperation } from "./define-operation";

/** Endpoint 15. */
export const getChargingRecommendationOperation = defineOperation({
  id: "getChargingRecommendation",
  method: "GET",
  path: "/charging/recommendation/{device_id}",
  access: { scope: "predictions:read" },
  tag: "Energy",
  summary: "When and how to charge an EV: the cheapest window before a deadline on Finnish spot prices",
  description:
    "From the latest state of charge, the battery's capacity (× SoH) and the charging power (AC unless only DC meets the deadline): the energy needed at the plug, the charging time, the part up to `min_soc_pct` charged at once, and the cheapest contiguous window for the rest before the deadline (default: the next 07:00 Helsinki time) on the day-ahead prices incl. VAT, with costs now vs in that window. Without usable prices (none live or cached, or none covering a window before the deadline) no window is called cheapest: the window and cost fields are null, the reason says no prices were available, and the charge starts at `latest_safe_start` (the latest start that still reaches the target a margin before the deadline) rather than at once. Method: docs/methodology/charging.md.",
  input: { path: chargingParamsSchema, query: chargingQuerySchema },
  output: chargingRecommendationSchema,
  errors: {
    404: "Unknown device, or one of another tenant (the two look the same).",
    422: "The device is not an electric vehicle (BEV or PHEV), has reported no state of charge, or has no battery capacity in its master data.",
  },
  requestExample: { path: { device_id: "sbx-001" } },
  verb: getChargingRecommendation,
});
