import { sqlCount } from "@/lib/db/sql-values";
import { DAY_MS, SHORT_WINDOW_DAYS, windowsAt } from "@/lib/scores/derived-measures";
import type { FleetRiskDeviceInput } from "@/lib/scores/fleet-risk";
import type { GreenFleetDeviceInput } from "@/lib/scores/green-fleet";
import { behaviourPart } from "@/lib/telemetry/queries/behaviour-rollup-sql";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { deviceAggregate, toFleetRiskDevice, toGreenFleetDevice, type FleetDeviceAggregate } from "./load-fleet-inputs";

/**
 * Single-device inputs of the fleet-level scores, for the per-device items of POST /scores/batch, over
 * the 30-day window: the SAME behaviour and energy aggregate as the fleet scores (lib/telemetry/queries/behaviour-sql.ts)
 * for each listed device, plus its alert counts, in one round trip whatever the number of devices.
 */
export interface DeviceFleetInputs {
  aggregate: FleetDeviceAggregate;
  fleetRisk: FleetRiskDeviceInput;
  greenFleet: GreenFleetDeviceInput;
}

export async function loadDeviceFleetInputs(args: DeviceQueryArgs & { now: Date }): Promise<Map<string, DeviceFleetInputs>> {
  const w = windowsAt(args.now);
  const since = new Date(args.now.getTime() - SHORT_WINDOW_DAYS * DAY_MS);
  const found = await queryDevices("fleet_scores", args, [
    parts.master("powertrain", "fuel_type", "asset_class", "battery_kwh"),
    behaviourPart({ since: since.toISOString(), until: args.now.toISOString() }),
    parts.alertCounts(w),
  ]);
  const out = new Map<string, DeviceFleetInputs>();
  for (const r of found) {
    const aggregate = deviceAggregate(r, since, { critical: sqlCount(r.critical_30), warning: sqlCount(r.warning_30), info: sqlCount(r.info_30) });
    out.set(aggregate.device_id, { aggregate, fleetRisk: toFleetRiskDevice(aggregate), greenFleet: toGreenFleetDevice(aggregate) });
  }
  return out;
}
