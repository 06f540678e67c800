/**
 * End-of-life (lease return) condition grade (SPEC 2.7, endpoint 7): a pure function.
 * Methodology: docs/methodology/eol-summary.md.
 */
import { finiteOrNull } from "@/lib/numbers";
import { isPlugIn, normalisePowertrain, sohExpected } from "@/lib/vocabulary/powertrain";
import { outdatedSohSentence, sohEvidence, sohEvidenceBody, SOH_MAX_AGE_DAYS, usableSohPct, type SohEvidenceBody, type SohFlag } from "@/lib/vocabulary/readings";
import type { KnockoutDismissal, OdometerEvidence } from "@/lib/devices/reading-rows";
import { EOL_GRADES, type EolGrade } from "@/lib/vocabulary/scores";
import {
  dismissalCovering,
  dismissedEvidence,
  odometerDismissal,
  excludedSohReadings,
  odometerKnockoutEvidence,
  SOH_KNOCKOUT_PCT,
  sohKnockoutEvidence,
  type ExcludedReading,
  type KnockoutEvidence,
} from "./knockout-evidence";
import type { Confidence } from "./score-common";

/**
 * eol-2027.02: a vehicle whose traction battery may report a SoH (BEV, PHEV, powertrain unknown) and
 * has no SoH read within the 90 days before the answer is graded at most C with confidence low (CONTRACT
 * "Evidence and trust"); an older reading still caps and knocks out (a battery does not regain
 * capacity), never lifts the grade; `soh_evidence` says which reading the grade rests on.
 * eol-2027.01: a `confidence`; a grade from no measured signal says "not measured" (score null,
 * confidence low); knockouts on evidence (readings named in `knockout_evidence`); implausible SoH
 * readings set aside (docs/methodology/eol-summary.md "Changes").
 */
export const EOL_GRADE_VERSION = "eol-2027.02";

/** Lower bounds of the vehicle health score bands (inclusive); below the last band → F. */
const EOL_BANDS: ReadonlyArray<{ grade: Exclude<EolGrade, "F">; min: number }> = [
  { grade: "A", min: 85 },
  { grade: "B", min: 70 },
  { grade: "C", min: 55 },
  { grade: "D", min: 40 },
];

/** Knockout: SoH below this → F (CONTRACT `soh_below_60`). */
const EOL_SOH_KNOCKOUT_PCT = SOH_KNOCKOUT_PCT;
/** SoH below this (typical EV battery warranty, BattGrade C) caps the grade at C. */
const EOL_SOH_CAP_C_PCT = 70;
/** SoH below this (BattGrade B) caps the grade at B. */
const EOL_SOH_CAP_B_PCT = 85;
/** Best grade without a SoH read within SOH_MAX_AGE_DAYS, for a battery that could report one (CONTRACT "Evidence and trust"). */
const EOL_UNMEASURED_BATTERY_CAP: EolGrade = "C";
/** Grade given when nothing was measured: never better than D, and said to be unmeasured. */
const EOL_NO_SCORE_GRADE: EolGrade = "D";

export interface EolInput {
  device_id: string;
  /**
   * Vehicle health score 0–100 (SPEC 2.4), or null when it could not be computed. Pass null when the
   * health score measured nothing (its neutral midpoint is not a measurement).
   */
  vehicle_health_score: number | null;
  /** The vehicle health score's confidence (absent: taken as medium when a score is given). */
  vehicle_health_confidence?: Confidence | null;
  /** Latest plausible OEM-reported state of health in percent, or null (no OEM value / no traction battery). */
  soh_pct: number | null;
  /** Device time of that reading (the knockout's evidence and the 90-day rule); null with no reading. */
  soh_at: Date | null;
  /** SoH readings set aside as implausible. */
  soh_flags?: readonly SohFlag[];
  /** true when the latest odometer reading is more than 1 km below the highest earlier one; null = not checked. */
  odometer_manipulation: boolean | null;
  odometer_evidence?: OdometerEvidence | null;
  /** Knockout alerts a reviewer dismissed as a false alarm: the readings they cited do not knock out. */
  knockout_dismissals?: readonly KnockoutDismissal[];
  /** Master data powertrain (BEV/PHEV/HEV/ICE) or null. */
  powertrain?: string | null;
}

interface EolSummary {
  device_id: string;
  condition_grade: EolGrade;
  vehicle_health_score: number | null;
  /** How far the grade rests on measured evidence (an FDP addition to SPEC 2.7). */
  confidence: Confidence;
  /** Each applied knockout with its readings. */
  knockout_evidence: KnockoutEvidence[];
  /** Readings the validity rules set aside. */
  excluded_readings: ExcludedReading[];
  /** Which SoH reading the grade rests on, and how old it is. */
  soh_evidence: SohEvidenceBody;
  limitations: string[];
  generated_at: string;
}

const LEVELS: Confidence[] = ["low", "medium", "high"];

function worse(a: EolGrade, b: EolGrade): EolGrade {
  return EOL_GRADES.indexOf(a) >= EOL_GRADES.indexOf(b) ? a : b;
}

const lower = (c: Confidence): Confidence => LEVELS[Math.max(0, LEVELS.indexOf(c) - 1)]!;

/** The band of a (clamped) health score. */
export function gradeForHealthScore(score: number): EolGrade {
  for (const b of EOL_BANDS) if (score >= b.min) return b.grade;
  return "F";
}

