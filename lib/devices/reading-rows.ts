/**
 * Turning the validity columns of the device parts (device-parts.ts) into judged readings, so that every
 * loader reads the same SQL columns the same way (one validity module: lib/vocabulary/readings.ts).
 */
import { sqlDate, sqlJson, sqlNumber, sqlText } from "@/lib/db/sql-values";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { judgeSohReadings, restingTwelveVolt, type SohJudgement, type TwelveVoltChemistry } from "@/lib/vocabulary/readings";
import type { Knockout } from "@/lib/vocabulary/scores";

/**
 * The readings that show an odometer manipulation (CONTRACT knockout `odometer_manipulation`): the
 * highest earlier reading (an implausible spike excluded), the first reading after the last one at
 * that level, and the latest reading, which is still more than 1 km below it.
 */
export interface OdometerEvidence {
  highest: { km: number; at: Date };
  firstLower: { km: number; at: Date };
  latest: { km: number; at: Date };
  /** Readings from the first lower one through the latest, none back at the earlier level. */
  readingsSince: number;
}

/**
 * A knockout alert a reviewer dismissed as a false alarm (lib/alerts/dismiss-alert.ts): the readings it
 * cited are the device times from its first to its latest occurrence's evidence (`from`…`to`). Loaded by
 * the `dismissedKnockoutAlerts` part (device-parts.ts). The reviewer's identity stays in the audit
 * log and the dashboard; the answers say "a reviewer".
 */
export interface KnockoutDismissal {
  knockout: Knockout;
  alert_id: string;
  from: Date;
  to: Date;
  dismissed_at: Date;
  reason: string;
}

/** The `recentSoh` part's readings, judged by the plausibility rule. */
export function sohJudgementOf(row: Record<string, unknown>): SohJudgement {
  const raw = sqlJson<{ pct: unknown; at_ms: unknown }[]>(row.soh_recent) ?? [];
  const readings = (Array.isArray(raw) ? raw : []).flatMap((x) => {
    const pct = sqlNumber(x?.pct);
    const at = sqlNumber(x?.at_ms);
    return pct !== null && at !== null ? [{ pct, at: new Date(at) }] : [];
  });
  return judgeSohReadings(readings);
}

/** The `odometerEvidence` part's evidence (with the `latestOdometer` part), or null when there is none. */
export function odometerEvidenceOf(row: Record<string, unknown>): OdometerEvidence | null {
  const highKm = sqlNumber(row.odo_high_km);
  const highAt = sqlDate(row.odo_high_ts);
  const lowerKm = sqlNumber(row.odo_lower_km);
  const lowerAt = sqlDate(row.odo_lower_ts);
  const latestKm = sqlNumber(row.latest_odo);
  const latestAt = sqlDate(row.latest_odo_ts);
  if (highKm === null || !highAt || lowerKm === null || !lowerAt || latestKm === null || !latestAt) return null;
  return {
    highest: { km: highKm, at: highAt },
    firstLower: { km: lowerKm, at: lowerAt },
    latest: { km: latestKm, at: latestAt },
    readingsSince: sqlNumber(row.odo_readings_since) ?? 1,
  };
}

/** The `electrical` part's resting reading, re-checked by the JS rule (the SQL already selected a settled one). */
export function resting12vOf(row: Record<string, unknown>): { v: number; chemistry: TwelveVoltChemistry } | null {
  return restingTwelveVolt(
    {
      voltage: sqlNumber(row.resting_12v),
      speedKmh: 0,
      ignition: 0,
      charging: false,
      voltageKind: sqlText(row.resting_12v_kind),
      chemistry: sqlText(row.resting_12v_chemistry),
    },
    true,
  );
}

/** The `dismissedKnockoutAlerts` part's dismissals, by the knockout their alert's key stands for. */
export function knockoutDismissalsOf(row: Record<string, unknown>): KnockoutDismissal[] {
  const raw = sqlJson<Record<string, unknown>[]>(row.ko_dismissals) ?? [];
  return (Array.isArray(raw) ? raw : []).flatMap((x) => {
    const knockout = x?.key === ALERT_KEYS.odometerRollback ? "odometer_manipulation" : x?.key === ALERT_KEYS.batterySohLow ? "soh_below_60" : null;
    const from = sqlNumber(x?.from_ms);
    const to = sqlNumber(x?.to_ms);
    const at = sqlNumber(x?.at_ms);
    const id = sqlText(x?.alert_id);
    if (knockout === null || from === null || to === null || at === null || id === null) return [];
    return [{ knockout, alert_id: id, from: new Date(from), to: new Date(to), dismissed_at: new Date(at), reason: sqlText(x?.reason) ?? "" }];
  });
}
