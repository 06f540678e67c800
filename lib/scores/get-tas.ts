import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { TasScore } from "@/lib/schemas/scores-device";
import { loadTasInputs } from "./queries/load-tas-inputs";
import { oneDevice } from "@/lib/devices/one-device";
import { computeTas } from "./tas";

/** Endpoint 17: Total Asset Score of one device (SPEC 2.14). */
export async function getTas({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<TasScore> {
  return computeTas(oneDevice(await loadTasInputs({ ctx, deviceIds: [input.device_id], now }), input.device_id), { now });
}
