import type { TenantCtx } from "@/lib/context";
import type { FleetScoreQuery, FleetRiskScore } from "@/lib/schemas/scores-fleet";
import { computeFleetRisk } from "./fleet-risk";
import { loadFleetRiskInputs } from "./queries/load-fleet-inputs";

/** Endpoint 3: the tenant's fleet risk score over the last `period` days (one SQL round trip). */
export async function getFleetRisk({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: FleetScoreQuery; now?: Date }): Promise<FleetRiskScore> {
  const devices = await loadFleetRiskInputs({ ctx, periodDays: input.period, now });
  return computeFleetRisk({ period_days: input.period, devices }, { now });
}
