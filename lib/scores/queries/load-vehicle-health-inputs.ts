import { sqlBool, sqlCount, sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import { odometerManipulation } from "@/lib/scores/derived-measures";
import type { EolInput } from "@/lib/scores/eol-summary";
import type { VehicleHealthInput } from "@/lib/scores/vehicle-health";
import { parts, queryDevices, windowsAt, type DeviceQueryArgs } from "./device-sql";

/** What the vehicle health score needs, and what the EOL summary adds to it. */
export interface VehicleHealthInputs {
  vehicleHealth: VehicleHealthInput;
  eol: Omit<EolInput, "vehicle_health_score">;
}

/** Vehicle health (and EOL) inputs of the tenant's devices among `deviceIds`, in one round trip (endpoints 4, 7). */
export async function loadVehicleHealthInputs(args: DeviceQueryArgs & { now: Date }): Promise<Map<string, VehicleHealthInputs>> {
  const w = windowsAt(args.now);
  const found = await queryDevices("vehicle_health", args, [
    parts.master("powertrain", "asset_class"),
    parts.windowCounts(w),
    parts.newest(),
    parts.latestSoh(),
    parts.latestOdometer(),
    parts.activeDtcs(),
    parts.electrical(),
    parts.alertCounts(w),
  ]);
  const out = new Map<string, VehicleHealthInputs>();
  for (const r of found) {
    const id = String(r.device_id);
    const powertrain = sqlText(r.powertrain);
    const soh = sqlNumber(r.latest_soh);
    const latestOdometer = sqlNumber(r.latest_odo);
    out.set(id, {
      vehicleHealth: {
        device_id: id,
        powertrain,
        asset_class: sqlText(r.asset_class),
        latest_soh_pct: soh,
        latest_odometer_km: latestOdometer,
        active_dtc_codes: sqlTextArray(r.dtc_codes),
        battery_voltage_reported: sqlBool(r.voltage_reported) === true,
        latest_resting_12v_v: sqlNumber(r.resting_12v),
        odometer_alerts: { critical: sqlCount(r.odo_critical), warning: sqlCount(r.odo_warning) },
        records_30d: sqlCount(r.records_30d),
        newest_telemetry_at: sqlDate(r.newest_ts),
      },
      eol: { device_id: id, soh_pct: soh, odometer_manipulation: odometerManipulation(sqlCount(r.rollbacks), latestOdometer), powertrain },
    });
  }
  return out;
}
