/**
 * Alerts: severities, the detectors ("agents") that raise them, and every dedupe key a detector
 * emits. The detectors build their keys from here and the queries that count alerts (scores,
 * sandbox) filter with the same constants, so a key can never be spelt two ways again.
 * Methodology: docs/methodology/alerts.md.
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */

/** SPEC section 3: alert severities, most severe first. */
export const SEVERITIES = ["CRITICAL", "WARNING", "INFO"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { INFO: 1, WARNING: 2, CRITICAL: 3 };

/** CONTRACT: the fleet record's `alert_level`, the highest unacknowledged severity in lower case, or `none`. */
export const ALERT_LEVELS = ["none", "info", "warning", "critical"] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

export function alertLevelOf(severity: Severity | null): AlertLevel {
  return severity === null ? "none" : (severity.toLowerCase() as Lowercase<Severity>);
}

/** CONTRACT: `agent` names the detector that raised an alert. */
export const ALERT_AGENTS = ["battery", "diagnostics", "driving", "odometer_integrity", "charging"] as const;
export type AlertAgent = (typeof ALERT_AGENTS)[number];

/**
 * Dedupe keys: a key names a problem; occurrences of the same device and key update the open alert,
 * a more severe one is raised alongside (docs/methodology/alerts.md#lifecycle). Count distinct
 * problems as distinct (device, key), never alert rows. `<agent>:<rule>`; diagnostics has one key per trouble code (see `diagnosticsKey`).
 */
export const ALERT_KEYS = {
  batteryLowSoc: "battery:low_soc",
  batteryLow12v: "battery:low_12v",
  batterySohDrop: "battery:soh_drop",
  batterySohLow: "battery:soh_low",
  drivingOverspeed: "driving:overspeed",
  drivingImplausibleSpeed: "driving:implausible_speed",
  odometerRollback: "odometer_integrity:rollback",
  odometerJump: "odometer_integrity:jump",
  /** A reading later readings contradicted (a one-sample drop or spike): data quality, not manipulation. */
  odometerOutlier: "odometer_integrity:outlier",
  chargingImplausiblePower: "charging:implausible_power",
  chargingHighCRate: "charging:high_c_rate",
  chargingStalled: "charging:stalled",
} as const;

/** The key of a diagnostic trouble code's alert, e.g. `diagnostics:P0420` (the code normalised upper-case). */
export function diagnosticsKey(code: string): `diagnostics:${string}` {
  return `diagnostics:${code}`;
}

const FIXED_KEYS: ReadonlySet<string> = new Set(Object.values(ALERT_KEYS));
/** The shape the ingest accepts for a trouble code (SAE J2012 five characters), as stored upper-case. */
const DIAGNOSTICS_KEY = /^diagnostics:[PCBU][0-9A-F]{4}$/;

/** A key some detector emits: one of ALERT_KEYS or a trouble code's key. */
export function isAlertKey(key: string): boolean {
  return FIXED_KEYS.has(key) || DIAGNOSTICS_KEY.test(key);
}

/** The agent a dedupe key belongs to (the part before the first colon), or null for a key of no known agent. */
export function agentOfKey(key: string): AlertAgent | null {
  const prefix = key.slice(0, key.indexOf(":"));
  return (ALERT_AGENTS as readonly string[]).includes(prefix) ? (prefix as AlertAgent) : null;
}
