/**
 * Total Asset Score (SPEC 2.14, endpoints 17 and 18): a pure data-in/result-out function.
 * Methodology: docs/methodology/tas.md. Weights: ./tas-weights.ts (server-side only, never in the output).
 */
import { usableSohPct, type SohFlag } from "@/lib/vocabulary/readings";
import { classifyDtc, normaliseDtc, type DtcFamily } from "@/lib/detectors/diagnostics";
import type { KnockoutDismissal, OdometerEvidence } from "@/lib/devices/reading-rows";
import { hasSpeedingExposure, MIN_RATE_EXPOSURE_KM } from "./behaviour-exposure";
import {
  dismissalCovering,
  dismissedEvidence,
  odometerDismissal,
  excludedSohReadings,
  odometerKnockoutEvidence,
  SOH_KNOCKOUT_PCT,
  sohKnockoutEvidence,
  type DismissedKnockoutEvidence,
  type ExcludedReading,
  type KnockoutEvidence,
} from "./knockout-evidence";
import { DEFAULT_ASSET_CLASS, isAssetClass } from "@/lib/vocabulary/master-data";
import { normalisePowertrain, sohExpected, type Powertrain } from "@/lib/vocabulary/powertrain";
import { TAS_PILLARS, type Knockout, type TasPillar } from "@/lib/vocabulary/scores";
import { tasWeightsFor } from "./tas-weights";
import { finiteOrNull } from "@/lib/numbers";
import { clamp, freshnessSentence, round } from "./score-common";

/**
 * tas-2027.01: knockouts on evidence (odometer readings, the latest plausible SoH) named in
 * `data_quality.knockout_evidence`; implausible SoH readings flagged and not used; the regulatory pillar
 * counts distinct diagnostic problems by relevance, not CRITICAL alerts (docs/methodology/tas.md "Changes").
 */
export const TAS_SCORE_VERSION = "tas-2027.01";

type TasGrade = "A" | "B" | "C" | "D" | "E" | "F";
type TasConfidence = "high" | "medium" | "low";
type TasSource = "oem_bms" | "telemetry_derived" | "master_data" | "telemetry_and_master_data" | "insufficient_data" | "not_applicable";
type TasKnockout = Knockout;
type TasKnockoutEvidence = KnockoutEvidence;

