import type { TenantCtx } from "@/lib/context";
import { SCORE_NAMES, scoresBatchItemSchema, type ScoresBatchRequest, type ScoresBatchResponse } from "@/lib/schemas/scores-device";
import { checkedOutput } from "@/lib/validation";
import { buildBatterySnapshot } from "./battery-snapshot";
import { computeFleetRisk } from "./fleet-risk";
import { eolFromInputs } from "./get-eol-summary";
import { computeGreenFleet } from "./green-fleet";
import {
  SHORT_WINDOW_DAYS,
  loadDeviceInputs,
  toBatterySnapshotInput,
  toFleetRiskDeviceInput,
  toGreenFleetDeviceInput,
  toVehicleHealthInput,
  type DeviceInputs,
} from "./queries/load-device-inputs";
import { computeVehicleHealth } from "./vehicle-health";

type Item = ScoresBatchResponse["results"][number];

function scoreOne(d: DeviceInputs, scores: ScoresBatchResponse["meta"]["scores_requested"], now: Date): Item {
  const item: Item = { device_id: d.device_id };
  const want = new Set(scores);
  const vh = want.has("vehicle_health") || want.has("eol_summary") ? computeVehicleHealth(toVehicleHealthInput(d), { now }) : null;
  // fleet_risk and green_fleet are fleet-level scores (SPEC 2.3, 2.5). Per device they are the same
  // functions applied to a one-vehicle fleet over the SPEC's default 30-day period, built from this
  // module's aggregates (alert counts, days with data, odometer distance). The minute-level driving
  // and charging aggregates are not loaded per device, so those components are reported as not
  // computable and the score's `limitations` say so (docs: methodology pages of both scores).
  if (want.has("fleet_risk")) {
    item.fleet_risk = computeFleetRisk({ period_days: SHORT_WINDOW_DAYS, devices: [toFleetRiskDeviceInput(d)] }, { now });
  }
  if (vh && want.has("vehicle_health")) item.vehicle_health = vh;
  if (want.has("green_fleet")) {
    item.green_fleet = computeGreenFleet({ period_days: SHORT_WINDOW_DAYS, devices: [toGreenFleetDeviceInput(d)] }, { now });
  }
  if (want.has("battery_health")) item.battery_health = buildBatterySnapshot(toBatterySnapshotInput(d), { now });
  if (want.has("eol_summary")) item.eol_summary = eolFromInputs(d, now, vh?.vehicle_health_score);
  return item;
}

/**
 * Endpoint 9: the requested scores for up to 100 devices, loaded in a fixed number of round trips.
 * One item per requested id in request order; a duplicated id is answered again (so `meta.total`
 * is always `device_ids.length` and `processed + errors == total`). A device the tenant does not
 * hold is `{device_id, error: {error: "not_found", message}}`; a device whose computation fails is
 * `{device_id, error: {error: "internal_error", message}}`. Neither fails the batch.
 */
export async function scoresBatch({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: ScoresBatchRequest; now?: Date }): Promise<ScoresBatchResponse> {
  const requested = input.scores ?? [...SCORE_NAMES];
  // Keep the canonical order and drop repeats, so `scores_requested` is stable.
  const scores = SCORE_NAMES.filter((s) => requested.includes(s));
  const loaded = await loadDeviceInputs({ ctx, deviceIds: input.device_ids, now });
  let errors = 0;
  const results: Item[] = input.device_ids.map((id) => {
    const d = loaded.get(id);
    if (!d) {
      errors += 1;
      return { device_id: id, error: { error: "not_found", message: `No device ${id}.` } };
    }
    try {
      return checkedOutput(scoresBatchItemSchema, scoreOne(d, scores, now), `scores of ${id}`);
    } catch (err) {
      // The item says internal_error; the log keeps the cause (with the request id) so a bug in a score is seen.
      ctx.log.error({ err, device_id: id }, "scores batch: device failed");
      errors += 1;
      return { device_id: id, error: { error: "internal_error", message: `The scores of device ${id} could not be computed.` } };
    }
  });
  return {
    results,
    meta: { total: results.length, processed: results.length - errors, errors, scores_requested: scores },
    generated_at: now.toISOString(),
  };
}
