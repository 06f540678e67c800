import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { TasScore } from "@/lib/schemas/scores-device";
import { loadOneDevice } from "./get-vehicle-health";
import { toTasInput } from "./queries/load-device-inputs";
import { computeTas } from "./tas";

/** Endpoint 17: Total Asset Score of one device (SPEC 2.14). */
export async function getTas({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<TasScore> {
  const d = await loadOneDevice(ctx, input.device_id, now);
  return computeTas(toTasInput(d, now), { now });
}
