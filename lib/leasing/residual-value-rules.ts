/**
 * Rule-based residual value (SPEC 2.9, endpoint 10): a pure function of what FDP knows about one
 * vehicle. Method, sources and a worked example: docs/methodology/residual-value.md. Every constant
 * names its source; the ones marked "FDP assumption" are ours and are documented as such.
 */
import { finiteOrNull } from "@/lib/numbers";
import { clamp, round } from "@/lib/scores/score-common";
import type { Confidence } from "@/lib/scores/score-common";
import type { ResidualValueBody } from "@/lib/schemas/leasing-residual";
import { normalisePowertrain, sohExpected, type Powertrain } from "@/lib/vocabulary/powertrain";
import type { EolGrade, Knockout } from "@/lib/vocabulary/scores";
import { outdatedSohSentence, sohEvidence, usableSohPct } from "@/lib/vocabulary/readings";

/** A new id whenever a rule or a constant below changes (the certificate stamps it). */
export const RESIDUAL_RULES_VERSION = "rv-rules-2027.02";

/** Name of the depreciation curve (one curve for every powertrain: see CURVE_YEAR_RATES_PCT). */
const CURVE_METHOD = "front-loaded-age-curve-bev-c-segment-2027.01";

/**
 * Depreciation rate in each year of life (percent of the value at the start of that year); the last
 * rate holds for every later year. Calibrated so that 36 months keep 70 % × 81 % × 83 % = 47.1 % of
 * the list price: Autovista Group, "a recently launched C-segment BEV ... approx. €18,450 on average
 * after three years, 47 % of the average original list price" (36 months / 45,000 km, trade, Germany),
 * TWAICE white paper "Battery Health Report", chapter 5 (twaice.com/whitepaper-battery-health-report-5).
 * Front-loaded as the published year-by-year figures are: cap hpi (2024) shows a BMW i4 losing 37 % in
 * its first year and about 10 % a year in the next two (regit.cars, "The point at which EVs become more
 * cost-effective than petrol cars revealed", 22 July 2024). Years 4 and later (15, 13, 11, then 10 %)
 * are an FDP assumption of a slowing curve; no published figure was checked for them.
 * The same curve is used for PHEV, HEV and ICE: the published figures found for them are single-model
 * examples or rules of thumb at other mileages ("40 to 50 % after 36 months / 36,000 miles",
 * drivingelectric.com), which bracket the BEV point but do not calibrate a curve of their own. Recent
 * UK data show hybrids holding more value than BEVs (Cox Automotive 2025: 68 % vs 49 % under 24 months),
 * so for non-BEVs the estimate is likely low; their confidence is never high.
 */
const CURVE_YEAR_RATES_PCT: readonly number[] = [30, 19, 17, 15, 13, 11, 10];

/**
 * Normal annual mileage of the curve: the Autovista calibration point is 45,000 km in 36 months, so
 * 15,000 km a year is the mileage the curve already prices in.
 */
export const NORMAL_KM_PER_YEAR = 15_000;

/**
 * Mileage penalty above the normal mileage for the age, in two zones, and the credit below it.
 *
 * Linear zone (up to MILEAGE_LINEAR_ZONE_KM above normal): 0.4 % of the curve value per 1,000 km, so
 * 20 % at 50,000 km above normal. FDP assumption: valuation guides adjust for mileage relative to the
 * expected mileage for the age (J.D. Power/NADA: "mileage adjustment curve"), but their figures are per
 * model and not published.
 * High-mileage zone (beyond it): the remaining value keeps falling 0.2 % per further 1,000 km,
 * compounding (a log-linear price/mileage relation): the Hungarian Central Statistical Office (KSH) and
 * Használtautó.hu regress the log asking price on age and mileage in 1,000 km (KSH experimental
 * statistics, methodology) and report "each further thousand kilometres means a 0.2 % lower price"
 * (penzcentrum.hu, 12 Feb 2026, on the January 2026 analysis; asking prices, mostly petrol and diesel
 * cars of about 12–13 years and 150,000–220,000 km on average, so a market with many high-mileage cars).
 * Floor (FDP assumption): mileage never takes more than MILEAGE_PENALTY_MAX_PCT (75 %) of the curve
 * value, reached about 630,000 km above normal; beyond that only the curve, battery and scores move it.
 * rv-rules-2027.01 stopped at 20 % (a 6-year car at 140,000 and 300,000 km valued the same).
 * Credit per 1,000 km below normal, and its cap: FDP assumption, half the linear penalty rate.
 */
