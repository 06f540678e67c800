import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import { NotFoundError } from "@/lib/errors";
import type { VehicleHealthScore } from "@/lib/schemas/scores-device";
import { loadDeviceInputs, toVehicleHealthInput, type DeviceInputs } from "./queries/load-device-inputs";
import { computeVehicleHealth } from "./vehicle-health";

/** The tenant's device inputs, or a NotFoundError (unknown and other tenants' devices look the same). */
export async function loadOneDevice(ctx: TenantCtx, deviceId: string, now: Date): Promise<DeviceInputs> {
  const found = (await loadDeviceInputs({ ctx, deviceIds: [deviceId], now })).get(deviceId);
  if (!found) throw new NotFoundError(`No device ${deviceId}.`);
  return found;
}

/** Endpoint 4: vehicle health score of one device (SPEC 2.4). */
export async function getVehicleHealth({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<VehicleHealthScore> {
  const d = await loadOneDevice(ctx, input.device_id, now);
  return computeVehicleHealth(toVehicleHealthInput(d), { now });
}
