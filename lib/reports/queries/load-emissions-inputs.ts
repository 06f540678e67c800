import type { TenantCtx } from "@/lib/context";
import { sqlNumber } from "@/lib/db/sql-values";
import { queryDevices } from "@/lib/scores/queries/device-sql";
import { greatCirclePart } from "@/lib/scores/queries/great-circle-sql";
import type { FleetInputs } from "@/lib/scores/queries/load-fleet-inputs";
import type { EmissionsVehicleInput } from "../emissions";

/**
 * Every vehicle of the tenant with what the emissions report needs over the period of `fleet` (the
 * green fleet score's inputs, load-fleet-inputs.ts: the odometer's first/last readings and the SOC
 * energy accounting, so both use one energy accounting; the CSRD report loads them once for both),
 * plus at most one more SQL round trip: the great-circle sum of consecutive positions
 * (great-circle-sql.ts: the daily rollups for the period's whole days, the positions around them raw),
 * only for the vehicles without an odometer distance. The report uses it only for them
 * (`vehicleEmissions`); none without, no round trip. Devices that did not report in the period still
 * come back (zeros).
 */
export async function emissionsInputs({ ctx, fleet }: { ctx: TenantCtx; fleet: FleetInputs }): Promise<EmissionsVehicleInput[]> {
  const vehicles = fleet.devices.map((d): EmissionsVehicleInput => {
    const b = d.behaviour;
    // Two odometer readings at least (distinct times): one reading says nothing about the distance.
    const twoReadings =
      b.odometer_first_km !== null && b.odometer_last_km !== null && b.odometer_first_at !== null && b.odometer_last_at !== null && b.odometer_last_at.getTime() > b.odometer_first_at.getTime();
    return {
      device_id: d.device_id,
      device_name: fleet.names.get(d.device_id) ?? d.device_id,
      powertrain: d.powertrain,
      fuel_type: d.fuel_type,
      asset_class: d.asset_class,
      odometer_km: twoReadings ? Math.max(0, (b.odometer_last_km as number) - (b.odometer_first_km as number)) : null,
      great_circle_km: 0,
      consumption_kwh_per_100km: d.energy.consumption_kwh_per_100km,
    };
  });
  const withoutOdometer = vehicles.filter((v) => v.odometer_km === null);
  if (withoutOdometer.length > 0) {
    const since = fleet.period_start.toISOString();
    const until = fleet.period_end.toISOString();
    const found = await queryDevices("emissions great circle", { ctx, deviceIds: withoutOdometer.map((v) => v.device_id) }, [greatCirclePart({ since, until })]);
    const km = new Map(found.map((r) => [String(r.device_id), sqlNumber(r.gc_km) ?? 0]));
    for (const v of withoutOdometer) v.great_circle_km = km.get(v.device_id) ?? 0;
  }
  return vehicles;
}
