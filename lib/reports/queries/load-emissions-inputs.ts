import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { sqlNumber } from "@/lib/db/sql-values";
import { behaviourPart } from "@/lib/scores/queries/behaviour-rollup-sql";
import { toBehaviour } from "@/lib/scores/queries/behaviour-sql";
import { queryDevices } from "@/lib/scores/queries/device-sql";
import { greatCirclePart } from "@/lib/scores/queries/great-circle-sql";
import { queryFleet } from "@/lib/scores/queries/load-fleet-inputs";
import { energyAccount } from "@/lib/scores/energy-accounting";
import type { EmissionsVehicleInput } from "../emissions";

/**
 * Every vehicle of the tenant with what the emissions report needs over `[since, until]`, in two SQL
 * round trips whatever the fleet size:
 * 1. the green fleet score's behaviour part (behaviour-sql.ts: the odometer's first/last readings and
 *    the SOC energy accounting, so both use one energy accounting), over the fleet (`queryFleet`);
 * 2. the great-circle sum of consecutive positions (great-circle-sql.ts: the daily rollups for the
 *    period's whole days, the positions around them raw), only for the vehicles without an odometer
 *    distance: the report uses it only for them (`vehicleEmissions`). None without: no second round trip.
 * Devices that did not report in the period still come back (zeros).
 */
export async function loadEmissionsInputs({ ctx, since, until }: { ctx: TenantCtx; since: string; until: string }): Promise<EmissionsVehicleInput[]> {
  const part = behaviourPart({ since, until });
  const found = await queryFleet(
    ctx,
    (inSlice) => sql`
      select d.device_id, d.name, d.powertrain, d.fuel_type, d.asset_class, d.battery_kwh, ${part.columns}
      from devices d
      ${part.join ?? sql``}
      where d.tenant_id = ${ctx.tenantId}${inSlice("d.device_id")}`,
  );
  const vehicles = found.map((r): EmissionsVehicleInput => {
    const b = toBehaviour(r);
    const energy = energyAccount(b, sqlNumber(r.battery_kwh));
    // Two odometer readings at least (distinct times): one reading says nothing about the distance.
    const twoReadings =
      b.odometer_first_km !== null && b.odometer_last_km !== null && b.odometer_first_at !== null && b.odometer_last_at !== null && b.odometer_last_at.getTime() > b.odometer_first_at.getTime();
    return {
      device_id: String(r.device_id),
      device_name: String(r.name),
      powertrain: typeof r.powertrain === "string" ? r.powertrain : null,
      fuel_type: typeof r.fuel_type === "string" ? r.fuel_type : null,
      asset_class: typeof r.asset_class === "string" ? r.asset_class : null,
      odometer_km: twoReadings ? Math.max(0, (b.odometer_last_km as number) - (b.odometer_first_km as number)) : null,
      great_circle_km: 0,
      consumption_kwh_per_100km: energy.consumption_kwh_per_100km,
    };
  });
  const withoutOdometer = vehicles.filter((v) => v.odometer_km === null);
  if (withoutOdometer.length > 0) {
    const found = await queryDevices("emissions great circle", { ctx, deviceIds: withoutOdometer.map((v) => v.device_id) }, [greatCirclePart({ since, until })]);
    const km = new Map(found.map((r) => [String(r.device_id), sqlNumber(r.gc_km) ?? 0]));
    for (const v of withoutOdometer) v.great_circle_km = km.get(v.device_id) ?? 0;
  }
  return vehicles;
}
