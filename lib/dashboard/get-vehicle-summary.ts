import { and, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts, devices, fleetSnapshot } from "@/lib/db/schema";
import { alertLevelFromRank, deriveStatus } from "@/lib/fleet/derive-fleet-state";
import { SEVERITIES, SEVERITY_RANK, type AlertLevel } from "@/lib/vocabulary/alerts";
import type { FleetStatus } from "@/lib/fleet/derive-fleet-state";
import { normalisePowertrain, type Powertrain } from "@/lib/vocabulary/powertrain";

export interface VehicleSummary {
  deviceId: string;
  name: string;
  make: string | null;
  model: string | null;
  year: number | null;
  powertrain: Powertrain | null;
  /** Null when the vehicle has never reported (no snapshot yet). */
  status: FleetStatus | null;
  socPct: number | null;
  updatedAt: Date | null;
  /** The latest position (the map's marker); null when unknown. */
  lat: number | null;
  lon: number | null;
  /** The highest open alert's severity, as GET /fleet's `alert_level` (the marker's colour). */
  alertLevel: AlertLevel;
}

/** Rank of a severity (SEVERITY_RANK) for "highest unacknowledged alert", as lib/fleet/list-fleet.ts ranks it. */
const rankCases = sql.raw(SEVERITIES.map((s) => `when '${s}' then ${SEVERITY_RANK[s]}`).join(" "));

/**
 * One vehicle of the tenant (one round trip), or null when the tenant has no such device: a device
 * of another tenant is indistinguishable from one that does not exist (the page answers 404 for both).
 */
export async function getVehicleSummary({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: { device_id: string }; now?: Date }): Promise<VehicleSummary | null> {
  const [row] = await ctx.db
    .select({
      deviceId: devices.deviceId,
      name: devices.name,
      make: devices.make,
      model: devices.model,
      year: devices.year,
      powertrain: devices.powertrain,
      ts: fleetSnapshot.ts,
      speedKmh: fleetSnapshot.speedKmh,
      ignition: fleetSnapshot.ignition,
      chargingStatus: fleetSnapshot.chargingStatus,
      chargingPowerKw: fleetSnapshot.chargingPowerKw,
      socPct: fleetSnapshot.socPct,
      lat: fleetSnapshot.lat,
      lon: fleetSnapshot.lon,
      rank: sql<number | null>`(select max(case ${alerts.severity} ${rankCases} else 0 end)::int from ${alerts}
        where ${alerts.tenantId} = ${devices.tenantId} and ${alerts.deviceId} = ${devices.deviceId} and ${alerts.acknowledged} = false)`,
    })
    .from(devices)
    .leftJoin(fleetSnapshot, and(eq(fleetSnapshot.tenantId, devices.tenantId), eq(fleetSnapshot.deviceId, devices.deviceId)))
    .where(and(eq(devices.tenantId, ctx.tenantId), eq(devices.deviceId, input.device_id)))
    .limit(1);
  if (!row) return null;
  const ts = row.ts;
  return {
    deviceId: row.deviceId,
    name: row.name,
    make: row.make,
    model: row.model,
    year: row.year,
    powertrain: normalisePowertrain(row.powertrain),
    status: ts ? deriveStatus({ ts, speedKmh: row.speedKmh, ignition: row.ignition, chargingStatus: row.chargingStatus, chargingPowerKw: row.chargingPowerKw }, now) : null,
    socPct: row.socPct,
    updatedAt: ts,
    lat: row.lat,
    lon: row.lon,
    alertLevel: alertLevelFromRank(row.rank === null ? null : Number(row.rank)),
  };
}
