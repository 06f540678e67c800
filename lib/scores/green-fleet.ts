/**
 * Green fleet score (SPEC 2.5, endpoint 5): 0–100, higher = greener. Pure: data in, result out.
 * Methodology: docs/methodology/green-fleet.md. Change GREEN_FLEET_VERSION with any rule change.
 */
import { finiteOrNull } from "@/lib/numbers";
import { FI_GRID_FACTOR_BASIS, FI_GRID_G_PER_KWH } from "@/lib/reports/emission-factors";
import { countsAsIce, isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { type Confidence, confidenceFromFreshness, freshnessSentence, generatedAt, minConfidence, newestOf, round, score100, weightedAvailable } from "./score-common";

export const GREEN_FLEET_VERSION = "green-fleet-2027.01";

export type GreenFleetComponent = "ev_share" | "co2_intensity" | "energy_efficiency";

export const GREEN_FLEET_WEIGHTS: Readonly<Record<GreenFleetComponent, number>> = {
  ev_share: 0.4,
  co2_intensity: 0.4,
  energy_efficiency: 0.2,
};

/**
 * UK DESNZ/DEFRA GHG conversion factors 2025, kg CO2e per km, tank-to-wheel (SOURCES.md).
 * Battery-electric factors are not used directly (they embed the UK grid); see BEV_KWH_PER_KM.
 */
const DEFRA_2025_KG_PER_KM = {
  car: { diesel: 0.17304, petrol: 0.16272, hev: 0.12825, phev: 0.10461, bev_uk_grid: 0.04047, unknown: 0.16725 },
  van: { diesel: 0.25561, petrol: 0.21335, bev_uk_grid: 0.06976 },
} as const;
/** UK grid electricity 2025, kg CO2e per kWh (DEFRA 2025, SOURCES.md). */
const DEFRA_2025_UK_GRID_KG_PER_KWH = 0.177;
/** Implied BEV consumption = DEFRA BEV factor ÷ UK grid factor (kWh per km): car ≈ 0.229, van ≈ 0.394. */
export const BEV_KWH_PER_KM = {
  car: DEFRA_2025_KG_PER_KM.car.bev_uk_grid / DEFRA_2025_UK_GRID_KG_PER_KWH,
  van: DEFRA_2025_KG_PER_KM.van.bev_uk_grid / DEFRA_2025_UK_GRID_KG_PER_KWH,
} as const;
/**
 * Finnish grid factor (g CO2e/kWh) and its basis: one source of truth, the emission-factor registry
 * (lib/reports/emission-factors.ts), shared with the emissions report. It is life-cycle, NOT the basis
 * of the DEFRA fuel factors here (tank-to-wheel), which favours the fuel vehicles, never the EVs.
 */
export { FI_GRID_FACTOR_BASIS, FI_GRID_G_PER_KWH };
/** A cross-check further than this from 1 puts the vehicle's energy figures in doubt (limitation). */
const ENERGY_CROSS_CHECK_TOLERANCE = 0.25;
/** Winter allowance on the energy reference: +25 % at a fully sub-zero share (NAF/Motor: 20–30 % winter range loss). */
const WINTER_ENERGY_ALLOWANCE = 0.25;

export interface GreenFleetDeviceInput {
  device_id: string;
  /** BEV | PHEV | HEV | ICE; null or anything else = unknown. */
  powertrain: string | null;
  /** diesel | petrol | ...; null = unknown. */
  fuel_type: string | null;
  /** passenger_car | light_commercial | heavy_truck | other; null = passenger_car. */
  asset_class: string | null;
  /** Distance driven in the period from the odometer (last − first reading), km; null = unknown. */
  distance_km: number | null;
  /**
   * Grid-side electricity (at the plug, charging losses included) that the period's driving used, kWh:
   * measured consumption per 100 km × distance_km ÷ 100 (queries/load-fleet-inputs.ts); null = not measured.
   */
  energy_kwh: number | null;
  /** Why energy_kwh is null (e.g. battery capacity unknown), for the limitations; null when measured or not a plug-in. */
  energy_reason?: string | null;
  /**
   * Cross-check of the SOC-based charging energy: power × time over short charging intervals × charging
   * efficiency ÷ SOC rise × capacity of the same intervals (1 = they agree); null when not measurable.
   */
  energy_cross_check?: number | null;
  /** Share (0–1) of driving time in the period at an ambient temperature below 0 °C; null = unknown. */
  cold_driving_share: number | null;
  /** Device time of the newest telemetry record used, or null. */
  newest_telemetry_at: Date | null;
}

export interface GreenFleetInput {
  period_days: number;
  devices: readonly GreenFleetDeviceInput[];
  /**
   * One vehicle scored on its own (POST /scores/batch): ev_share is a fleet property (the share of
   * plug-ins in a fleet) and is reported as null "not applicable" instead of 0 or 100.
   */
  single_vehicle?: boolean;
}

export interface GreenFleetResult {
  green_fleet_score: number;
  score_version: string;
  /** Each component on 0–100; null when it cannot be computed (then left out of the weighting). */
  components: Record<GreenFleetComponent, number | null>;
  limitations: string[];
  generated_at: string;
  /** Not in SPEC 2.5; added so that every FDP score says how much to trust it. */
  confidence: Confidence;
}

/** The raw figures behind the components (for reports; not part of the SPEC answer). */
interface GreenFleetMetrics {
  total_vehicles: number;
  ev_count: number;
  ice_count: number;
  unknown_powertrain_count: number;
  distance_km: number;
  /** Fleet CO2e intensity, g per km (distance-weighted; vehicle-weighted when no distance is known). */
  co2_g_per_km: number | null;
  /** Same-class ICE reference intensity, g per km. */
  reference_co2_g_per_km: number | null;
  /**
   * Measured BEV consumption at the plug (charging losses included), kWh/100 km, distance-weighted over
   * the BEVs whose consumption was measured, and its (winter-adjusted) reference.
   */
  bev_kwh_per_100km: number | null;
  reference_kwh_per_100km: number | null;
}

type VehicleClass = "car" | "van";
/** Light commercial and heavy trucks take the van factors (the largest DESNZ class FDP carries); everything else the car's. */
export const classOf = (assetClass: string | null): VehicleClass => (assetClass === "light_commercial" || assetClass === "heavy_truck" ? "van" : "car");

/** g CO2e per km for one vehicle (tank-to-wheel for fuel; Finnish grid for electricity). */
export function co2GramsPerKm(d: GreenFleetDeviceInput): { g: number; reference: number } {
  const pt = normalisePowertrain(d.powertrain);
  const cls = classOf(d.asset_class);
  const fuel = (d.fuel_type ?? "").trim().toLowerCase();
  const reference = cls === "van" ? DEFRA_2025_KG_PER_KM.van.diesel * 1000 : DEFRA_2025_KG_PER_KM.car.unknown * 1000;
  const km = finiteOrNull(d.distance_km);
  const kwh = finiteOrNull(d.energy_kwh);
  switch (pt) {
    case "BEV": {
      const measured = km !== null && km > 0 && kwh !== null && kwh >= 0 ? kwh / km : null;
      return { g: (measured ?? BEV_KWH_PER_KM[cls]) * FI_GRID_G_PER_KWH, reference };
    }
    case "PHEV":
      return { g: DEFRA_2025_KG_PER_KM.car.phev * 1000, reference };
    case "HEV":
      return { g: DEFRA_2025_KG_PER_KM.car.hev * 1000, reference };
    case "ICE": {
      if (cls === "van") {
        return { g: (fuel === "petrol" || fuel === "gasoline" ? DEFRA_2025_KG_PER_KM.van.petrol : DEFRA_2025_KG_PER_KM.van.diesel) * 1000, reference };
      }
      if (fuel === "diesel") return { g: DEFRA_2025_KG_PER_KM.car.diesel * 1000, reference };
      if (fuel === "petrol" || fuel === "gasoline") return { g: DEFRA_2025_KG_PER_KM.car.petrol * 1000, reference };
      return { g: DEFRA_2025_KG_PER_KM.car.unknown * 1000, reference };
    }
    default:
      return { g: cls === "van" ? reference : DEFRA_2025_KG_PER_KM.car.unknown * 1000, reference };
  }
}

/**
 * true when the vehicle's CO2 per km rests on a measurement of its own: a BEV whose consumption was
 * measured from SOC × capacity over odometer km. Every other figure (fuel factor, PHEV/HEV average,
 * DEFRA-implied BEV consumption) is a property of the powertrain and fuel, the same for every vehicle
 * of that kind: a reference, not the vehicle's.
 */
function co2IsMeasured(d: GreenFleetDeviceInput): boolean {
  const km = finiteOrNull(d.distance_km);
  const kwh = finiteOrNull(d.energy_kwh);
  return normalisePowertrain(d.powertrain) === "BEV" && km !== null && km > 0 && kwh !== null && kwh >= 0;
}

export function computeGreenFleetMetrics(input: GreenFleetInput): GreenFleetMetrics {
  const devices = input.devices;
  const pts = devices.map((d) => normalisePowertrain(d.powertrain));
  const ev = pts.filter((p) => isPlugIn(p)).length;
  const ice = pts.filter((p) => countsAsIce(p)).length;
  const unknown = pts.filter((p) => p === null).length;

  const kmOf = (d: GreenFleetDeviceInput) => {
    const km = finiteOrNull(d.distance_km);
    return km !== null && km > 0 ? km : 0;
  };
  const distance = devices.reduce((s, d) => s + kmOf(d), 0);

  let co2: number | null = null;
  let ref: number | null = null;
  if (devices.length > 0) {
    let g = 0;
    let r = 0;
    let w = 0;
    for (const d of devices) {
      const weight = distance > 0 ? kmOf(d) : 1;
      if (weight <= 0) continue;
      const f = co2GramsPerKm(d);
      g += weight * f.g;
      r += weight * f.reference;
      w += weight;
    }
    if (w > 0) {
      co2 = g / w;
      ref = r / w;
    }
  }

  // Measured BEV consumption (heavy trucks excluded: no reference).
  let kwh = 0;
  let kmBev = 0;
  let refKwh = 0;
  for (const d of devices) {
    if (normalisePowertrain(d.powertrain) !== "BEV" || d.asset_class === "heavy_truck") continue;
    const km = kmOf(d);
    const e = finiteOrNull(d.energy_kwh);
    if (km <= 0 || e === null || e < 0) continue;
    const cold = Math.min(1, Math.max(0, finiteOrNull(d.cold_driving_share) ?? 0));
    kwh += e;
    kmBev += km;
    refKwh += km * BEV_KWH_PER_KM[classOf(d.asset_class)] * (1 + WINTER_ENERGY_ALLOWANCE * cold);
  }

  return {
    total_vehicles: devices.length,
    ev_count: ev,
    ice_count: ice,
    unknown_powertrain_count: unknown,
    distance_km: round(distance, 1),
    co2_g_per_km: co2 === null ? null : round(co2, 1),
    reference_co2_g_per_km: ref === null ? null : round(ref, 1),
    bev_kwh_per_100km: kmBev > 0 ? round((kwh / kmBev) * 100, 1) : null,
    reference_kwh_per_100km: kmBev > 0 ? round((refKwh / kmBev) * 100, 1) : null,
  };
}

export function computeGreenFleet(input: GreenFleetInput, opts: { now: Date }): GreenFleetResult {
  const { now } = opts;
  const devices = input.devices;
  const m = computeGreenFleetMetrics(input);

  // Raw (unrounded) values for the components.
  const known = m.ev_count + m.ice_count;
  const evShare = input.single_vehicle ? null : known > 0 ? (100 * m.ev_count) / known : null;

  let co2Component: number | null = null;
  {
    // Recompute unrounded for the component.
    const distance = devices.reduce((s, d) => s + Math.max(0, finiteOrNull(d.distance_km) ?? 0), 0);
    let g = 0;
    let r = 0;
    for (const d of devices) {
      const km = Math.max(0, finiteOrNull(d.distance_km) ?? 0);
      const weight = distance > 0 ? km : 1;
      if (weight <= 0) continue;
      const f = co2GramsPerKm(d);
      g += weight * f.g;
      r += weight * f.reference;
    }
    if (r > 0) co2Component = 100 * (1 - g / r);
  }
  // One vehicle scored on its own: its CO2 component must be its own measurement. A fuel vehicle's
  // tank-to-wheel factor (diesel car 173 g/km whatever it does) would be a lookup dressed as a score.
  const single = input.single_vehicle === true && devices.length === 1 ? devices[0]! : null;
  const co2NotMeasured = single !== null && !co2IsMeasured(single);
  if (co2NotMeasured) co2Component = null;

  let efficiency: number | null = null;
  if (m.bev_kwh_per_100km !== null && m.reference_kwh_per_100km !== null && m.reference_kwh_per_100km > 0) {
    const ratio = m.bev_kwh_per_100km / m.reference_kwh_per_100km;
    efficiency = 100 * (1.5 - ratio);
  }

  const raw: Record<GreenFleetComponent, number | null> = {
    ev_share: evShare,
    co2_intensity: co2Component,
    energy_efficiency: efficiency,
  };
  const shown = (v: number | null) => (v === null ? null : score100(v));
  const components: Record<GreenFleetComponent, number | null> = {
    ev_share: shown(raw.ev_share),
    co2_intensity: shown(raw.co2_intensity),
    energy_efficiency: shown(raw.energy_efficiency),
  };
  // The score is the weighted mean of the components as shown (each clamped to 0–100).
  const combined = weightedAvailable(components, GREEN_FLEET_WEIGHTS);
  // Nothing measured (one vehicle without a measured component): the score is 0 by definition, like an
  // empty fleet's, with confidence low and a limitation saying so; it is not a rating of the vehicle.
  const nothingMeasured = combined === null && devices.length > 0;

  const newest = newestOf(devices.map((d) => d.newest_telemetry_at));
  const limitations: string[] = [freshnessSentence(newest, now)];
  if (devices.length === 0) limitations.push("The fleet has no vehicles: the score is 0 by definition.");
  if (m.unknown_powertrain_count > 0) {
    limitations.push(
      `${m.unknown_powertrain_count} vehicle(s) with unknown powertrain are counted in the total only; their CO2 uses the DEFRA "average car, unknown fuel" factor.`,
    );
  }
  if (devices.length > 0 && m.distance_km <= 0) {
    limitations.push("No odometer distance is known for the period: CO2 intensity weights every vehicle equally instead of by distance.");
  }
  for (const d of devices) {
    const x = finiteOrNull(d.energy_cross_check ?? null);
    if (x !== null && Math.abs(x - 1) > ENERGY_CROSS_CHECK_TOLERANCE) {
      limitations.push(
        `${d.device_id}: charging power × time and the SOC change × battery capacity disagree by ${round(100 * (x - 1), 0)} % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.`,
      );
    }
  }
  if (input.single_vehicle) {
    limitations.push("ev_share does not apply to one vehicle (it is the share of plug-ins in a fleet): null and left out of the weighting.");
  }
  if (co2NotMeasured && single !== null) {
    const ref = co2GramsPerKm(single);
    limitations.push(
      `co2_intensity is not measured for this vehicle (${normalisePowertrain(single.powertrain) === "BEV" ? "its consumption was not measured" : "FDP measures CO2 only from a BEV's SOC and odometer; a fuel or hybrid vehicle's figure would be its powertrain's DEFRA factor"}): null and left out of the weighting. ` +
        `For reference only, the DEFRA 2025 factor of its powertrain and fuel is ${round(ref.g, 1)} gCO2e/km (same-class reference ${round(ref.reference, 1)} g/km); it is the same for every such vehicle, not this vehicle's.`,
    );
  }
  if (nothingMeasured) {
    limitations.push("No component of this score is measured from the data (every component is null): green_fleet_score is 0 by definition and rates nothing; confidence is low.");
  }
  if (raw.energy_efficiency === null && devices.length > 0) {
    limitations.push("energy_efficiency could not be computed (no BEV whose consumption was measured from SOC and odometer in the period); it is left out of the weighting.");
  }
  for (const d of devices) {
    if (normalisePowertrain(d.powertrain) === "BEV" && finiteOrNull(d.energy_kwh) === null && d.energy_reason) {
      limitations.push(`${d.device_id}: consumption not measured, ${d.energy_reason}; its CO2 uses the DEFRA-implied consumption instead.`);
    }
  }
  if (devices.some((d) => d.asset_class === "heavy_truck")) {
    limitations.push("Heavy trucks use the DEFRA van (up to 3.5 t) factors, which understate their emissions; they are left out of energy_efficiency.");
  }
  limitations.push(
    `EV electricity uses a Finnish grid factor of ${FI_GRID_G_PER_KWH} gCO2e/kWh (${FI_GRID_FACTOR_BASIS}) on consumption measured at the plug (SOC changes × usable capacity ÷ charging efficiency). Fuel factors are DEFRA 2025 tank-to-wheel; well-to-tank and vehicle manufacture are excluded.`,
    "PHEV emissions use DEFRA's average plug-in hybrid factor; the real electric share of each PHEV is not measured.",
  );

  // Confidence: distance known for most vehicles, powertrain known, freshness.
  const withDistance = devices.filter((d) => (finiteOrNull(d.distance_km) ?? 0) > 0).length;
  let level: Confidence = "low";
  if (devices.length >= 5 && withDistance >= 0.8 * devices.length && m.unknown_powertrain_count === 0 && raw.energy_efficiency !== null) level = "high";
  else if (devices.length >= 1 && withDistance >= 0.5 * devices.length && m.unknown_powertrain_count <= 0.2 * devices.length) level = "medium";
  const confidence = devices.length === 0 || nothingMeasured ? "low" : minConfidence(level, confidenceFromFreshness(newest, now));

  return {
    green_fleet_score: score100(combined ? combined.value : 0),
    score_version: GREEN_FLEET_VERSION,
    components,
    limitations,
    generated_at: generatedAt(now),
    confidence,
  };
}
