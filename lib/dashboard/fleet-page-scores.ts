import type { TenantCtx } from "@/lib/context";
import type { FleetRiskScore, GreenFleetScore } from "@/lib/schemas/scores-fleet";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { readFleetSnapshots, type Maintained } from "@/lib/dashboard/score-snapshots/read-score-snapshots";
import { MAINTAINED_PERIOD_DAYS } from "@/lib/dashboard/score-snapshots/snapshot-kinds";
import { tasBatch } from "@/lib/scores/tas-batch";

interface FleetPageScores {
  risk: Maintained<FleetRiskScore>;
  green: Maintained<GreenFleetScore>;
  /** Each listed device's TAS grade (null: not graded, or its score failed). */
  grades: Map<string, string | null>;
  /** The oldest computation the TAS column rests on (the page's "as of" for the column). */
  gradesAsOf: Date;
}

/**
 * The fleet page's scores: over the maintained period (the page's default, 30 days) from the
 * maintained snapshots (lib/dashboard/score-snapshots/), each with the time it was computed; anything not
 * maintained yet (a new device, a first view, another period) computed on request with the API's
 * verbs, stamped `now`.
 */
export async function getFleetPageScores({
  ctx,
  periodDays,
  deviceIds,
  now = new Date(),
}: {
  ctx: TenantCtx;
  periodDays: number;
  deviceIds: string[];
  now?: Date;
}): Promise<FleetPageScores> {
  const snap = periodDays === MAINTAINED_PERIOD_DAYS ? await readFleetSnapshots({ ctx, deviceIds, now }) : null;
  const input = { period: periodDays };
  const live = <T>(answer: T): Maintained<T> => ({ answer, computedAt: now });
  const unmaintained = deviceIds.filter((id) => !snap?.tas.has(id));
  const [risk, green, tas] = await Promise.all([
    snap?.fleetRisk ?? getFleetRisk({ ctx, input, now }).then(live),
    snap?.greenFleet ?? getGreenFleet({ ctx, input, now }).then(live),
    unmaintained.length > 0 ? tasBatch({ ctx, input: { device_ids: unmaintained }, now }) : null,
  ]);
  const grades = new Map<string, string | null>(tas?.results.map((t) => [t.device_id, t.tas_grade]) ?? []);
  let gradesAsOf = unmaintained.length > 0 ? now : null;
  for (const id of deviceIds) {
    const kept = snap?.tas.get(id);
    if (!kept) continue;
    grades.set(id, kept.answer.tas_grade);
    if (gradesAsOf === null || kept.computedAt < gradesAsOf) gradesAsOf = kept.computedAt;
  }
  return { risk, green, grades, gradesAsOf: gradesAsOf ?? now };
}
