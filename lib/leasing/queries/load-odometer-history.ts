import { sql } from "drizzle-orm";
import { sqlDate, sqlJson, sqlNumber, sqlText } from "@/lib/db/sql-values";
import { JUMP_MAX_AVG_KMH, JUMP_MIN_KM, ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs, type DevicePart } from "@/lib/devices/device-query";
import type { OdometerDay } from "@/lib/leasing/mileage-history";

/** The trend reads the last year of odometer history before the device's latest reading (a full cycle of seasons). */
const HISTORY_LOOKBACK_DAYS = 365;

interface OdometerHistoryInputs {
  deviceId: string;
  contractKm: number | null;
  leaseMonths: number | null;
  leaseStart: string | null;
  /** Device time of the first odometer reading ever (the lease-start fallback). */
  firstReadingAt: Date | null;
  /** When FDP first registered the device (the fallback without any reading). */
  createdAt: Date | null;
  days: OdometerDay[];
}

/**
 * The daily odometer series of the mileage forecast, in SQL: the same rules as dailyOdometerSeries
 * (lib/leasing/mileage-history.ts, its JS twin). A reading is a one-sample spike when the next reading
 * falls back from it to near the one before it (isOdometerSpike, as the TAS knockout's SQL in
 * lib/devices/device-parts.ts judges it); among the other readings a step up from the previous one
 * of more than JUMP_MIN_KM at more than JUMP_MAX_AVG_KMH is an implausible jump (implausibleJump); each
 * Helsinki day keeps its highest non-spike reading (and when it was read), the sum of its jumps and its spike count. Only the
 * HISTORY_LOOKBACK_DAYS before the latest reading are read: a bounded scan of the primary key.
 */
const odometerDays = (): DevicePart => {
  const on = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);
  return {
    columns: sql`oh.odo_days, of.first_odo_ts, d.created_at as device_created_at`,
    join: sql`left join lateral (
      select min(tf.ts) as first_odo_ts from telemetry tf where ${on("tf")} and tf.odometer_km is not null and tf.odometer_km >= 0
    ) of on true
    left join lateral (
      with r as (
        select t.odometer_km as km, t.ts,
          coalesce(lead(t.odometer_km) over w < t.odometer_km - ${ROLLBACK_TOLERANCE_KM}::float8
            and lead(t.odometer_km) over w >= lag(t.odometer_km) over w - ${ROLLBACK_TOLERANCE_KM}::float8
            and lead(t.odometer_km) over w - lag(t.odometer_km) over w < t.odometer_km - lead(t.odometer_km) over w, false) as spike
        from telemetry t
        where ${on("t")} and t.odometer_km is not null and t.odometer_km >= 0
          and t.ts >= (select max(tl.ts) from telemetry tl where ${on("tl")} and tl.odometer_km is not null and tl.odometer_km >= 0)
            - make_interval(days => ${HISTORY_LOOKBACK_DAYS}::int)
        window w as (order by t.ts)
      ),
      n as (
        select r.km, r.ts, r.km - lag(r.km) over v as step_km, extract(epoch from r.ts - lag(r.ts) over v) / 3600.0 as step_h
        from r where not r.spike window v as (order by r.ts)
      ),
      per_day as (
        select (n.ts at time zone 'Europe/Helsinki')::date as day, max(n.km) as max_km,
          coalesce(sum(n.step_km) filter (where n.step_km > ${JUMP_MIN_KM}::float8 and n.step_km / n.step_h > ${JUMP_MAX_AVG_KMH}::float8), 0) as jump_km,
          0 as spikes,
          (array_agg(n.ts order by n.km desc, n.ts desc))[1] as max_at
        from n group by 1
        union all
        select (r.ts at time zone 'Europe/Helsinki')::date, null, 0, count(*)::int, null from r where r.spike group by 1
      )
      select json_agg(json_build_object('day', x.day - date '1970-01-01', 'max_km', x.max_km, 'jump_km', x.jump_km, 'spikes', x.spikes,
          'max_at', round(extract(epoch from x.max_at) * 1000)) order by x.day) as odo_days
      from (select p.day, max(p.max_km) as max_km, sum(p.jump_km) as jump_km, sum(p.spikes) as spikes, max(p.max_at) as max_at from per_day p group by p.day) x
    ) oh on true`,
  };
};

/** Master data and daily odometer history of the tenant's devices among `deviceIds`, in one round trip (endpoint 19). */
export async function loadOdometerHistory(args: DeviceQueryArgs): Promise<Map<string, OdometerHistoryInputs>> {
  const found = await queryDevices("mileage", args, [parts.master("contract_km", "lease_months"), parts.leaseStart(), odometerDays()]);
  const out = new Map<string, OdometerHistoryInputs>();
  for (const r of found) {
    const raw = sqlJson<{ day: unknown; max_km: unknown; jump_km: unknown; spikes: unknown; max_at: unknown }[]>(r.odo_days) ?? [];
    const days = (Array.isArray(raw) ? raw : []).flatMap((x): OdometerDay[] => {
      const day = sqlNumber(x?.day);
      const maxKm = sqlNumber(x?.max_km);
      // A day with spike readings only has no level (max_km null): it counts its spikes and is otherwise skipped.
      if (day === null) return [];
      return [{ day, maxKm: maxKm ?? Number.NaN, jumpKm: sqlNumber(x?.jump_km) ?? 0, spikes: sqlNumber(x?.spikes) ?? 0, maxAt: sqlNumber(x?.max_at) ?? Number.NaN }];
    });
    const id = String(r.device_id);
    out.set(id, {
      deviceId: id,
      contractKm: sqlNumber(r.contract_km),
      leaseMonths: sqlNumber(r.lease_months),
      leaseStart: sqlText(r.lease_start),
      firstReadingAt: sqlDate(r.first_odo_ts),
      createdAt: sqlDate(r.device_created_at),
      days,
    });
  }
  return out;
}
