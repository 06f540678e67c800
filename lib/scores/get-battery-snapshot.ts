import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { BatteryHealthSnapshot } from "@/lib/schemas/scores-device";
import { buildBatterySnapshot } from "./battery-snapshot";
import { loadBatterySnapshotInputs } from "./queries/load-battery-snapshot-inputs";
import { oneDevice } from "@/lib/devices/one-device";

/** Endpoint 6: battery health snapshot of one device (SPEC 2.6). */
export async function getBatterySnapshot({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<BatteryHealthSnapshot> {
  return buildBatterySnapshot(oneDevice(await loadBatterySnapshotInputs({ ctx, deviceIds: [input.device_id] }), input.device_id), { now });
}
