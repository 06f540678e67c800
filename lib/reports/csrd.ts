/**
 * The CSRD report (endpoint 13, SPEC 2.11): an ESRS E1-style disclosure of the fleet built FROM the
 * emissions report (lib/reports/emissions.ts: the same per-vehicle rows, so one energy accounting) and
 * the green fleet score of the same period. Pure: data in, report out. Methodology, every datapoint
 * label and the scope mapping: docs/methodology/csrd.md. Change CSRD_METHOD_VERSION with any rule change.
 *
 * Scope mapping (per vehicle row of the emissions report):
 * - Scope 1: tank-to-wheel CO2e of the fuel vehicles (ICE, HEV, PHEV — DESNZ's PHEV factor is its fuel
 *   part —, unknown powertrain).
 * - Scope 2, location-based: a BEV's electricity at the plug × the Finnish grid factor (life-cycle basis).
 * - Scope 2, market-based: the same kWh × the tenant's contract factor, when one is configured; else null.
 * - Scope 3 category 3 (fuel- and energy-related activities): well-to-tank CO2e of the fuels.
 * - Scope 3 category 13 (downstream leased assets): the lessor's view, the Scope 1 and 2 emissions of
 *   the vehicles that had a lease contract overlapping the period. Shown, never added to the total: it
 *   re-labels emissions already in Scope 1/2 (a lessor reports them in category 13 instead).
 *
 * Exact reconciliation: every figure is summed in integer grams (Wh for energy) from the emissions
 * report's rounded per-vehicle rows, the well-to-tank share of a fuel vehicle taking the rounding
 * remainder of its row, so Scope 1 + Scope 2 (location) + Scope 3 category 3 equals the report's
 * `total_co2_kg_estimate` to the gram, and `total_location_based.value` is exactly that total ÷ 1000.
 */
