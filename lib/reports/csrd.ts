/**
 * The CSRD report (endpoint 13, SPEC 2.11): an ESRS E1-style disclosure of the fleet built FROM the
 * emissions report (lib/reports/emissions.ts: the same per-vehicle rows, so one energy accounting) and
 * the green fleet score of the same period. Pure: data in, report out. Methodology, every datapoint
 * label and the scope mapping: docs/methodology/csrd.md. Change CSRD_METHOD_VERSION with any rule change.
 *
 * Each vehicle row of the emissions report is split into four parts, in integer grams:
 * - tank-to-wheel CO2e of its fuel (ICE, HEV, PHEV — DESNZ's PHEV factor is its fuel part —, unknown);
 * - generation CO2e of its charging electricity: kWh at the plug × the Finnish grid GENERATION factor
 *   (FI_GRID_GENERATION), at most the row;
 * - well-to-tank CO2e of its fuel: the rest of a fuel row;
 * - upstream of its electricity: the rest of a BEV row (life-cycle − generation).
 * The tenant's reporting role (lib/vocabulary/reporting-role.ts) places the parts:
 * - `operator`: tank-to-wheel → Scope 1, generation → Scope 2 (location-based), well-to-tank and
 *   upstream → Scope 3 category 3; category 13 is not reported (null, with the reason).
 * - `lessor`: for a vehicle whose lease covers d of the period's D days, each part × d/D (rounded to the
 *   gram) is the lessee's: Scope 3 category 13 (downstream leased assets), included in the total; the
 *   rest (the lessor operates the vehicle) is placed as for an operator.
 * Scope 2 market-based: the kWh of the lessor's own operation × the tenant's contract factor, if any.
 *
 * Exact reconciliation by construction: every part of a row is an integer number of grams and the parts
 * (own operation and category 13 alike) add up to the row, so Scope 1 + Scope 2 (location-based) +
 * Scope 3 equals the emissions report's `total_co2_kg_estimate` to the gram in both roles, and
 * `total_location_based.value` is exactly that total ÷ 1000.
 */
