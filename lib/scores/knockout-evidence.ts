/**
 * What a knockout (CONTRACT "Settled details": `soh_below_60`, `odometer_manipulation`) states as its
 * evidence, and the readings the validity rules set aside: one shape for the TAS and EOL answers.
 */
import { sohFlagSentence, type SohFlag } from "@/lib/vocabulary/readings";
import { odometerEvidenceJson, odometerEvidenceSentence, type OdometerEvidence } from "./derived-measures";

export type Knockout = "soh_below_60" | "odometer_manipulation";
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