export function buildEolSummary(input: EolInput, opts: { now: Date }): EolSummary {
  const limitations: string[] = [];
  const evidence: KnockoutEvidence[] = [];
  const raw = finiteOrNull(input.vehicle_health_score);
  const score = raw === null ? null : Math.round(Math.min(100, Math.max(0, raw)) * 10) / 10 + 0;
  const powertrain = normalisePowertrain(input.powertrain);
  const plugIn = isPlugIn(powertrain);
  // The latest plausible reading bounds today's SoH from above however old it is (a battery does not
  // regain capacity), so it still caps and knocks out below; only one read within SOH_MAX_AGE_DAYS
  // counts as measured and may leave the grade above C.
  const sohReading = usableSohPct(finiteOrNull(input.soh_pct));
  const sohEvidenceOf = sohEvidence(sohReading !== null && input.soh_at ? { pct: sohReading, at: input.soh_at } : null, opts.now);
  const soh = sohEvidenceOf.status === "none" ? null : sohEvidenceOf.pct;
  const batteryUnmeasured = sohEvidenceOf.status !== "measured" && sohExpected(powertrain) !== false;

  let grade: EolGrade;
  // Confidence starts from the health score's and drops one level per gap that can hide a worse grade.
  let confidence: Confidence = score === null ? "low" : (input.vehicle_health_confidence ?? "medium");
  if (score === null) {
    grade = EOL_NO_SCORE_GRADE;
    limitations.push(
      `Not measured: no vehicle health signal (state of health, trouble codes, 12 V, odometer) was received, so the condition is unknown. The grade ${EOL_NO_SCORE_GRADE} is a placeholder that certifies nothing (confidence low), not a measured condition; it changes once telemetry arrives.`,
    );
  } else {
    grade = gradeForHealthScore(score);
  }

  if (soh !== null) {
    const sohDismissal = soh < EOL_SOH_KNOCKOUT_PCT ? dismissalCovering("soh_below_60", input.soh_at, input.knockout_dismissals) : null;
    if (sohDismissal) {
      // The reviewer dismissed the knockout, not the reading: it still caps the grade like any reading below 70 %.
      grade = worse(grade, "C");
      limitations.push(`${dismissedEvidence(sohKnockoutEvidence(soh, input.soh_at), sohDismissal).statement} The reading still caps the grade at C.`);
    } else if (soh < EOL_SOH_KNOCKOUT_PCT) {
      grade = "F";
      const e = sohKnockoutEvidence(soh, input.soh_at);
      evidence.push(e);
      limitations.push(`Knockout soh_below_60: ${e.statement} This forces grade F.`);
    } else if (soh < EOL_SOH_CAP_C_PCT) {
      grade = worse(grade, "C");
      limitations.push(`Battery state of health ${soh} % is below the usual 70 % warranty threshold; the grade is at most C.`);
    } else if (soh < EOL_SOH_CAP_B_PCT) {
      grade = worse(grade, "B");
      limitations.push(`Battery state of health ${soh} % is below 85 %; the grade is at most B.`);
    }
  }
  const excluded = excludedSohReadings(input.soh_flags);
  for (const x of excluded) limitations.push(x.statement);

  const odoDismissal = input.odometer_manipulation === true && input.odometer_evidence ? odometerDismissal(input.odometer_evidence, input.knockout_dismissals) : null;
  if (odoDismissal && input.odometer_evidence) {
    limitations.push(dismissedEvidence(odometerKnockoutEvidence(input.odometer_evidence), odoDismissal).statement);
  } else if (input.odometer_manipulation === true) {
    grade = "F";
    if (input.odometer_evidence) {
      const e = odometerKnockoutEvidence(input.odometer_evidence);
      evidence.push(e);
      limitations.push(`Knockout odometer_manipulation: ${e.statement} This forces grade F.`);
    } else {
      limitations.push("Knockout odometer_manipulation: an odometer reading more than 1 km below the highest earlier one persists, which forces grade F.");
    }
  } else if (input.odometer_manipulation === null) {
    confidence = lower(confidence);
    limitations.push("Odometer integrity could not be checked (no odometer readings).");
  }
  // A knockout rests on its own readings: an F on evidence is not "unmeasured".
  if (evidence.length > 0 && confidence === "low") confidence = "medium";
  // CONTRACT "Evidence and trust": no grade above C and confidence low without a SoH measured in time.
  if (batteryUnmeasured) {
    grade = worse(grade, EOL_UNMEASURED_BATTERY_CAP);
    confidence = "low";
    limitations.push(
      `${outdatedSohSentence(sohEvidenceOf) ?? (plugIn ? "The battery's state of health was not measured: no plausible reading from the OEM battery management system was received." : "The battery's state of health was not measured (powertrain unknown, no reading received).")} Without a state of health read within ${SOH_MAX_AGE_DAYS} days the grade is at most ${EOL_UNMEASURED_BATTERY_CAP} and its confidence low: the battery, the costliest part of the vehicle, is not certified.`,
    );
  }

  limitations.push(`Grade method ${EOL_GRADE_VERSION}: derived from telemetry and alerts only; no physical inspection (bodywork, interior, tyres) is included.`);

  return {
    device_id: input.device_id,
    condition_grade: grade,
    vehicle_health_score: score,
    confidence,
    knockout_evidence: evidence,
    excluded_readings: excluded,
    soh_evidence: sohEvidenceBody(sohEvidenceOf, sohExpected(powertrain)),
    limitations,
    generated_at: opts.now.toISOString(),
  };
}