export const MILEAGE_PENALTY_PCT_PER_1000KM = 0.4;
const MILEAGE_LINEAR_ZONE_KM = 50_000;
/** The penalty at the end of the linear zone: 50 × 0.4 = 20 %. */
export const MILEAGE_LINEAR_ZONE_PCT = (MILEAGE_LINEAR_ZONE_KM / 1000) * MILEAGE_PENALTY_PCT_PER_1000KM;
const MILEAGE_HIGH_PCT_PER_1000KM = 0.2;
export const MILEAGE_PENALTY_MAX_PCT = 75;
const MILEAGE_CREDIT_PCT_PER_1000KM = 0.2;
export const MILEAGE_CREDIT_CAP_PCT = 5;

/**
 * Expected state of health for the age: 100 % new, minus Geotab's fleet average degradation of 2.3 %
 * a year (22,700 EVs, 21 models, 2025 study; 1.8 % in its 2024 study).
 */
const EXPECTED_SOH_LOSS_PCT_PER_YEAR = 2.3;

/**
 * Battery penalty per SoH point below the expected one: "1 % SoH improvement equals an RV improvement
 * of approx. 0.5 %" (Autovista Group, TWAICE white paper chapter 5; C-segment BEVs). Applied to BEVs
 * and to vehicles of unknown powertrain (valued on the BEV curve). PHEV: half of it, an FDP
 * assumption (the pack is a smaller share of the vehicle and the car still drives on fuel). Autovista's
 * scenarios span about 5 SoH points (a 2.4 % uplift between worst and best treatment), so the credit
 * for a better-than-expected battery is capped at those 5 points; the penalty is capped at 25 %.
 */
export const BATTERY_PCT_PER_SOH_POINT: Readonly<Record<"BEV" | "PHEV", number>> = { BEV: 0.5, PHEV: 0.25 };
export const BATTERY_CREDIT_MAX_SOH_POINTS = 5;
export const BATTERY_PENALTY_CAP_PCT = 25;

/**
 * Score adjustments (FDP assumption), percent of the value after the penalties, each bounded, the sum
 * bounded again. Small on purpose: the vehicle health score already contains the battery and the
 * mileage (components `battery`, `usage`), so a large weight would count them twice; fleet risk
 * (harsh driving, speeding) and green fleet (measured energy efficiency) are weak value signals.
 *   vehicle health: (score − 75) × 0.1, within [−4, +1]
 *   fleet risk (higher = riskier): −(score − 50) × 0.05, within [−2.5, +1]
 *   green fleet: (score − 50) × 0.02, within [−1, +1]
 *   total within [−6, +3]
 */
export const SCORE_ADJUSTMENTS = {
  vehicleHealth: { pivot: 75, pctPerPoint: 0.1, min: -4, max: 1 },
  fleetRisk: { pivot: 50, pctPerPoint: -0.05, min: -2.5, max: 1 },
  greenFleet: { pivot: 50, pctPerPoint: 0.02, min: -1, max: 1 },
  total: { min: -6, max: 3 },
} as const;

/**
 * A knockout (EOL grade F on evidence: SoH below 60 %, or odometer manipulation) takes this share off
 * the value once, whatever the number of knockouts, and the confidence is low. FDP rule: such a car is
 * a specialist trade case (a battery likely out of its 70 % warranty and due for replacement; a clocked
 * odometer whose true mileage nobody knows), which an age/mileage curve does not price.
 */
