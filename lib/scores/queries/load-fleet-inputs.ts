import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlCount, sqlDate, sqlJson, sqlNumber } from "@/lib/db/sql-values";
import { CHARGING_WORDS, chargingWordSql, DC_CHARGING_WORDS } from "@/lib/vocabulary/charging";
import { MOVING_SPEED_KMH } from "@/lib/vocabulary/readings";
import type { FleetRiskDeviceInput } from "@/lib/scores/fleet-risk";
import type { GreenFleetDeviceInput } from "@/lib/scores/green-fleet";

/**
 * Everything the two fleet scores (fleet risk, green fleet) need for one tenant and one period
 * `[now − periodDays, now]`, in ONE SQL round trip whatever the fleet size: the aggregation happens
 * in the database (one row per device of the tenant comes back, never raw telemetry).
 *
 * Durations (documented simplification, docs/methodology/fleet-risk.md "Inputs"): each telemetry
 * sample stands for the time until the device's next sample in the period (`lead(ts)`), capped at
 * MAX_SAMPLE_MINUTES so that a gap (parked, offline) is not counted as driving or charging. The last
 * sample of a device in the period therefore counts 0 minutes; a lone sample counts nothing.
 * A sample's state (speed, temperature, charging, SOC) is taken to hold for its whole interval.
 *
 * Definitions used per sample:
 * - driving: moving, speed_kmh ≥ MOVING_SPEED_KMH (1 km/h, lib/vocabulary/readings.ts); night: 22:00–06:00 Europe/Helsinki local time of `ts`.
 * - charging: charging_status one of CHARGING_WORDS (lib/vocabulary/charging.ts, spelled as there),
 *   or charging_power_kw > 0 while not driving;
 *   DC: charging and (status dc_charging / fast_charging, or power > 22 kW).
 * - low SOC: soc_pct < 10 while not charging.
 * - distance: odometer of the newest minus the oldest sample with an odometer (never negative).
 * - energy: Σ charging_power_kw × interval while charging, kWh; null when the device reported no
 *   charging power at all in the period (not measured).
 */
export const MAX_SAMPLE_MINUTES = 10;
const DC_POWER_KW = 22;
const LOW_SOC_PCT = 10;

/** One device's aggregates over the period: what fleet risk needs, plus what green fleet adds. */
export interface FleetDeviceAggregate extends Omit<FleetRiskDeviceInput, "powertrain"> {
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  /** Alerts created in the period by agent (battery, driving, ...), any severity. */
  alerts_by_agent: Record<string, number>;
  readings: number;
  distance_km: number | null;
  energy_kwh: number | null;
}

export interface FleetInputs {
  period_days: number;
  period_start: Date;
  period_end: Date;
  devices: FleetDeviceAggregate[];
}

type Row = {
  device_id: string;
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  readings: number | null;
  driving_min: number | null;
  over130_min: number | null;
  over160_min: number | null;
  night_min: number | null;
  temp_known_min: number | null;
  below0_min: number | null;
  below10_min: number | null;
  charging_min: number | null;
  dc_min: number | null;
  soc_known_min: number | null;
  low_soc_min: number | null;
  telemetry_days: number | null;
  newest_ms: number | null;
  distance_km: number | null;
  energy_kwh: number | null;
  critical: number | null;
  warning: number | null;
  info: number | null;
  by_agent: Record<string, number> | string | null;
};

const textList = (words: readonly string[]) => sql.raw(words.map((w) => `'${w}'`).join(", "));

