/**
 * Per-device inputs of the device-level scores (vehicle health, battery snapshot, EOL, TAS and the
 * per-device items of the scores batch). One module, three SQL round trips whatever the number of
 * devices: (1) master data + latest state, (2) one telemetry and driving-event aggregate, (3) one
 * alert aggregate.
 * The tenant always comes from `ctx`; device ids the tenant does not hold are simply absent.
 */
import { sql, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/client";
import { textArray as pgTextArray } from "@/lib/db/pg-array";
import type { BatteryLatestState, BatterySnapshotInput } from "@/lib/scores/battery-snapshot";
import type { EolInput } from "@/lib/scores/eol-summary";
import type { FleetRiskDeviceInput } from "@/lib/scores/fleet-risk";
import type { GreenFleetDeviceInput } from "@/lib/scores/green-fleet";
import type { TasInput } from "@/lib/scores/tas";
import type { VehicleHealthInput } from "@/lib/scores/vehicle-health";
import { ALERT_KEYS, type AlertAgent } from "@/lib/vocabulary/alerts";
import { type DrivingEventSource, HARSH_EVENT_KINDS } from "@/lib/vocabulary/driving-events";

const DAY_MS = 86_400_000;
/** Observation window of TAS behaviour, coverage, km driven and critical alerts. */
export const DEVICE_WINDOW_DAYS = 90;
/** Window of `records_30d` (vehicle health) and of the per-device fleet-level items of the batch. */
export const SHORT_WINDOW_DAYS = 30;
/** SoH trend: the oldest reading at most this many days before the latest one is the base. */
export const SOH_TREND_LOOKBACK_DAYS = 365;
/** A trend needs readings at least this far apart, else it is unknown (noise dominates). */
export const SOH_TREND_MIN_SPAN_DAYS = 30;
/** km per year needs odometer readings at least this far apart. */
export const KM_PER_YEAR_MIN_SPAN_DAYS = 7;

export interface DeviceInputs {
  device_id: string;
  name: string;
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  year: number | null;
  battery_kwh: number | null;
  contract_km: number | null;
  lease_start: string | null;
  lease_months: number | null;
  /** Latest state (fleet_snapshot), or null when none was ever received. */
  latest: BatteryLatestState | null;
  telemetry: {
    newest_at: Date | null;
    records_30d: number;
    days_with_data_90d: number;
    days_with_data_30d: number;
    /** Odometer readings in the 90-day window. */
    odo_min_90d: number | null;
    odo_max_90d: number | null;
    odo_first_at_90d: Date | null;
    odo_last_at_90d: Date | null;
    odo_min_30d: number | null;
    odo_max_30d: number | null;
    /** Records with a speed value in the 90-day window (driving data available). */
    speed_records_90d: number;
    latest_soh: { pct: number; at: Date } | null;
    /** Oldest SoH reading within SOH_TREND_LOOKBACK_DAYS before the latest one. */
    early_soh: { pct: number; at: Date } | null;
    latest_odometer_km: number | null;
    /** DTC list of the latest record that carried one; null = never reported. */
    active_dtc_codes: string[] | null;
    battery_voltage_reported: boolean;
    latest_resting_12v_v: number | null;
  };
  /** Harsh driving events (lib/vocabulary/driving-events.ts) in the 90-day window, by source, and what the sources cover. */
  driving_events: {
    oem_harsh_90d: number;
    derived_harsh_90d: number;
    /** Device time of the newest record that carried a `raw_data.events` array, or null. */
    reported_at: Date | null;
    /** Device time of the newest speed-sample pair dense enough to derive harsh events, or null. */
    dense_speed_at: Date | null;
  };
  alerts: {
    odometer_critical: number;
    odometer_warning: number;
    /** `odometer_integrity:rollback` alerts, acknowledged or not (a detected rollback stays a fact). */
    rollbacks: number;
    overspeed_90d: number;
    /** CRITICAL alerts in the 90-day window, odometer integrity excluded (it is a knockout). */
    critical_90d: number;
    severity_30d: { critical: number; warning: number; info: number };
    last_battery_alert: BatterySnapshotInput["last_battery_alert"];
  };
}

export interface LoadDeviceInputsArgs {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  deviceIds: readonly string[];
  now: Date;
  /** Called once per SQL round trip (tests assert the count does not grow with the number of devices). */
  onQuery?: (label: string) => void;
}

function toDate(x: unknown): Date | null {
  if (x === null || x === undefined) return null;
  const d = x instanceof Date ? x : new Date(String(x));
  return Number.isFinite(d.getTime()) ? d : null;
}
function num(x: unknown): number | null {
  if (typeof x === "number") return Number.isFinite(x) ? x : null;
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return Number(x);
  return null;
}
function int(x: unknown): number {
  return num(x) ?? 0;
}
function str(x: unknown): string | null {
  return typeof x === "string" ? x : null;
}
function textArray(x: unknown): string[] | null {
  if (x === null || x === undefined) return null;
  if (Array.isArray(x)) return x.filter((v): v is string => typeof v === "string");
  if (typeof x === "string") {
    // Postgres array literal `{a,b}` (a driver that did not parse it).
    const inner = x.replace(/^\{|\}$/g, "");
    return inner === "" ? [] : inner.split(",").map((s) => s.replace(/^"|"$/g, ""));
  }
  return null;
}

export async function loadDeviceInputs({ ctx, deviceIds, now, onQuery }: LoadDeviceInputsArgs): Promise<Map<string, DeviceInputs>> {
  const out = new Map<string, DeviceInputs>();
  const unique = [...new Set(deviceIds)];
  if (unique.length === 0) return out;
  const t = ctx.tenantId;
  // The id list travels as one JSON parameter: one placeholder whatever N, identical on both drivers.
  const idsJson = JSON.stringify(unique);
  const ids = sql`(select jsonb_array_elements_text(${idsJson}::jsonb))`;
  const since90 = new Date(now.getTime() - DEVICE_WINDOW_DAYS * DAY_MS).toISOString();
  const since30 = new Date(now.getTime() - SHORT_WINDOW_DAYS * DAY_MS).toISOString();
  const run = async <T extends Record<string, unknown>>(label: string, q: SQL) => {
    onQuery?.(label);
    return rows<T>(ctx.db, q);
  };

  // 1. Master data and latest state.
  const deviceRows = await run(
    "devices",
    sql`select d.device_id, d.name, d.powertrain, d.fuel_type, d.asset_class, d.year, d.battery_kwh, d.contract_km,
          d.lease_start::text as lease_start, d.lease_months, d.events_reported_at, d.dense_speed_at,
          s.ts as snap_ts, s.soc_pct, s.battery_voltage, s.charging_status, s.charging_power_kw, s.weather_temp
        from devices d
        left join fleet_snapshot s on s.tenant_id = d.tenant_id and s.device_id = d.device_id
        where d.tenant_id = ${t} and d.device_id in ${ids}`,
  );
  if (deviceRows.length === 0) return out;

  // 2. Telemetry aggregates (window counts, odometer span, latest SoH / DTC list / resting 12 V) and
  //    the harsh driving events of the window by source.
  const oem: DrivingEventSource = "oem";
  const derived: DrivingEventSource = "derived";
  const tel = (alias: string) => sql.raw(`${alias}.tenant_id = ids.tenant_id and ${alias}.device_id = ids.device_id`);
  const telemetryRows = await run(
    "telemetry",
    sql`with ids as (select distinct ${t}::text as tenant_id, v as device_id from jsonb_array_elements_text(${idsJson}::jsonb) as v)
        select ids.device_id,
          w.records_30d, w.days_90, w.days_30, w.odo_min_90, w.odo_max_90, w.odo_first_90, w.odo_last_90,
          w.odo_min_30, w.odo_max_30, w.speed_records_90,
          n.newest_ts,
          soh.soh_pct as latest_soh, soh.ts as latest_soh_ts,
          soh0.soh_pct as early_soh, soh0.ts as early_soh_ts,
          odo.odometer_km as latest_odo,
          dtc.dtc_codes,
          exists (select 1 from telemetry tv where ${tel("tv")} and tv.battery_voltage is not null) as voltage_reported,
          v12.battery_voltage as resting_12v,
          ev.oem_harsh_90, ev.derived_harsh_90
        from ids
        left join lateral (
          select count(*) filter (where t.ts >= ${since30}::timestamptz)::int as records_30d,
            count(distinct (t.ts at time zone 'UTC')::date)::int as days_90,
            count(distinct (t.ts at time zone 'UTC')::date) filter (where t.ts >= ${since30}::timestamptz)::int as days_30,
            min(t.odometer_km) as odo_min_90, max(t.odometer_km) as odo_max_90,
            min(t.ts) filter (where t.odometer_km is not null) as odo_first_90,
            max(t.ts) filter (where t.odometer_km is not null) as odo_last_90,
            min(t.odometer_km) filter (where t.ts >= ${since30}::timestamptz) as odo_min_30,
            max(t.odometer_km) filter (where t.ts >= ${since30}::timestamptz) as odo_max_30,
            count(t.speed_kmh)::int as speed_records_90
          from telemetry t where ${tel("t")} and t.ts >= ${since90}::timestamptz
        ) w on true
        left join lateral (select max(tn.ts) as newest_ts from telemetry tn where ${tel("tn")}) n on true
        left join lateral (
          select ts1.ts, ts1.soh_pct from telemetry ts1 where ${tel("ts1")} and ts1.soh_pct is not null order by ts1.ts desc limit 1
        ) soh on true
        left join lateral (
          select ts0.ts, ts0.soh_pct from telemetry ts0
          where ${tel("ts0")} and ts0.soh_pct is not null
            and ts0.ts >= soh.ts - make_interval(days => ${SOH_TREND_LOOKBACK_DAYS}::int)
          order by ts0.ts asc limit 1
        ) soh0 on true
        left join lateral (
          select tod.odometer_km from telemetry tod where ${tel("tod")} and tod.odometer_km is not null order by tod.ts desc limit 1
        ) odo on true
        left join lateral (
          select td.dtc_codes from telemetry td where ${tel("td")} and td.dtc_codes is not null order by td.ts desc limit 1
        ) dtc on true
        left join lateral (
          select tb.battery_voltage from telemetry tb
          where ${tel("tb")} and tb.battery_voltage between 6 and 16
            and coalesce(tb.speed_kmh, 0) <= 0
            and (tb.ignition = 0 or (tb.ignition is null and tb.speed_kmh = 0))
            and coalesce(lower(tb.raw_data->>'voltage_kind'), '') !~ '^(traction|hv|high|pack|main)([_ -]|$)'
          order by tb.ts desc limit 1
        ) v12 on true
        left join lateral (
          select count(*) filter (where de.source = ${oem})::int as oem_harsh_90,
            count(*) filter (where de.source = ${derived})::int as derived_harsh_90
          from driving_events de
          where ${tel("de")} and de.ts >= ${since90}::timestamptz and de.kind = any(${pgTextArray(HARSH_EVENT_KINDS)}::text[])
        ) ev on true`,
  );

  // 3. Alert aggregates and the newest battery alert.
  const odometerAgent: AlertAgent = "odometer_integrity";
  const batteryAgent: AlertAgent = "battery";
  const alertRows = await run(
    "alerts",
    sql`with agg as (
          select a.device_id,
            count(*) filter (where a.agent = ${odometerAgent} and a.severity = 'CRITICAL')::int as odo_critical,
            count(*) filter (where a.agent = ${odometerAgent} and a.severity = 'WARNING')::int as odo_warning,
            count(*) filter (where a.dedupe_key = ${ALERT_KEYS.odometerRollback})::int as rollbacks,
            count(*) filter (where a.created_at >= ${since90}::timestamptz and a.dedupe_key = ${ALERT_KEYS.drivingOverspeed})::int as overspeed_90,
            count(*) filter (where a.created_at >= ${since90}::timestamptz and a.severity = 'CRITICAL' and a.agent <> ${odometerAgent})::int as critical_90,
            count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = 'CRITICAL')::int as critical_30,
            count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = 'WARNING')::int as warning_30,
            count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = 'INFO')::int as info_30
          from alerts a where a.tenant_id = ${t} and a.device_id in ${ids}
          group by a.device_id
        ), lb as (
          select distinct on (b.device_id) b.device_id, b.severity, b.prediction, b.confidence, b.created_at
          from alerts b where b.tenant_id = ${t} and b.device_id in ${ids} and b.agent = ${batteryAgent}
          order by b.device_id, b.created_at desc, b.id desc
        )
        select agg.*, lb.severity as lb_severity, lb.prediction as lb_prediction, lb.confidence as lb_confidence, lb.created_at as lb_created_at
        from agg left join lb on lb.device_id = agg.device_id`,
  );

  const telById = new Map(telemetryRows.map((r) => [String(r.device_id), r]));
  const alertById = new Map(alertRows.map((r) => [String(r.device_id), r]));

  for (const d of deviceRows) {
    const id = String(d.device_id);
    const tr = telById.get(id) ?? {};
    const ar = alertById.get(id) ?? {};
    const snapTs = toDate(d.snap_ts);
    const latestSoh = num(tr.latest_soh);
    const latestSohAt = toDate(tr.latest_soh_ts);
    const earlySoh = num(tr.early_soh);
    const earlySohAt = toDate(tr.early_soh_ts);
    const lbAt = toDate(ar.lb_created_at);
    out.set(id, {
      device_id: id,
      name: String(d.name),
      powertrain: str(d.powertrain),
      fuel_type: str(d.fuel_type),
      asset_class: str(d.asset_class),
      year: num(d.year),
      battery_kwh: num(d.battery_kwh),
      contract_km: num(d.contract_km),
      lease_start: str(d.lease_start),
      lease_months: num(d.lease_months),
      latest: snapTs
        ? {
            ts: snapTs,
            soc_pct: num(d.soc_pct),
            battery_voltage: num(d.battery_voltage),
            charging_status: str(d.charging_status),
            charging_power_kw: num(d.charging_power_kw),
            weather_temp: num(d.weather_temp),
          }
        : null,
      telemetry: {
        newest_at: toDate(tr.newest_ts),
        records_30d: int(tr.records_30d),
        days_with_data_90d: int(tr.days_90),
        days_with_data_30d: int(tr.days_30),
        odo_min_90d: num(tr.odo_min_90),
        odo_max_90d: num(tr.odo_max_90),
        odo_first_at_90d: toDate(tr.odo_first_90),
        odo_last_at_90d: toDate(tr.odo_last_90),
        odo_min_30d: num(tr.odo_min_30),
        odo_max_30d: num(tr.odo_max_30),
        speed_records_90d: int(tr.speed_records_90),
        latest_soh: latestSoh !== null && latestSohAt ? { pct: latestSoh, at: latestSohAt } : null,
        early_soh: earlySoh !== null && earlySohAt ? { pct: earlySoh, at: earlySohAt } : null,
        latest_odometer_km: num(tr.latest_odo),
        active_dtc_codes: textArray(tr.dtc_codes),
        battery_voltage_reported: tr.voltage_reported === true || tr.voltage_reported === "t",
        latest_resting_12v_v: num(tr.resting_12v),
      },
      driving_events: {
        oem_harsh_90d: int(tr.oem_harsh_90),
        derived_harsh_90d: int(tr.derived_harsh_90),
        reported_at: toDate(d.events_reported_at),
        dense_speed_at: toDate(d.dense_speed_at),
      },
      alerts: {
        odometer_critical: int(ar.odo_critical),
        odometer_warning: int(ar.odo_warning),
        rollbacks: int(ar.rollbacks),
        overspeed_90d: int(ar.overspeed_90),
        critical_90d: int(ar.critical_90),
        severity_30d: { critical: int(ar.critical_30), warning: int(ar.warning_30), info: int(ar.info_30) },
        last_battery_alert:
          lbAt && typeof ar.lb_severity === "string"
            ? { severity: ar.lb_severity, prediction: String(ar.lb_prediction ?? ""), confidence: num(ar.lb_confidence) ?? 0, created_at: lbAt }
            : null,
      },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mappers from the loaded aggregates to each pure score function's input.

export function toVehicleHealthInput(d: DeviceInputs): VehicleHealthInput {
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    asset_class: d.asset_class,
    latest_soh_pct: d.telemetry.latest_soh?.pct ?? null,
    latest_odometer_km: d.telemetry.latest_odometer_km,
    active_dtc_codes: d.telemetry.active_dtc_codes,
    battery_voltage_reported: d.telemetry.battery_voltage_reported,
    latest_resting_12v_v: d.telemetry.latest_resting_12v_v,
    odometer_alerts: { critical: d.alerts.odometer_critical, warning: d.alerts.odometer_warning },
    records_30d: d.telemetry.records_30d,
    newest_telemetry_at: d.telemetry.newest_at,
  };
}

export function toBatterySnapshotInput(d: DeviceInputs): BatterySnapshotInput {
  const soh = d.telemetry.latest_soh;
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    battery_kwh: d.battery_kwh,
    asset_class: d.asset_class,
    latest: d.latest,
    oem_soh: soh ? { pct: soh.pct, reported_at: soh.at } : null,
    last_battery_alert: d.alerts.last_battery_alert,
  };
}

/** true: a rollback was detected; false: odometer readings exist and none was; null: never checked. */
export function odometerManipulation(d: DeviceInputs): boolean | null {
  if (d.alerts.rollbacks > 0) return true;
  return d.telemetry.latest_odometer_km !== null ? false : null;
}

export function toEolInput(d: DeviceInputs, vehicleHealthScore: number | null): EolInput {
  return {
    device_id: d.device_id,
    vehicle_health_score: vehicleHealthScore,
    soh_pct: d.telemetry.latest_soh?.pct ?? null,
    odometer_manipulation: odometerManipulation(d),
    powertrain: d.powertrain,
  };
}

function monthsBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + (to.getUTCDate() - from.getUTCDate()) / 30);
}

export function toTasInput(d: DeviceInputs, now: Date): TasInput {
  const t = d.telemetry;
  // SoH trend in pp/year from the oldest reading of the look-back to the latest (signed).
  let trend: number | null = null;
  if (t.latest_soh && t.early_soh) {
    const spanDays = (t.latest_soh.at.getTime() - t.early_soh.at.getTime()) / DAY_MS;
    if (spanDays >= SOH_TREND_MIN_SPAN_DAYS) trend = ((t.latest_soh.pct - t.early_soh.pct) / spanDays) * 365;
  }
  const periodKm = t.odo_min_90d !== null && t.odo_max_90d !== null ? Math.max(0, t.odo_max_90d - t.odo_min_90d) : null;
  let kmPerYear: number | null = null;
  if (periodKm !== null && t.odo_first_at_90d && t.odo_last_at_90d) {
    const spanDays = (t.odo_last_at_90d.getTime() - t.odo_first_at_90d.getTime()) / DAY_MS;
    if (spanDays >= KM_PER_YEAR_MIN_SPAN_DAYS) kmPerYear = (periodKm / spanDays) * 365;
  }
  const leaseStart = d.lease_start ? toDate(`${d.lease_start}T00:00:00Z`) : null;
  const hasDriving = t.speed_records_90d > 0;
  // Harsh events: the OEM's count when the source reported events in the window (its accelerometer
  // is authoritative), else FDP's derived count when speed was sampled densely enough; otherwise
  // nothing tells us, which is unknown (null), not zero.
  const windowStart = now.getTime() - DEVICE_WINDOW_DAYS * DAY_MS;
  const ev = d.driving_events;
  const covers = (at: Date | null) => at !== null && at.getTime() >= windowStart;
  const harshEvents = covers(ev.reported_at) ? ev.oem_harsh_90d : covers(ev.dense_speed_at) ? ev.derived_harsh_90d : null;
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    fuel_type: d.fuel_type,
    asset_class: d.asset_class,
    year: d.year,
    age_months: leaseStart && leaseStart.getTime() <= now.getTime() ? monthsBetween(leaseStart, now) : null,
    battery: { soh_pct: t.latest_soh?.pct ?? null, soh_trend_pp_per_year: trend },
    mileage: {
      odometer_km: t.latest_odometer_km,
      km_per_year: kmPerYear,
      contract_km: d.contract_km,
      lease_months: d.lease_months,
    },
    behaviour: {
      period_days: DEVICE_WINDOW_DAYS,
      period_km: periodKm,
      // Overspeed comes from the driving detector's alerts, which need speed readings.
      overspeed_events: hasDriving ? d.alerts.overspeed_90d : null,
      harsh_events: harshEvents,
    },
    compliance: {
      active_dtc_count: t.active_dtc_codes === null ? null : new Set(t.active_dtc_codes.map((c) => c.trim().toUpperCase())).size,
      critical_alerts: d.alerts.critical_90d,
      emissions_class: null,
    },
    odometer_manipulation: odometerManipulation(d),
    data: {
      latest_telemetry_at: t.newest_at,
      coverage_pct: (Math.min(t.days_with_data_90d, DEVICE_WINDOW_DAYS) / DEVICE_WINDOW_DAYS) * 100,
    },
  };
}

