/** Where a window's whole UTC days start and end: the days the daily rollups can answer for (behaviour-rollup-sql.ts, great-circle-sql.ts). */
import { sql, type SQL } from "drizzle-orm";

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

/**
 * The rollup state row `rs` of the device row `d`, when its rollups are valid for the device as it is now:
 * rolled with its current battery size (consumption pairs depend on it). Both subqueries below read it so.
 */
const validState = sql`rs.tenant_id = d.tenant_id and rs.device_id = d.device_id and rs.rolled_battery_kwh is not distinct from d.battery_kwh`;

/**
 * The lateral subquery of day K for the device row `d`: its latest rolled-up day in `[headDay, untilDay)`
 * that is still valid (before the device's `clean_before`, rolled with its current battery size) and
 * satisfies `day` (on the rollup row `r`: a day with readings, or with a position). One primary-key probe
 * of the device's rollup state, then one backward index scan of its rollup rows that starts below
 * `clean_before` (an index condition once the state row is known). Joined the other way round, with the
 * state row materialized under the scan, it cost a third more per device on the large tenant.
 */
export function latestValidDay(bounds: WindowBounds, day: SQL): SQL {
  return sql`select r.day from telemetry_rollup_state rs
      cross join lateral (
        select r.day from telemetry_daily r
        where r.tenant_id = d.tenant_id and r.device_id = d.device_id
          and r.day >= ${bounds.headDay}::date and r.day < ${bounds.untilDay}::date and r.day < rs.clean_before and ${day}
        order by r.day desc limit 1
      ) r
      where ${validState}`;
}

/**
 * The lateral subquery of the end of the device row `d`'s valid rollups inside the window: the earlier of
 * its `clean_before` and `untilDay`, when its rollup state is valid (rolled with its current battery size,
 * as `latestValidDay` requires) and that end is after `headDay`; else no row. Every day of
 * `[headDay, day)` with a reading has its rollup row, so what no such row holds is not in the telemetry of
 * those days either.
 */
export function validRollupsEnd(bounds: WindowBounds): SQL {
  return sql`select least(rs.clean_before, ${bounds.untilDay}::date) as day from telemetry_rollup_state rs
      where ${validState}
        and least(rs.clean_before, ${bounds.untilDay}::date) > ${bounds.headDay}::date`;
}
