/**
 * The readings the period distance (lib/distance/odometer-distance.ts) is computed from, for any
 * number of devices in at most two statements (loadPeriodDistance below; queryDevices: a lateral
 * subquery per device row over its telemetry of the period, the primary key's (tenant, device, ts)
 * range; no round trip per vehicle). The daily rollups' first and last odometer reading of a day cannot
 * show a rollback, a spike or a jump inside it, so the rollups also keep each day's odometer CHAIN
 * (./odometer-chain-sql.ts): whole stretches of days whose readings only rise plausibly are read from
 * them as their first and last reading, and the raw readings only where the chain breaks, at the
 * period's partial days and on stale days (`odometerRunsPart`; `odometerRunsPartRaw` reads everything
 * raw and is the reference it is tested against). The sequence is summarised in SQL with window
 * functions to a handful of rows per device:
 * - odometer: one-sample spikes flagged with lag/lead exactly as the detector's isOdometerSpike (and the
 *   mileage history's SQL) judges them and dropped; the remaining readings cut into runs at every step
 *   that falls more than ROLLBACK_TOLERANCE_KM or is an implausible jump (implausibleJump's JUMP_MIN_KM
 *   and JUMP_MAX_AVG_KMH); per run its first reading, highest reading, last time, the jump it starts
 *   with and its reading count (JSON). Runs are few (one more per drop or jump), whatever the sampling.
 * - GPS (only where the odometer may not cover the period): positions implausibly fast both to reach
 *   and to leave (GPS_MAX_PLAUSIBLE_KMH) are one-sample outliers and dropped; the haversine sum over the
 *   remaining consecutive positions, steps faster than the bound not counted.
 */
