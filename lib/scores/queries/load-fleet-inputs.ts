import { sql, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlCount, sqlNumber } from "@/lib/db/sql-values";
import { harshExposure } from "@/lib/scores/behaviour-exposure";
import { chargedEnergy, energyAccount, type EnergyAccount } from "@/lib/scores/energy-accounting";
import type { FleetRiskDeviceInput, SeverityCounts } from "@/lib/scores/fleet-risk";
import type { GreenFleetDeviceInput } from "@/lib/scores/green-fleet";
import { isPostgresPool } from "@/lib/db/prepared";
import { env } from "@/lib/env";
import { behaviourPart } from "@/lib/telemetry/queries/behaviour-rollup-sql";
import { MIN_DEVICES_PER_STATEMENT } from "@/lib/devices/device-query";
import {
  assertFigureColumns,
  FLEET_RISK_FIGURES,
  toBehaviour,
  toFleetRiskBehaviour,
  type BehaviourFigure,
  type BehaviourRow,
  type FleetRiskBehaviourRow,
} from "@/lib/telemetry/queries/behaviour-sql";

/**
 * Everything the two fleet scores (fleet risk, green fleet) need for one tenant and one period
 * `[now − periodDays, now]`, in ONE SQL round trip whatever the fleet size: the aggregation happens
 * in the database (one row per device of the tenant comes back, never raw telemetry).
 *
 * The telemetry and driving-event aggregates come from the one behaviour part (lib/telemetry/queries/behaviour-sql.ts,
 * shared with the per-device batch and the TAS); this module adds the alert facts of the period and
 * turns each row into a `FleetDeviceAggregate` (`deviceAggregate`, also used by the per-device batch).
 */

/** One device's aggregates over the period: what fleet risk needs, plus what green fleet and the emissions report add. */
export interface FleetDeviceAggregate {
  device_id: string;
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  battery_kwh: number | null;
  /** Alerts created in the period, by severity (facts for the fleet manager, not scored). */
  alerts: SeverityCounts;
  readings: number;
  behaviour: BehaviourRow;
  /** SOC-based energy account (plug-ins; for others it says what is missing). */
  energy: EnergyAccount;
  /** Odometer distance of the period (last − first reading, never negative), km; null = unknown. */
  distance_km: number | null;
  /**
   * Grid-side electricity the period's driving used, kWh = consumption (kWh/100 km at the plug) ×
   * distance_km ÷ 100; null when the consumption could not be measured (energy.consumption_reason).
   * The emissions report multiplies this by the grid factor.
   */
  energy_kwh: number | null;
  /** Electricity drawn at the plug in the period (charging losses included), kWh; null = capacity unknown. */
  charged_grid_kwh: number | null;
  /** Harsh events of the period from the source that covers it, and the km that source covered; null = unknown. */
  harsh_events: FleetRiskDeviceInput["harsh_events"];
}

export interface FleetInputs {
  period_days: number;
  period_start: Date;
  period_end: Date;
  devices: FleetDeviceAggregate[];
  /** Each device's display name, by device id (the emissions and CSRD reports list vehicles by name). */
  names: ReadonlyMap<string, string>;
}

/** The aggregate of one device row carrying the behaviour part's columns and the master data. */
export function deviceAggregate(r: Record<string, unknown>, windowStart: Date, alerts: SeverityCounts): FleetDeviceAggregate {
  const b = toBehaviour(r);
  const batteryKwh = sqlNumber(r.battery_kwh);
  const energy = energyAccount(b, batteryKwh);
  const distance = b.odometer_first_km !== null && b.odometer_last_km !== null ? Math.max(0, b.odometer_last_km - b.odometer_first_km) : null;
  return {
    device_id: String(r.device_id),
    powertrain: typeof r.powertrain === "string" ? r.powertrain : null,
    fuel_type: typeof r.fuel_type === "string" ? r.fuel_type : null,
    asset_class: typeof r.asset_class === "string" ? r.asset_class : null,
    battery_kwh: batteryKwh,
    alerts,
    readings: b.readings,
    behaviour: b,
    energy,
    distance_km: distance,
    energy_kwh: energy.consumption_kwh_per_100km !== null && distance !== null ? (energy.consumption_kwh_per_100km * distance) / 100 : null,
    charged_grid_kwh: energy.charged_grid_kwh,
    // Events over the km their source covered (not the window's odometer distance).
    harsh_events: harshExposure(b.harsh, windowStart),
  };
}

