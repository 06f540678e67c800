import recordedDay from "@/data/spot-prices/fi-2024-02-21.json";
import { HOUR_MS } from "@/lib/seed/calendar";
import { sortedUnique, type SpotSeries } from "./series";
import { fiElectricityVatRateOn, round3 } from "./vat";

/**
 * The offline fallback (docs/spot-prices.md, data/spot-prices/README.md): one recorded day of Finnish
 * day-ahead prices (all 24 hours of 21 February 2024 as ENTSO-E published them, in EUR/MWh without
 * VAT), shipped with the app so that a user with no network still sees what the endpoint answers.
 * It is served only when the live source fails and nothing cached is younger than 24 h, and it is served
 * AS IT WAS: at its own times on 21 February 2024 (never moved onto today's clock), with the VAT in force
 * that day (24 %), `fetched_at` when ENTSO-E answered it, `stale: true` and `source: "recorded:<date>"`
 * (CONTRACT "Evidence and trust"), so no client can take it for today's market. The charging
 * recommendation never uses it (lib/charging/get-charging-recommendation.ts).
 */
export const RECORDED_DATE: string = recordedDay.date;
export const RECORDED_SOURCE = `recorded:${RECORDED_DATE}`;
/** The VAT on electricity delivered on the recorded day: 24 % (lib/energy/vat.ts). */
export const RECORDED_VAT_RATE = fiElectricityVatRateOn(RECORDED_DATE);
/** When ENTSO-E answered the recorded document (its `createdDateTime`): the series' `fetched_at`. */
export const RECORDED_FETCHED_AT = new Date(recordedDay.source.document.createdDateTime);

/** The recorded hours of the day: Helsinki wall-clock hour, UTC start, c/kWh incl. that day's VAT. */
export const RECORDED_HOURS: readonly { hour: number; startMs: number; priceWithVat: number }[] = recordedDay.points.map((p) => ({
  hour: p.hour,
  startMs: Date.parse(p.utc_start.replace(/T(\d\d:\d\d)Z$/, "T$1:00Z")),
  priceWithVat: p.price_cents_kwh_with_vat,
}));

/** The exchange's EUR/MWh without VAT → c/kWh with the recorded day's VAT, three decimals (as stored in the file). */
export function recordedCentsWithVat(eurPerMwhWithoutVat: number): number {
  return round3((eurPerMwhWithoutVat / 10) * (1 + RECORDED_VAT_RATE));
}

/** Pure: the recorded day at its own hours (PT60M: the market had hourly prices then). */
export function recordedSeries(): SpotSeries {
  const points = RECORDED_HOURS.map(({ startMs, priceWithVat }) => ({ startMs, endMs: startMs + HOUR_MS, priceWithVat }));
  return { source: RECORDED_SOURCE, resolution: "PT60M", points: sortedUnique(points) };
}
