import type { TenantCtx } from "@/lib/context";
import { SCORE_NAMES, scoresBatchItemSchema, type ScoresBatchRequest, type ScoresBatchResponse } from "@/lib/schemas/scores-device";
import { checkedOutput } from "@/lib/validation";
import { buildBatterySnapshot } from "./battery-snapshot";
import { computeFleetRisk } from "./fleet-risk";
import { eolFromInputs } from "./get-eol-summary";
import { computeGreenFleet } from "./green-fleet";
import { SHORT_WINDOW_DAYS } from "./derived-measures";
import { loadBatterySnapshotInputs } from "./queries/load-battery-snapshot-inputs";
import { loadDeviceFleetInputs, type DeviceFleetInputs } from "./queries/load-device-fleet-inputs";
import { loadVehicleHealthInputs, type VehicleHealthInputs } from "./queries/load-vehicle-health-inputs";
import type { BatterySnapshotInput } from "./battery-snapshot";
import { computeVehicleHealth } from "./vehicle-health";

type Item = ScoresBatchResponse["results"][number];
type ScoreName = ScoresBatchResponse["meta"]["scores_requested"][number];

/** One device's inputs, from the loaders the requested scores need (absent loaders: undefined). */
interface Loaded {
  health?: VehicleHealthInputs;
  battery?: BatterySnapshotInput;
  fleet?: DeviceFleetInputs;
}

function scoreOne(id: string, d: Loaded, want: ReadonlySet<ScoreName>, now: Date): Item {
  const item: Item = { device_id: id };
  const vh = d.health ? computeVehicleHealth(d.health.vehicleHealth, { now }) : null;
  // fleet_risk and green_fleet are fleet-level scores (SPEC 2.3, 2.5). Per device they are the same
  // functions, on the same behaviour and energy aggregate (queries/behaviour-sql.ts), applied to a
  // one-vehicle fleet over the SPEC's default 30-day period; ev_share, a fleet property, is marked
  // not applicable (null) for one vehicle instead of a powertrain lookup, and so is co2_intensity
  // unless the vehicle's own CO2 was measured (a BEV's consumption): a fuel's DEFRA factor is a
  // reference, not the vehicle's score (green-fleet.ts, docs/methodology/green-fleet.md "One vehicle").
  if (want.has("fleet_risk") && d.fleet) item.fleet_risk = computeFleetRisk({ period_days: SHORT_WINDOW_DAYS, devices: [d.fleet.fleetRisk] }, { now });
  if (want.has("vehicle_health") && vh) item.vehicle_health = vh;
  if (want.has("green_fleet") && d.fleet) item.green_fleet = computeGreenFleet({ period_days: SHORT_WINDOW_DAYS, devices: [d.fleet.greenFleet], single_vehicle: true }, { now });
  if (want.has("battery_health") && d.battery) item.battery_health = buildBatterySnapshot(d.battery, { now });
  if (want.has("eol_summary") && d.health) item.eol_summary = eolFromInputs(d.health, now, vh?.vehicle_health_score);
  return item;
}

/**
 * Endpoint 9: the requested scores for up to SCORES_BATCH_MAX devices (the request schema's bound),
 * loaded by the loaders those scores need
 * (one round trip each, at most three, whatever the number of devices).
 * One item per requested id in request order; a duplicated id is answered again (so `meta.total`
 * is always `device_ids.length` and `processed + errors == total`). A device the tenant does not
 * hold is `{device_id, error: {error: "not_found", message}}`; a device whose computation fails is
 * `{device_id, error: {error: "internal_error", message}}`. Neither fails the batch.
 */
export async function scoresBatch({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: ScoresBatchRequest; now?: Date }): Promise<ScoresBatchResponse> {
  const requested = input.scores ?? [...SCORE_NAMES];
  // Keep the canonical order and drop repeats, so `scores_requested` is stable.
  const scores = SCORE_NAMES.filter((s) => requested.includes(s));
  const want = new Set<ScoreName>(scores);
  const args = { ctx, deviceIds: input.device_ids, now };
  const [health, battery, fleet] = await Promise.all([
    want.has("vehicle_health") || want.has("eol_summary") ? loadVehicleHealthInputs(args) : undefined,
    want.has("battery_health") ? loadBatterySnapshotInputs(args) : undefined,
    want.has("fleet_risk") || want.has("green_fleet") ? loadDeviceFleetInputs(args) : undefined,
  ]);
  // Every loader answers the same devices (the tenant's among the ids); any one tells which exist.
  const known = health ?? battery ?? fleet;
  let errors = 0;
  const results: Item[] = input.device_ids.map((id) => {
    if (!known?.has(id)) {
      errors += 1;
      return { device_id: id, error: { error: "not_found", message: `No device ${id}.` } };
    }
    try {
      const d: Loaded = { health: health?.get(id), battery: battery?.get(id), fleet: fleet?.get(id) };
      return checkedOutput(scoresBatchItemSchema, scoreOne(id, d, want, now), `scores of ${id}`);
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
