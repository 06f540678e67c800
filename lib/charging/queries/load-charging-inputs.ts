import { sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import { DAY_MS } from "@/lib/scores/derived-measures";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { sohJudgementOf } from "@/lib/devices/reading-rows";
import { AC_MAX_OBSERVED_KW, MIN_AC_POWER_KW, MIN_DC_POWER_KW, OBSERVED_POWER_LOOKBACK_DAYS, SESSION_PROXIMITY_MS } from "@/lib/vocabulary/charging-defaults";

interface ChargingInputs {
  device_id: string;
  powertrain: string | null;
  battery_kwh: number | null;
  soc: { pct: number; at: Date } | null;
  soh_pct: number | null;
  observed_ac_kw: number | null;
  observed_dc_kw: number | null;
}

/** Endpoint 15's inputs for the tenant's devices among `deviceIds`, in one round trip. */
export async function loadChargingInputs(args: DeviceQueryArgs & { now: Date }): Promise<Map<string, ChargingInputs>> {
  const since = new Date(args.now.getTime() - OBSERVED_POWER_LOOKBACK_DAYS * DAY_MS).toISOString();
  const found = await queryDevices("charging", args, [
    parts.master("powertrain", "battery_kwh"),
    parts.latestSoc(),
    parts.recentSoh(),
    parts.observedChargingPower({ since, acMaxKw: AC_MAX_OBSERVED_KW, acMinKw: MIN_AC_POWER_KW, dcMinKw: MIN_DC_POWER_KW, sessionMs: SESSION_PROXIMITY_MS }),
  ]);
  const out = new Map<string, ChargingInputs>();
  for (const r of found) {
    const id = String(r.device_id);
    const socPct = sqlNumber(r.latest_soc);
    const socAt = sqlDate(r.latest_soc_ts);
    out.set(id, {
      device_id: id,
      powertrain: sqlText(r.powertrain),
      battery_kwh: sqlNumber(r.battery_kwh),
      soc: socPct !== null && socAt !== null ? { pct: socPct, at: socAt } : null,
      soh_pct: sohJudgementOf(r).accepted?.pct ?? null,
      observed_ac_kw: sqlNumber(r.ac_median_kw),
      observed_dc_kw: sqlNumber(r.dc_median_kw),
    });
  }
  return out;
}