/** The number of devices each tenant's last fleet load returned (in this process; the newest FLEET_SIZES_KEPT tenants). */
const fleetSizes = new Map<string, number>();
const FLEET_SIZES_KEPT = 10_000;

/**
 * How many statements a fleet load of the tenant is split into: FDP_QUERY_PARALLELISM, at most one per
 * MIN_DEVICES_PER_STATEMENT devices, judged by the tenant's previous fleet load in this process (a
 * first load, or a small fleet, is one statement: no round trip is spent counting devices). Never
 * inside a transaction or on the embedded database, whose statements run one after another anyway.
 */
export function fleetSlices(ctx: Pick<TenantCtx, "db" | "tenantId">): number {
  if (!isPostgresPool(ctx.db)) return 1;
  const known = fleetSizes.get(ctx.tenantId) ?? 0;
  return Math.max(1, Math.min(env().FDP_QUERY_PARALLELISM, Math.floor(known / MIN_DEVICES_PER_STATEMENT)));
}

/**
 * One row per device of the tenant from `statement`, which restricts every table it reads by device to
 * `inSlice(column)`: one statement, or `fleetSlices` statements sent at once over disjoint sets of the
 * tenant's devices (by a hash of the id, so a device is in exactly one of them whatever is inserted
 * meanwhile). The statement is a nested loop over the devices that Postgres runs on one core. The rows
 * come back in one order (device id, by UTF-16 code unit) whatever the number of slices and the
 * database's collation: the scores add the devices' figures in this order, and floating-point sums
 * depend on it.
 */
async function queryFleet(ctx: Pick<TenantCtx, "db" | "tenantId">, statement: (inSlice: (column: string) => SQL) => SQL): Promise<Record<string, unknown>[]> {
  const slices = fleetSlices(ctx);
  const found = (
    await Promise.all(
      Array.from({ length: slices }, (_, i) =>
        rows<Record<string, unknown>>(
          ctx.db,
          statement((column) => (slices === 1 ? sql`` : sql` and (hashtext(${sql.raw(column)}) & 2147483647) % ${slices}::int = ${i}::int`)),
        ),
      ),
    )
  ).flat();
  fleetSizes.set(ctx.tenantId, found.length);
  if (fleetSizes.size > FLEET_SIZES_KEPT) fleetSizes.delete(fleetSizes.keys().next().value!);
  return found.sort((a, b) => (String(a.device_id) < String(b.device_id) ? -1 : String(a.device_id) > String(b.device_id) ? 1 : 0));
}

/** One round trip (or a bounded few at once, `fleetSlices`): devices ⟕ behaviour part ⟕ alert aggregates for the tenant and the last `periodDays` days before `now`. */
export async function loadFleetInputs({ ctx, periodDays, now }: { ctx: TenantCtx; periodDays: number; now: Date }): Promise<FleetInputs> {
  return loadFleetInputsBetween({ ctx, start: new Date(now.getTime() - periodDays * 86_400_000), end: now, periodDays });
}

/**
 * The same for an explicit window `[start, end]` (both included), e.g. a report's calendar days (the
 * CSRD report scores the green fleet over exactly the emissions report's period). `periodDays` is the
 * window's length as the score states it.
 */
export async function loadFleetInputsBetween({ ctx, start, end, periodDays }: { ctx: TenantCtx; start: Date; end: Date; periodDays: number }): Promise<FleetInputs> {
  const found = await fleetRows(ctx, start, end);
  return {
    period_days: periodDays,
    period_start: start,
    period_end: end,
    devices: found.map((r) => deviceAggregate(r, start, alertCounts(r))),
    names: new Map(found.map((r) => [String(r.device_id), String(r.name)])),
  };
}

/**
 * Fleet risk's inputs for the last `periodDays` days before `now`: the same statement as
 * `loadFleetInputs`, with only the figures fleet risk reads (FLEET_RISK_FIGURES): Postgres computes and
 * sends 29 of the 39 behaviour columns and makes none of the odometer probes.
 */
export async function loadFleetRiskInputs({ ctx, periodDays, now }: { ctx: TenantCtx; periodDays: number; now: Date }): Promise<FleetRiskDeviceInput[]> {
  const start = new Date(now.getTime() - periodDays * 86_400_000);
  const found = await fleetRows(ctx, start, now, FLEET_RISK_FIGURES);
  assertFigureColumns(found[0], FLEET_RISK_FIGURES);
  return found.map((r) => {
    const behaviour = toFleetRiskBehaviour(r);
    return fleetRiskInput({
      device_id: String(r.device_id),
      powertrain: typeof r.powertrain === "string" ? r.powertrain : null,
      alerts: alertCounts(r),
      behaviour,
      charged: chargedEnergy(behaviour, sqlNumber(r.battery_kwh)),
      harsh_events: harshExposure(behaviour.harsh, start),
    });
  });
}

