import type { TenantCtx } from "@/lib/context";
import type { DeviceInput } from "@/lib/schemas/common";
import { residualValueSchema, type ResidualValueBody } from "@/lib/schemas/leasing-residual";
import { SHORT_WINDOW_DAYS } from "@/lib/scores/derived-measures";
import { computeFleetRisk } from "@/lib/scores/fleet-risk";
import { eolFromInputs } from "@/lib/scores/get-eol-summary";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import { oneDevice } from "@/lib/devices/one-device";
import { computeVehicleHealth } from "@/lib/scores/vehicle-health";
import { checkedOutput } from "@/lib/validation";
import { loadResidualInputs, type ResidualInputs } from "./queries/load-residual-inputs";
import { computeResidualValue, type ResidualInput } from "./residual-value-rules";

/**
 * The rules' input from one device's loaded inputs: the scores are computed by the same functions, on
 * the same inputs, as in the scores batch (lib/scores/score-batch.ts `scoreOne`): vehicle health, the
 * EOL summary from it, and fleet risk / green fleet as one-vehicle fleets over the 30-day window.
 * A score that measured nothing is passed on as null, not as its neutral default:
 *   - vehicle health: every component null (its 50 is a placeholder);
 *   - EOL grade: the unmeasured placeholder D (no health score and no knockout);
 *   - fleet risk: no driving in the window, or too little to measure (its confidence low): a component
 *     without data reads 0, "no risk", which would earn a credit it did not measure;
 *   - green fleet: every component null (its 0 is "nothing measured").
 * Mileage: the latest odometer reading; when the odometer is clocked (the EOL knockout), the highest
 * earlier reading, the least the car has really driven. SoH: the latest plausible OEM reading and its
 * time (the battery snapshot's and EOL's, one plausibility rule and one 90-day rule:
 * lib/vocabulary/readings.ts).
 */
function residualInputOf(id: string, d: ResidualInputs, now: Date): ResidualInput {
  const vhIn = d.health.vehicleHealth;
  const vh = computeVehicleHealth(vhIn, { now });
  const vhMeasured = Object.values(vh.components).some((c) => c !== null);
  const eol = eolFromInputs(d.health, now, vh);
  const knockouts = eol.knockout_evidence.map((e) => e.knockout);
  const eolMeasured = eol.vehicle_health_score !== null || knockouts.length > 0;

  let fleetRisk: number | null = null;
  let green: number | null = null;
  if (d.fleet) {
    if (d.fleet.fleetRisk.driving_minutes > 0) {
      const r = computeFleetRisk({ period_days: SHORT_WINDOW_DAYS, devices: [d.fleet.fleetRisk] }, { now });
      if (r.confidence !== "low") fleetRisk = r.fleet_risk_score;
    }
    const g = computeGreenFleet({ period_days: SHORT_WINDOW_DAYS, devices: [d.fleet.greenFleet], single_vehicle: true }, { now });
    if (Object.values(g.components).some((c) => c !== null)) green = g.green_fleet_score;
  }

  const latest = vhIn.latest_odometer_km;
  const highest = vhIn.odometer_manipulation === true ? (vhIn.odometer_evidence?.highest.km ?? null) : null;
  const mileage = latest === null ? highest : highest === null ? latest : Math.max(latest, highest);

  return {
    device_id: id,
    powertrain: d.master.powertrain,
    year: d.master.year,
    lease_start: d.master.lease_start,
    original_price_eur: d.master.original_price_eur,
    mileage_km: mileage,
    soh_pct: vhIn.latest_soh_pct,
    soh_at: vhIn.latest_soh_at,
    vehicle_health_score: vhMeasured ? vh.vehicle_health_score : null,
    fleet_risk_score: fleetRisk,
    green_fleet_score: green,
    eol_grade: eolMeasured ? eol.condition_grade : null,
    knockouts,
  };
}

/** One device's residual value from its loaded inputs, checked against its schema. */
export function residualValueOf(id: string, d: ResidualInputs, now: Date): ResidualValueBody {
  return checkedOutput(residualValueSchema, computeResidualValue(residualInputOf(id, d, now), { now }), `residual value of ${id}`);
}

/**
 * The residual value of each of the tenant's devices among `deviceIds` (ids it does not hold are
 * absent), in a bounded number of round trips whatever their number (loadResidualInputs: three, in
 * parallel). Each answer is checked against its schema. For the certificates and endpoint 10.
 */
export async function loadResidualValues({
  ctx,
  deviceIds,
  now = new Date(),
  onQuery,
}: {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  deviceIds: readonly string[];
  now?: Date;
  /** Called once per SQL round trip (tests assert that it does not grow with the number of devices). */
  onQuery?: (label: string) => void;
}): Promise<Map<string, ResidualValueBody>> {
  const loaded = await loadResidualInputs({ ctx, deviceIds, now, onQuery });
  const out = new Map<string, ResidualValueBody>();
  for (const [id, d] of loaded) out.set(id, residualValueOf(id, d, now));
  return out;
}

/** Endpoint 10: rule-based residual value of one device (SPEC 2.9); unknown or another tenant's device → NotFoundError. */
export async function getResidualValue({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: DeviceInput; now?: Date }): Promise<ResidualValueBody> {
  return oneDevice(await loadResidualValues({ ctx, deviceIds: [input.device_id], now }), input.device_id);
}