/** One round trip: devices ⟕ telemetry aggregates ⟕ alert aggregates for the tenant and period. */
export async function loadFleetInputs({ ctx, periodDays, now }: { ctx: TenantCtx; periodDays: number; now: Date }): Promise<FleetInputs> {
  const end = now;
  const start = new Date(now.getTime() - periodDays * 86_400_000);
  const startIso = start.toISOString();
  const endIso = end.toISOString();

  const query = sql`
    with samples as (
      select t.device_id, t.ts, t.speed_kmh, t.weather_temp, t.soc_pct, t.odometer_km,
             ${sql.raw(chargingWordSql("t.charging_status"))} as cs, t.charging_power_kw as kw,
             least(coalesce(extract(epoch from (lead(t.ts) over (partition by t.device_id order by t.ts) - t.ts)), 0) / 60.0,
                   ${MAX_SAMPLE_MINUTES})::float8 as dur,
             first_value(t.odometer_km) over (partition by t.device_id order by (t.odometer_km is null), t.ts asc) as odo_first,
             first_value(t.odometer_km) over (partition by t.device_id order by (t.odometer_km is null), t.ts desc) as odo_last
      from telemetry t
      where t.tenant_id = ${ctx.tenantId} and t.ts >= ${startIso}::timestamptz and t.ts <= ${endIso}::timestamptz
    ),
    flagged as (
      select s.*,
             coalesce(s.speed_kmh, 0) >= ${MOVING_SPEED_KMH} as drv,
             (coalesce(s.cs, '') in (${textList(CHARGING_WORDS)})
               or (coalesce(s.kw, 0) > 0 and coalesce(s.speed_kmh, 0) < ${MOVING_SPEED_KMH})) as chg
      from samples s
    ),
    tel as (
      select device_id,
             count(*)::int as readings,
             coalesce(sum(dur) filter (where drv), 0)::float8 as driving_min,
             coalesce(sum(dur) filter (where drv and speed_kmh > 130), 0)::float8 as over130_min,
             coalesce(sum(dur) filter (where drv and speed_kmh > 160), 0)::float8 as over160_min,
             coalesce(sum(dur) filter (where drv and (extract(hour from (ts at time zone 'Europe/Helsinki')) >= 22
                                                  or extract(hour from (ts at time zone 'Europe/Helsinki')) < 6)), 0)::float8 as night_min,
             coalesce(sum(dur) filter (where drv and weather_temp is not null), 0)::float8 as temp_known_min,
             coalesce(sum(dur) filter (where drv and weather_temp < 0), 0)::float8 as below0_min,
             coalesce(sum(dur) filter (where drv and weather_temp < -10), 0)::float8 as below10_min,
             coalesce(sum(dur) filter (where chg), 0)::float8 as charging_min,
             coalesce(sum(dur) filter (where chg and (coalesce(cs, '') in (${textList(DC_CHARGING_WORDS)}) or coalesce(kw, 0) > ${DC_POWER_KW})), 0)::float8 as dc_min,
             coalesce(sum(dur) filter (where soc_pct is not null), 0)::float8 as soc_known_min,
             coalesce(sum(dur) filter (where soc_pct < ${LOW_SOC_PCT} and not chg), 0)::float8 as low_soc_min,
             count(distinct (ts at time zone 'UTC')::date)::int as telemetry_days,
             (extract(epoch from max(ts)) * 1000)::float8 as newest_ms,
             (case when max(odo_last) is not null then greatest(0, max(odo_last) - max(odo_first)) end)::float8 as distance_km,
             case when count(kw) > 0 then coalesce(sum(kw * dur / 60.0) filter (where chg and kw > 0), 0) end::float8 as energy_kwh
      from flagged
      group by device_id
    ),
    al_agent as (
      select device_id, agent, count(*)::int as n,
             count(*) filter (where severity = 'CRITICAL')::int as critical,
             count(*) filter (where severity = 'WARNING')::int as warning,
             count(*) filter (where severity = 'INFO')::int as info
      from alerts
      where tenant_id = ${ctx.tenantId} and created_at >= ${startIso}::timestamptz and created_at <= ${endIso}::timestamptz
      group by device_id, agent
    ),
    al as (
      select device_id, sum(critical)::int as critical, sum(warning)::int as warning, sum(info)::int as info,
             jsonb_object_agg(agent, n) as by_agent
      from al_agent
      group by device_id
    )
    select d.device_id, d.powertrain, d.fuel_type, d.asset_class,
           tel.readings, tel.driving_min, tel.over130_min, tel.over160_min, tel.night_min, tel.temp_known_min,
           tel.below0_min, tel.below10_min, tel.charging_min, tel.dc_min, tel.soc_known_min, tel.low_soc_min,
           tel.telemetry_days, tel.newest_ms, tel.distance_km, tel.energy_kwh,
           al.critical, al.warning, al.info, al.by_agent
    from devices d
    left join tel on tel.device_id = d.device_id
    left join al on al.device_id = d.device_id
    where d.tenant_id = ${ctx.tenantId}
    order by d.device_id`;

  const found = await rows<Row>(ctx.db, query);
  const num = sqlCount;

  return {
    period_days: periodDays,
    period_start: start,
    period_end: end,
    devices: found.map((r) => {
      const byAgent = sqlJson<Record<string, number>>(r.by_agent) ?? {};
      return {
        device_id: r.device_id,
        powertrain: r.powertrain,
        fuel_type: r.fuel_type,
        asset_class: r.asset_class,
        alerts: { critical: num(r.critical), warning: num(r.warning), info: num(r.info) },
        alerts_by_agent: byAgent,
        readings: num(r.readings),
        driving_minutes: num(r.driving_min),
        minutes_over_130: num(r.over130_min),
        minutes_over_160: num(r.over160_min),
        night_driving_minutes: num(r.night_min),
        temp_known_driving_minutes: num(r.temp_known_min),
        driving_minutes_below_0c: num(r.below0_min),
        driving_minutes_below_minus10c: num(r.below10_min),
        charging_minutes: num(r.charging_min),
        dc_charging_minutes: num(r.dc_min),
        soc_known_minutes: num(r.soc_known_min),
        low_soc_minutes: num(r.low_soc_min),
        telemetry_days: num(r.telemetry_days),
        newest_telemetry_at: sqlDate(sqlNumber(r.newest_ms)),
        distance_km: sqlNumber(r.distance_km),
        energy_kwh: sqlNumber(r.energy_kwh),
      };
    }),
  };
}

/** The fleet-risk view of one device aggregate. */
export function toFleetRiskDevice(d: FleetDeviceAggregate): FleetRiskDeviceInput {
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    alerts: d.alerts,
    driving_minutes: d.driving_minutes,
    minutes_over_130: d.minutes_over_130,
    minutes_over_160: d.minutes_over_160,
    night_driving_minutes: d.night_driving_minutes,
    temp_known_driving_minutes: d.temp_known_driving_minutes,
    driving_minutes_below_0c: d.driving_minutes_below_0c,
    driving_minutes_below_minus10c: d.driving_minutes_below_minus10c,
    charging_minutes: d.charging_minutes,
    dc_charging_minutes: d.dc_charging_minutes,
    soc_known_minutes: d.soc_known_minutes,
    low_soc_minutes: d.low_soc_minutes,
    telemetry_days: d.telemetry_days,
    newest_telemetry_at: d.newest_telemetry_at,
  };
}

/** The green-fleet view of one device aggregate. */
export function toGreenFleetDevice(d: FleetDeviceAggregate): GreenFleetDeviceInput {
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    fuel_type: d.fuel_type,
    asset_class: d.asset_class,
    distance_km: d.distance_km,
    energy_kwh: d.energy_kwh,
    cold_driving_share: d.temp_known_driving_minutes > 0 ? d.driving_minutes_below_0c / d.temp_known_driving_minutes : null,
    newest_telemetry_at: d.newest_telemetry_at,
  };
}
