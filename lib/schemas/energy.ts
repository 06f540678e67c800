import { z } from "zod";
import { dateTime } from "./common";

/** Endpoint 14 (SPEC 2.12) plus the fields CONTRACT/issue 10 add: VAT split, resolution, staleness. */
const spotPricePointSchema = z
  .object({
    start: dateTime().meta({ description: "Start of the slot (RFC 3339, UTC)." }),
    end: dateTime().meta({ description: "End of the slot, exclusive (RFC 3339, UTC)." }),
    price_cents_kwh: z.number().meta({ description: "Price in c/kWh INCLUDING Finnish VAT at vat_rate_pct (25.5 % today); the same figure as price_cents_kwh_with_vat." }),
    price_cents_kwh_with_vat: z.number().meta({ description: "c/kWh including VAT at vat_rate_pct." }),
    price_cents_kwh_without_vat: z.number().meta({ description: "c/kWh without VAT (with-VAT price / (1 + vat_rate_pct / 100), 3 decimals)." }),
  })
  .meta({ id: "SpotPricePoint" });

export const spotPricesSchema = z
  .object({
    market: z.literal("FI").meta({ description: "The bidding zone: Finland (Nord Pool day-ahead)." }),
    source: z.string().meta({
      description:
        "Where the prices come from: the live source (e.g. `porssisahko.net`), or `recorded:<date>` for the shipped recorded day served when the source is unreachable and nothing is cached (its slots keep their own date: never today's prices).",
    }),
    cached: z
      .boolean()
      .meta({ description: "True when this answer came from the shared cache (fresh within 15 minutes, or stale), false when fetched for this request or recorded." }),
    fetched_at: dateTime().meta({ description: "When the source answered these prices (for the recorded day: when ENTSO-E answered the recorded document, 2024-02-21)." }),
    stale: z
      .boolean()
      .meta({ description: "True when the source is down and these are not fresh prices: the last fetched ones, older than 15 minutes (at most 24 h), or the recorded day." }),
    stale_since: dateTime().nullable().meta({ description: "When the prices stopped being fresh (fetched_at + 15 min); null unless stale." }),
    resolution: z.enum(["PT15M", "PT60M"]).meta({ description: "Length of every slot (ISO 8601): PT15M when the source gives quarter hours." }),
    vat_rate_pct: z.number().meta({
      description: "The VAT rate included in price_cents_kwh: the rate in force on the prices' delivery day (Finland since 1 Sep 2024: 25.5; the recorded day of 21 Feb 2024: 24).",
    }),
    prices: z.array(spotPricePointSchema).meta({ description: "Slots sorted by start." }),
  })
  .meta({ id: "SpotPrices" });

export type SpotPricesAnswer = z.input<typeof spotPricesSchema>;
