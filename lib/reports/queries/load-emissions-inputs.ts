import type { TenantCtx } from "@/lib/context";
import { loadPeriodDistance } from "@/lib/distance/queries/period-distance-sql";
import { NO_DISTANCE_EVIDENCE } from "@/lib/distance/odometer-distance";
import type { FleetInputs } from "@/lib/scores/queries/load-fleet-inputs";
import type { EmissionsVehicleInput } from "../emissions";

/**
 * Every vehicle of the tenant with what the emissions report needs over the period of `fleet` (the
 * green fleet score's inputs, load-fleet-inputs.ts: master data and the SOC energy accounting, so both
 * use one energy accounting; the CSRD report loads them once for both), plus ONE more SQL statement for
 * the whole fleet: each vehicle's odometer runs and plausible positions of the period
 * (lib/distance/queries/period-distance-sql.ts), from which lib/distance/odometer-distance.ts takes the
 * distance. Devices that did not report in the period still come back (zeros, method "none").
 */
export async function emissionsInputs({ ctx, fleet, onQuery }: { ctx: TenantCtx; fleet: FleetInputs; onQuery?: (label: string) => void }): Promise<EmissionsVehicleInput[]> {
  const evidence = await loadPeriodDistance({
    ctx,
    deviceIds: fleet.devices.map((d) => d.device_id),
    since: fleet.period_start.toISOString(),
    until: fleet.period_end.toISOString(),
    onQuery,
  });
  return fleet.devices.map((d): EmissionsVehicleInput => ({
    device_id: d.device_id,
    device_name: fleet.names.get(d.device_id) ?? d.device_id,
    powertrain: d.powertrain,
    fuel_type: d.fuel_type,
    asset_class: d.asset_class,
    distance: evidence.get(d.device_id) ?? NO_DISTANCE_EVIDENCE,
    consumption_kwh_per_100km: d.energy.consumption_kwh_per_100km,
  }));
}
