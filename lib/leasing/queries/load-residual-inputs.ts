import { sql } from "drizzle-orm";
import { sqlNumber, sqlText } from "@/lib/db/sql-values";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { loadDeviceFleetInputs, type DeviceFleetInputs } from "@/lib/scores/queries/load-device-fleet-inputs";
import { loadVehicleHealthInputs, type VehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";

/** Master data the residual value needs beyond what the score loaders carry. */
export interface ResidualMasterData {
  powertrain: string | null;
  year: number | null;
  lease_start: string | null;
  original_price_eur: number | null;
}

/** One device's loaded inputs: its master data and the SAME inputs the scores batch loads for it. */
export interface ResidualInputs {
  master: ResidualMasterData;
  /** Vehicle health and EOL inputs (latest plausible SoH, latest odometer, manipulation evidence). */
  health: VehicleHealthInputs;
  /** Per-device fleet risk and green fleet inputs over the 30-day window. */
  fleet: DeviceFleetInputs | undefined;
}

/**
 * Endpoint 10 (and the certificates): the residual-value inputs of the tenant's devices among
 * `deviceIds` in three round trips whatever their number, run side by side: the master data, and the
 * score loaders of the scores batch (lib/scores/score-batch.ts) reused as they are, so the residual
 * value sees exactly the vehicle health, EOL, fleet risk and green fleet inputs the scores see.
 * Ids the tenant does not hold are absent from the map.
 */
export async function loadResidualInputs(args: DeviceQueryArgs & { now: Date }): Promise<Map<string, ResidualInputs>> {
  const [masterRows, health, fleet] = await Promise.all([
    queryDevices("residual_master", args, [parts.master("powertrain", "year"), parts.leaseStart(), { columns: sql`d.original_price_eur` }]),
    loadVehicleHealthInputs(args),
    loadDeviceFleetInputs(args),
  ]);
  const out = new Map<string, ResidualInputs>();
  for (const r of masterRows) {
    const id = String(r.device_id);
    const h = health.get(id);
    // The three queries read the same tenant's device rows; a device deleted between them is left out.
    if (!h) continue;
    out.set(id, {
      master: {
        powertrain: sqlText(r.powertrain),
        year: sqlNumber(r.year),
        lease_start: sqlText(r.lease_start),
        original_price_eur: sqlNumber(r.original_price_eur),
      },
      health: h,
      fleet: fleet.get(id),
    });
  }
  return out;
}
