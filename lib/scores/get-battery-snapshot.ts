import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import type { BatteryHealthSnapshot } from "@/lib/schemas/scores-device";
import { buildBatterySnapshot } from "./battery-snapshot";
import { loadOneDevice } from "./get-vehicle-health";
import { toBatterySnapshotInput } from "./queries/load-device-inputs";

/** Endpoint 6: battery health snapshot of one device (SPEC 2.6). */
export async function getBatterySnapshot({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<BatteryHealthSnapshot> {
  const d = await loadOneDevice(ctx, input.device_id, now);
  return buildBatterySnapshot(toBatterySnapshotInput(d), { now });
}
