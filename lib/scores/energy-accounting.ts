/**
 * Energy accounting of one plug-in vehicle over a window, from the SOC-pair aggregates of
 * queries/behaviour-sql.ts. Pure. Methodology: docs/methodology/green-fleet.md ("Energy accounting").
 *
 * - Usable capacity: the master data `battery_kwh`; when unknown, estimated from power × time over the
 *   SOC points it added in short charging intervals (at least CAPACITY_ESTIMATE_MIN_PP points), the
 *   reported power taken as at the plug and converted with the AC/DC efficiency; else unknown.
 * - Charged energy (battery side) = Σ SOC rise of charging pairs × capacity; at the plug = AC ÷ 0.89 + DC ÷ 0.96.
 * - Consumption (grid side, kWh/100 km) = SOC used by non-charging pairs × capacity ÷ the vehicle's
 *   charging efficiency (its own AC/DC mix in the window, AC when it did not charge) ÷ their odometer
 *   km × 100. Only over pairs where both SOC and odometer are known; null with a reason otherwise.
 */
import { CHARGING_EFFICIENCY } from "@/lib/vocabulary/charging";
import type { BehaviourRow } from "@/lib/telemetry/queries/behaviour-sql";

/** Consumption needs at least this many km measured with SOC at both ends (else too little exposure). */
export const MIN_CONSUMPTION_KM = 20;
/** … and at least this many SOC points used: integer SOC readings quantise by ±1 point per reading pair; 10 points keep it under ~10 %. */
const MIN_CONSUMPTION_PP = 10;
/** Capacity estimate from power × time needs at least this many SOC points added. */
const CAPACITY_ESTIMATE_MIN_PP = 10;

export interface EnergyAccount {
  /** Usable capacity used, kWh, and where it came from. */
  capacity_kwh: number | null;
  capacity_source: "master_data" | "estimated_power_time" | null;
  /** Energy added to the battery by charging in the window, kWh (battery side). */
  charged_battery_kwh: number | null;
  /** The same at the plug (charging losses included), kWh (the emissions report's input, docs/methodology/green-fleet.md). */
  charged_grid_kwh: number | null;
  /** Share (0–1) of the battery energy charged that came from DC above 100 kW (wear-relevant); null when nothing was charged. */
  high_power_dc_share: number | null;
  /**
   * Power × time over short charging intervals ÷ the SOC-based battery energy of the same intervals
   * (cross-check; about 1 ÷ efficiency when both agree, the power being reported at the plug); null
   * when not measurable (capacity not from master data, or fewer than 10 SOC points in short intervals).
   */
  power_time_ratio: number | null;
  /** Charging efficiency applied to consumption (the vehicle's AC/DC mix). */
  efficiency: number;
  /** Grid-side consumption per 100 km over the measured distance; null with `consumption_reason`. */
  consumption_kwh_per_100km: number | null;
  consumption_km: number;
  consumption_reason: string | null;
}

export function capacityOf(
  batteryKwh: number | null,
  b: Pick<BehaviourRow, "power_time_kwh" | "power_time_pp" | "charged_ac_pp" | "charged_dc_pp">,
): {
  kwh: number | null;
  source: EnergyAccount["capacity_source"];
} {
  if (batteryKwh !== null && Number.isFinite(batteryKwh) && batteryKwh > 0) return { kwh: batteryKwh, source: "master_data" };
  if (b.power_time_pp >= CAPACITY_ESTIMATE_MIN_PP && b.power_time_kwh > 0) {
    const eff = mixEfficiency(b.charged_ac_pp, b.charged_dc_pp);
    return { kwh: (b.power_time_kwh * eff) / (b.power_time_pp / 100), source: "estimated_power_time" };
  }
  return { kwh: null, source: null };
}

/** Efficiency of the vehicle's own charging mix (by SOC points added); AC when it did not charge. */
export function mixEfficiency(acPp: number, dcPp: number): number {
  const total = Math.max(0, acPp) + Math.max(0, dcPp);
  if (total <= 0) return CHARGING_EFFICIENCY.ac;
  // Grid energy per battery kWh is the weighted mean of 1/η; the mix efficiency is its inverse.
  const gridPerBattery = (Math.max(0, acPp) / CHARGING_EFFICIENCY.ac + Math.max(0, dcPp) / CHARGING_EFFICIENCY.dc) / total;
  return 1 / gridPerBattery;
}

/** The charging figures of a window: what fleet risk reads (its EV charging component), and part of `energyAccount`. */
type ChargingFigures = Pick<BehaviourRow, "charged_ac_pp" | "charged_dc_pp" | "charged_high_power_pp" | "power_time_kwh" | "power_time_pp">;

/** Energy charged into the battery and its high-power DC share, with the capacity they were computed with. */
export function chargedEnergy(
  b: ChargingFigures,
  batteryKwh: number | null,
): Pick<EnergyAccount, "charged_battery_kwh" | "high_power_dc_share"> & { capacity: ReturnType<typeof capacityOf> } {
  const capacity = capacityOf(batteryKwh, b);
  const chargedPp = b.charged_ac_pp + b.charged_dc_pp;
  return {
    capacity,
    charged_battery_kwh: capacity.kwh === null ? null : (chargedPp / 100) * capacity.kwh,
    high_power_dc_share: chargedPp > 0 ? Math.min(1, b.charged_high_power_pp / chargedPp) : null,
  };
}

export function energyAccount(b: BehaviourRow, batteryKwh: number | null): EnergyAccount {
  const charged = chargedEnergy(b, batteryKwh);
  const cap = charged.capacity;
  const efficiency = mixEfficiency(b.charged_ac_pp, b.charged_dc_pp);
  const kwh = (pp: number) => (cap.kwh === null ? null : (pp / 100) * cap.kwh);
  const acKwh = kwh(b.charged_ac_pp);
  const dcKwh = kwh(b.charged_dc_pp);

  let reason: string | null = null;
  let consumption: number | null = null;
  if (cap.kwh === null) {
    reason = "the usable battery capacity is unknown (no battery_kwh master data, and too little short-interval charging to estimate it)";
  } else if (b.consumption_km < MIN_CONSUMPTION_KM) {
    reason = `only ${round1(b.consumption_km)} km were driven with SOC and odometer known at both ends (at least ${MIN_CONSUMPTION_KM} km needed)`;
  } else if (b.consumption_pp < MIN_CONSUMPTION_PP) {
    reason = `only ${round1(b.consumption_pp)} SOC points were used over the measured distance (at least ${MIN_CONSUMPTION_PP} needed to outweigh SOC rounding)`;
  } else {
    consumption = (((b.consumption_pp / 100) * cap.kwh) / efficiency / b.consumption_km) * 100;
  }

  const ptEnergy = kwh(b.power_time_pp);
  return {
    capacity_kwh: cap.kwh,
    capacity_source: cap.source,
    charged_battery_kwh: charged.charged_battery_kwh,
    charged_grid_kwh: acKwh === null || dcKwh === null ? null : acKwh / CHARGING_EFFICIENCY.ac + dcKwh / CHARGING_EFFICIENCY.dc,
    high_power_dc_share: charged.high_power_dc_share,
    power_time_ratio: cap.source === "master_data" && ptEnergy !== null && ptEnergy > 0 && b.power_time_pp >= CAPACITY_ESTIMATE_MIN_PP ? b.power_time_kwh / ptEnergy : null,
    efficiency,
    consumption_kwh_per_100km: consumption,
    consumption_km: b.consumption_km,
    consumption_reason: reason,
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