import type { GreenFleetResult } from "@/lib/scores/green-fleet";
import { GREEN_FLEET_WEIGHTS } from "@/lib/scores/green-fleet";
import { countsAsIce, isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { DISTANCE_METHODS } from "@/lib/vocabulary/distance";
import type { ReportingRole } from "@/lib/vocabulary/reporting-role";
import { EMISSION_FACTORS, ENERGY_FACTORS, ENERGY_FACTORS_VERSION, FI_GRID_GENERATION, type EmissionFactorId, type EnergyFactorId } from "./emission-factors";
import { REPORT_POWERTRAINS, type ReportPowertrain } from "@/lib/vocabulary/powertrain";
import type { EmissionsReport, EmissionsVehicle } from "./emissions";
import { fuelBioShareOfPeriod, type PeriodBioShare } from "./fuel-bio-share";

/**
 * 2027.03: the tenant's reporting role (operator: category 13 not reported; lessor: the lease-covered
 * days in category 13, included in the total, not in Scope 1/2), Scope 2 location-based on the grid
 * generation factor with its upstream in category 3, E1-5 fuel energy split fossil / renewable by the
 * distribution obligation's bio share, a lessor's E1-5 on its own operation only.
 */
const CSRD_METHOD_VERSION = "csrd-2027.03";

/**
 * The ESRS text the datapoint labels follow. Paragraph numbers are those of ESRS E1 in Commission
 * Delegated Regulation (EU) 2023/2772 (set 1): E1-5 §37 (total energy consumption by source), E1-6
 * §44(a)–(d) (gross Scope 1, 2, 3 and total GHG emissions, t CO2e) and §52(a)/(b) (the total with
 * location- and market-based Scope 2). EFRAG's simplified ESRS (2025 amendments) renumber the standard;
 * the labels are not mapped to them. Where a sub-paragraph letter could not be confirmed (the E1-5
 * split by source), the label names the paragraph and the source, not a letter.
 */
const ESRS_VERSION = "ESRS E1 (Climate change), set 1: Commission Delegated Regulation (EU) 2023/2772";

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

/** The grid generation factor (g CO2e/kWh) Scope 2 location-based uses; FI_GRID_GENERATION by default. */
export interface GridGenerationFactor {
  id: string;
  value: number;
  unit: "g CO2e/kWh";
  year: number;
  basis: string;
  source: string;
  verified: boolean;
  note: string;
}

export interface CsrdInput {
  emissions: EmissionsReport;
  periodDays: number;
  greenFleet: GreenFleetResult;
  leases: readonly CsrdLeaseInput[];
  /** The tenant's CSRD reporting role (`tenants.reporting_role`). */
  reportingRole: ReportingRole;
  /** Defaults to FI_GRID_GENERATION (tests pass another figure). */
  gridGeneration?: GridGenerationFactor;
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

/** A vehicle whose lease covers days of the period, and where its emissions went (t CO2e). */
export interface CsrdLeasedVehicle {
  device_id: string;
  covered_days: number;
  /** covered_days ÷ the period's days, 6 decimals. */
  covered_share: number;
  /** Its Scope 3 category 13 (the lessee's days); 0 for an operator. */
  cat_13: number;
  /** Its Scope 1, 2 and category 3 (the days the account operates it). */
  own_operation: number;
}

export interface CsrdReport {
  period: { start_date: string; end_date: string; days: number };
  /** The tenant's reporting role: where the fleet's emissions are placed (docs/methodology/csrd.md "Reporting role"). */
  reporting_role: ReportingRole;
  /** The consolidation basis in words (GHG Protocol), for the role. */
  consolidation_basis: string;
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
      /** The account's own consumption (a lessor: outside the leases). */
      fuel_mwh: number;
      fuel_fossil_mwh: number;
      fuel_renewable_mwh: number;
      /** The distribution obligation's bio share applied to the fuel energy, by year of the period. */
      fuel_bio_share: PeriodBioShare & { basis: string };
      electricity_mwh: number;
      /** A lessor: the energy of the lease-covered days (the lessees' consumption), not in the figures above; 0 for an operator. */
      leased_out_mwh: number;
      electricity_mix: { renewable_share: number; nuclear_share: number; fossil_share: number; year: number; basis: string };
      /** ENERGY_FACTORS_VERSION of the registry's energy factors used. */
      factors_version: string;
    };
  };
  emissions: {
    unit: "tCO2e";
    scope_1: CsrdFigure;
    scope_2_location_based: CsrdFigure & { grid_factor: GridGenerationFactor };
    scope_2_market_based: CsrdFigure & { contract_factor_g_per_kwh: number | null };
    scope_3: CsrdFigure;
    scope_3_categories: {
      cat_3_fuel_and_energy_related: CsrdFigure & { fuel_well_to_tank: number; electricity_upstream: number };
      cat_13_downstream_leased_assets: CsrdFigure & {
        reported: boolean;
        included_in_total: boolean;
        /** Why it is not reported (operator); null when reported. */
        reason: string | null;
        /** The lessees' Scope 1 and 2 on the covered days (the GHG Protocol's minimum boundary), tCO2e. */
        lessee_scope_1_and_2: number | null;
        /** The well-to-tank of their fuel and the upstream of their electricity on the covered days, tCO2e. */
        fuel_and_energy_upstream: number | null;
        /** Vehicles with days in category 13. */
        vehicles: number;
      };
    };
    /** Every vehicle whose lease covers days of the period, and where its emissions went. */
    leased_vehicles: CsrdLeasedVehicle[];
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
function fuelEnergyFactorOf(ttwIds: readonly EmissionFactorId[]): EnergyFactorId {
  return ttwIds.some((id) => id.includes("diesel")) ? "diesel_co2_per_kwh" : "petrol_co2_per_kwh";
}

/** One vehicle row split into its parts, in grams, and its energy in Wh. The four gram parts add up to the row. */
interface VehicleSplit {
  /** Tank-to-wheel of the fuel. */
  ttw_g: number;
  /** Generation of the charging electricity (kWh × the grid generation factor). */
  gen_g: number;
  /** Well-to-tank of the fuel. */
  wtt_g: number;
  /** Upstream of the electricity (the row's life-cycle − generation). */
  upstream_g: number;
  electricity_wh: number;
  fuel_wh: number;
}

function splitVehicle(row: EmissionsVehicle, generationGPerKwh: number = FI_GRID_GENERATION.value): VehicleSplit {
  const total = grams(row.co2_kg);
  if (row.powertrain === "BEV") {
    const gen = Math.max(0, Math.min(total, Math.round(row.energy_kwh * generationGPerKwh)));
    return { ttw_g: 0, gen_g: gen, wtt_g: 0, upstream_g: total - gen, electricity_wh: grams(row.energy_kwh), fuel_wh: 0 };
  }
  const ttwIds = row.factor_ids.filter(isTtw);
  const hasWtt = row.factor_ids.some(isWtt);
  // The row's CO2e is round3((ttw + wtt) × km): tank-to-wheel rounded on its own, well-to-tank the rest.
  const ttw = hasWtt ? Math.min(total, Math.round(ttwIds.reduce((s, id) => s + EMISSION_FACTORS[id].value, 0) * row.distance_km * 1000)) : total;
  const fuelWh = ttw === 0 ? 0 : Math.round(ttw / ENERGY_FACTORS[fuelEnergyFactorOf(ttwIds)].value);
  return { ttw_g: ttw, gen_g: 0, wtt_g: total - ttw, upstream_g: 0, electricity_wh: 0, fuel_wh: fuelWh };
}

const PARTS = ["ttw_g", "gen_g", "wtt_g", "upstream_g", "electricity_wh", "fuel_wh"] as const satisfies readonly (keyof VehicleSplit)[];
const ZERO: VehicleSplit = { ttw_g: 0, gen_g: 0, wtt_g: 0, upstream_g: 0, electricity_wh: 0, fuel_wh: 0 };

/** `share` (0–1) of every part, each rounded to the gram (Wh): the covered part; the row minus it is the rest, so the two add up to the row. */
function shareOfSplit(split: VehicleSplit, share: number): VehicleSplit {
  if (share <= 0) return { ...ZERO };
  if (share >= 1) return { ...split };
  return Object.fromEntries(PARTS.map((k) => [k, Math.round(split[k] * share)])) as unknown as VehicleSplit;
}

const minus = (a: VehicleSplit, b: VehicleSplit): VehicleSplit => Object.fromEntries(PARTS.map((k) => [k, a[k] - b[k]])) as unknown as VehicleSplit;
const gramsOf = (x: VehicleSplit) => x.ttw_g + x.gen_g + x.wtt_g + x.upstream_g;

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

/** The number of the period's days [periodStart, periodEnd] (both included) that the lease covers (open-ended without lease_months). */
export function leaseCoveredDays(l: CsrdLeaseInput, periodStart: string, periodEnd: string): number {
  if (!leaseOverlaps(l, periodStart, periodEnd)) return 0;
  const day = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
  const from = Math.max(day(periodStart), day(l.lease_start!));
  const endExclusive = l.lease_months !== null && Number.isFinite(l.lease_months) && l.lease_months > 0 ? day(leaseEnd(l.lease_start!, l.lease_months)) : Infinity;
  const to = Math.min(day(periodEnd) + 1, endExclusive);
  return Math.max(0, to - from);
}

/** The share (0–1) of the period's days [periodStart, periodEnd] that the lease covers (open-ended without lease_months). */
export function leaseShareOf(l: CsrdLeaseInput, periodStart: string, periodEnd: string): number {
  const days = Math.round((Date.parse(`${periodEnd}T00:00:00Z`) - Date.parse(`${periodStart}T00:00:00Z`)) / 86_400_000) + 1;
  return leaseCoveredDays(l, periodStart, periodEnd) / days;
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

/** The consolidation basis of each reporting role, in words (docs/methodology/csrd.md "Reporting role"). */
const OPERATOR_BASIS =
  "Operator, operational control (GHG Protocol Corporate Standard): the account operates the fleet, so the fuel its vehicles burn is Scope 1 and their charging electricity Scope 2, for every vehicle including those it leases in or out; Scope 3 category 13 (downstream leased assets) is not reported, since it would count the same emissions twice.";
const LESSOR_BASIS =
  "Lessor: the account owns the vehicles and leases them out. GHG Protocol Scope 3 Standard, category 13 (downstream leased assets): emissions from the operation of assets owned by the reporting company (acting as lessor) and leased to other entities, not included in its Scope 1 and 2. On the days a lease covers, the lessee operates the vehicle and the lessor has no operational control, so those days' emissions (pro rata to the days of the period) are category 13 and included in the total; on the other days the lessor operates the vehicle itself (Scope 1 and 2). This is the treatment under the operational control approach (and of finance leases under any approach); a lessor that consolidates by financial control or equity share and leases under operating leases keeps the vehicles in Scope 1 and 2: report as operator.";

export function csrdReport(input: CsrdInput): CsrdReport {
  const { emissions: er, greenFleet: gf } = input;
  const role = input.reportingRole;
  const grid = input.gridGeneration ?? FI_GRID_GENERATION;
  const rows = er.vehicles;
  const periodDays = Math.round((Date.parse(`${er.period_end}T00:00:00Z`) - Date.parse(`${er.period_start}T00:00:00Z`)) / 86_400_000) + 1;

  // The days of the period each vehicle's lease covers (the first contract that overlaps, by device).
  const coveredDays = new Map<string, number>();
  for (const l of input.leases) {
    const days = leaseCoveredDays(l, er.period_start, er.period_end);
    if (days > 0 && !coveredDays.has(l.device_id)) coveredDays.set(l.device_id, days);
  }
  // Per vehicle: its parts, the lessee's share (lessor: the covered days, pro rata: the report has no
  // per-day split of a vehicle's figures) and the account's own operation (the rest). An operator
  // places everything in its own operation.
  const vehicles = rows.map((row) => {
    const split = splitVehicle(row, grid.value);
    const days = coveredDays.get(row.device_id) ?? 0;
    const leased = role === "lessor" ? shareOfSplit(split, days / periodDays) : { ...ZERO };
    return { row, days, leased, own: minus(split, leased) };
  });
  const sum = (of: "own" | "leased", k: keyof VehicleSplit) => vehicles.reduce((a, v) => a + v[of][k], 0);
  const scope1 = sum("own", "ttw_g");
  const scope2 = sum("own", "gen_g");
  const cat3Fuel = sum("own", "wtt_g");
  const cat3Upstream = sum("own", "upstream_g");
  const cat3 = cat3Fuel + cat3Upstream;
  const cat13Lessee = sum("leased", "ttw_g") + sum("leased", "gen_g");
  const cat13Upstream = sum("leased", "wtt_g") + sum("leased", "upstream_g");
  const cat13 = cat13Lessee + cat13Upstream;
  const scope3 = cat3 + cat13;
  const totalG = scope1 + scope2 + scope3;
  // Every part of every row is in exactly one of the figures above, so this holds by construction; a
  // mismatch would be a bug in the emissions report's rounding, and a wrong total is worse than none.
  if (totalG !== grams(er.total_co2_kg_estimate)) {
    throw new Error(`CSRD report: scopes add up to ${totalG} g, the emissions report to ${er.total_co2_kg_estimate} kg`);
  }
  const leasedVehicles: CsrdLeasedVehicle[] = vehicles
    .filter((v) => v.days > 0)
    .map((v) => ({
      device_id: v.row.device_id,
      covered_days: v.days,
      covered_share: Math.round((1e6 * v.days) / periodDays) / 1e6,
      cat_13: perMillion(gramsOf(v.leased)),
      own_operation: perMillion(gramsOf(v.own)),
    }))
    .sort((a, b) => (a.device_id < b.device_id ? -1 : a.device_id > b.device_id ? 1 : 0));
  const cat13Vehicles = role === "lessor" ? leasedVehicles.length : 0;

  // E1-5: the account's own energy consumption (a lessor's leased-out days are the lessees').
  const electricityWh = sum("own", "electricity_wh");
  const fuelWh = sum("own", "fuel_wh");
  const leasedOutWh = sum("leased", "electricity_wh") + sum("leased", "fuel_wh");
  const bio = fuelBioShareOfPeriod(er.period_start, er.period_end);
  const fuelRenewableWh = Math.round(fuelWh * bio.share);
  const fuelFossilWh = fuelWh - fuelRenewableWh;
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
  const leased = new Set(input.leases.filter((l) => leaseOverlaps(l, er.period_start, er.period_end)).map((l) => l.device_id));

  const byPowertrain = Object.fromEntries(REPORT_POWERTRAINS.map((p) => [p, rows.filter((r) => r.powertrain === p).length])) as Record<ReportPowertrain, number>;
  const distanceM = rows.reduce((a, r) => a + grams(r.distance_km), 0);
  const evDistanceM = rows.filter((r) => isPlugIn(normalisePowertrain(r.powertrain))).reduce((a, r) => a + grams(r.distance_km), 0);

  const trend = monthsOf(er.period_start, er.period_end).map((month) => {
    const inMonth = input.monthlyActivity.filter((a) => a.month === month);
    const active = inMonth.reduce((a, x) => a + x.vehicles, 0);
    const ev = inMonth.filter((x) => isPlugIn(normalisePowertrain(x.powertrain))).reduce((a, x) => a + x.vehicles, 0);
    const known = inMonth
      .filter((x) => {
        const p = normalisePowertrain(x.powertrain);
        return isPlugIn(p) || countsAsIce(p);
      })
      .reduce((a, x) => a + x.vehicles, 0);
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
    limitations.push(
      `${distanceMethod.none} vehicle(s) reported neither two plausible odometer readings nor positions in the period: distance, energy and emissions 0 (no data is not zero driving).`,
    );
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
    limitations.push(
      `${fuelRows} fuel vehicle(s): fuel use is not measured (telemetry has a fuel level but no tank size); Scope 1, Scope 3 category 3 and their fuel energy come from DESNZ 2025 per-km factors.`,
    );
  }
  if (byPowertrain.PHEV > 0)
    limitations.push(
      "PHEVs are reported on DESNZ's per-km PHEV factor (tank-to-wheel, Scope 1); their grid electricity is not measured and not in Scope 2 or the electricity figures.",
    );
  if (rows.some((r) => r.factor_ids.some((id) => id.startsWith("van_") || id === "car_hev_ttw" || id === "car_phev_ttw" || id === "car_unknown_ttw"))) {
    limitations.push("Vans, HEVs, PHEVs and unknown fuel have no well-to-tank add-on in the registry: their Scope 3 category 3 is 0 (an understatement).");
  }
  if (byPowertrain.unknown > 0) limitations.push(`${byPowertrain.unknown} vehicle(s) of unknown powertrain are reported as fuel vehicles of unknown fuel (Scope 1).`);

  const ownDays = role === "lessor" ? " (own operation: the days outside the vehicles' leases)" : "";
  const fuelShareText = `${Math.round(bio.share * 1000) / 10} %`;
  return {
    period: { start_date: er.period_start, end_date: er.period_end, days: input.periodDays },
    reporting_role: role,
    consolidation_basis: role === "lessor" ? LESSOR_BASIS : OPERATOR_BASIS,
    fleet_summary: {
      total_vehicles: er.total_vehicles,
      by_powertrain: byPowertrain,
      ev_count: er.ev_count,
      ice_count: er.ice_count,
      distance_km: distanceM / 1000,
      leased_vehicles_in_period: leased.size,
      energy_consumption: {
        total: figure(perMillion(fuelWh + electricityWh), "MWh", "E1-5 §37", `Total energy consumption (fuel and electricity of the fleet${ownDays})`),
        fossil: figure(
          perMillion(fuelFossilWh + fossilElectricityWh),
          "MWh",
          "E1-5 §37, fossil sources (estimates: fuel by the statutory bio share, electricity location-based)",
          `Energy consumption from fossil sources: fuel × (1 − the distribution obligation's bio share, ${fuelShareText}), plus electricity × the Finnish fossil generation share (estimates: real fuel blends differ from the statutory minimum; AR 32(j) counts electricity by its contractual origin)`,
        ),
        nuclear: figure(
          perMillion(nuclearWh),
          "MWh",
          "E1-5 §37, nuclear sources (location-based estimate)",
          "Energy consumption from nuclear sources: electricity × the Finnish nuclear generation share (an estimate: replace with the supplier's contractual mix)",
        ),
        renewable: figure(
          perMillion(fuelRenewableWh + renewableWh),
          "MWh",
          "E1-5 §37, renewable sources (estimates: fuel by the statutory bio share, electricity location-based)",
          `Energy consumption from renewable sources: fuel × the distribution obligation's bio share (${fuelShareText}, a statutory minimum, not a measured blend), plus electricity × the Finnish renewable generation share. An estimate: ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); without such instruments, replace with the supplier's contractual mix`,
        ),
        fuel_mwh: perMillion(fuelWh),
        fuel_fossil_mwh: perMillion(fuelFossilWh),
        fuel_renewable_mwh: perMillion(fuelRenewableWh),
        fuel_bio_share: {
          ...bio,
          basis:
            "Finnish distribution obligation (Act 446/2007 as amended): the statutory minimum share of renewable fuel in the energy content of the petrol and diesel a distributor delivers, by calendar year, weighted by the period's days in each year. A calculated minimum across all of a distributor's deliveries (over-delivery and, from 2025, renewable electricity at public charging points count towards it): real blends differ by fuel (E10 petrol carries much less than diesel).",
        },
        electricity_mwh: perMillion(electricityWh),
        leased_out_mwh: perMillion(leasedOutWh),
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
      scope_1: figure(t(scope1), "tCO2e", "E1-6 §44(a)", `Gross Scope 1 GHG emissions: fleet fuel, tank-to-wheel${ownDays}`),
      scope_2_location_based: {
        ...figure(
          t(scope2),
          "tCO2e",
          "E1-6 §44(b), location-based",
          `Gross location-based Scope 2 GHG emissions: BEV charging electricity × the Finnish grid generation factor (${grid.value} g CO2e/kWh, ${grid.year}${grid.verified ? "" : ", not verified: an upper bound"}; PHEV charging not measured)${ownDays}`,
        ),
        grid_factor: { ...grid },
      },
      scope_2_market_based: {
        ...figure(
          scope2Market === null ? null : t(scope2Market),
          "tCO2e",
          "E1-6 §44(b), market-based",
          `Gross market-based Scope 2 GHG emissions: BEV charging electricity × the electricity contract factor${ownDays}`,
        ),
        contract_factor_g_per_kwh: contract,
      },
      scope_3: figure(
        t(scope3),
        "tCO2e",
        "E1-6 §44(c)",
        role === "lessor"
          ? "Gross Scope 3 GHG emissions reported: category 3 + category 13"
          : "Gross Scope 3 GHG emissions reported: category 3 (category 13 is not reported by an operator)",
      ),
      scope_3_categories: {
        cat_3_fuel_and_energy_related: {
          ...figure(
            t(cat3),
            "tCO2e",
            "E1-6 §44(c), category 3",
            `Fuel- and energy-related activities: well-to-tank of the fleet's fuels and upstream of its charging electricity (life-cycle − generation)${ownDays}`,
          ),
          fuel_well_to_tank: t(cat3Fuel),
          electricity_upstream: t(cat3Upstream),
        },
        cat_13_downstream_leased_assets:
          role === "lessor"
            ? {
                ...figure(
                  t(cat13),
                  "tCO2e",
                  "E1-6 §44(c), category 13",
                  "Downstream leased assets: the emissions of the leased-out vehicles on the days of the period their lease covers (pro rata by days): the lessees' fuel (tank-to-wheel) and electricity (generation), with the well-to-tank and upstream of that fuel and electricity",
                ),
                reported: true,
                included_in_total: true,
                reason: null,
                lessee_scope_1_and_2: t(cat13Lessee),
                fuel_and_energy_upstream: t(cat13Upstream),
                vehicles: cat13Vehicles,
              }
            : {
                ...figure(null, "tCO2e", "E1-6 §44(c), category 13", "Downstream leased assets: not reported"),
                reported: false,
                included_in_total: false,
                reason:
                  "Not reported: the account reports as the fleet's operator (reporting_role operator), so the emissions of every vehicle, leased out or not, are its Scope 1 and 2; reporting them in category 13 as well would count them twice. A lessor whose lessees operate the vehicles sets reporting_role lessor (admin CLI tenant:update --reporting-role lessor).",
                lessee_scope_1_and_2: null,
                fuel_and_energy_upstream: null,
                vehicles: 0,
              },
      },
      leased_vehicles: leasedVehicles,
      total_location_based: figure(t(totalG), "tCO2e", "E1-6 §44(d), §52(a)", "Total GHG emissions (location-based Scope 2) = Scope 1 + Scope 2 (location-based) + Scope 3"),
      total_market_based: figure(
        scope2Market === null ? null : t(scope1 + scope2Market + scope3),
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
      `Built from the emissions report (${er.method_version}, factors ${er.factors.version}) of the same dates: Scope 1 + Scope 2 (location-based) + Scope 3 = its total_co2_kg_estimate, to the gram; every gram of every vehicle is in exactly one of them.`,
      role === "lessor"
        ? `Reporting role lessor: for the days a vehicle's lease (lease_start + lease_months) covers, its emissions are Scope 3 category 13 (included in the total) and not in Scope 1 or 2, pro rata to the covered days of the period (leased_vehicles lists each vehicle's covered days and where its emissions went); the rest of the period the lessor operates it (Scope 1, 2 and category 3). A vehicle without lease master data is treated as operated by the lessor.`
        : "Reporting role operator: every vehicle's fuel is Scope 1 and its charging electricity Scope 2, including vehicles with a lease contract (leased_vehicles lists them); category 13 is not reported (null).",
      `Scope 2 location-based uses the Finnish grid GENERATION factor (${grid.value} g CO2e/kWh, ${grid.year}, basis: ${grid.basis}); the upstream of the electricity (the emissions report's life-cycle factor ${EMISSION_FACTORS.fi_grid_electricity.value * 1000} g CO2e/kWh − generation) is Scope 3 category 3 (GHG Protocol).${grid.verified ? "" : ` ${grid.note}`}`,
      contract === null
        ? "Scope 2 market-based: no electricity contract factor is configured for this account (your FDP administrator sets it): null, and the market-based total with it."
        : `Scope 2 market-based: the configured electricity contract factor ${contract} g CO2e/kWh × the same kWh. The market-based total keeps the location-based Scope 3 (its category 3 holds the grid's electricity upstream).`,
      `Energy (E1-5): ${role === "lessor" ? "the lessor's own consumption (the days outside the leases; the leased-out days' energy, leased_out_mwh, is the lessees'). " : ""}Electricity at the plug (charger losses included) split by the Finnish generation mix of the year named: a location-based estimate. ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); replace the split with the supplier's contractual mix where you have one.`,
      `Fuel energy = tank-to-wheel CO2e ÷ the fuel's CO2 per kWh (gross calorific value, about 6 % above net), split into renewable and fossil by the Finnish distribution obligation's bio share (${bio.years.map((y) => `${y.year}: ${Math.round(y.share * 1000) / 10} %, ${y.status}${y.verified ? "" : ", not verified"}`).join("; ")}; weighted by days: ${fuelShareText}). The statutory share is a calculated minimum across a distributor's deliveries, not a measured blend: real blends differ by fuel. The DESNZ per-km factors are for the UK average blend: the energy of its bio share is left out (about 3 % low for B7 diesel), and Scope 1 does not reflect the Finnish bio share. PHEV charging electricity is not measured: PHEVs count their fuel only.`,
      `Vehicle manufacture, battery production and end of life are excluded. Method: FDP's CSRD method ${CSRD_METHOD_VERSION}.`,
    ],
  };
}