/** Per-device aggregates, gathered by the query layer. Every field may be unknown (null). */
export interface TasInput {
  device_id: string;
  /** BEV | PHEV | HEV | ICE | null (unknown). */
  powertrain: string | null;
  fuel_type: string | null;
  /** passenger_car | light_commercial | heavy_truck | other | null (read as passenger_car). */
  asset_class: string | null;
  /** Model year (master data). */
  year: number | null;
  /** Age in months (e.g. since lease start or first registration); when null it is estimated from `year`. */
  age_months: number | null;
  battery: {
    /** Latest plausible OEM-reported state of health, percent (judged by `judgeSohReadings`). */
    soh_pct: number | null;
    /** Device time of that reading (the knockout's evidence). */
    soh_at?: Date | null;
    /** SoH readings flagged as implausible and not used (lib/vocabulary/readings.ts). */
    soh_flags?: readonly SohFlag[];
    /** Signed SoH change in percentage points per year (negative = losing capacity), from OEM readings. */
    soh_trend_pp_per_year: number | null;
  };
  mileage: {
    /** Latest odometer, km. */
    odometer_km: number | null;
    /** Kilometres driven per year (annualised from the odometer history). */
    km_per_year: number | null;
    /** Contract mileage limit over the whole lease, km (master data). */
    contract_km: number | null;
    /** Lease duration in months (master data). */
    lease_months: number | null;
  };
  behaviour: {
    /** Length of the observation window, days. */
    period_days: number;
    /** Kilometres driven in the window (odometer delta), null when unknown. */
    period_km: number | null;
    /**
     * Speeding measured from the speed history (queries/behaviour-sql.ts): share of the distance (when
     * odometer pairs measured it, else of the driving time) above 130 km/h and above 160 km/h, with the
     * exposure it was measured on; null when no speed was reported in the window or the exposure is
     * below the minimum (behaviour-exposure.ts: 100 km, or 2 h on the time basis).
     */
    speeding: { over_130_share: number; over_160_share: number; basis: "distance" | "time"; exposure_km: number; exposure_hours: number } | null;
    /** Share (0–1) of driving time between 22:00 and 06:00 Helsinki time; null when nothing was driven. */
    night_share: number | null;
    /** Share (0–1) of temperature-known driving time near freezing (−3…+3 °C, black ice); null when unknown. */
    icy_share: number | null;
    /** Harsh events weighted by severity band (moderate 1, severe ≥ 0.5 g 2); null when nothing reports them. */
    harsh_events_weighted?: number | null;
    /** Harsh driving events (braking / acceleration / cornering) in the window; null when nothing reports or allows deriving them. */
    harsh_events: number | null;
    /**
     * The km over which the events' source covered the window (behaviour-exposure.ts `harshExposure`):
     * the harsh-event rate's denominator; null = unknown (the rate is then not used). Omitted by callers
     * whose events cover the whole period: period_km is used.
     */
    harsh_events_km?: number | null;
  };
  compliance: {
    /** Diagnostic trouble codes active in the latest state (the latest DTC list); null when the vehicle never reported DTCs. */
    active_dtcs: readonly string[] | null;
    /** The latest resting 12 V reading (lib/vocabulary/readings.ts rule) shows a weak auxiliary battery; null = no such reading. */
    weak_12v: boolean | null;
    /** Emission class as declared (e.g. "Euro 6d"); null → estimated from powertrain and year. */
    emissions_class: string | null;
  };
  /** true when the latest odometer reading is more than 1 km below the highest earlier one; null = not checked. */
  odometer_manipulation: boolean | null;
  /** The readings that show the manipulation (present when `odometer_manipulation` is true). */
  odometer_evidence?: OdometerEvidence | null;
  /** Knockout alerts a reviewer dismissed as a false alarm: the readings they cited do not knock out. */
  knockout_dismissals?: readonly KnockoutDismissal[];
  data: {
    /** Device time of the newest telemetry. */
    latest_telemetry_at: Date | null;
    /** Share of days in the window with at least one reading, 0–100; null when unknown. */
    coverage_pct: number | null;
  };
}

interface TasPillarResult {
  score: number;
  source: TasSource;
}

