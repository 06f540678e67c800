import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { EolSummaryBody } from "@/lib/schemas/scores-device";
import { buildEolSummary } from "./eol-summary";
import { loadOneDevice } from "./get-vehicle-health";
import { toEolInput, toVehicleHealthInput, type DeviceInputs } from "./queries/load-device-inputs";
import { computeVehicleHealth } from "./vehicle-health";

/** EOL summary from loaded inputs: the vehicle health score feeds the grade (pure). */
export function eolFromInputs(d: DeviceInputs, now: Date, vehicleHealthScore?: number): EolSummaryBody {
  const vh = vehicleHealthScore ?? computeVehicleHealth(toVehicleHealthInput(d), { now }).vehicle_health_score;
  return buildEolSummary(toEolInput(d, vh), { now });
}

/** Endpoint 7: end-of-life condition summary of one device (SPEC 2.7). */
export async function getEolSummary({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<EolSummaryBody> {
  const d = await loadOneDevice(ctx, input.device_id, now);
  return eolFromInputs(d, now);
}
