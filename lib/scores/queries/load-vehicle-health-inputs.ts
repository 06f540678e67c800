import { sqlBool, sqlCount, sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import { odometerManipulation, windowsAt } from "@/lib/scores/derived-measures";
import type { EolInput } from "@/lib/scores/eol-summary";
import type { VehicleHealthInput } from "@/lib/scores/vehicle-health";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { knockoutDismissalsOf, odometerEvidenceOf, resting12vOf, sohJudgementOf } from "@/lib/devices/reading-rows";

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
    parts.records30(w),
    parts.newest(),
    parts.recentSoh(),
    parts.latestOdometer(),
    parts.odometerEvidence(),
    parts.dismissedKnockoutAlerts(),
    parts.activeDtcs(),
    parts.electrical(w),
    parts.alertCounts(w),
  ]);
  const out = new Map<string, VehicleHealthInputs>();
  for (const r of found) {
    const id = String(r.device_id);
    const powertrain = sqlText(r.powertrain);
    const sohJudged = sohJudgementOf(r);
    const soh = sohJudged.accepted?.pct ?? null;
    const latestOdometer = sqlNumber(r.latest_odo);
    const odometerEvidence = odometerEvidenceOf(r);
    const manipulation = odometerManipulation(latestOdometer, odometerEvidence);
    const resting = resting12vOf(r);
    out.set(id, {
      vehicleHealth: {
        device_id: id,
        powertrain,
        asset_class: sqlText(r.asset_class),
        latest_soh_pct: soh,
        latest_soh_at: sohJudged.accepted?.at ?? null,
        soh_flags: sohJudged.flagged,
        latest_odometer_km: latestOdometer,
        active_dtc_codes: sqlTextArray(r.dtc_codes),
        battery_voltage_reported: sqlBool(r.voltage_reported) === true,
        latest_resting_12v_v: resting?.v ?? null,
        resting_12v_chemistry: resting?.chemistry ?? null,
        odometer_manipulation: manipulation,
        odometer_evidence: odometerEvidence,
        odometer_jump_alerts: sqlCount(r.odo_jumps),
        records_30d: sqlCount(r.records_30d),
        newest_telemetry_at: sqlDate(r.newest_ts),
      },
      eol: {
        device_id: id,
        soh_pct: soh,
        soh_at: sohJudged.accepted?.at ?? null,
        soh_flags: sohJudged.flagged,
        odometer_manipulation: manipulation,
        odometer_evidence: odometerEvidence,
        knockout_dismissals: knockoutDismissalsOf(r),
        powertrain,
      },
    });
  }
  return out;
}