import { sql, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { sqlDate, sqlJson, sqlNumber } from "@/lib/db/sql-values";
import { ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { EARTH_RADIUS_KM } from "@/lib/vocabulary/distance";
import { queryDevices, type DevicePart } from "@/lib/devices/device-query";
import { greatCirclePart } from "@/lib/telemetry/queries/great-circle-sql";
import { latestValidDay, windowBounds } from "@/lib/telemetry/queries/rollup-window";
import { jumpSql, stepHoursSql } from "./odometer-chain-sql";
import {
  GPS_MAX_PLAUSIBLE_KMH,
  NO_DISTANCE_EVIDENCE,
  odometerCovers,
  odometerIncreases,
  type DistanceEvidence,
  type GpsDistance,
  type OdometerPeriod,
  type OdometerRun,
} from "../odometer-distance";

const on = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);

/** Haversine km between (lat1, lon1) and (lat2, lon2), column names, on the sphere of haversineKm. */
const haversine = (lat1: string, lon1: string, lat2: string, lon2: string): string =>
  `(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(power(sin(radians(${lat2} - ${lat1}) / 2), 2) + cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lon2} - ${lon1}) / 2), 2)))))`;
const hours = (from: string, to: string) => `(extract(epoch from ${to} - ${from}) / 3600.0)`;

/**
 * The runs of a sequence of odometer readings `v(ts, km, w, cont)` in time order (a CTE the caller
 * defines), columns `pd_runs` (JSON) and `pd_spikes` as described at the top. `w` is how many readings
 * the row stands for (1 for a raw reading); `cont` says that the step from the row before it is a
 * stretch of chained readings (./odometer-chain-sql.ts) read from the rollups: never a drop nor a jump,
 * whatever its net km and time. Raw: every row `w` 1, `cont` false.
 */
function runsSql(tol: SQL): SQL {
  return sql`r as (
        select v.ts, v.km, v.w, v.cont,
          coalesce(lead(v.km) over w < v.km - ${tol}
            and lead(v.km) over w >= lag(v.km) over w - ${tol}
            and lead(v.km) over w - lag(v.km) over w < v.km - lead(v.km) over w, false) as spike
        from v
        window w as (order by v.ts)
      ),
      n as (
        select r.ts, r.km, r.w, r.cont, r.km - lag(r.km) over v as step_km, ${sql.raw(stepHoursSql("lag(r.ts) over v", "r.ts"))} as step_h
        from r where not r.spike window v as (order by r.ts)
      ),
      b as (
        select n.ts, n.km, n.w,
          not n.cont and coalesce(n.step_km < -${tol}, false) as drop_start,
          not n.cont and coalesce(${jumpSql(sql`n.step_km`, sql`n.step_h`)}, false) as jump_start,
          n.step_km
        from n
      ),
      g as (
        select b.*, count(*) filter (where b.drop_start or b.jump_start) over (order by b.ts) as run from b
      ),
      runs as (
        select g.run, min(g.ts) as first_at, (array_agg(g.km order by g.ts))[1] as first_km, max(g.km) as max_km, max(g.ts) as last_at,
          coalesce(sum(g.step_km) filter (where g.jump_start), 0) as jump_km, sum(g.w)::int as readings
        from g group by g.run
      )
      select
        (select json_agg(json_build_object('first_at', runs.first_at, 'first_km', runs.first_km, 'max_km', runs.max_km, 'last_at', runs.last_at, 'jump_km', runs.jump_km, 'readings', runs.readings) order by runs.run) from runs) as pd_runs,
        (select count(*)::int from r where r.spike) as pd_spikes`;
}

/** A period reading: not null and not negative (the period distance's filter, as before the rollups). */
const periodReading = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id and ${a}.odometer_km is not null and ${a}.odometer_km >= 0`);

/** Columns `pd_runs` (JSON) and `pd_spikes`: the period's odometer runs over [since, until], every reading read raw (the reference the rollup read is tested against). */
export function odometerRunsPartRaw({ since, until }: { since: string; until: string }): DevicePart {
  const tol = sql`${ROLLBACK_TOLERANCE_KM}::float8`;
  return {
    columns: sql`pdo.pd_runs, pdo.pd_spikes`,
    join: sql`left join lateral (
      with v as (
        select t.ts, t.odometer_km as km, 1 as w, false as cont from telemetry t
        where ${periodReading("t")} and t.ts >= ${since}::timestamptz and t.ts <= ${until}::timestamptz
      ),
      ${runsSql(tol)}
    ) pdo on true`,
  };
}

/** The stretch that ends on the rollup row `t` (a lateral subquery): its first day's row when `t` is compressible, else `t` itself. */
function stretchStart(t: string, nextJoined: SQL, hDay: SQL): SQL {
  const tt = sql.raw(t);
  return sql`select r.day as s_day, r.odo_first as s_first, r.odo_first_ts as s_first_ts, r.c_odo_readings as s_c, r.odo_readings as s_readings, r.odo_joined as s_joined,
        (${tt}.odo_chain_from is not null and coalesce(${nextJoined}, false)) as compressible
      from telemetry_daily r
      where r.tenant_id = d.tenant_id and r.device_id = d.device_id and r.odo_readings > 0 and r.day <= ${tt}.day
        and r.day >= (case when ${tt}.odo_chain_from is not null and coalesce(${nextJoined}, false) then greatest(${tt}.odo_chain_from, ${hDay}) else ${tt}.day end)
      order by r.day limit 1`;
}

/**
 * Columns `pd_runs` (JSON) and `pd_spikes` as `odometerRunsPartRaw` gives them, with the period's whole
 * days read from the daily rollups where their odometer CHAIN allows it (./odometer-chain-sql.ts,
 * docs/methodology/emissions.md#distance "Reads"). The period is read in three parts, as the other
 * rollup readers do (lib/telemetry/queries/rollup-window.ts):
 * - the head, the readings before the first whole UTC day H, raw;
 * - whole days [H, K), K the latest valid rolled-up day before until's day with odometer readings (a
 *   stale day is never before K: `clean_before`): walked BACKWARD from the last odometer day before K
 *   by a recursive statement, one or two primary-key probes per step. A day T is COMPRESSIBLE when all
 *   its readings but the first are chained and the next odometer day's first reading is chained (to T's
 *   last): then every odometer day of its chain from max(odo_chain_from, H) to T is too, and the stretch
 *   is two rows of the sequence, its first reading and its last (standing for all its readings but the
 *   first, `cont`: the step is chained, never a break). Any other day is read raw (its day's range of
 *   the primary key);
 * - the tail, from the start of K to `until`, raw.
 * Why the runs are the raw ones: a chained reading is ≥ the one before it, so no reading inside a
 * stretch, nor its first, is a spike (the reading after it does not fall), and its last is not one
 * either (the next day's first reading is chained to it); a spike's neighbours are therefore always
 * rows of the sequence. The steps inside a stretch are neither drops nor jumps, so no run starts inside
 * one, its highest reading is its last, and every other step of the sequence is a step between the
 * same two consecutive plausible readings as in the raw read. Tested against the raw read on constructed
 * series through the ingest on both drivers (tests/api/distance-rollups.test.ts).
 */
export function odometerRunsPart({ since, until }: { since: string; until: string }): DevicePart {
  const tol = sql`${ROLLBACK_TOLERANCE_KM}::float8`;
  const bounds = windowBounds(since, until);
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const hAt = sql`${bounds.headEnd}::timestamptz`;
  const hDay = sql`${bounds.headDay}::date`;
  const row = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id and ${a}.odo_readings > 0`);
  const hopColumns = sql`t.day as t_day, t.odo_last as t_last, t.odo_last_ts as t_last_ts, t.c_odo_readings as t_c, s.*`;
  return {
    columns: sql`pdo.pd_runs, pdo.pd_spikes`,
    join: sql`left join lateral (${latestValidDay(bounds, sql`r.odo_readings > 0`)}) pdk on true
    left join lateral (
      with recursive hop as (
        select ${hopColumns}
        from telemetry_daily k
        cross join lateral (
          select r.* from telemetry_daily r where ${row("r")} and r.day >= ${hDay} and r.day < k.day order by r.day desc limit 1
        ) t
        cross join lateral (${stretchStart("t", sql`k.odo_joined`, hDay)}) s
        where ${row("k")} and k.day = pdk.day
        union all
        select ${hopColumns}
        from hop h
        cross join lateral (
          select r.* from telemetry_daily r where ${row("r")} and r.day >= ${hDay} and r.day < h.s_day order by r.day desc limit 1
        ) t
        cross join lateral (${stretchStart("t", sql`h.s_joined`, hDay)}) s
      ),
      v as (
        select t.ts, t.odometer_km as km, 1 as w, false as cont from telemetry t
        where ${periodReading("t")} and t.ts >= ${from} and t.ts < ${hAt} and t.ts <= ${to}
        union all
        -- Each raw day is its own range of the primary key (OFFSET 0 keeps the subquery parameterized by
        -- the day: flattened, the planner may scan the device's whole history once and filter it).
        select t.ts, t.odometer_km, 1, false from hop h
        cross join lateral (
          select t.ts, t.odometer_km from telemetry t
          where ${periodReading("t")} and t.ts >= h.t_day::timestamp at time zone 'UTC' and t.ts < (h.t_day + 1)::timestamp at time zone 'UTC'
          offset 0
        ) t
        where not h.compressible
        union all
        select h.s_first_ts, h.s_first, 1, false from hop h where h.compressible
        union all
        select h.t_last_ts, h.t_last, h.t_c - h.s_c + h.s_readings - 1, true from hop h where h.compressible and h.t_c - h.s_c + h.s_readings > 1
        union all
        select t.ts, t.odometer_km, 1, false from telemetry t
        where ${periodReading("t")} and t.ts >= coalesce(pdk.day::timestamp at time zone 'UTC', ${hAt}) and t.ts <= ${to}
      ),
      ${runsSql(tol)}
    ) pdo on true`,
  };
}

