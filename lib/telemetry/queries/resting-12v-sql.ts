/**
 * The latest resting 12 V reading of a device in SQL: the one rule of `restingTwelveVolt`
 * (lib/vocabulary/readings.ts). A reading is a candidate when the vehicle is off (ignition 0, or unknown
 * ignition and speed 0), not charging, the voltage is not a traction-pack voltage, and it is either a
 * lead-acid rest voltage (≤ 13.0 V) or from a lithium pack (raw_data.lv_battery_chemistry, or the 16 V
 * lithium rest band); 13.0–14.8 V at rest is a DC-DC converter or charger holding the battery, not a rest
 * voltage. A candidate is settled when no reading in the settle time (SETTLE_MS) before it shows the
 * vehicle awake (moving, ignition on, charging): a reading awake exactly SETTLE_MS before still lets it
 * settle. The answer is the latest settled candidate of the 90-day device window (DEVICE_WINDOW_DAYS).
 *
 * Two places compute it, with the same rule:
 * - the daily rollups (behaviour-rollup-sql.ts `rollupRowsSelect`): each rolled-up day keeps its latest
 *   settled candidate (`rest12_*`), judged against every reading of the settle time before it, the
 *   previous day's included (`restingDays`);
 * - the read (`electricalPart`): raw telemetry from where the device's valid rollups end (its
 *   `clean_before`, or the window's start) by the walk below; only when that finds nothing, the latest
 *   rolled-up day of the window that has one. A raw candidate is later than every rolled one, so the
 *   first found is the latest. Late data can only unsettle a candidate by an awake reading before it,
 *   and an ingest lowers `clean_before` to the first day it wrote, so a rolled day's answer is never
 *   read once a reading that could change it has arrived.
 *
 * Why the rollups: the raw walk costs one step per awake reading after the answer, so a vehicle that
 * never rests the settle time (a 24/7 van, an EV charging whenever it is parked) walked its whole 90 days:
 * 835 ms for one device with a reading every 10 s (scripts/time-resting-12v.ts), a third of a TAS batch
 * on the benchmark's tenant. With the rollups the walk covers the days since the last refresh.
 */
import { sql, type SQL } from "drizzle-orm";
import { awakeSql, LEAD_ACID_REST_MAX_V, LITHIUM_16V_REST_BAND_V, LITHIUM_CHEMISTRY_RE, LOW_VOLTAGE_RANGE_V, SETTLE_MS, TRACTION_VOLTAGE_KIND_RE } from "@/lib/vocabulary/readings";
import type { DevicePart } from "@/lib/devices/device-query";

/** A telemetry alias correlated with the device row `d`. */
const onDevice = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);
const awake = (a: string) => sql.raw(awakeSql(a));
const settle = sql`make_interval(secs => ${SETTLE_MS / 1000}::float8)`;

/**
 * Whether the reading `a` is a resting-12 V candidate (before the settle check). The voltage range comes
 * first, so the regular expressions run only on readings in it (CASE evaluates in order).
 */
function candidate(a: string): SQL {
  const t = sql.raw(a);
  return sql`case when ${t}.battery_voltage between ${LOW_VOLTAGE_RANGE_V.min}::float8 and ${LOW_VOLTAGE_RANGE_V.max}::float8 then
          not ${awake(a)}
          and (${t}.ignition = 0 or (${t}.ignition is null and ${t}.speed_kmh = 0))
          and coalesce(lower(${t}.raw_data->>'voltage_kind'), '') !~ ${TRACTION_VOLTAGE_KIND_RE}
          and (${t}.battery_voltage <= ${LEAD_ACID_REST_MAX_V}::float8
            or ${t}.battery_voltage >= ${LITHIUM_16V_REST_BAND_V.min}::float8
            or regexp_replace(lower(trim(coalesce(${t}.raw_data->>'lv_battery_chemistry', ''))), '[ -]+', '_', 'g') ~ ${LITHIUM_CHEMISTRY_RE})
        else false end`;
}

/**
 * The device's latest settled candidate of each UTC day with readings in `[from, before)` (timestamptz
 * expressions): `rday`, `rest12_ts`, `rest12_v`, `rest12_chem`, `rest12_kind`, and how many settled
 * candidates the day had (`rest12_settled`); a day without one has no row. One pass over the readings
 * from `from` − SETTLE_MS on, in time order, carrying the latest awake reading before each: a reading of
 * `[from, before)` is settled when that is at least SETTLE_MS before it (or there is none since
 * `from` − SETTLE_MS, which covers its whole settle time).
 */
export function restingDays({ from, before }: { from: SQL; before: SQL }): SQL {
  return sql`select distinct on (s.day) s.day as rday, s.ts as rest12_ts, s.battery_voltage as rest12_v, s.lv_chemistry as rest12_chem, s.voltage_kind as rest12_kind,
        count(*) over (partition by s.day)::int as rest12_settled
      from (
        select (t.ts at time zone 'UTC')::date as day, t.ts, t.battery_voltage,
          t.raw_data->>'lv_battery_chemistry' as lv_chemistry, t.raw_data->>'voltage_kind' as voltage_kind,
          ${candidate("t")} as cand,
          max(t.ts) filter (where ${awake("t")}) over (order by t.ts rows between unbounded preceding and 1 preceding) as last_awake
        from telemetry t
        where ${onDevice("t")} and t.ts >= ${from} - ${settle} and t.ts < ${before}
      ) s
      where s.cand and s.ts >= ${from} and (s.last_awake is null or s.last_awake <= s.ts - ${settle})
      order by s.day, s.ts desc`;
}

