import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { VehicleHealthScore } from "@/lib/schemas/scores-device";
import { loadVehicleHealthInputs } from "./queries/load-vehicle-health-inputs";
import { oneDevice } from "@/lib/devices/one-device";
import { computeVehicleHealth } from "./vehicle-health";

/** Endpoint 4: vehicle health score of one device (SPEC 2.4). */
export async function getVehicleHealth({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<VehicleHealthScore> {
  const d = oneDevice(await loadVehicleHealthInputs({ ctx, deviceIds: [input.device_id], now }), input.device_id);
  return computeVehicleHealth(d.vehicleHealth, { now });
}
