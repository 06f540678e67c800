import type { TenantCtx } from "@/lib/context";
import type { FleetScoreQuery, GreenFleetScore } from "@/lib/schemas/scores-fleet";
import { computeGreenFleet } from "./green-fleet";
import { loadFleetInputs, toGreenFleetDevice } from "./queries/load-fleet-inputs";

/** Endpoint 5: the tenant's green fleet score over the last `period` days (one SQL round trip). */
export async function getGreenFleet({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: FleetScoreQuery; now?: Date }): Promise<GreenFleetScore> {
  const loaded = await loadFleetInputs({ ctx, periodDays: input.period, now });
  return computeGreenFleet({ period_days: input.period, devices: loaded.devices.map(toGreenFleetDevice) }, { now });
}
