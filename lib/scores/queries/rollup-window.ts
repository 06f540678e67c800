/** Where a window's whole UTC days start and end: the days the daily rollups can answer for (behaviour-rollup-sql.ts, great-circle-sql.ts). */

const DAY_MS = 86_400_000;

/** The first UTC midnight at or after `t`. */
function firstWholeDayStart(t: Date): Date {
  const ms = Math.ceil(t.getTime() / DAY_MS) * DAY_MS;
  return new Date(ms);
}

/** `YYYY-MM-DD` of the UTC day that holds `t`. */
export const utcDay = (t: Date) => t.toISOString().slice(0, 10);

/** Where a window's whole days start and end (see `behaviourPart`), as the statement's parameters. */
export interface WindowBounds {
  /** The first UTC midnight at or after `since` (ISO). */
  headEnd: string;
  /** Its day, `YYYY-MM-DD`. */
  headDay: string;
  /** The UTC day of `until`, `YYYY-MM-DD`. */
  untilDay: string;
}

/**
 * The UTC midnight after the window's last whole day: the start of the day that holds `until` + 1 ms
 * (a window that ends at 23:59:59.999 ends a whole day; one that ends at 14:00 does not).
 */
export function wholeDaysEnd(until: string): Date {
  return new Date(Math.floor((new Date(until).getTime() + 1) / DAY_MS) * DAY_MS);
}

export function windowBounds(since: string, until: string): WindowBounds {
  const h = firstWholeDayStart(new Date(since));
  return { headEnd: h.toISOString(), headDay: utcDay(h), untilDay: utcDay(new Date(until)) };
}
