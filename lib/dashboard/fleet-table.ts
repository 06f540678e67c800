import { and, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { devices, fleetSnapshot } from "@/lib/db/schema";
import { listFleet } from "@/lib/fleet/list-fleet";
import type { FleetRecord } from "@/lib/schemas/fleet";
import { normalisePowertrain, type Powertrain } from "@/lib/vocabulary/powertrain";

export interface FleetTableRow extends FleetRecord {
  powertrain: Powertrain | null;
  /** State of charge of the latest snapshot (%), null when the vehicle reports none (an ICE, or no signal). */
  soc_pct: number | null;
}

/** The dashboard's page size: the API's own maximum for GET /fleet (lib/schemas/fleet.ts). */
export const FLEET_TABLE_LIMIT = 500;

/**
 * The dashboard's fleet table: the API's own fleet verb (listFleet, the rows of GET /api/v1/fleet)
 * joined with two columns the table shows beside it, powertrain and state of charge. Two round trips
 * whatever the fleet size.
 */
export async function listFleetTable({ ctx, now = new Date() }: { ctx: TenantCtx; now?: Date }): Promise<FleetTableRow[]> {
  const [fleet, extras] = await Promise.all([
    listFleet({ ctx, input: { limit: FLEET_TABLE_LIMIT }, now }),
    ctx.db
      .select({ deviceId: devices.deviceId, powertrain: devices.powertrain, socPct: fleetSnapshot.socPct })
      .from(devices)
      .leftJoin(fleetSnapshot, and(eq(fleetSnapshot.tenantId, devices.tenantId), eq(fleetSnapshot.deviceId, devices.deviceId)))
      .where(eq(devices.tenantId, ctx.tenantId)),
  ]);
  const byDevice = new Map(extras.map((e) => [e.deviceId, e]));
  return fleet.data.map((row) => {
    const extra = byDevice.get(row.device_id);
    return { ...row, powertrain: normalisePowertrain(extra?.powertrain), soc_pct: extra?.socPct ?? null };
  });
}
