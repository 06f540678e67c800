/**
 * The emissions report (endpoint 8, SPEC 2.8) from per-vehicle aggregates. Pure: data in, report out.
 * Methodology and the factor table: docs/methodology/emissions.md. Change EMISSIONS_METHOD_VERSION
 * with any rule change (the factor values carry their own version, EMISSION_FACTORS_VERSION).
 *
 * Per vehicle:
 * - distance: lib/distance/odometer-distance.ts (`periodDistance`): the sum of the odometer's plausible
 *   consecutive increases in the period (a rollback or reset does not erase distance driven; spikes and
 *   implausible jumps are not counted), else, where the odometer is unusable, the great-circle
 *   (haversine) sum over consecutive plausible positions; `distance_method` names which and
 *   `distance_note` / `distance_evidence` say what was set aside.
 * - energy: a plug-in's electricity at the plug from its SOC telemetry (the green fleet score's energy
 *   accounting: measured kWh/100 km at the plug × distance) where measured, else a documented
 *   per-powertrain consumption factor; fuel vehicles from DESNZ per-km factors (`energy_method`).
 * - CO2e: electricity × the Finnish grid factor (location-based, charger losses included in the kWh);
 *   fuel: tank-to-wheel + well-to-tank where DESNZ publishes the well-to-tank add-on.
 */
import { periodDistance, type DistanceEvidence, type PeriodDistance } from "@/lib/distance/odometer-distance";
import { classOf } from "@/lib/scores/green-fleet";
import type { DistanceMethod } from "@/lib/vocabulary/distance";
import { countsAsIce, isPlugIn, normalisePowertrain, type ReportPowertrain } from "@/lib/vocabulary/powertrain";
import { BEV_FALLBACK_KWH_PER_KM, EMISSION_FACTORS, EMISSION_FACTORS_VERSION, type EmissionFactorId } from "./emission-factors";

const EMISSIONS_METHOD_VERSION = "emissions-2027.02";

export interface EmissionsVehicleInput {
  device_id: string;
  device_name: string;
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  /** The period's odometer runs and positions (lib/distance/queries/period-distance-sql.ts). */
  distance: DistanceEvidence;
  /** Measured consumption at the plug (kWh/100 km, green fleet energy accounting); null = not measured. */
  consumption_kwh_per_100km: number | null;
}

export interface EmissionsVehicle {
  device_id: string;
  device_name: string;
  powertrain: ReportPowertrain;
  distance_km: number;
  distance_method: DistanceMethod;
  /** What was measured and what was set aside (a rollback, spikes, jumps), or why the odometer was not used. */
  distance_note: string;
  distance_evidence: DistanceEvidenceSummary;
  energy_kwh: number;
  fuel_l: number | null;
  energy_method: "telemetry_soc" | "consumption_factor" | "none";
  co2_kg: number;
  factor_ids: EmissionFactorId[];
}

/** The per-vehicle evidence behind distance_km (an auditor's check of the method). */
export interface DistanceEvidenceSummary {
  /** The odometer's plausible increases (km); null without two plausible odometer readings in the period. */
  odometer_km: number | null;
  odometer_readings: number;
  /** Readings that fell below the odometer's level and stayed below (rollback or reset), with the drop. */
  odometer_rollbacks: { at: string; from_km: number; to_km: number }[];
  odometer_spikes: number;
  odometer_jumps: number;
  odometer_contradicted_drops: number;
  /** Great-circle sum over consecutive plausible positions (km); null when not needed (see the schema). */
  gps_km: number | null;
}

function distanceEvidenceSummary(d: PeriodDistance): DistanceEvidenceSummary {
  return {
    odometer_km: d.odometer?.km ?? null,
    odometer_readings: d.odometer?.readings ?? 0,
    odometer_rollbacks: d.odometer?.rollbacks ?? [],
    odometer_spikes: d.odometer?.spikes ?? 0,
    odometer_jumps: d.odometer?.jumps ?? 0,
    odometer_contradicted_drops: d.odometer?.contradicted_drops ?? 0,
    gps_km: d.gps_km,
  };
}

export interface EmissionsReport {
  period_start: string;
  period_end: string;
  total_vehicles: number;
  ev_count: number;
  ice_count: number;
  total_co2_kg_estimate: number;
  generated_at: string;
  method_version: string;
  factors: { version: string; used: Array<{ id: EmissionFactorId; value: number; unit: string; year: number; basis: string; source: string }> };
  vehicles: EmissionsVehicle[];
  notes: string[];
}

/** Rounded to 3 decimals (m, Wh, g): every total is the sum of the rounded rows, so a CSV's TOTAL row adds up. */
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function fuelFactors(pt: ReportPowertrain, fuel: string, cls: "car" | "van"): { ids: EmissionFactorId[]; perLitre: EmissionFactorId | null } {
  const diesel = fuel === "diesel";
  const petrol = fuel === "petrol" || fuel === "gasoline";
  if (pt === "PHEV") return { ids: ["car_phev_ttw"], perLitre: null };
  if (pt === "HEV") return { ids: ["car_hev_ttw"], perLitre: null };
  if (cls === "van") {
    // DESNZ publishes no van well-to-tank add-on in SOURCES.md: tank-to-wheel only (a limit in the notes).
    if (petrol) return { ids: ["van_petrol_ttw"], perLitre: null };
    return { ids: ["van_diesel_ttw"], perLitre: diesel ? "diesel_ttw_per_litre" : null };
  }
  if (diesel) return { ids: ["car_diesel_ttw", "car_diesel_wtt"], perLitre: "diesel_ttw_per_litre" };
  if (petrol) return { ids: ["car_petrol_ttw", "car_petrol_wtt"], perLitre: null };
  return { ids: ["car_unknown_ttw"], perLitre: null };
}