interface TasResult {
  device_id: string;
  tas_grade: TasGrade;
  tas_score: number;
  score_version: string;
  confidence: TasConfidence;
  pillars: Record<TasPillar, TasPillarResult>;
  knockout_flags: TasKnockout[];
  vertical: string;
  fuel_type: string | null;
  /** How fresh and complete the inputs were (an addition to SPEC 2.14: every FDP answer says this). */
  data_quality: {
    latest_telemetry_at: string | null;
    data_age_seconds: number | null;
    coverage_pct: number | null;
    freshness: string;
    /** The evidence of each knockout in `knockout_flags` (readings and timestamps). */
    knockout_evidence: TasKnockoutEvidence[];
    /** Readings the validity rules set aside (implausible state of health), with the reason. */
    excluded_readings: ExcludedReading[];
    /** Knockouts set aside because a reviewer dismissed the alert that cited their readings as a false alarm. */
    dismissed_evidence: DismissedKnockoutEvidence[];
  };
  generated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Constants (all documented in docs/methodology/tas.md)

const TAS_GRADE_BANDS: ReadonlyArray<{ grade: Exclude<TasGrade, "F">; min: number }> = [
  { grade: "A", min: 85 },
  { grade: "B", min: 70 },
  { grade: "C", min: 55 },
  { grade: "D", min: 40 },
  { grade: "E", min: 25 },
];
/** A knocked-out vehicle's score is capped here so that score and grade F agree. */
export const KNOCKOUT_SCORE_CAP = 24;
/** Neutral score of a pillar without data. */
const NEUTRAL_SCORE = 50;

/** Battery pillar: SoH 60 % → 0, 100 % → 100, linear. */
const SOH_FLOOR_PCT = 60;
/** Average fleet degradation (Geotab, 22,700 EVs): losses faster than this are penalised. */
const EXPECTED_SOH_LOSS_PP_PER_YEAR = 2.3;
const SOH_TREND_PENALTY_PER_PP = 5;
const SOH_TREND_PENALTY_MAX = 20;

const MIN_PERIOD_KM_FOR_RATES = 100;
/**
 * Usage pillar (tas-2027.01, measured behaviour): the speeding index 100 × min(1, 10 × share > 130 km/h
 * + 20 × share > 160 km/h) — the fleet-risk speed_compliance formula — costs SPEEDING_PENALTY_FACTOR
 * points per index point (4 % of the distance above 130 km/h = index 40 = 24 points).
 */
const SPEEDING_PENALTY_FACTOR = 0.6;
/** Night and near-freezing exposure: at most this many points each (full at half the driving at night / all of it near 0 °C). */
const NIGHT_PENALTY_MAX = 10;
const ICY_PENALTY_MAX = 10;
const HARSH_PENALTY_PER_1000KM = 10;
const EVENT_PENALTY_MAX = 80;
const INTENSITY_FREE_KM_PER_YEAR = 20_000;
const INTENSITY_PENALTY_PER_1000KM = 1;
const INTENSITY_PENALTY_MAX = 20;

const AGE_ZERO_VALUE_MONTHS = 120;
const MILEAGE_SHARE_IN_CONTRACT_PILLAR = 0.6;

/**
 * Relevance of a distinct diagnostic problem to roadworthiness (Directive 2014/45/EU, Annex I: braking,
 * restraint systems and the OBD/MIL emissions check are inspection items whose failure is a major
 * deficiency; comfort and body electronics are not). Points per distinct problem; the diagnostic
 * penalty is capped at DIAGNOSTIC_PENALTY_MAX. Driving and charging behaviour are not regulatory.
 */
type DiagnosticRelevance = "safety" | "emissions" | "other";
const DIAGNOSTIC_POINTS: Readonly<Record<DiagnosticRelevance, number>> = { safety: 15, emissions: 12, other: 3 };
const FAMILY_RELEVANCE: Readonly<Record<DtcFamily, DiagnosticRelevance>> = {
  misfire: "emissions",
  catalyst: "emissions",
  evap: "emissions",
  powertrain: "emissions",
  hybrid_ev_propulsion: "safety",
  brake_abs: "safety",
  restraints: "safety",
  chassis: "safety",
  lost_communication: "other",
  network: "other",
  body: "other",
};
/** A weak 12 V battery (the vehicle may not start; safety systems run on it): one problem of this weight. */
const WEAK_12V_POINTS = 8;
const DIAGNOSTIC_PENALTY_MAX = 60;

const STALE_AFTER_DAYS = 7;
const MIN_COVERAGE_PCT = 50;

// ---------------------------------------------------------------------------------------------
// helpers

function nonNeg(x: unknown): number | null {
  const n = finiteOrNull(x);
  return n !== null && n >= 0 ? n : null;
}

export function tasGradeFor(score: number): TasGrade {
  for (const b of TAS_GRADE_BANDS) if (score >= b.min) return b.grade;
  return "F";
}

/** The asset class when it is a known one, else `passenger_car` (CONTRACT: TAS vertical). */
function tasVertical(assetClass: string | null): string {
  return isAssetClass(assetClass) ? assetClass : DEFAULT_ASSET_CLASS;
}

type EmissionBand = "zero_emission" | "euro6_or_newer" | "euro5" | "euro4" | "euro3_or_older";
const EMISSION_PENALTY: Record<EmissionBand, number> = {
  zero_emission: 0,
  euro6_or_newer: 0,
  euro5: 10,
  euro4: 20,
  euro3_or_older: 30,
};

/** Emission class: declared, else a proxy from powertrain and model year (EU new-registration dates). */
export function emissionBand(powertrain: string | null, declared: string | null, year: number | null): EmissionBand | null {
  if (powertrain === "BEV") return "zero_emission";
  if (declared !== null) {
    const m = /euro\s*[-_]?\s*([0-9]|iv|vi|v|i{1,3})/i.exec(declared);
    const roman: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6 };
    const g = m?.[1]?.toLowerCase();
    const n = g === undefined ? null : (roman[g] ?? Number(g));
    if (n !== null && Number.isFinite(n)) {
      return n >= 6 ? "euro6_or_newer" : n === 5 ? "euro5" : n === 4 ? "euro4" : "euro3_or_older";
    }
    if (/zero|zev|electric/i.test(declared)) return "zero_emission";
  }
  if (year === null) return null;
  if (year >= 2016) return "euro6_or_newer";
  if (year >= 2011) return "euro5";
  if (year >= 2006) return "euro4";
  return "euro3_or_older";
}