export const KNOCKOUT_PENALTY_PCT = 20;

/** With neither an age nor a mileage, the estimate assumes the calibration point (36 months, 45,000 km). */
export const ASSUMED_AGE_MONTHS = 36;

export type ResidualKnockout = Knockout;
type AgeBasis = ResidualValueBody["data_quality"]["age_basis"];
type BatterySohStatus = ResidualValueBody["data_quality"]["battery_soh_status"];

/** What the rules need about one vehicle (lib/leasing/queries/load-residual-inputs.ts loads it). */
export interface ResidualInput {
  device_id: string;
  /** Master data powertrain; null or anything else = unknown (valued on the BEV curve). */
  powertrain: string | null;
  /** Model year from master data. */
  year: number | null;
  /** Lease start (YYYY-MM-DD) from master data. */
  lease_start: string | null;
  original_price_eur: number | null;
  /** Latest plausible odometer reading, km (for a clocked odometer: the highest earlier reading). */
  mileage_km: number | null;
  /**
   * Latest plausible OEM state of health, percent; null when it was not measured (no plausible reading,
   * or one the evidence rule upstream no longer counts as measured): then no battery adjustment is made,
   * `data_quality.battery_soh_status` is `not_measured` and the confidence is at most medium.
   */
  soh_pct: number | null;
  /**
   * Device time of that reading: one read more than 90 days before `now` is not today's SoH (CONTRACT
   * "Evidence and trust"). It only bounds today's from above: its penalty applies, never a credit.
   * Null with no reading; a reading without a time is not a measurement.
   */
  soh_at: Date | null;
  /** Vehicle health score, null when it measured nothing. */
  vehicle_health_score: number | null;
  /** Per-device fleet risk score (30 days), null when the vehicle did not drive enough in the window to measure it (confidence low). */
  fleet_risk_score: number | null;
  /** Per-device green fleet score (30 days), null when nothing was measured. */
  green_fleet_score: number | null;
  /** EOL grade, null when it is the unmeasured placeholder. */
  eol_grade: EolGrade | null;
  /** EOL knockouts on evidence. */
  knockouts: readonly ResidualKnockout[];
}

const MONTHS_PER_YEAR = 12;

/** Whole months from `from` to `to` (0 when `from` is later). */
export function monthsBetween(from: Date, to: Date): number {
  let m = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  if (to.getUTCDate() < from.getUTCDate()) m -= 1;
  return Math.max(0, m);
}