import type { GreenFleetResult } from "@/lib/scores/green-fleet";
import { GREEN_FLEET_WEIGHTS } from "@/lib/scores/green-fleet";
import { countsAsIce, isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { DISTANCE_METHODS } from "@/lib/vocabulary/distance";
import { EMISSION_FACTORS, ENERGY_FACTORS, ENERGY_FACTORS_VERSION, type EmissionFactorId, type EnergyFactorId } from "./emission-factors";
import { REPORT_POWERTRAINS, type EmissionsReport, type EmissionsVehicle, type ReportPowertrain } from "./emissions";

export const CSRD_METHOD_VERSION = "csrd-2027.02";

/**
 * The ESRS text the datapoint labels follow. Paragraph numbers are those of ESRS E1 in Commission
 * Delegated Regulation (EU) 2023/2772 (set 1): E1-5 §37 (total energy consumption by source), E1-6
 * §44(a)–(d) (gross Scope 1, 2, 3 and total GHG emissions, t CO2e) and §52(a)/(b) (the total with
 * location- and market-based Scope 2). EFRAG's simplified ESRS (2025 amendments) renumber the standard;
 * the labels are not mapped to them. Where a sub-paragraph letter could not be confirmed (the E1-5
 * split by source), the label names the paragraph and the source, not a letter.
 */
export const ESRS_VERSION = "ESRS E1 (Climate change), set 1: Commission Delegated Regulation (EU) 2023/2772";

export interface CsrdFigure {
  value: number | null;
  unit: "tCO2e" | "MWh";
  /** ESRS E1 datapoint the figure discloses (paragraphs of ESRS_VERSION). */
  datapoint: string;
  label: string;
}

export interface CsrdLeaseInput {
  device_id: string;
  /** YYYY-MM-DD; null = no lease recorded. */
  lease_start: string | null;
  lease_months: number | null;
}

/** Vehicles that reported telemetry in a calendar month (UTC), by stored powertrain. */
export interface CsrdMonthlyActivity {
  month: string;
  powertrain: string | null;
  vehicles: number;
}

export interface CsrdInput {
  emissions: EmissionsReport;
  periodDays: number;
  greenFleet: GreenFleetResult;
  leases: readonly CsrdLeaseInput[];
  monthlyActivity: readonly CsrdMonthlyActivity[];
  /** The tenant's electricity contract factor, g CO2e/kWh; null = none configured. */
  contractFactorGPerKwh: number | null;
  now: Date;
}

export interface CsrdTrendPoint {
  month: string;
  active_vehicles: number;
  ev_active_vehicles: number;
  ev_share_pct: number | null;
}

export interface CsrdReport {
  period: { start_date: string; end_date: string; days: number };
  fleet_summary: {
    total_vehicles: number;
    by_powertrain: Record<ReportPowertrain, number>;
    ev_count: number;
    ice_count: number;
    distance_km: number;
    leased_vehicles_in_period: number;
    energy_consumption: {
      total: CsrdFigure;
      fossil: CsrdFigure;
      nuclear: CsrdFigure;
      renewable: CsrdFigure;
      fuel_mwh: number;
      electricity_mwh: number;
      electricity_mix: { renewable_share: number; nuclear_share: number; fossil_share: number; year: number; basis: string };
      /** ENERGY_FACTORS_VERSION of the registry's energy factors used. */
      factors_version: string;
    };
  };
  emissions: {
    unit: "tCO2e";
    scope_1: CsrdFigure;
    scope_2_location_based: CsrdFigure;
    scope_2_market_based: CsrdFigure & { contract_factor_g_per_kwh: number | null };
    scope_3: CsrdFigure;
    scope_3_categories: {
      cat_3_fuel_and_energy_related: CsrdFigure;
      cat_13_downstream_leased_assets: CsrdFigure & { vehicles: number; included_in_total: false };
    };
    total_location_based: CsrdFigure;
    total_market_based: CsrdFigure;
    /** The emissions report this disclosure reconciles to (endpoint 8, same dates). */
    emissions_report: { total_co2_kg_estimate: number; method_version: string; factors_version: string };
  };
  green_fleet_score: {
    green_fleet_score: number;
    score_version: string;
    confidence: GreenFleetResult["confidence"];
    components: GreenFleetResult["components"];
    weights: Record<keyof GreenFleetResult["components"], number>;
    period_days: number;
    limitations: string[];
  };
  ev_metrics: {
    bev_count: number;
    phev_count: number;
    ev_count: number;
    ev_share_pct: number | null;
    ev_distance_km: number;
    ev_distance_share_pct: number | null;
    electricity_mwh: number;
    trend: CsrdTrendPoint[];
  };
  data_quality: {
    distance_method: Record<EmissionsVehicle["distance_method"], number>;
    odometer_rollback_vehicles: string[];
    energy_method: Record<EmissionsVehicle["energy_method"], number>;
    vehicles_without_data: number;
    limitations: string[];
  };
  generated_at: string;
  method_version: string;
  esrs_version: string;
  notes: string[];
}

/** Integer grams (Wh) → t (MWh), exact for any fleet (|x| < 2^53). */
const perMillion = (x: number) => x / 1_000_000;
const grams = (kg: number) => Math.round(kg * 1000);
const pct1 = (part: number, whole: number) => (whole > 0 ? Math.round((1000 * part) / whole) / 10 : null);

const isTtw = (id: EmissionFactorId) => id.endsWith("_ttw");
const isWtt = (id: EmissionFactorId) => id.endsWith("_wtt");

/** The CO2-per-kWh factor of the fuel a tank-to-wheel factor is for (diesel ids; everything else petrol, documented). */
export function fuelEnergyFactorOf(ttwIds: readonly EmissionFactorId[]): EnergyFactorId {
  return ttwIds.some((id) => id.includes("diesel")) ? "diesel_co2_per_kwh" : "petrol_co2_per_kwh";
}

/** One vehicle row split by scope, in grams, and its energy in Wh. */
export interface VehicleSplit {
  scope1_g: number;
  scope2_g: number;
  cat3_g: number;
  electricity_wh: number;
  fuel_wh: number;
}

export function splitVehicle(row: EmissionsVehicle): VehicleSplit {
  const total = grams(row.co2_kg);
  if (row.powertrain === "BEV") {
    return { scope1_g: 0, scope2_g: total, cat3_g: 0, electricity_wh: grams(row.energy_kwh), fuel_wh: 0 };
  }
  const ttwIds = row.factor_ids.filter(isTtw);
  const hasWtt = row.factor_ids.some(isWtt);
  // The row's CO2e is round3((ttw + wtt) × km): tank-to-wheel rounded on its own, well-to-tank the rest.
  const ttw = hasWtt ? Math.min(total, Math.round(ttwIds.reduce((s, id) => s + EMISSION_FACTORS[id].value, 0) * row.distance_km * 1000)) : total;
  const fuelWh = ttw === 0 ? 0 : Math.round(ttw / ENERGY_FACTORS[fuelEnergyFactorOf(ttwIds)].value);
  return { scope1_g: ttw, scope2_g: 0, cat3_g: total - ttw, electricity_wh: 0, fuel_wh: fuelWh };
}

/** First day after a lease of `months` starting on `start` (YYYY-MM-DD), UTC; day overflow rolls like a calendar (Jan 31 + 1 month = Mar 3, never earlier). */
export function leaseEnd(start: string, months: number): string {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

/** A lease overlaps [periodStart, periodEnd] (inclusive days) when it started by the period's end and had not ended before its start. No lease_months: open-ended. */
export function leaseOverlaps(l: CsrdLeaseInput, periodStart: string, periodEnd: string): boolean {
  if (l.lease_start === null || !/^\d{4}-\d{2}-\d{2}$/.test(l.lease_start)) return false;
  if (l.lease_start > periodEnd) return false;
  if (l.lease_months === null || !Number.isFinite(l.lease_months) || l.lease_months <= 0) return true;
  return leaseEnd(l.lease_start, l.lease_months) > periodStart;
}

/** The share (0–1) of the period's days [periodStart, periodEnd] that the lease covers (open-ended without lease_months). */
export function leaseShareOf(l: CsrdLeaseInput, periodStart: string, periodEnd: string): number {
  if (!leaseOverlaps(l, periodStart, periodEnd)) return 0;
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  const from = Math.max(day(periodStart), day(l.lease_start!));
  const endExclusive = l.lease_months !== null && Number.isFinite(l.lease_months) && l.lease_months > 0 ? day(leaseEnd(l.lease_start!, l.lease_months)) : Infinity;
  const to = Math.min(day(periodEnd) + 1, endExclusive);
  return Math.max(0, to - from) / (day(periodEnd) + 1 - day(periodStart));
}

/** Every calendar month (YYYY-MM) the period touches. */
export function monthsOf(start: string, end: string): string[] {
  const out: string[] = [];
  let y = Number(start.slice(0, 4));
  let m = Number(start.slice(5, 7));
  const last = end.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, "0")}`;
    out.push(key);
    if (key >= last) break;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

export function csrdReport(input: CsrdInput): CsrdReport {
  const { emissions: er, greenFleet: gf } = input;
  const rows = er.vehicles;
  const splits = rows.map(splitVehicle);
  const sum = (f: (s: VehicleSplit) => number) => splits.reduce((a, s) => a + f(s), 0);
  const scope1 = sum((s) => s.scope1_g);
  const scope2 = sum((s) => s.scope2_g);
  const cat3 = sum((s) => s.cat3_g);
  const totalG = scope1 + scope2 + cat3;
  // The reconciliation is the point of the report: a mismatch is a bug, never a figure to print.
  if (totalG !== grams(er.total_co2_kg_estimate)) {
    throw new Error(`CSRD report: scopes add up to ${totalG} g, the emissions report to ${er.total_co2_kg_estimate} kg`);
  }
  const electricityWh = sum((s) => s.electricity_wh);
  const fuelWh = sum((s) => s.fuel_wh);
  const mix = {
    renewable: ENERGY_FACTORS.fi_generation_renewable_share.value,
    nuclear: ENERGY_FACTORS.fi_generation_nuclear_share.value,
    fossil: ENERGY_FACTORS.fi_generation_fossil_share.value,
  };
  const renewableWh = Math.round(electricityWh * mix.renewable);
  const nuclearWh = Math.round(electricityWh * mix.nuclear);
  const fossilElectricityWh = electricityWh - renewableWh - nuclearWh;

  const contract = input.contractFactorGPerKwh !== null && Number.isFinite(input.contractFactorGPerKwh) ? input.contractFactorGPerKwh : null;
  const scope2Market = contract === null ? null : Math.round((electricityWh / 1000) * contract);

  const leaseShare = new Map(input.leases.filter((l) => leaseOverlaps(l, er.period_start, er.period_end)).map((l) => [l.device_id, leaseShareOf(l, er.period_start, er.period_end)]));
  const leased = new Set(leaseShare.keys());
  // The lessee's Scope 1 and 2 of the leased vehicles (GHG Protocol category 13 for the lessor), for the
  // share of the period's days the lease covers (the report has no per-day split of a vehicle's
  // emissions: pro rata by days); their well-to-tank stays in category 3.
  const cat13Rows = rows.map((r, i) => ({ r, split: splits[i]! })).filter(({ r }) => leased.has(r.device_id));
  const cat13 = cat13Rows.reduce((a, { r, split }) => a + Math.round((split.scope1_g + split.scope2_g) * leaseShare.get(r.device_id)!), 0);

  const byPowertrain = Object.fromEntries(REPORT_POWERTRAINS.map((p) => [p, rows.filter((r) => r.powertrain === p).length])) as Record<ReportPowertrain, number>;
  const distanceM = rows.reduce((a, r) => a + grams(r.distance_km), 0);
  const evDistanceM = rows.filter((r) => isPlugIn(normalisePowertrain(r.powertrain))).reduce((a, r) => a + grams(r.distance_km), 0);

  const trend = monthsOf(er.period_start, er.period_end).map((month) => {
    const inMonth = input.monthlyActivity.filter((a) => a.month === month);
    const active = inMonth.reduce((a, x) => a + x.vehicles, 0);
    const ev = inMonth.filter((x) => isPlugIn(normalisePowertrain(x.powertrain))).reduce((a, x) => a + x.vehicles, 0);
    const known = inMonth.filter((x) => { const p = normalisePowertrain(x.powertrain); return isPlugIn(p) || countsAsIce(p); }).reduce((a, x) => a + x.vehicles, 0);
    return { month, active_vehicles: active, ev_active_vehicles: ev, ev_share_pct: pct1(ev, known) };
  });

  const count = <K extends string>(keys: readonly K[], of: (r: EmissionsVehicle) => K) =>
    Object.fromEntries(keys.map((k) => [k, rows.filter((r) => of(r) === k).length])) as Record<K, number>;
  const distanceMethod = count(DISTANCE_METHODS, (r) => r.distance_method);
  const rolledBack = rows.filter((r) => r.distance_evidence.odometer_rollbacks.length > 0).map((r) => r.device_id);
  const energyMethod = count(["telemetry_soc", "consumption_factor", "none"] as const, (r) => r.energy_method);

  const t = (g: number): number => perMillion(g);
  const figure = (value: number | null, unit: CsrdFigure["unit"], datapoint: string, label: string): CsrdFigure => ({ value, unit, datapoint, label });

  const limitations: string[] = [];
  if (distanceMethod.none > 0) {
    limitations.push(`${distanceMethod.none} vehicle(s) reported neither two plausible odometer readings nor positions in the period: distance, energy and emissions 0 (no data is not zero driving).`);
  }
  if (distanceMethod.gps_great_circle > 0) {
    limitations.push(
      `${distanceMethod.gps_great_circle} vehicle(s) have a GPS great-circle distance (no usable odometer: fewer than two plausible readings, or its increases below the positions' distance): it understates road distance, so their emissions and energy are lower bounds.`,
    );
  }
  if (distanceMethod.odometer_plausible_increases > 0) {
    limitations.push(
      `${distanceMethod.odometer_plausible_increases} vehicle(s) have an odometer distance summed over plausible increases only (readings set aside: rollbacks, one-sample spikes, implausible jumps or contradicted drops; each vehicle's distance_note in the emissions report names them), not measured as the odometer's last minus first reading.`,
    );
  }
  if (rolledBack.length > 0) {
    limitations.push(
      `Odometer rollback or reset in the period: ${rolledBack.join(", ")}. Their distance is the sum of the plausible increases before and after the drop (a rollback does not erase distance driven); the step across the drop is not counted. The odometer-integrity alerts carry the evidence.`,
    );
  }
  const bevFactor = rows.filter((r) => r.powertrain === "BEV" && r.energy_method === "consumption_factor").length;
  if (bevFactor > 0) limitations.push(`${bevFactor} BEV(s) use the DESNZ-implied consumption (their consumption could not be measured from SOC and odometer).`);
  const fuelRows = rows.filter((r) => r.powertrain !== "BEV" && r.distance_km > 0).length;
  if (fuelRows > 0) {
    limitations.push(`${fuelRows} fuel vehicle(s): fuel use is not measured (telemetry has a fuel level but no tank size); Scope 1, Scope 3 category 3 and their fuel energy come from DESNZ 2025 per-km factors.`);
  }
  if (byPowertrain.PHEV > 0) limitations.push("PHEVs are reported on DESNZ's per-km PHEV factor (tank-to-wheel, Scope 1); their grid electricity is not measured and not in Scope 2 or the electricity figures.");
  if (rows.some((r) => r.factor_ids.some((id) => id.startsWith("van_") || id === "car_hev_ttw" || id === "car_phev_ttw" || id === "car_unknown_ttw"))) {
    limitations.push("Vans, HEVs, PHEVs and unknown fuel have no well-to-tank add-on in the registry: their Scope 3 category 3 is 0 (an understatement).");
  }
  if (byPowertrain.unknown > 0) limitations.push(`${byPowertrain.unknown} vehicle(s) of unknown powertrain are reported as fuel vehicles of unknown fuel (Scope 1).`);

  return {
    period: { start_date: er.period_start, end_date: er.period_end, days: input.periodDays },
    fleet_summary: {
      total_vehicles: er.total_vehicles,
      by_powertrain: byPowertrain,
      ev_count: er.ev_count,
      ice_count: er.ice_count,
      distance_km: distanceM / 1000,
      leased_vehicles_in_period: leased.size,
      energy_consumption: {
        total: figure(perMillion(fuelWh + electricityWh), "MWh", "E1-5 §37", "Total energy consumption (fuel and electricity of the fleet)"),
        fossil: figure(perMillion(fuelWh + fossilElectricityWh), "MWh", "E1-5 §37, fossil sources (electricity part: location-based estimate)", "Energy consumption from fossil sources: fuels, plus electricity × the Finnish fossil generation share (an estimate: AR 32(j) counts electricity by its contractual origin)"),
        nuclear: figure(perMillion(nuclearWh), "MWh", "E1-5 §37, nuclear sources (location-based estimate)", "Energy consumption from nuclear sources: electricity × the Finnish nuclear generation share (an estimate: replace with the supplier's contractual mix)"),
        renewable: figure(perMillion(renewableWh), "MWh", "E1-5 §37, renewable sources (location-based estimate)", "Energy consumption from renewable sources: electricity × the Finnish renewable generation share. An estimate: ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); without such instruments, replace with the supplier's contractual mix"),
        fuel_mwh: perMillion(fuelWh),
        electricity_mwh: perMillion(electricityWh),
        electricity_mix: {
          renewable_share: mix.renewable,
          nuclear_share: mix.nuclear,
          fossil_share: mix.fossil,
          year: ENERGY_FACTORS.fi_generation_renewable_share.year,
          basis: "Finnish domestic electricity generation by source (location-based), Statistics Finland 2024 preliminary",
        },
        factors_version: ENERGY_FACTORS_VERSION,
      },
    },
    emissions: {
      unit: "tCO2e",
      scope_1: figure(t(scope1), "tCO2e", "E1-6 §44(a)", "Gross Scope 1 GHG emissions: fleet fuel, tank-to-wheel"),
      scope_2_location_based: figure(t(scope2), "tCO2e", "E1-6 §44(b), location-based", "Gross location-based Scope 2 GHG emissions: BEV charging electricity × Finnish grid factor (life-cycle basis; PHEV charging not measured)"),
      scope_2_market_based: {
        ...figure(scope2Market === null ? null : t(scope2Market), "tCO2e", "E1-6 §44(b), market-based", "Gross market-based Scope 2 GHG emissions: BEV charging electricity × the electricity contract factor"),
        contract_factor_g_per_kwh: contract,
      },
      scope_3: figure(t(cat3), "tCO2e", "E1-6 §44(c)", "Gross Scope 3 GHG emissions reported: category 3 (category 13 shown separately, not added)"),
      scope_3_categories: {
        cat_3_fuel_and_energy_related: figure(t(cat3), "tCO2e", "E1-6 §44(c), category 3", "Fuel- and energy-related activities: well-to-tank of the fleet's fuels"),
        cat_13_downstream_leased_assets: {
          ...figure(t(cat13), "tCO2e", "E1-6 §44(c), category 13", "Downstream leased assets (lessor's view, for an undertaking that leases these vehicles out): Scope 1 and 2 emissions of the leased vehicles, pro rata to the days of the period their lease covers"),
          vehicles: cat13Rows.length,
          included_in_total: false,
        },
      },
      total_location_based: figure(er.total_co2_kg_estimate / 1000, "tCO2e", "E1-6 §44(d), §52(a)", "Total GHG emissions (location-based Scope 2) = Scope 1 + Scope 2 (location-based) + Scope 3"),
      total_market_based: figure(
        scope2Market === null ? null : t(scope1 + scope2Market + cat3),
        "tCO2e",
        "E1-6 §44(d), §52(b)",
        "Total GHG emissions (market-based Scope 2) = Scope 1 + Scope 2 (market-based) + Scope 3",
      ),
      emissions_report: { total_co2_kg_estimate: er.total_co2_kg_estimate, method_version: er.method_version, factors_version: er.factors.version },
    },
    green_fleet_score: {
      green_fleet_score: gf.green_fleet_score,
      score_version: gf.score_version,
      confidence: gf.confidence,
      components: gf.components,
      weights: { ...GREEN_FLEET_WEIGHTS },
      period_days: input.periodDays,
      limitations: gf.limitations,
    },
    ev_metrics: {
      bev_count: byPowertrain.BEV,
      phev_count: byPowertrain.PHEV,
      ev_count: er.ev_count,
      ev_share_pct: pct1(er.ev_count, er.ev_count + er.ice_count),
      ev_distance_km: evDistanceM / 1000,
      ev_distance_share_pct: pct1(evDistanceM, distanceM),
      electricity_mwh: perMillion(electricityWh),
      trend,
    },
    data_quality: {
      distance_method: distanceMethod,
      odometer_rollback_vehicles: rolledBack,
      energy_method: energyMethod,
      vehicles_without_data: distanceMethod.none,
      limitations,
    },
    generated_at: input.now.toISOString(),
    method_version: CSRD_METHOD_VERSION,
    esrs_version: ESRS_VERSION,
    notes: [
      `Built from the emissions report (${er.method_version}, factors ${er.factors.version}) of the same dates: Scope 1 + Scope 2 (location-based) + Scope 3 category 3 = its total_co2_kg_estimate, to the gram.`,
      `Scope 2 location-based uses the Finnish grid factor ${EMISSION_FACTORS.fi_grid_electricity.value * 1000} g CO2e/kWh (${EMISSION_FACTORS.fi_grid_electricity.year}), a LIFE-CYCLE basis: it includes the upstream of generation that the GHG Protocol puts in Scope 3 category 3, so Scope 2 is overstated and category 3 carries no electricity upstream (no double counting).`,
      contract === null
        ? "Scope 2 market-based: no electricity contract factor is configured for this account (admin CLI tenant:update --electricity-contract-factor): null, and the market-based total with it."
        : `Scope 2 market-based: the configured electricity contract factor ${contract} g CO2e/kWh × the same kWh.`,
      "Scope 3 category 13 is the lessor's view: the Scope 1 and 2 emissions of the vehicles with a lease contract (lease_start, lease_months) in the period, pro rata to the days the lease covers. A lessor reports them in category 13 instead of Scope 1/2; they are already in the figures above, so they are not added to the total. An undertaking that leases vehicles in reports them in Scope 1/2 (operational control) and ignores this figure.",
      "The market-based total carries no electricity upstream: the location-based factor includes it (life-cycle basis), a contract factor usually does not, so the two totals differ by more than the contract alone.",
      "Energy (E1-5): electricity at the plug (charger losses included) split by the Finnish generation mix of the year named: a location-based estimate. ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); replace the split with the supplier's contractual mix where you have one.",
      "Fuel energy = tank-to-wheel CO2e ÷ the fuel's CO2 per kWh (gross calorific value, about 6 % above net). The DESNZ factors are for the average biofuel blend, whose biogenic CO2 is outside the scopes: the energy of the bio share is left out (about 3 % low for B7 diesel). PHEV charging electricity is not measured: PHEVs count their fuel only.",
      "Vehicle manufacture, battery production and end of life are excluded. Method: docs/methodology/csrd.md.",
    ],
  };
}