// ---------------------------------------------------------------------------------------------
// pillars

function batteryPillar(input: TasInput, powertrain: Powertrain | null): TasPillarResult {
  const soh = usableSohPct(finiteOrNull(input.battery.soh_pct));
  if (soh !== null) {
    let score = clamp(((soh - SOH_FLOOR_PCT) / (100 - SOH_FLOOR_PCT)) * 100);
    const trend = finiteOrNull(input.battery.soh_trend_pp_per_year);
    if (trend !== null) {
      const excess = Math.max(0, -trend - EXPECTED_SOH_LOSS_PP_PER_YEAR);
      score = Math.max(0, score - Math.min(SOH_TREND_PENALTY_MAX, excess * SOH_TREND_PENALTY_PER_PP));
    }
    return { score, source: "oem_bms" };
  }
  // No SoH expected (one rule with vehicle health and EOL): ICE has no traction battery, an HEV's small pack is managed by the car.
  if (sohExpected(powertrain) === false) return { score: NEUTRAL_SCORE, source: "not_applicable" };
  return { score: NEUTRAL_SCORE, source: "insufficient_data" };
}

function usagePillar(input: TasInput): TasPillarResult {
  const b = input.behaviour;
  const km = nonNeg(b.period_km);
  // A rate needs its own exposure (behaviour-exposure.ts): a speeding share measured on a few km, or
  // harsh events over the km their source covered below the minimum, are unknown, not a penalty.
  const sp = b.speeding && hasSpeedingExposure(b.speeding) ? b.speeding : null;
  const harshKm = b.harsh_events_km === undefined ? km : nonNeg(b.harsh_events_km);
  const events = nonNeg(b.harsh_events_weighted ?? b.harsh_events);
  const hr = events !== null && harshKm !== null && harshKm >= MIN_RATE_EXPOSURE_KM ? events : null;
  if (km === null || km < MIN_PERIOD_KM_FOR_RATES || (sp === null && hr === null)) {
    return { score: NEUTRAL_SCORE, source: "insufficient_data" };
  }
  const share = (x: number) => Math.min(1, Math.max(0, finiteOrNull(x) ?? 0));
  const speedIndex = sp === null ? 0 : 100 * Math.min(1, 10 * share(sp.over_130_share) + 20 * share(sp.over_160_share));
  const harshPer1000 = hr === null || harshKm === null ? 0 : (hr / harshKm) * 1000;
  const eventPenalty = Math.min(EVENT_PENALTY_MAX, speedIndex * SPEEDING_PENALTY_FACTOR + harshPer1000 * HARSH_PENALTY_PER_1000KM);
  const exposurePenalty = NIGHT_PENALTY_MAX * Math.min(1, 2 * share(b.night_share ?? 0)) + ICY_PENALTY_MAX * share(b.icy_share ?? 0);
  const kmy = nonNeg(input.mileage.km_per_year);
  const intensityPenalty = kmy === null ? 0 : Math.min(INTENSITY_PENALTY_MAX, Math.max(0, ((kmy - INTENSITY_FREE_KM_PER_YEAR) / 1000) * INTENSITY_PENALTY_PER_1000KM));
  return { score: clamp(100 - eventPenalty - exposurePenalty - intensityPenalty), source: "telemetry_derived" };
}

