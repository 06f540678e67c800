/**
 * Finnish local time without a time-zone database: Europe/Helsinki is UTC+2, and UTC+3 under the
 * EU summer-time rule (last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC).
 * Computing it here keeps the seed independent of the ICU data of the Node build.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** UTC instant of the last Sunday of a month at 01:00 UTC (month 0-based). */
function lastSundayAt0100Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const day = lastDay.getUTCDate() - lastDay.getUTCDay();
  return Date.UTC(year, month, day, 1);
}

export function helsinkiOffsetHours(utcMs: number): number {
  const year = new Date(utcMs).getUTCFullYear();
  const summer = utcMs >= lastSundayAt0100Utc(year, 2) && utcMs < lastSundayAt0100Utc(year, 9);
  return summer ? 3 : 2;
}

/** A Helsinki calendar day as a day number (days since 1970-01-01). */
export function helsinkiDayNumber(utcMs: number): number {
  return Math.floor((utcMs + helsinkiOffsetHours(utcMs) * HOUR_MS) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOfDayNumber(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** UTC instant of a Helsinki wall-clock time, `minutes` after local midnight of the day. */
export function helsinkiTime(dayNumber: number, minutes: number): number {
  const wallAsUtc = dayNumber * DAY_MS + minutes * MINUTE_MS;
  // The offset of the instant itself: the wall time minus the winter offset is close enough to it.
  return wallAsUtc - helsinkiOffsetHours(wallAsUtc - 2 * HOUR_MS) * HOUR_MS;
}

/** Hours since local midnight (fractional) for an instant. */
export function helsinkiHourOfDay(utcMs: number): number {
  const local = utcMs + helsinkiOffsetHours(utcMs) * HOUR_MS;
  return (((local % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
}

/** YYYY-MM-DD of a day number. */
export function isoDate(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** Fractional day of the year (0 = 1 January 00:00 UTC). */
export function dayOfYear(utcMs: number): number {
  const start = Date.UTC(new Date(utcMs).getUTCFullYear(), 0, 1);
  return (utcMs - start) / DAY_MS;
}