/** Columns `pd_gps_km`, `pd_positions`, `pd_gps_outliers`, `pd_gps_fast`: the plausible positions' great-circle sum over [since, until]. */
function plausibleGpsPart({ since, until }: { since: string; until: string }): DevicePart {
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const vmax = sql`${GPS_MAX_PLAUSIBLE_KMH}::float8`;
  return {
    columns: sql`pdg.pd_gps_km, pdg.pd_positions, pdg.pd_gps_outliers, pdg.pd_gps_fast`,
    join: sql`left join lateral (
      with p as (
        select t.ts, t.lat, t.lon,
          lag(t.lat) over w as plat, lag(t.lon) over w as plon, lag(t.ts) over w as pts,
          lead(t.lat) over w as nlat, lead(t.lon) over w as nlon, lead(t.ts) over w as nts
        from telemetry t
        where ${on("t")} and t.lat is not null and t.lon is not null and t.ts >= ${from} and t.ts <= ${to}
        window w as (order by t.ts)
      ),
      q as (
        select p.ts, p.lat, p.lon,
          coalesce(${sql.raw(haversine("p.plat", "p.plon", "p.lat", "p.lon"))} / ${sql.raw(hours("p.pts", "p.ts"))} > ${vmax}
            and ${sql.raw(haversine("p.lat", "p.lon", "p.nlat", "p.nlon"))} / ${sql.raw(hours("p.ts", "p.nts"))} > ${vmax}, false) as outlier
        from p
      ),
      k as (
        select q.lat, q.lon, lag(q.lat) over v as plat, lag(q.lon) over v as plon, ${sql.raw(hours("lag(q.ts) over v", "q.ts"))} as h
        from q where not q.outlier window v as (order by q.ts)
      ),
      s as (
        select ${sql.raw(haversine("k.plat", "k.plon", "k.lat", "k.lon"))} as km, k.h from k where k.plat is not null
      )
      select
        coalesce((select sum(s.km) filter (where s.km / s.h <= ${vmax}) from s), 0)::float8 as pd_gps_km,
        (select count(*)::int from q) as pd_positions,
        (select count(*)::int from q where q.outlier) as pd_gps_outliers,
        (select count(*)::int from s where s.km / s.h > ${vmax}) as pd_gps_fast
    ) pdg on true`,
  };
}

