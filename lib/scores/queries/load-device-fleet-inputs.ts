import { sqlCount, sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import { distanceKm } from "@/lib/scores/derived-measures";
import type { FleetRiskDeviceInput } from "@/lib/scores/fleet-risk";
import type { GreenFleetDeviceInput } from "@/lib/scores/green-fleet";
import { parts, queryDevices, windowsAt, type DeviceQueryArgs } from "./device-sql";

/**
 * Single-device inputs of the fleet-level scores, for the per-device items of POST /scores/batch, over
 * the 30-day window: alert counts, days with data, odometer distance. The minute-level driving and
 * charging aggregates of the fleet query (load-fleet-inputs.ts) are not loaded per device, so those
 * components come out as "could not be computed" and the scores say so in their limitations.
 */
export interface DeviceFleetInputs {
  fleetRisk: FleetRiskDeviceInput;
  greenFleet: GreenFleetDeviceInput;
}

export async function loadDeviceFleetInputs(args: DeviceQueryArgs & { now: Date }): Promise<Map<string, DeviceFleetInputs>> {
  const w = windowsAt(args.now);
  const found = await queryDevices("fleet_scores", args, [parts.master("powertrain", "fuel_type", "asset_class"), parts.windowCounts(w), parts.newest(), parts.alertCounts(w)]);
  const out = new Map<string, DeviceFleetInputs>();
  for (const r of found) {
    const id = String(r.device_id);
    const powertrain = sqlText(r.powertrain);
    const newest = sqlDate(r.newest_ts);
    out.set(id, {
      fleetRisk: {
        device_id: id,
        powertrain,
        alerts: { critical: sqlCount(r.critical_30), warning: sqlCount(r.warning_30), info: sqlCount(r.info_30) },
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
        telemetry_days: sqlCount(r.days_30),
        newest_telemetry_at: newest,
      },
      greenFleet: {
        device_id: id,
        powertrain,
        fuel_type: sqlText(r.fuel_type),
        asset_class: sqlText(r.asset_class),
        distance_km: distanceKm(sqlNumber(r.odo_min_30), sqlNumber(r.odo_max_30)),
        energy_kwh: null,
        cold_driving_share: null,
        newest_telemetry_at: newest,
      },
    });
  }
  return out;
}