export function vehicleEmissions(v: EmissionsVehicleInput): EmissionsVehicle {
  const normalised = normalisePowertrain(v.powertrain);
  const pt: ReportPowertrain = normalised ?? "unknown";
  const cls = classOf(v.asset_class);
  const fuel = (v.fuel_type ?? "").trim().toLowerCase();

  const d = periodDistance(v.distance);
  const km = round3(Math.max(0, d.km));
  const distanceFields = { distance_method: d.method, distance_note: d.note, distance_evidence: distanceEvidenceSummary(d) };

  if (pt === "BEV") {
    const measured = v.consumption_kwh_per_100km !== null && Number.isFinite(v.consumption_kwh_per_100km) ? v.consumption_kwh_per_100km / 100 : null;
    const kwh = round3((measured ?? BEV_FALLBACK_KWH_PER_KM[cls]) * km);
    const ids: EmissionFactorId[] = measured !== null ? ["fi_grid_electricity"] : ["fi_grid_electricity", `${cls}_bev_uk_grid`, "uk_grid_electricity"];
    return {
      device_id: v.device_id,
      device_name: v.device_name,
      powertrain: pt,
      distance_km: km,
      ...distanceFields,
      energy_kwh: kwh,
      fuel_l: 0,
      energy_method: km === 0 ? "none" : measured !== null ? "telemetry_soc" : "consumption_factor",
      co2_kg: round3(kwh * EMISSION_FACTORS.fi_grid_electricity.value),
      factor_ids: km === 0 ? [] : ids,
    };
  }
  const f = fuelFactors(pt, fuel, cls);
  const ttw = EMISSION_FACTORS[f.ids[0] as EmissionFactorId].value * km;
  const perKm = f.ids.reduce((s, id) => s + EMISSION_FACTORS[id].value, 0);
  return {
    device_id: v.device_id,
    device_name: v.device_name,
    powertrain: pt,
    distance_km: km,
    ...distanceFields,
    energy_kwh: 0,
    fuel_l: f.perLitre === null ? null : round3(ttw / EMISSION_FACTORS[f.perLitre].value),
    energy_method: km === 0 ? "none" : "consumption_factor",
    co2_kg: round3(perKm * km),
    // Nothing was applied to a vehicle that did not move.
    factor_ids: km === 0 ? [] : f.perLitre === null ? f.ids : [...f.ids, f.perLitre],
  };
}

export function emissionsReport({
  periodStart,
  periodEnd,
  vehicles,
  now,
}: {
  periodStart: string;
  periodEnd: string;
  vehicles: readonly EmissionsVehicleInput[];
  now: Date;
}): EmissionsReport {
  const rows = vehicles.map(vehicleEmissions);
  const pts = vehicles.map((v) => normalisePowertrain(v.powertrain));
  const usedIds = new Set(rows.filter((r) => r.distance_km > 0).flatMap((r) => r.factor_ids));
  return {
    period_start: periodStart,
    period_end: periodEnd,
    total_vehicles: rows.length,
    ev_count: pts.filter((p) => isPlugIn(p)).length,
    ice_count: pts.filter((p) => countsAsIce(p)).length,
    total_co2_kg_estimate: round3(rows.reduce((s, r) => s + r.co2_kg, 0)),
    generated_at: now.toISOString(),
    method_version: EMISSIONS_METHOD_VERSION,
    factors: {
      version: EMISSION_FACTORS_VERSION,
      used: (Object.keys(EMISSION_FACTORS) as EmissionFactorId[]).filter((id) => usedIds.has(id)).map((id) => ({ ...EMISSION_FACTORS[id] })),
    },
    vehicles: rows,
    notes: [
      "Distance: the sum of the odometer's plausible consecutive increases in the period (a rollback or reset does not erase distance driven; one-sample spikes and implausible jumps are not counted), else, where the odometer is unusable (fewer than two plausible readings, or increases below the positions' great-circle distance), the great-circle sum of consecutive plausible positions (a lower bound of the road distance). Each vehicle's distance_method names which; distance_note says what was set aside.",
      "Electricity: kWh at the plug (charger losses included) × the Finnish grid factor, location-based; measured from SOC telemetry where possible, else the DESNZ-implied consumption.",
      "Fuel: DESNZ 2025 per-km factors, tank-to-wheel plus well-to-tank where DESNZ publishes the add-on (average cars, diesel and petrol); fuel_l only where a per-litre factor is registered (diesel).",
      `Vehicle manufacture and battery production are excluded. Method: FDP's emissions method ${EMISSIONS_METHOD_VERSION}.`,
    ],
  };
}
