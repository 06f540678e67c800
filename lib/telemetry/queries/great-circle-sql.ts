/**
 * The great-circle distance a device's positions cover over a window: the haversine sum over pairs of
 * CONSECUTIVE POSITIONED readings (a reading without lat/lon is skipped, not a break), on the sphere of
 * `haversineKm` (tests/oracles/haversine-km.ts). The emissions report's distance when a vehicle has no
 * odometer distance in the period. A SQL part correlated on the device row `d` (lib/devices/device-query.ts).
 */
import { sql, type SQL } from "drizzle-orm";
import { EARTH_RADIUS_KM } from "@/lib/vocabulary/distance";
import type { DevicePart } from "@/lib/devices/device-query";
import { latestValidDay, validRollupsEnd, windowBounds } from "./rollup-window";

/** Σ haversine(lat, lon → lat2, lon2) over the rows of `alias` whose partner exists, km (0 without pairs). */
const haversineSum = (alias: string): SQL =>
  sql.raw(`coalesce(sum(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(
      power(sin(radians(${alias}.lat2 - ${alias}.lat) / 2), 2)
      + cos(radians(${alias}.lat)) * cos(radians(${alias}.lat2)) * power(sin(radians(${alias}.lon2 - ${alias}.lon) / 2), 2)))))
    filter (where ${alias}.lat2 is not null), 0)::float8`);

const positioned = (alias: string) => sql.raw(`${alias}.tenant_id = d.tenant_id and ${alias}.device_id = d.device_id and ${alias}.lat is not null and ${alias}.lon is not null`);

/** `gc_km` over [from, until] (timestamptz expressions) from the raw telemetry: every pair inside it. */
function greatCircleRaw(from: SQL, until: SQL): SQL {
  return sql`select ${haversineSum("p")} as gc_km
    from (
      select t.lat, t.lon, lead(t.lat) over w as lat2, lead(t.lon) over w as lon2
      from telemetry t
      where ${positioned("t")} and t.ts >= ${from} and t.ts <= ${until}
      window w as (order by t.ts)
    ) p`;
}

/** `gc_km` over [since, until] (ISO strings), read wholly from the raw telemetry. */
export function greatCirclePartRaw({ since, until }: { since: string; until: string }): DevicePart {
  return {
    columns: sql`gcr.gc_km`,
    join: sql`left join lateral (${greatCircleRaw(sql`${since}::timestamptz`, sql`${until}::timestamptz`)}) gcr on true`,
  };
}

/**
 * Per UTC day (`pday`) before `daysBefore` (a date expression), from `from` on: the great-circle km of
 * the pairs whose first position is on that day (`gc_km`; the day's last position pairs with the next
 * one, whatever day it is on) and the day's positioned readings (`positions`). The daily rollups' part
 * (behaviour-rollup-sql.ts `rollupRowsSelect`).
 */
export function greatCircleDays({ from, daysBefore }: { from: SQL; daysBefore: SQL }): SQL {
  return sql`select p.pday, ${haversineSum("p")} as gc_km, count(*)::int as positions
    from (
      select (t.ts at time zone 'UTC')::date as pday, t.lat, t.lon, lead(t.lat) over w as lat2, lead(t.lon) over w as lon2
      from telemetry t
      where ${positioned("t")} and t.ts >= ${from}
      window w as (order by t.ts)
    ) p
    where p.pday < ${daysBefore}
    group by p.pday`;
}

/**
 * `gc_km` over [since, until] (ISO strings) as `greatCirclePartRaw` gives it, with the window's whole
 * days read from the daily rollups where they are valid: three parts, summed, as in `behaviourPart`.
 * - A, the head: the positions before the first whole day H, raw, each paired with the next position
 *   (the last of them with the first position at or after H, if not after `until`);
 * - B, whole days [H, K): the running total of the last row before K minus the last row before H;
 * - C, the tail: the positions from the start of K to `until`, raw.
 * K is the latest valid rolled-up day before until's day that has a POSITION (not merely a reading, as
 * the behaviour part's K): the last pair of B then reaches at most K's first position, inside the
 * window, whatever came later. A day with readings but no position would let B's last pair reach past
 * K, possibly past `until` or to a reading stored after the rollups were built.
 * No valid K, B is 0 and C starts where the valid rollups end (V, `validRollupsEnd`): their days hold no
 * position, so nothing of them pairs. Without valid rollups, C starts at H: all raw. The head's partner
 * (the first position at or after H) is looked for only when the head has a position: for a device that
 * never reports one (a feed without GPS), the read is then the head, the days from V, and no more.
 */
export function greatCirclePart({ since, until }: { since: string; until: string }): DevicePart {
  const bounds = windowBounds(since, until);
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const hAt = sql`${bounds.headEnd}::timestamptz`;
  const hDay = sql`${bounds.headDay}::date`;
  const dev = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);
  return {
    columns: sql`(gca.gc_km + coalesce(gcx.c_gc_km - coalesce(gcy.c_gc_km, 0), 0) + gcc.gc_km)::float8 as gc_km`,
    join: sql`left join lateral (${latestValidDay(bounds, sql`r.positions > 0`)}) gck on true
    left join lateral (${validRollupsEnd(bounds)}) gcv on true
    left join lateral (
      select r.day, r.c_gc_km from telemetry_daily r where ${dev("r")} and r.day >= ${hDay} and r.day < gck.day order by r.day desc limit 1
    ) gcx on true
    left join lateral (
      select r.c_gc_km from telemetry_daily r where ${dev("r")} and r.day < ${hDay} and gcx.day is not null order by r.day desc limit 1
    ) gcy on true
    left join lateral (
      select ${haversineSum("p")} as gc_km
      from (
        select h.ts, h.lat, h.lon, lead(h.lat) over w as lat2, lead(h.lon) over w as lon2
        from (
          (select t.ts, t.lat, t.lon from telemetry t where ${positioned("t")} and t.ts >= ${from} and t.ts < ${hAt} and t.ts <= ${to})
          union all
          (select t.ts, t.lat, t.lon from telemetry t where ${positioned("t")} and t.ts >= ${hAt} and t.ts <= ${to}
             and exists (select 1 from telemetry t0 where ${positioned("t0")} and t0.ts >= ${from} and t0.ts < ${hAt} and t0.ts <= ${to})
           order by t.ts limit 1)
        ) h
        window w as (order by h.ts)
      ) p
      where p.ts < ${hAt}
    ) gca on true
    left join lateral (${greatCircleRaw(sql`coalesce(gck.day::timestamp at time zone 'UTC', gcv.day::timestamp at time zone 'UTC', ${hAt})`, to)}) gcc on true`,
  };
}