/** Mileage use against the contract: ≤ 90 % of the allowance → 100, 100 % → 85, 150 % → 0. */
export function mileageRatioScore(ratio: number): number {
  if (ratio <= 0.9) return 100;
  if (ratio <= 1) return 100 - 150 * (ratio - 0.9);
  return clamp(85 - 170 * (ratio - 1));
}

function ageMonths(input: TasInput, now: Date): number | null {
  const a = nonNeg(input.age_months);
  if (a !== null) return a;
  const y = finiteOrNull(input.year);
  if (y === null) return null;
  // Mid-year of the model year as the reference date.
  const months = (now.getUTCFullYear() - y) * 12 + now.getUTCMonth() - 6;
  return Math.max(0, months);
}

function contractPillar(input: TasInput, now: Date): TasPillarResult {
  const kmy = nonNeg(input.mileage.km_per_year);
  const contractKm = nonNeg(input.mileage.contract_km);
  const leaseMonths = nonNeg(input.mileage.lease_months);
  let mileage: number | null = null;
  if (kmy !== null && contractKm !== null && contractKm > 0 && leaseMonths !== null && leaseMonths > 0) {
    const allowedPerYear = (contractKm / leaseMonths) * 12;
    mileage = mileageRatioScore(kmy / allowedPerYear);
  }
  const age = ageMonths(input, now);
  const ageScore = age === null ? null : clamp(100 - (age / AGE_ZERO_VALUE_MONTHS) * 100);
  if (mileage !== null && ageScore !== null) {
    return {
      score: MILEAGE_SHARE_IN_CONTRACT_PILLAR * mileage + (1 - MILEAGE_SHARE_IN_CONTRACT_PILLAR) * ageScore,
      source: "telemetry_and_master_data",
    };
  }
  if (mileage !== null) return { score: mileage, source: "telemetry_and_master_data" };
  if (ageScore !== null) return { score: ageScore, source: "master_data" };
  return { score: NEUTRAL_SCORE, source: "insufficient_data" };
}

/** The distinct diagnostic problems of the device: its active DTCs (each code once) and a weak 12 V battery. */
function diagnosticProblems(input: Pick<TasInput, "compliance">, powertrain: Powertrain | null): DiagnosticRelevance[] {
  const out: DiagnosticRelevance[] = [];
  const seen = new Set<string>();
  for (const c of input.compliance.active_dtcs ?? []) {
    const code = normaliseDtc(c);
    if (code === null || seen.has(code)) continue;
    seen.add(code);
    out.push(FAMILY_RELEVANCE[classifyDtc(code, powertrain).family]);
  }
  return out;
}

function regulatoryPillar(input: TasInput, powertrain: Powertrain | null): TasPillarResult {
  const dtcs = input.compliance.active_dtcs;
  const weak12v = input.compliance.weak_12v;
  const band = emissionBand(powertrain, input.compliance.emissions_class, finiteOrNull(input.year));
  if (dtcs === null && weak12v === null && band === null) return { score: NEUTRAL_SCORE, source: "insufficient_data" };
  const points = diagnosticProblems(input, powertrain).reduce((s, r) => s + DIAGNOSTIC_POINTS[r], 0) + (weak12v === true ? WEAK_12V_POINTS : 0);
  const penalty = Math.min(DIAGNOSTIC_PENALTY_MAX, points) + (band === null ? 0 : EMISSION_PENALTY[band]);
  const source: TasSource = dtcs === null && weak12v === null ? "master_data" : "telemetry_derived";
  return { score: clamp(100 - penalty), source };
}

// ---------------------------------------------------------------------------------------------

