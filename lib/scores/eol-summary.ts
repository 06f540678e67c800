/**
 * End-of-life (lease return) condition grade (SPEC 2.7, endpoint 7): a pure function.
 * Methodology: docs/methodology/eol-summary.md.
 */
import { finiteOrNull } from "@/lib/numbers";
import { hasTractionBattery, isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";

export const EOL_GRADE_VERSION = "eol-2026.11";

export type EolGrade = "A" | "B" | "C" | "D" | "F";

/** Lower bounds of the vehicle health score bands (inclusive); below the last band → F. */
export const EOL_BANDS: ReadonlyArray<{ grade: Exclude<EolGrade, "F">; min: number }> = [
  { grade: "A", min: 85 },
  { grade: "B", min: 70 },
  { grade: "C", min: 55 },
  { grade: "D", min: 40 },
];

/** Knockout: SoH below this → F (CONTRACT `soh_below_60`). */
export const EOL_SOH_KNOCKOUT_PCT = 60;
/** SoH below this (typical EV battery warranty, BattGrade C) caps the grade at C. */
export const EOL_SOH_CAP_C_PCT = 70;
/** SoH below this (BattGrade B) caps the grade at B. */
export const EOL_SOH_CAP_B_PCT = 85;
/** Grade given when no vehicle health score is known: never better than D. */
export const EOL_NO_SCORE_GRADE: EolGrade = "D";

export interface EolInput {
  device_id: string;
  /** Vehicle health score 0–100 (SPEC 2.4), or null when it could not be computed. */
  vehicle_health_score: number | null;
  /** Latest OEM-reported state of health in percent, or null (no OEM value / no traction battery). */
  soh_pct: number | null;
  /** true when an odometer rollback (> 1 km below the highest earlier reading) was detected; null = not checked. */
  odometer_manipulation: boolean | null;
  /** Master data powertrain (BEV/PHEV/HEV/ICE) or null. */
  powertrain?: string | null;
}

export interface EolSummary {
  device_id: string;
  condition_grade: EolGrade;
  vehicle_health_score: number | null;
  limitations: string[];
  generated_at: string;
}

const ORDER: EolGrade[] = ["A", "B", "C", "D", "F"];

function worse(a: EolGrade, b: EolGrade): EolGrade {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}


/** The band of a (clamped) health score. */
export function gradeForHealthScore(score: number): EolGrade {
  for (const b of EOL_BANDS) if (score >= b.min) return b.grade;
  return "F";
}

export function buildEolSummary(input: EolInput, opts: { now: Date }): EolSummary {
  const limitations: string[] = [];
  const raw = finiteOrNull(input.vehicle_health_score);
  const score = raw === null ? null : Math.round(Math.min(100, Math.max(0, raw)) * 10) / 10 + 0;
  const soh = finiteOrNull(input.soh_pct);
  const powertrain = normalisePowertrain(input.powertrain);
  const plugIn = isPlugIn(powertrain);

  let grade: EolGrade;
  if (score === null) {
    grade = EOL_NO_SCORE_GRADE;
    limitations.push(
      `No vehicle health score could be computed (too little telemetry); the grade is the conservative ${EOL_NO_SCORE_GRADE} until enough data is received.`,
    );
  } else {
    grade = gradeForHealthScore(score);
  }

  if (soh !== null) {
    if (soh < EOL_SOH_KNOCKOUT_PCT) {
      grade = "F";
      limitations.push(`Knockout soh_below_60: the battery state of health (${soh} %) is below 60 %, which forces grade F.`);
    } else if (soh < EOL_SOH_CAP_C_PCT) {
      grade = worse(grade, "C");
      limitations.push(`Battery state of health ${soh} % is below the usual 70 % warranty threshold; the grade is at most C.`);
    } else if (soh < EOL_SOH_CAP_B_PCT) {
      grade = worse(grade, "B");
      limitations.push(`Battery state of health ${soh} % is below 85 %; the grade is at most B.`);
    }
  } else if (hasTractionBattery(powertrain) !== false) {
    limitations.push(
      plugIn
        ? "No battery state of health from the OEM battery management system is available; the battery is not graded and the grade may be too high."
        : "No battery state of health from an OEM is available (powertrain unknown or hybrid); the battery is not graded.",
    );
  }

  if (input.odometer_manipulation === true) {
    grade = "F";
    limitations.push("Knockout odometer_manipulation: an odometer reading more than 1 km below an earlier maximum was detected, which forces grade F.");
  } else if (input.odometer_manipulation === null) {
    limitations.push("Odometer integrity could not be checked (no odometer readings).");
  }

  limitations.push(
    `Grade method ${EOL_GRADE_VERSION}: derived from telemetry and alerts only; no physical inspection (bodywork, interior, tyres) is included.`,
  );

  return {
    device_id: input.device_id,
    condition_grade: grade,
    vehicle_health_score: score,
    limitations,
    generated_at: opts.now.toISOString(),
  };
}
