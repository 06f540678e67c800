import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import { behaviourPart } from "@/lib/scores/queries/behaviour-rollup-sql";
import { toBehaviour } from "@/lib/scores/queries/behaviour-sql";
import { energyAccount } from "@/lib/scores/energy-accounting";
import { EARTH_RADIUS_KM, type EmissionsVehicleInput } from "../emissions";

/**
 * Every vehicle of the tenant with what the emissions report needs over `[since, until]`, in ONE SQL
 * round trip whatever the fleet size: the green fleet score's behaviour part (behaviour-sql.ts: the
 * odometer's first/last readings and the SOC energy accounting, so both use one energy accounting)
 * plus the great-circle sum of consecutive positions, computed in the database (the same haversine as
 * `haversineKm`, on the same sphere). Devices that did not report in the period still come back (zeros).
 */
export async function loadEmissionsInputs({ ctx, since, until }: { ctx: TenantCtx; since: string; until: string }): Promise<EmissionsVehicleInput[]> {
  const part = behaviourPart({ since, until });
  const query = sql`
    select d.device_id, d.name, d.powertrain, d.fuel_type, d.asset_class, d.battery_kwh, ${part.columns}, gc.gc_km
    from devices d
    ${part.join ?? sql``}
    left join lateral (
      select coalesce(sum(2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1::float8, sqrt(
          power(sin(radians(p.lat2 - p.lat) / 2), 2)
          + cos(radians(p.lat)) * cos(radians(p.lat2)) * power(sin(radians(p.lon2 - p.lon) / 2), 2)))))
        filter (where p.lat2 is not null), 0)::float8 as gc_km
      from (
        select t.lat, t.lon, lead(t.lat) over w as lat2, lead(t.lon) over w as lon2
        from telemetry t
        where t.tenant_id = d.tenant_id and t.device_id = d.device_id and t.ts >= ${since}::timestamptz and t.ts <= ${until}::timestamptz
          and t.lat is not null and t.lon is not null
        window w as (order by t.ts)
      ) p
    ) gc on true
    where d.tenant_id = ${ctx.tenantId}
    order by d.device_id`;
  const found = await rows<Record<string, unknown>>(ctx.db, query);
  return found.map((r) => {
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
      great_circle_km: sqlNumber(r.gc_km) ?? 0,
      consumption_kwh_per_100km: energy.consumption_kwh_per_100km,
    };
  });
}
