import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { EolSummaryBody } from "@/lib/schemas/scores-device";
import { buildEolSummary } from "./eol-summary";
import { loadVehicleHealthInputs, type VehicleHealthInputs } from "./queries/load-vehicle-health-inputs";
import { oneDevice } from "@/lib/devices/one-device";
import { computeVehicleHealth, type VehicleHealthResult } from "./vehicle-health";

/**
 * EOL summary from loaded inputs: the vehicle health result feeds the grade (pure). Pass the result
 * when the caller has it (the scores batch), else it is computed here. A health score that measured
 * nothing (every component null: its neutral midpoint) is not passed on as a measurement.
 * (A number is still accepted for the score batch's older call; its measured-ness is then recomputed.)
 */
export function eolFromInputs(d: VehicleHealthInputs, now: Date, vehicleHealth?: VehicleHealthResult | number): EolSummaryBody {
  const vh = typeof vehicleHealth === "object" ? vehicleHealth : computeVehicleHealth(d.vehicleHealth, { now });
  const measured = Object.values(vh.components).some((c) => c !== null);
  return buildEolSummary(
    {
      ...d.eol,
      vehicle_health_score: measured ? vh.vehicle_health_score : null,
      vehicle_health_confidence: measured ? vh.confidence : null,
    },
    { now },
  );
}

/** Endpoint 7: end-of-life condition summary of one device (SPEC 2.7). */
export async function getEolSummary({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<EolSummaryBody> {
  const d = oneDevice(await loadVehicleHealthInputs({ ctx, deviceIds: [input.device_id], now }), input.device_id);
  return eolFromInputs(d, now);
}
