/**
 * The emissions report (endpoint 8, SPEC 2.8) from per-vehicle aggregates. Pure: data in, report out.
 * Methodology and the factor table: docs/methodology/emissions.md. Change EMISSIONS_METHOD_VERSION
 * with any rule change (the factor values carry their own version, EMISSION_FACTORS_VERSION).
 *
 * Per vehicle:
 * - distance: the odometer delta of the period where the vehicle reported at least two odometer
 *   readings in it, else the great-circle (haversine) sum over consecutive positions in the period
 *   (`distance_method` says which; great-circle understates road distance, so the odometer wins).
 * - energy: a plug-in's electricity at the plug from its SOC telemetry (the green fleet score's energy
 *   accounting: measured kWh/100 km at the plug × distance) where measured, else a documented
 *   per-powertrain consumption factor; fuel vehicles from DESNZ per-km factors (`energy_method`).
 * - CO2e: electricity × the Finnish grid factor (location-based, charger losses included in the kWh);
 *   fuel: tank-to-wheel + well-to-tank where DESNZ publishes the well-to-tank add-on.
 */
import { classOf } from "@/lib/scores/green-fleet";
import { countsAsIce, isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { BEV_FALLBACK_KWH_PER_KM, EMISSION_FACTORS, EMISSION_FACTORS_VERSION, type EmissionFactorId } from "./emission-factors";

export const EMISSIONS_METHOD_VERSION = "emissions-2027.01";
/** Mean Earth radius (IUGG), km: the haversine's sphere. */
export const EARTH_RADIUS_KM = 6371.0088;

export const REPORT_POWERTRAINS = ["BEV", "PHEV", "HEV", "ICE", "unknown"] as const;
export type ReportPowertrain = (typeof REPORT_POWERTRAINS)[number];

export interface EmissionsVehicleInput {
  device_id: string;
  device_name: string;
  powertrain: string | null;
  fuel_type: string | null;
  asset_class: string | null;
  /** Odometer delta of the period (last − first reading, ≥ 0); null when fewer than two odometer readings. */
  odometer_km: number | null;
  /** Σ haversine distance between consecutive positions of the period, km. */
  great_circle_km: number;
  /** Measured consumption at the plug (kWh/100 km, green fleet energy accounting); null = not measured. */
  consumption_kwh_per_100km: number | null;
}

export interface EmissionsVehicle {
  device_id: string;
  device_name: string;
  powertrain: ReportPowertrain;
  distance_km: number;
  distance_method: "odometer" | "great_circle" | "none";
  energy_kwh: number;
  fuel_l: number | null;
  energy_method: "telemetry_soc" | "consumption_factor" | "none";
  co2_kg: number;
  factor_ids: EmissionFactorId[];
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

/** Great-circle distance (km) between two WGS84 points on the mean-radius sphere. */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Rounded to 3 decimals (m, Wh, g): every total is the sum of the rounded rows, so a CSV's TOTAL row adds up. */
export const round3 = (x: number) => Math.round(x * 1000) / 1000;

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

  let distance = 0;
  let distanceMethod: EmissionsVehicle["distance_method"] = "none";
  if (v.odometer_km !== null && Number.isFinite(v.odometer_km)) {
    distance = Math.max(0, v.odometer_km);
    distanceMethod = "odometer";
  } else if (v.great_circle_km > 0) {
    distance = v.great_circle_km;
    distanceMethod = "great_circle";
  }
  const km = round3(distance);

  if (pt === "BEV") {
    const measured = v.consumption_kwh_per_100km !== null && Number.isFinite(v.consumption_kwh_per_100km) ? v.consumption_kwh_per_100km / 100 : null;
    const kwh = round3((measured ?? BEV_FALLBACK_KWH_PER_KM[cls]) * km);
    const ids: EmissionFactorId[] = measured !== null ? ["fi_grid_electricity"] : ["fi_grid_electricity", `${cls}_bev_uk_grid`, "uk_grid_electricity"];
    return {
      device_id: v.device_id,
      device_name: v.device_name,
      powertrain: pt,
      distance_km: km,
      distance_method: distanceMethod,
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
    distance_method: distanceMethod,
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
      "Distance: odometer delta of the period where at least two odometer readings exist, else the great-circle sum of consecutive positions (understates road distance).",
      "Electricity: kWh at the plug (charger losses included) × the Finnish grid factor, location-based; measured from SOC telemetry where possible, else the DESNZ-implied consumption.",
      "Fuel: DESNZ 2025 per-km factors, tank-to-wheel plus well-to-tank where DESNZ publishes the add-on (average cars, diesel and petrol); fuel_l only where a per-litre factor is registered (diesel).",
      "Vehicle manufacture and battery production are excluded. Method: docs/methodology/emissions.md.",
    ],
  };
}
