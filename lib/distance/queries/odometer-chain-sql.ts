/**
 * The odometer CHAIN, in SQL: what the daily rollups keep so that the period distance
 * (./period-distance-sql.ts) can read whole days of plausible increases from them and the raw telemetry
 * only where something may hide (docs/methodology/emissions.md#distance, "Reads").
 *
 * A reading is CHAINED when it and the device's previous odometer reading (device time, whatever day)
 * are valid (0 ≤ km < ∞) and the step between them is ≥ 0 and not an implausible jump by the period
 * distance's own rule (`jumpSql`, the same expression the runs are cut by). A stretch of consecutive
 * chained readings is non-decreasing and holds no spike, no drop and no jump: the walk over it is its
 * last minus its first reading, and its highest reading is its last.
 *
 * Per UTC day, the rollups keep (behaviour-rollup-sql.ts `rollupRowsSelect`, `odometerChainDays` below):
 * - `odo_readings`: the day's odometer readings (not null), `c_odo_readings` their running total;
 * - `odo_joined`: the day's first reading is chained (to the previous day's last reading with one);
 * - `odo_chain_from`: when every reading of the day but its first is chained, the first day of the
 *   chain: the latest day D ≤ this day such that every odometer day in [D, this day] has all its readings
 *   but the first chained and every odometer day in (D, this day] is joined; null otherwise.
 * Each is a fact about the day and the readings before it, so a refresh from any day on (late data
 * lowers `clean_before` to the first day it wrote) recomputes every row whose facts it can change.
 */
import { sql, type SQL } from "drizzle-orm";
import { JUMP_MAX_AVG_KMH, JUMP_MIN_KM } from "@/lib/detectors/odometer-integrity";

/** Hours between two timestamptz expressions, as the period distance's runs measure a step. */
export const stepHoursSql = (from: string, to: string): string => `(extract(epoch from ${to} - ${from}) / 3600.0)`;

/** The period distance's implausible-jump rule over a step (km and hours, column expressions): one expression for the runs and the chain. */
export const jumpSql = (stepKm: SQL, stepH: SQL): SQL => sql`(${stepKm} > ${JUMP_MIN_KM}::float8 and ${stepKm} / ${stepH} > ${JUMP_MAX_AVG_KMH}::float8)`;

/** A valid odometer reading: finite and not negative (in Postgres NaN sorts above every number, so `< 'Infinity'` excludes it too). */
const validOdometerSql = (km: SQL): SQL => sql`(${km} >= 0 and ${km} < 'Infinity'::float8)`;

/**
 * Per UTC day (`oday`) before `daysBefore` (a date expression), from `from` (a timestamptz expression,
 * a UTC midnight or -infinity) on, for the device row `d`: `odo_readings`, `odo_joined`, and
 * `odo_inner_ok` (every reading of the day but its first chained, all valid). The previous odometer
 * reading before `from` is read (one index probe) so the first day's `odo_joined` is judged against it.
 * `odo_chain_from` is derived from these over the days by the caller (it needs the rollup row before
 * `from`), see `chainFromSql`.
 */
function odometerChainDays({ from, daysBefore }: { from: SQL; daysBefore: SQL }): SQL {
  const dev = sql.raw(`t.tenant_id = d.tenant_id and t.device_id = d.device_id and t.odometer_km is not null`);
  const valid = validOdometerSql(sql`o.km`);
  const prevValid = validOdometerSql(sql`lag(o.km) over w`);
  const stepKm = sql`(o.km - lag(o.km) over w)`;
  const stepH = sql.raw(stepHoursSql("lag(o.ts) over w", "o.ts"));
  return sql`select c.oday, count(*)::int as odo_readings,
      coalesce(bool_or(c.first_of_day and c.chained), false) as odo_joined,
      coalesce(bool_and(c.valid and (c.first_of_day or c.chained)), false) as odo_inner_ok
    from (
      select o.ts, (o.ts at time zone 'UTC')::date as oday, ${valid} as valid,
        ((o.ts at time zone 'UTC')::date is distinct from (lag(o.ts) over w at time zone 'UTC')::date) as first_of_day,
        coalesce(${valid} and ${prevValid} and ${stepKm} >= 0 and not ${jumpSql(stepKm, stepH)}, false) as chained
      from (
        (select t.ts, t.odometer_km as km from telemetry t where ${dev} and t.ts < ${from} order by t.ts desc limit 1)
        union all
        (select t.ts, t.odometer_km as km from telemetry t where ${dev} and t.ts >= ${from})
      ) o
      window w as (order by o.ts)
    ) c
    where c.ts >= ${from} and c.oday < ${daysBefore}
    group by c.oday`;
}

/**
 * `odometerChainDays` with each day's `odo_chain_from`, for the rollup refresh: a day whose readings but
 * the first are chained STARTS a chain when its first reading is not chained or the previous odometer
 * day is in no chain; its `odo_chain_from` is the latest start up to it, or, with none since `from`, the
 * chain of the device's last rolled-up odometer day before `fromDay` (the rows the refresh keeps; their
 * readings have not changed, or `clean_before` would be earlier). `fromDay` null: the device's first day.
 */
export function odometerChainRows({ from, fromDay, daysBefore }: { from: SQL; fromDay: SQL; daysBefore: SQL }): SQL {
  // The row before `fromDay` is read once per device (a materialized CTE): joined as a subquery, the
  // planner was seen to probe it once per day row (tests/db/rollup-refresh-plan.test.ts).
  return sql`with pb as materialized (
      select r.odo_chain_from from telemetry_daily r
      where r.tenant_id = d.tenant_id and r.device_id = d.device_id and r.day < ${fromDay} and r.odo_readings > 0
      order by r.day desc limit 1
    )
    select s.oday, s.odo_readings, s.odo_joined,
      case when s.odo_inner_ok then coalesce(max(case when s.chain_start then s.oday end) over (order by s.oday), s.base_chain_from) end as odo_chain_from
    from (
      select x.*, pb.odo_chain_from as base_chain_from,
        x.odo_inner_ok and (not x.odo_joined or not coalesce(lag(x.odo_inner_ok) over (order by x.oday), pb.odo_chain_from is not null)) as chain_start
      from (${odometerChainDays({ from, daysBefore })}) x
      left join pb on true
    ) s`;
}
