import { and, asc, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts, devices, fleetSnapshot } from "@/lib/db/schema";
import type { FleetList, FleetQuery } from "@/lib/schemas/fleet";
import { SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { alertLevelFromRank, deriveIgnition, deriveStatus } from "./derive-fleet-state";

/** Rank of a severity (SEVERITY_RANK) for "highest unacknowledged alert". */
const rankCases = sql.raw(SEVERITIES.map((s) => `when '${s}' then ${SEVERITY_RANK[s]}`).join(" "));
const severityRank = sql<number>`max(case ${alerts.severity} ${rankCases} else 0 end)::int`;

/** The tenant's fleet snapshot: one round trip, ordered by device_id. */
export async function listFleet({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: FleetQuery; now?: Date }): Promise<FleetList> {
  const openAlerts = ctx.db
    .select({ deviceId: alerts.deviceId, rank: severityRank.as("rank") })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.acknowledged, false)))
    .groupBy(alerts.deviceId)
    .as("open_alerts");

  const rowsFound = await ctx.db
    .select({
      deviceId: fleetSnapshot.deviceId,
      name: devices.name,
      ts: fleetSnapshot.ts,
      lat: fleetSnapshot.lat,
      lon: fleetSnapshot.lon,
      speedKmh: fleetSnapshot.speedKmh,
      batteryVoltage: fleetSnapshot.batteryVoltage,
      chargingStatus: fleetSnapshot.chargingStatus,
      chargingPowerKw: fleetSnapshot.chargingPowerKw,
      ignition: fleetSnapshot.ignition,
      weatherTemp: fleetSnapshot.weatherTemp,
      rank: openAlerts.rank,
    })
    .from(fleetSnapshot)
    .innerJoin(devices, and(eq(devices.tenantId, fleetSnapshot.tenantId), eq(devices.deviceId, fleetSnapshot.deviceId)))
    .leftJoin(openAlerts, eq(openAlerts.deviceId, fleetSnapshot.deviceId))
    .where(eq(fleetSnapshot.tenantId, ctx.tenantId))
    .orderBy(asc(fleetSnapshot.deviceId))
    .limit(input.limit);

  const data = rowsFound.map((r) => ({
    device_id: r.deviceId,
    device_name: r.name,
    vehicle_speed: r.speedKmh,
    battery_voltage: r.batteryVoltage,
    lat: r.lat,
    lon: r.lon,
    status: deriveStatus(r, now),
    alert_level: alertLevelFromRank(r.rank),
    weather_temp: r.weatherTemp,
    ignition: deriveIgnition(r),
    updated_at: r.ts.toISOString(),
  }));
  return { data, count: data.length, tenant_id: ctx.tenantId };
}
