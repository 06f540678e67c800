import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { EolSummaryBody } from "@/lib/schemas/scores-device";
import { buildEolSummary } from "./eol-summary";
import { loadVehicleHealthInputs, type VehicleHealthInputs } from "./queries/load-vehicle-health-inputs";
import { oneDevice } from "./queries/one-device";
import { computeVehicleHealth } from "./vehicle-health";

/** EOL summary from loaded inputs: the vehicle health score feeds the grade (pure). */
export function eolFromInputs(d: VehicleHealthInputs, now: Date, vehicleHealthScore?: number): EolSummaryBody {
  const vh = vehicleHealthScore ?? computeVehicleHealth(d.vehicleHealth, { now }).vehicle_health_score;
  return buildEolSummary({ ...d.eol, vehicle_health_score: vh }, { now });
}

/** Endpoint 7: end-of-life condition summary of one device (SPEC 2.7). */
export async function getEolSummary({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<EolSummaryBody> {
  const d = oneDevice(await loadVehicleHealthInputs({ ctx, deviceIds: [input.device_id], now }), input.device_id);
  return eolFromInputs(d, now);
}
