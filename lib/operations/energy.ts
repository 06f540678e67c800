import { getSpotPrices } from "@/lib/energy/get-spot-prices";
import { spotPricesSchema } from "@/lib/schemas/energy";
import { defineOperation } from "./define-operation";

/** Endpoint 14: Finnish day-ahead prices, public (rate-limited per client IP). */
export const getSpotPricesOperation = defineOperation({
  id: "getSpotPrices",
  method: "GET",
  path: "/energy/spot-prices",
  access: { public: true },
  tag: "Energy",
  summary: "Finnish day-ahead electricity spot prices (public, no key)",
  description:
    "Today's (and, once published, tomorrow's) prices for the FI bidding zone in c/kWh, with and without 25.5 % VAT, at the source's resolution (15-minute slots since 1 Oct 2025). Served from a 15-minute cache shared by all instances; with the source down, the last prices up to 24 h old marked `stale`, else a recorded real day (21 Feb 2024) at its own times with that day's 24 % VAT, `stale: true`, `cached: false` and `source` `recorded:<date>`: never today's prices. See docs/spot-prices.md.",
  input: {},
  output: spotPricesSchema,
  errors: { 503: "The source is down, nothing fetched in the last 24 h is cached, and the offline fallback is off (SPOT_PRICE_OFFLINE_FALLBACK=0)." },
  requestExample: {},
  verb: getSpotPrices,
});
