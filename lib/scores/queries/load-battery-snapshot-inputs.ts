import { sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import type { BatterySnapshotInput } from "@/lib/scores/battery-snapshot";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { sohJudgementOf } from "@/lib/devices/reading-rows";

/** Battery snapshot inputs of the tenant's devices among `deviceIds`, in one round trip (endpoint 6). */
export async function loadBatterySnapshotInputs(args: DeviceQueryArgs): Promise<Map<string, BatterySnapshotInput>> {
  const found = await queryDevices("battery_health", args, [
    parts.master("powertrain", "battery_kwh", "asset_class"),
    parts.snapshot(),
    parts.recentSoh(),
    parts.lastBatteryAlert(),
  ]);
  const out = new Map<string, BatterySnapshotInput>();
  for (const r of found) {
    const id = String(r.device_id);
    const snapTs = sqlDate(r.snap_ts);
    const soh = sohJudgementOf(r);
    const alertAt = sqlDate(r.lb_created_at);
    const alertSeverity = sqlText(r.lb_severity);
    out.set(id, {
      device_id: id,
      powertrain: sqlText(r.powertrain),
      battery_kwh: sqlNumber(r.battery_kwh),
      asset_class: sqlText(r.asset_class),
      latest: snapTs
        ? {
            ts: snapTs,
            soc_pct: sqlNumber(r.soc_pct),
            battery_voltage: sqlNumber(r.battery_voltage),
            charging_status: sqlText(r.charging_status),
            charging_power_kw: sqlNumber(r.charging_power_kw),
            weather_temp: sqlNumber(r.weather_temp),
          }
        : null,
      oem_soh: soh.accepted ? { pct: soh.accepted.pct, reported_at: soh.accepted.at } : null,
      soh_flags: soh.flagged,
      last_battery_alert:
        alertAt && alertSeverity ? { severity: alertSeverity, prediction: sqlText(r.lb_prediction) ?? "", confidence: sqlNumber(r.lb_confidence) ?? 0, created_at: alertAt } : null,
    });
  }
  return out;
}
