/**
 * The readings the period distance (lib/distance/odometer-distance.ts) is computed from, for any
 * number of devices in at most two statements (loadPeriodDistance below; queryDevices: a lateral
 * subquery per device row over its telemetry of the period, the primary key's (tenant, device, ts)
 * range; no round trip per vehicle). The daily rollups keep only a day's first and last odometer
 * reading, which cannot show a rollback, a spike or a jump inside a day, so the odometer is read raw,
 * with window functions, and summarised in SQL to a handful of rows per device:
 * - odometer: one-sample spikes flagged with lag/lead exactly as the detector's isOdometerSpike (and the
 *   mileage history's SQL) judges them and dropped; the remaining readings cut into runs at every step
 *   that falls more than ROLLBACK_TOLERANCE_KM or is an implausible jump (implausibleJump's JUMP_MIN_KM
 *   and JUMP_MAX_AVG_KMH); per run its first reading, highest reading, last time, the jump it starts
 *   with and its reading count (JSON). Runs are few (one more per drop or jump), whatever the sampling.
 * - GPS (only where the odometer may not cover the period): positions implausibly fast both to reach
 *   and to leave (GPS_MAX_PLAUSIBLE_KMH) are one-sample outliers and dropped; the haversine sum over the
 *   remaining consecutive positions, steps faster than the bound not counted.
 */
import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { sqlDate, sqlJson, sqlNumber } from "@/lib/db/sql-values";
import { JUMP_MAX_AVG_KMH, JUMP_MIN_KM, ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { EARTH_RADIUS_KM } from "@/lib/reports/emissions";
import { queryDevices, type DevicePart } from "@/lib/scores/queries/device-sql";
import { greatCirclePart } from "@/lib/scores/queries/great-circle-sql";
import { GPS_MAX_PLAUSIBLE_KMH, NO_DISTANCE_EVIDENCE, odometerCovers, odometerIncreases, type DistanceEvidence, type GpsDistance, type OdometerPeriod, type OdometerRun } from "../odometer-distance";

const on = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);

/** Haversine km between (lat1, lon1) and (lat2, lon2), column names, on the sphere of haversineKm. */
const haversine = (lat1: string, lon1: string, lat2: string, lon2: string): string =>
  `(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(power(sin(radians(${lat2} - ${lat1}) / 2), 2) + cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lon2} - ${lon1}) / 2), 2)))))`;
const hours = (from: string, to: string) => `(extract(epoch from ${to} - ${from}) / 3600.0)`;

/** Columns `pd_runs` (JSON) and `pd_spikes`: the period's odometer runs, over [since, until]. */
export function odometerRunsPart({ since, until }: { since: string; until: string }): DevicePart {
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const tol = sql`${ROLLBACK_TOLERANCE_KM}::float8`;
  return {
    columns: sql`pdo.pd_runs, pdo.pd_spikes`,
    join: sql`left join lateral (
      with r as (
        select t.ts, t.odometer_km as km,
          coalesce(lead(t.odometer_km) over w < t.odometer_km - ${tol}
            and lead(t.odometer_km) over w >= lag(t.odometer_km) over w - ${tol}
            and lead(t.odometer_km) over w - lag(t.odometer_km) over w < t.odometer_km - lead(t.odometer_km) over w, false) as spike
        from telemetry t
        where ${on("t")} and t.odometer_km is not null and t.odometer_km >= 0 and t.ts >= ${from} and t.ts <= ${to}
        window w as (order by t.ts)
      ),
      n as (
        select r.ts, r.km, r.km - lag(r.km) over v as step_km, ${sql.raw(hours("lag(r.ts) over v", "r.ts"))} as step_h
        from r where not r.spike window v as (order by r.ts)
      ),
      b as (
        select n.ts, n.km,
          coalesce(n.step_km < -${tol}, false) as drop_start,
          coalesce(n.step_km > ${JUMP_MIN_KM}::float8 and n.step_km / n.step_h > ${JUMP_MAX_AVG_KMH}::float8, false) as jump_start,
          n.step_km
        from n
      ),
      g as (
        select b.*, count(*) filter (where b.drop_start or b.jump_start) over (order by b.ts) as run from b
      ),
      runs as (
        select g.run, min(g.ts) as first_at, (array_agg(g.km order by g.ts))[1] as first_km, max(g.km) as max_km, max(g.ts) as last_at,
          coalesce(sum(g.step_km) filter (where g.jump_start), 0) as jump_km, count(*)::int as readings
        from g group by g.run
      )
      select
        (select json_agg(json_build_object('first_at', runs.first_at, 'first_km', runs.first_km, 'max_km', runs.max_km, 'last_at', runs.last_at, 'jump_km', runs.jump_km, 'readings', runs.readings) order by runs.run) from runs) as pd_runs,
        (select count(*)::int from r where r.spike) as pd_spikes
    ) pdo on true`,
  };
}

/** Columns `pd_gps_km`, `pd_positions`, `pd_gps_outliers`, `pd_gps_fast`: the plausible positions' great-circle sum over [since, until]. */
export function plausibleGpsPart({ since, until }: { since: string; until: string }): DevicePart {
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
 * 1. every device's odometer runs (raw, above) and the great-circle sum of ALL its positions from the
 *    daily rollups (greatCirclePart, lib/scores/queries/great-circle-sql.ts: cheap for long periods);
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
}: {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  deviceIds: readonly string[];
  since: string;
  until: string;
  onQuery?: (label: string) => void;
}): Promise<Map<string, DistanceEvidence>> {
  const found = await queryDevices("period distance: odometer", { ctx, deviceIds, onQuery }, [odometerRunsPart({ since, until }), greatCirclePart({ since, until })]);
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