function parseDay(s: string | null): Date | null {
  if (s === null || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return null;
  const d = new Date(`${s}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * The vehicle's age in months and where it came from. `lease_start` wins: it is a day, and for a new
 * car on lease it is when the car entered service (the age basis of residual-value tables). A lease
 * that starts after the end of the year following the model year is a used car's lease, so its start
 * says nothing about the car's age: then the model year wins, counted from 1 July of that year (its
 * midpoint, since the registration month is unknown). Null when neither is known.
 */
export function ageOf(input: Pick<ResidualInput, "year" | "lease_start">, now: Date): { months: number; basis: "lease_start" | "year" } | null {
  const lease = parseDay(input.lease_start);
  const year = finiteOrNull(input.year);
  const validYear = year !== null && Number.isInteger(year) && year >= 1900 && year <= 9999 ? year : null;
  const usedCarLease = lease !== null && validYear !== null && lease.getUTCFullYear() > validYear + 1;
  if (lease !== null && !usedCarLease) return { months: monthsBetween(lease, now), basis: "lease_start" };
  if (validYear !== null) return { months: monthsBetween(new Date(Date.UTC(validYear, 6, 1)), now), basis: "year" };
  return null;
}

/** Retained share of the list price (0–1) at an age in months, on CURVE_YEAR_RATES_PCT, compounding within a year. */
export function curveRetention(ageMonths: number): number {
  const years = Math.max(0, ageMonths) / MONTHS_PER_YEAR;
  let value = 1;
  let y = 0;
  for (; y + 1 <= years; y++) value *= 1 - rateOfYear(y) / 100;
  return value * (1 - rateOfYear(y) / 100) ** (years - y);
}

/** The curve's rate in year of life `index` (0 = the first year). */
function rateOfYear(index: number): number {
  return CURVE_YEAR_RATES_PCT[Math.min(index, CURVE_YEAR_RATES_PCT.length - 1)]!;
}

/** Normal mileage for an age (what the curve prices in). */
export function normalMileageKm(ageMonths: number): number {
  return (NORMAL_KM_PER_YEAR * Math.max(0, ageMonths)) / MONTHS_PER_YEAR;
}

/**
 * Percent of the curve value lost to mileage (negative = credit): linear to 20 % at 50,000 km above
 * normal, then compounding 0.2 % per further 1,000 km, never above MILEAGE_PENALTY_MAX_PCT; the credit
 * below normal is capped. Continuous and non-decreasing in the mileage; strictly increasing above
 * normal until the floor.
 */
export function mileagePenaltyPct(mileageKm: number, ageMonths: number): number {
  const excessThousands = (mileageKm - normalMileageKm(ageMonths)) / 1000;
  if (excessThousands < 0) return -Math.min(MILEAGE_CREDIT_CAP_PCT, -excessThousands * MILEAGE_CREDIT_PCT_PER_1000KM);
  if (excessThousands <= MILEAGE_LINEAR_ZONE_KM / 1000) return excessThousands * MILEAGE_PENALTY_PCT_PER_1000KM;
  const beyond = excessThousands - MILEAGE_LINEAR_ZONE_KM / 1000;
  const kept = (1 - MILEAGE_LINEAR_ZONE_PCT / 100) * (1 - MILEAGE_HIGH_PCT_PER_1000KM / 100) ** beyond;
  return Math.min(MILEAGE_PENALTY_MAX_PCT, 100 * (1 - kept));
}

export function expectedSohPct(ageMonths: number): number {
  return Math.max(0, 100 - (EXPECTED_SOH_LOSS_PCT_PER_YEAR * Math.max(0, ageMonths)) / MONTHS_PER_YEAR);
}

/** The battery weight for a powertrain, or null when the battery does not price in (ICE, HEV). */
function batteryWeight(p: Powertrain | null): number | null {
  if (p === "PHEV") return BATTERY_PCT_PER_SOH_POINT.PHEV;
  if (p === "BEV" || p === null) return BATTERY_PCT_PER_SOH_POINT.BEV;
  return null;
}

/** Percent of the value lost to the battery (negative = credit), bounded; 0 without a SoH or for ICE/HEV. */
function batteryPenaltyPct(sohPct: number | null, ageMonths: number, powertrain: Powertrain | null): number {
  const w = batteryWeight(powertrain);
  if (sohPct === null || w === null) return 0;
  const deficit = expectedSohPct(ageMonths) - sohPct;
  const points = Math.max(-BATTERY_CREDIT_MAX_SOH_POINTS, deficit);
  return Math.min(BATTERY_PENALTY_CAP_PCT, points * w);
}

function scoreAdjustment(score: number | null, rule: { pivot: number; pctPerPoint: number; min: number; max: number }): number {
  if (score === null) return 0;
  return clamp((score - rule.pivot) * rule.pctPerPoint, rule.min, rule.max);
}

const usableScore = (x: number | null): number | null => {
  const v = finiteOrNull(x);
  return v === null ? null : clamp(v, 0, 100);
};

/**
 * What the estimate cannot see, and what its curve rests on. For a vehicle that is not a BEV it says that
 * the curve is still the BEV one (issue 30: a diesel's page cited German C-segment BEVs without a word on
 * why), and which way that likely errs (CURVE_YEAR_RATES_PCT: hybrids have held more value than BEVs).
 */
const NON_BEV_WORDS: Record<Exclude<Powertrain, "BEV"> | "unknown", string> = {
  PHEV: "plug-in hybrids",
  HEV: "hybrids",
  ICE: "combustion-engine cars",
  unknown: "vehicles whose powertrain is not declared",
};

function disclaimerText(powertrain: Powertrain | null): string {
  const curve =
    powertrain === "BEV"
      ? "The depreciation curve is a market average calibrated on published figures for C-segment battery-electric cars in Germany, not on this make and model."
      : `The depreciation curve is a market average calibrated on published figures for C-segment battery-electric cars in Germany: no published figures were found to calibrate one for ${NON_BEV_WORDS[powertrain ?? "unknown"]}, so the same curve is used, not one for this make and model. Hybrids and combustion-engine cars have recently held more of their value than battery-electric ones, so for this vehicle the estimate is likely low.`;
  return (
    `Indicative estimate by the rule-based method ${RESIDUAL_RULES_VERSION}, from telemetry, FDP's scores and the vehicle's master data: ` +
    "not a valuation, an appraisal or an offer to buy. It does not see the vehicle's physical condition (bodywork, interior, tyres), " +
    `accident damage, equipment and options, service history, or the local used-car market and its current prices. ${curve}`
  );
}

/** The rule-based residual value of one vehicle (SPEC 2.9). Pure: same input and `now`, same answer. */
export function computeResidualValue(input: ResidualInput, opts: { now: Date }): ResidualValueBody {
  const { now } = opts;
  const powertrain = normalisePowertrain(input.powertrain);
  const missing: string[] = [];
  const applicable: string[] = [];
  const need = (field: string, present: boolean) => {
    applicable.push(field);
    if (!present) missing.push(field);
  };

  const measuredKm = finiteOrNull(input.mileage_km);
  const mileageKnown = measuredKm !== null && measuredKm >= 0 ? measuredKm : null;
  const age = ageOf(input, now);

  // The curve's age: known, else derived from the mileage at the normal rate, else the calibration point.
  let curveAge: number;
  let basis: AgeBasis;
  if (age !== null) {
    curveAge = age.months;
    basis = age.basis;
  } else if (mileageKnown !== null) {
    curveAge = Math.round((mileageKnown / NORMAL_KM_PER_YEAR) * MONTHS_PER_YEAR);
    basis = "mileage";
  } else {
    curveAge = ASSUMED_AGE_MONTHS;
    basis = "assumed";
  }
  // The mileage used: measured, else the normal mileage for the age (so no penalty either way).
  const mileage = mileageKnown ?? normalMileageKm(curveAge);

  // The plausibility-by-value rule every score shares (0 and values above 100 are not a state of health).
  const sohReading = usableSohPct(finiteOrNull(input.soh_pct));
  // The 90-day rule (lib/vocabulary/readings.ts): a reading without a time is not a measurement (as in
  // vehicle health and EOL).
  const sohEv = sohEvidence(sohReading === null || !input.soh_at ? null : { pct: sohReading, at: input.soh_at }, now);
  const soh = sohEv.status === "measured" ? sohEv.pct : null;
  const vh = usableScore(input.vehicle_health_score);
  const risk = usableScore(input.fleet_risk_score);
  const green = usableScore(input.green_fleet_score);
  const price = finiteOrNull(input.original_price_eur);
  const knownPrice = price !== null && price > 0 ? price : null;

  need("age_months", age !== null);
  need("mileage_km", mileageKnown !== null);
  // SoH only where a plug-in's battery is expected to report it (the one rule: sohExpected).
  if (sohExpected(powertrain) !== false) need("battery_soh_pct", soh !== null);
  need("vehicle_health_score", vh !== null);
  need("fleet_risk_score", risk !== null);
  // A single vehicle's green fleet score measures a BEV's own consumption only (lib/scores/score-batch.ts):
  // for a fuel vehicle there is nothing of its own to measure, so it is not counted as missing.
  if (powertrain === "BEV" || powertrain === null) need("green_fleet_score", green !== null);
  need("eol_grade", input.eol_grade !== null);
  need("powertrain", powertrain !== null);
  need("original_price_eur", knownPrice !== null);
  const completeness = round((100 * (applicable.length - missing.length)) / applicable.length, 1);
  const sohStatus: BatterySohStatus = soh !== null ? "measured" : sohEv.status === "outdated" ? "outdated" : sohExpected(powertrain) === false ? "not_applicable" : "not_measured";
  const notes: string[] = [];
  if (sohStatus === "not_measured") {
    notes.push("Battery state of health not measured (no plausible reading): no battery adjustment was applied, and the confidence is at most medium.");
  }
  // An outdated reading bounds today's SoH from above (a battery does not regain capacity): its deficit
  // below the SoH expected at this age still costs value; a reading above it earns no credit.
  const outdatedBound = sohEv.status === "outdated" ? Math.min(sohEv.pct, expectedSohPct(curveAge)) : null;
  if (sohEv.status === "outdated") {
    notes.push(
      `${outdatedSohSentence(sohEv)} It bounds today's state of health from above, so its battery penalty (if any) applies but no credit, and the confidence is at most medium.`,
    );
  }

  const curve = curveRetention(curveAge);
  const mileagePenalty = mileagePenaltyPct(mileage, curveAge);
  const batteryPenalty = batteryPenaltyPct(soh ?? outdatedBound, curveAge, powertrain);
  const vhAdj = scoreAdjustment(vh, SCORE_ADJUSTMENTS.vehicleHealth);
  const riskAdj = scoreAdjustment(risk, SCORE_ADJUSTMENTS.fleetRisk);
  const greenAdj = scoreAdjustment(green, SCORE_ADJUSTMENTS.greenFleet);
  const total = clamp(vhAdj + riskAdj + greenAdj, SCORE_ADJUSTMENTS.total.min, SCORE_ADJUSTMENTS.total.max);
  const knockouts = [...new Set(input.knockouts)];
  const knockoutPenalty = knockouts.length > 0 ? KNOCKOUT_PENALTY_PCT : 0;

  const value = curve * (1 - mileagePenalty / 100) * (1 - batteryPenalty / 100) * (1 + total / 100) * (1 - knockoutPenalty / 100);
  const pct = round(clamp(100 * value, 0, 100), 1);

  let confidence: Confidence;
  if (knockouts.length > 0 || basis === "mileage" || basis === "assumed" || completeness < 50) confidence = "low";
  else if (basis === "year" || missing.some((f) => f !== "original_price_eur") || powertrain !== "BEV") confidence = "medium";
  else confidence = "high";

  return {
    device_id: input.device_id,
    estimation_method: RESIDUAL_RULES_VERSION,
    estimated_residual_pct: pct,
    estimated_residual_eur: knownPrice !== null ? Math.round((knownPrice * pct) / 100) : null,
    confidence,
    factors: {
      age_months: age?.months ?? null,
      mileage_km: round(mileage, 0),
      battery_soh_pct: soh !== null ? round(soh, 1) : null,
      vehicle_health_score: vh !== null ? round(vh, 1) : null,
      fleet_risk_score: risk !== null ? round(risk, 1) : null,
      green_fleet_score: green !== null ? round(green, 1) : null,
      eol_grade: input.eol_grade,
    },
    depreciation_curve: {
      method: CURVE_METHOD,
      annual_rate_pct: rateOfYear(Math.floor(curveAge / MONTHS_PER_YEAR)),
      battery_penalty_pct: round(batteryPenalty, 2),
      mileage_penalty_pct: round(mileagePenalty, 2),
    },
    adjustments: {
      vehicle_health_pct: round(vhAdj, 2),
      fleet_risk_pct: round(riskAdj, 2),
      green_fleet_pct: round(greenAdj, 2),
      total_pct: round(total, 2),
      knockout_penalty_pct: knockoutPenalty,
    },
    knockouts,
    data_quality: { completeness_pct: completeness, missing_fields: missing, age_basis: basis, battery_soh_status: sohStatus, notes },
    disclaimer: disclaimerText(powertrain),
    generated_at: now.toISOString(),
  };
}
