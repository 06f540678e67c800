/**
 * What a knockout (CONTRACT "Settled details": `soh_below_60`, `odometer_manipulation`) states as its
 * evidence, and the readings the validity rules set aside: one shape for the TAS and EOL answers.
 */
import { ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { sohFlagSentence, type SohFlag } from "@/lib/vocabulary/readings";
import type { KnockoutDismissal, OdometerEvidence } from "@/lib/devices/reading-rows";
import type { Knockout } from "@/lib/vocabulary/scores";
import { odometerEvidenceJson, odometerEvidenceSentence } from "./derived-measures";

/** CONTRACT: the latest plausible SoH below this forces F (TAS and EOL). */
export const SOH_KNOCKOUT_PCT = 60;

export interface KnockoutEvidence {
  knockout: Knockout;
  statement: string;
  readings: { role: string; value: number; unit: "km" | "%"; at: string }[];
  readings_since?: number;
}

export interface ExcludedReading {
  signal: "soh_pct";
  value: number;
  at: string;
  reason: SohFlag["reason"];
  statement: string;
}

/** The excluded-readings entries of SoH flags (TAS and EOL answers). */
export function excludedSohReadings(flags: readonly SohFlag[] | undefined): ExcludedReading[] {
  return (flags ?? []).map((f) => ({ signal: "soh_pct", value: f.pct, at: f.at.toISOString(), reason: f.reason, statement: sohFlagSentence(f) }));
}

/** The soh_below_60 evidence: the latest plausible reading and its time. */
export function sohKnockoutEvidence(soh: number, at: Date | null | undefined): KnockoutEvidence {
  const when = at ? ` at ${at.toISOString()}` : "";
  return {
    knockout: "soh_below_60",
    statement: `The latest plausible state of health reading, ${soh} %${when}, is below ${SOH_KNOCKOUT_PCT} %.`,
    readings: at ? [{ role: "latest_plausible_soh", value: soh, unit: "%", at: at.toISOString() }] : [],
  };
}

/** The odometer_manipulation evidence: highest, first lower and latest readings. */
export function odometerKnockoutEvidence(e: OdometerEvidence): KnockoutEvidence {
  return { knockout: "odometer_manipulation", statement: odometerEvidenceSentence(e), ...odometerEvidenceJson(e) };
}

/** A knockout the knockout rule set aside because a reviewer dismissed the alert that cited its readings. */
export interface DismissedKnockoutEvidence extends KnockoutEvidence {
  alert_id: string;
  dismissed_at: string;
  reason: string;
}

/**
 * The dismissal whose alert cited the reading a knockout rests on (the latest plausible SoH reading, or
 * the odometer's first lower reading), or null. A later reading that is not among the dismissed alert's
 * evidence (a new low SoH reading, a new drop) is not covered: it knocks out again, and raises a new alert.
 */
export function dismissalCovering(knockout: Knockout, at: Date | null | undefined, dismissals: readonly KnockoutDismissal[] | undefined): KnockoutDismissal | null {
  if (!at) return null;
  const t = at.getTime();
  return (dismissals ?? []).find((d) => d.knockout === knockout && d.from.getTime() <= t && t <= d.to.getTime()) ?? null;
}

/**
 * The dismissal covering an odometer knockout: the dismissed alert cited the first lower reading, and the
 * odometer has not gone below that reading since (the latest reading is at or above it, within the 1 km
 * tolerance). A second drop below the dismissed level is new evidence: it knocks out again.
 */
export function odometerDismissal(e: OdometerEvidence, dismissals: readonly KnockoutDismissal[] | undefined): KnockoutDismissal | null {
  if (e.latest.km < e.firstLower.km - ROLLBACK_TOLERANCE_KM) return null;
  return dismissalCovering("odometer_manipulation", e.firstLower.at, dismissals);
}

/** The set-aside evidence with the sentence the TAS and EOL answers state. */
export function dismissedEvidence(e: KnockoutEvidence, d: KnockoutDismissal): DismissedKnockoutEvidence {
  const cited =
    e.knockout === "odometer_manipulation"
      ? `odometer rollback at ${e.readings.find((r) => r.role === "first_lower")?.at ?? d.from.toISOString()}`
      : `state of health below ${SOH_KNOCKOUT_PCT} % at ${e.readings[0]?.at ?? d.from.toISOString()}`;
  return {
    ...e,
    statement: `Knockout ${e.knockout} set aside: the ${cited} was dismissed as a false alarm by a reviewer on ${d.dismissed_at.toISOString().slice(0, 10)}: ${d.reason} (alert ${d.alert_id}). The evidence was: ${e.statement}`,
    alert_id: d.alert_id,
    dismissed_at: d.dismissed_at.toISOString(),
    reason: d.reason,
  };
}