function runsOf(r: Record<string, unknown>): OdometerPeriod {
  const raw = sqlJson<Record<string, unknown>[]>(r.pd_runs);
  const runs = (Array.isArray(raw) ? raw : []).flatMap((x): OdometerRun[] => {
    const firstAt = sqlDate(x?.first_at);
    const lastAt = sqlDate(x?.last_at);
    const firstKm = sqlNumber(x?.first_km);
    const maxKm = sqlNumber(x?.max_km);
    if (!firstAt || !lastAt || firstKm === null || maxKm === null) return [];
    return [{ firstAt, lastAt, firstKm, maxKm, jumpKm: sqlNumber(x?.jump_km) ?? 0, readings: sqlNumber(x?.readings) ?? 1 }];
  });
  return { runs, spikes: sqlNumber(r.pd_spikes) ?? 0 };
}

function gpsOf(r: Record<string, unknown>): GpsDistance {
  return {
    km: sqlNumber(r.pd_gps_km) ?? 0,
    positions: sqlNumber(r.pd_positions) ?? 0,
    outliers: sqlNumber(r.pd_gps_outliers) ?? 0,
    fastSteps: sqlNumber(r.pd_gps_fast) ?? 0,
  };
}

/**
 * The distance evidence of the tenant's devices among `deviceIds` over [since, until] (ISO strings), in
 * at most two statements whatever the number of devices (each split by queryDevices' bounded
 * parallelism on a large fleet):
 * 1. every device's odometer runs (from the rollups' odometer chain and raw readings where it breaks,
 *    `odometerRunsPart`) and the great-circle sum of ALL its positions from the
 *    daily rollups (greatCirclePart, lib/telemetry/queries/great-circle-sql.ts: cheap for long periods);
 * 2. the plausible positions' sum (raw, above) only for the devices whose odometer may not cover the
 *    period: fewer than two plausible readings, or the all-positions sum above the margin of
 *    periodDistance. The plausible sum is never above the all-positions sum (it drops steps, and
 *    replaces an outlier's two legs with the chord between its neighbours, never longer), so a device
 *    whose all-positions sum is within the margin has an odometer that covers the period, exactly as
 *    the plausible sum would have decided; its evidence carries no plausible GPS sum (`gps` null).
 */
export async function loadPeriodDistance({
  ctx,
  deviceIds,
  since,
  until,
  onQuery,
  read = "rollups",
}: {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  deviceIds: readonly string[];
  since: string;
  until: string;
  onQuery?: (label: string) => void;
  /** "raw": the odometer read wholly raw (`odometerRunsPartRaw`), the reference for tests and scripts/time-period-distance.ts. */
  read?: "rollups" | "raw";
}): Promise<Map<string, DistanceEvidence>> {
  const runsPart = read === "raw" ? odometerRunsPartRaw({ since, until }) : odometerRunsPart({ since, until });
  const found = await queryDevices("period distance: odometer", { ctx, deviceIds, onQuery }, [runsPart, greatCirclePart({ since, until })]);
  const out = new Map<string, DistanceEvidence>();
  const needGps: string[] = [];
  for (const r of found) {
    const id = String(r.device_id);
    const odometer = runsOf(r);
    const allPositionsKm = sqlNumber(r.gc_km) ?? 0;
    out.set(id, { odometer, gps: null });
    if (!odometerCovers(odometerIncreases(odometer), allPositionsKm)) needGps.push(id);
  }
  if (needGps.length > 0) {
    const gps = await queryDevices("period distance: positions", { ctx, deviceIds: needGps, onQuery }, [plausibleGpsPart({ since, until })]);
    for (const r of gps) {
      const e = out.get(String(r.device_id));
      if (e) e.gps = gpsOf(r);
    }
  }
  for (const id of deviceIds) if (!out.has(id)) out.set(id, NO_DISTANCE_EVIDENCE);
  return out;
}
