import type { TenantCtx } from "@/lib/context";
import type { BatteryHealthSnapshot } from "@/lib/schemas/scores-device";
import { buildBatterySnapshot } from "./battery-snapshot";
import { loadOneDevice } from "./get-vehicle-health";
import { toBatterySnapshotInput } from "./queries/load-device-inputs";

/** Endpoint 6: battery health snapshot of one device (SPEC 2.6). */
export async function getBatterySnapshot({ ctx, deviceId, now = new Date() }: { ctx: TenantCtx; deviceId: string; now?: Date }): Promise<BatteryHealthSnapshot> {
  const d = await loadOneDevice(ctx, deviceId, now);
  return buildBatterySnapshot(toBatterySnapshotInput(d), { now });
}