/**
 * Whether any voltage was reported (`voltage_reported`, an existence check that stops at the first row),
 * and the latest resting 12 V reading from `since90` on with its chemistry word and voltage kind
 * (`resting_12v`, `resting_12v_chemistry`, `resting_12v_kind`); the JS rule re-checks the row.
 *
 * The raw part is linear, not one settle-time probe per candidate: "no awake reading in the settle time
 * before it" is "at least SETTLE_MS after the latest awake reading before it", so it walks the awake
 * readings from `rawFrom` on, newest first (`lag` gives the next later one), and in each gap between two
 * of them looks for the latest candidate at least SETTLE_MS after the gap's start; the first gap that has
 * one answers (`v12a`). `v12b` (only when `v12a` found nothing) covers the time before the first awake
 * reading, whose start is the latest awake reading of the settle time before `rawFrom` (or `rawFrom` −
 * SETTLE_MS: then no awake reading is that close). Before this walk, each parked reading of the whole
 * history was a candidate with its own 6 h probe: a device that never rests 6 h (readings every 10 s,
 * awake once an hour) took over 5 minutes on PGlite for 20 days of history.
 *
 * `rollups: false` is the raw reference (tests): the walk over the whole window, no rollups read.
 */
export function electricalPart({ since90 }: { since90: string }, { rollups = true }: { rollups?: boolean } = {}): DevicePart {
  const since = sql`${since90}::timestamptz`;
  // Where the raw part starts: the device's valid rollups end at clean_before (none: the window's start).
  const rawFrom = rollups ? sql`greatest(${since}, coalesce(v12s.clean_before::timestamp at time zone 'UTC', '-infinity'::timestamptz))` : since;
  const isCandidate = (a: string) => sql`${onDevice(a)} and ${sql.raw(a)}.ts >= ${rawFrom} and ${candidate(a)}`;
  const pick = (col: string) => sql.raw(`case when v12a.found then v12a.${col} when v12b.found then v12b.${col}${rollups ? ` else v12r.${col}` : ""} end`);
  return {
    columns: sql`exists (select 1 from telemetry tv where ${onDevice("tv")} and tv.battery_voltage is not null) as voltage_reported,
        ${pick("battery_voltage")} as resting_12v, ${pick("lv_chemistry")} as resting_12v_chemistry, ${pick("voltage_kind")} as resting_12v_kind`,
    join: sql`${
      rollups
        ? sql`left join lateral (
        select rs.clean_before from telemetry_rollup_state rs
        where ${onDevice("rs")} and rs.rolled_battery_kwh is not distinct from d.battery_kwh
      ) v12s on true
      `
        : sql``
    }left join lateral (
        select true as found, c.battery_voltage, c.lv_chemistry, c.voltage_kind
        from (
          select aw.ts as lo, lag(aw.ts) over (order by aw.ts desc) as hi
          from telemetry aw where ${onDevice("aw")} and aw.ts >= ${rawFrom} and ${awake("aw")}
        ) g
        cross join lateral (
          select tb.ts, tb.battery_voltage, tb.raw_data->>'lv_battery_chemistry' as lv_chemistry, tb.raw_data->>'voltage_kind' as voltage_kind
          from telemetry tb
          where ${isCandidate("tb")} and tb.ts >= g.lo + ${settle} and tb.ts < coalesce(g.hi, 'infinity'::timestamptz)
          order by tb.ts desc limit 1
        ) c
        order by g.lo desc limit 1
      ) v12a on true
      left join lateral (
        select true as found, tb.battery_voltage, tb.raw_data->>'lv_battery_chemistry' as lv_chemistry, tb.raw_data->>'voltage_kind' as voltage_kind
        from telemetry tb
        where v12a.found is null and ${isCandidate("tb")}
          and tb.ts >= coalesce(
            (select max(tp.ts) from telemetry tp where ${onDevice("tp")} and tp.ts >= ${rawFrom} - ${settle} and tp.ts < ${rawFrom} and ${awake("tp")}),
            ${rawFrom} - ${settle}) + ${settle}
          and tb.ts < coalesce((select min(ta.ts) from telemetry ta where ${onDevice("ta")} and ta.ts >= ${rawFrom} and ${awake("ta")}), 'infinity'::timestamptz)
        order by tb.ts desc limit 1
      ) v12b on true${
        rollups
          ? sql`
      left join lateral (
        select r.rest12_v as battery_voltage, r.rest12_chem as lv_chemistry, r.rest12_kind as voltage_kind
        from telemetry_daily r
        where v12a.found is null and v12b.found is null and ${onDevice("r")}
          and r.day < v12s.clean_before and r.day >= (${since} at time zone 'UTC')::date and r.rest12_ts >= ${since}
        order by r.day desc limit 1
      ) v12r on true`
          : sql``
      }`,
  };
}