/** One row per device of the tenant: devices ⟕ behaviour part (all figures, or `figures`) ⟕ alert aggregates of `[start, end]`. */
function fleetRows(ctx: TenantCtx, start: Date, end: Date, figures?: readonly BehaviourFigure[]): Promise<Record<string, unknown>[]> {
  const startIso = start.toISOString();
  const endIso = end.toISOString();
  const part = behaviourPart({ since: startIso, until: endIso, figures });
  return queryFleet(
    ctx,
    (inSlice) => sql`
    with al as (
      select device_id,
             count(*) filter (where severity = 'CRITICAL')::int as critical,
             count(*) filter (where severity = 'WARNING')::int as warning,
             count(*) filter (where severity = 'INFO')::int as info
      from alerts
      where tenant_id = ${ctx.tenantId} and created_at >= ${startIso}::timestamptz and created_at <= ${endIso}::timestamptz${inSlice("device_id")}
      group by device_id
    )
    select d.device_id, d.name, d.powertrain, d.fuel_type, d.asset_class, d.battery_kwh, ${part.columns},
           al.critical, al.warning, al.info
    from devices d
    ${part.join ?? sql``}
    left join al on al.device_id = d.device_id
    where d.tenant_id = ${ctx.tenantId}${inSlice("d.device_id")}`,
  );
}

const alertCounts = (r: Record<string, unknown>): SeverityCounts => ({ critical: sqlCount(r.critical), warning: sqlCount(r.warning), info: sqlCount(r.info) });

/** The fleet-risk view of one device aggregate (the per-device batch). */
export function toFleetRiskDevice(d: FleetDeviceAggregate): FleetRiskDeviceInput {
  return fleetRiskInput({ device_id: d.device_id, powertrain: d.powertrain, alerts: d.alerts, behaviour: d.behaviour, charged: d.energy, harsh_events: d.harsh_events });
}

/** Fleet risk's input of one device, from its figures: the one mapping of the fleet verb and the per-device batch. */
function fleetRiskInput({
  device_id,
  powertrain,
  alerts,
  behaviour: b,
  charged,
  harsh_events,
}: {
  device_id: string;
  powertrain: string | null;
  alerts: SeverityCounts;
  behaviour: FleetRiskBehaviourRow;
  charged: Pick<EnergyAccount, "charged_battery_kwh" | "high_power_dc_share">;
  harsh_events: FleetRiskDeviceInput["harsh_events"];
}): FleetRiskDeviceInput {
  return {
    device_id,
    powertrain,
    alerts,
    driving_minutes: b.driving_minutes,
    minutes_over_130: b.minutes_over_130,
    minutes_over_160: b.minutes_over_160,
    moving_km: b.moving_km,
    km_over_130: b.km_over_130,
    km_over_160: b.km_over_160,
    night_driving_minutes: b.night_driving_minutes,
    temp_known_driving_minutes: b.temp_known_driving_minutes,
    driving_minutes_near_0c: b.driving_minutes_near_0c,
    driving_minutes_cold: b.driving_minutes_cold,
    driving_minutes_below_minus10c: b.driving_minutes_below_minus10c,
    harsh_events,
    charged_battery_kwh: charged.charged_battery_kwh,
    high_power_dc_share: charged.high_power_dc_share,
    soc_known_minutes: b.soc_known_minutes,
    low_soc_minutes: b.low_soc_minutes,
    telemetry_days: b.telemetry_days,
    newest_telemetry_at: b.newest_telemetry_at,
  };
}

/** The green-fleet view of one device aggregate. */
export function toGreenFleetDevice(d: FleetDeviceAggregate): GreenFleetDeviceInput {
  const b = d.behaviour;
  return {
    device_id: d.device_id,
    powertrain: d.powertrain,
    fuel_type: d.fuel_type,
    asset_class: d.asset_class,
    distance_km: d.distance_km,
    energy_kwh: d.energy_kwh,
    energy_reason: d.energy.consumption_reason,
    energy_cross_check: d.energy.power_time_ratio === null ? null : d.energy.power_time_ratio * d.energy.efficiency,
    cold_driving_share: b.temp_known_driving_minutes > 0 ? b.driving_minutes_below_0c / b.temp_known_driving_minutes : null,
    newest_telemetry_at: b.newest_telemetry_at,
  };
}