/**
 * Single-device inputs of the fleet-level scores, for the per-device items of POST /scores/batch.
 * Built from the same aggregates (30-day period): alert counts, days with data, odometer distance.
 * The minute-level driving/charging aggregates of the fleet-risk query are not loaded here, so those
 * components come out as "could not be computed" and the score says so in its limitations.
 */
export function toFleetRiskDeviceInput(d: DeviceInputs): FleetRiskDeviceInput {
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    alerts: d.alerts.severity_30d,
    driving_minutes: 0,
    minutes_over_130: 0,
    minutes_over_160: 0,
    night_driving_minutes: 0,
    temp_known_driving_minutes: 0,
    driving_minutes_below_0c: 0,
    driving_minutes_below_minus10c: 0,
    charging_minutes: 0,
    dc_charging_minutes: 0,
    soc_known_minutes: 0,
    low_soc_minutes: 0,
    telemetry_days: d.telemetry.days_with_data_30d,
    newest_telemetry_at: d.telemetry.newest_at,
  };
}

export function toGreenFleetDeviceInput(d: DeviceInputs): GreenFleetDeviceInput {
  const t = d.telemetry;
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    fuel_type: d.fuel_type,
    asset_class: d.asset_class,
    distance_km: t.odo_min_30d !== null && t.odo_max_30d !== null ? Math.max(0, t.odo_max_30d - t.odo_min_30d) : null,
    energy_kwh: null,
    cold_driving_share: null,
    newest_telemetry_at: t.newest_at,
  };
}