export function computeTas(input: TasInput, opts: { now: Date }): TasResult {
  const now = opts.now;
  const powertrain = normalisePowertrain(input.powertrain);
  const vertical = tasVertical(input.asset_class);
  const weights = tasWeightsFor(vertical);

  const raw: Record<TasPillar, TasPillarResult> = {
    battery_health: batteryPillar(input, powertrain),
    usage_behaviour: usagePillar(input),
    contractual_market_risk: contractPillar(input, now),
    regulatory_compliance: regulatoryPillar(input, powertrain),
  };

  // Weighted mean over the applicable pillars (a not-applicable pillar's weight is redistributed).
  let wSum = 0;
  let acc = 0;
  for (const p of TAS_PILLARS) {
    if (raw[p].source === "not_applicable") continue;
    wSum += weights[p];
    acc += weights[p] * raw[p].score;
  }
  let score = round(clamp(wSum > 0 ? acc / wSum : NEUTRAL_SCORE));

  const knockouts: TasKnockout[] = [];
  const evidence: TasKnockoutEvidence[] = [];
  // The same validity rule as the battery pillar: an implausible value is never a knockout.
  const soh = usableSohPct(finiteOrNull(input.battery.soh_pct));
  // A knockout whose readings a reviewer dismissed (the alert that cited them) is set aside and said so.
  const dismissed: DismissedKnockoutEvidence[] = [];
  if (soh !== null && soh < SOH_KNOCKOUT_PCT) {
    const e = sohKnockoutEvidence(soh, input.battery.soh_at);
    const d = dismissalCovering("soh_below_60", input.battery.soh_at, input.knockout_dismissals);
    if (d) dismissed.push(dismissedEvidence(e, d));
    else {
      knockouts.push("soh_below_60");
      evidence.push(e);
    }
  }
  if (input.odometer_manipulation === true) {
    const e = input.odometer_evidence ? odometerKnockoutEvidence(input.odometer_evidence) : null;
    const d = input.odometer_evidence ? odometerDismissal(input.odometer_evidence, input.knockout_dismissals) : null;
    if (e && d) dismissed.push(dismissedEvidence(e, d));
    else {
      knockouts.push("odometer_manipulation");
      if (e) evidence.push(e);
    }
  }
  if (knockouts.length > 0) score = Math.min(score, KNOCKOUT_SCORE_CAP);
  const grade: TasGrade = knockouts.length > 0 ? "F" : tasGradeFor(score);

  // Confidence: start at high (2) and drop one level per gap.
  let level = 2;
  for (const p of TAS_PILLARS) if (raw[p].source === "insufficient_data") level -= 1;
  const latest = input.data.latest_telemetry_at;
  if (latest === null || now.getTime() - latest.getTime() > STALE_AFTER_DAYS * 86_400_000) level -= 1;
  const coverage = finiteOrNull(input.data.coverage_pct);
  if (coverage === null || coverage < MIN_COVERAGE_PCT) level -= 1;
  const confidence: TasConfidence = level >= 2 ? "high" : level === 1 ? "medium" : "low";

  const pillars = Object.fromEntries(TAS_PILLARS.map((p) => [p, { score: round(clamp(raw[p].score)), source: raw[p].source }])) as Record<TasPillar, TasPillarResult>;

  return {
    device_id: input.device_id,
    tas_grade: grade,
    tas_score: score,
    score_version: TAS_SCORE_VERSION,
    confidence,
    pillars,
    knockout_flags: knockouts,
    vertical,
    fuel_type: input.fuel_type ?? null,
    data_quality: {
      latest_telemetry_at: latest ? latest.toISOString() : null,
      data_age_seconds: latest ? Math.max(0, Math.round((now.getTime() - latest.getTime()) / 1000)) : null,
      coverage_pct: coverage,
      freshness: freshnessSentence(latest, now),
      knockout_evidence: evidence,
      excluded_readings: excludedSohReadings(input.battery.soh_flags),
      dismissed_evidence: dismissed,
    },
    generated_at: now.toISOString(),
  };
}
