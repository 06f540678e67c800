import recordedDay from "@/data/spot-prices/fi-2024-02-21.json";
import { HOUR_MS, helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";
import { sortedUnique, type SpotSeries } from "./series";

/**
 * The offline fallback (docs/spot-prices.md, data/spot-prices/README.md): one recorded day of Finnish
 * day-ahead prices (all 24 hours of 21 February 2024 as ENTSO-E published them, in EUR/MWh without VAT,
 * stored with the c/kWh incl. 25.5 % VAT figure that is served), shipped with the app so that a user with
 * no network still sees the feature work.
 * It is served only when the live source fails and nothing cached is younger than 24 h, moved to the
 * current Helsinki day (same wall-clock hours), and labelled `recorded:<date>` so nobody takes it for
 * today's market.
 */
export const RECORDED_DATE: string = recordedDay.date;
export const RECORDED_SOURCE = `recorded:${RECORDED_DATE}`;

/** The recorded hours of the day: Helsinki wall-clock hour → c/kWh incl. VAT. */
export const RECORDED_HOURS: readonly { hour: number; priceWithVat: number }[] = recordedDay.points.map((p) => ({
  hour: p.hour,
  priceWithVat: p.price_cents_kwh_with_vat,
}));

/**
 * Pure: the recorded day laid on the Helsinki day containing `nowMs`. On the spring DST day the hour
 * that does not exist (03:00) falls onto 04:00 and only the first is kept; on the autumn day the
 * repeated hour is served once. Points are an hour long, so the series says PT60M.
 */
export function recordedSeriesFor(nowMs: number): SpotSeries {
  const day = helsinkiDayNumber(nowMs);
  const points = RECORDED_HOURS.map(({ hour, priceWithVat }) => {
    const startMs = helsinkiTime(day, hour * 60);
    return { startMs, endMs: startMs + HOUR_MS, priceWithVat };
  });
  return { source: RECORDED_SOURCE, resolution: "PT60M", points: sortedUnique(points) };
}
