import { isChargingStatus } from "@/lib/vocabulary/charging";
import { isMovingSpeed } from "@/lib/vocabulary/readings";
import { finiteOrNull } from "@/lib/numbers";
import type { Severity } from "@/lib/vocabulary/alerts";
import type { AlertDraft, TelemetryRecord, WorseDirection } from "./types";

/**
 * Shared helpers of the alert detectors. Pure: no I/O, no clock, no randomness.
 * Methodology: docs/methodology/alerts.md.
 */

/** Stamped into every draft's `technical_data.detector_version`; bump when a rule or threshold changes. */
export const DETECTOR_VERSION = "alerts-2027.02";

/** The one moving cut (lib/vocabulary/readings.ts), re-exported for the detectors and their tests. */

/** Tolerance for comparing derived floating-point differences (e.g. 12345.6 − 12344.6 ≠ 1 exactly). */
const EPSILON = 1e-9;

/** `a > b`, ignoring floating-point noise. */
export function above(a: number, b: number): boolean {
  return a - b > EPSILON;
}

/** `a < b`, ignoring floating-point noise. */
export function below(a: number, b: number): boolean {
  return b - a > EPSILON;
}

/** `a >= b`, ignoring floating-point noise. */
export function atLeast(a: number, b: number): boolean {
  return a - b >= -EPSILON;
}

export function round(x: number, decimals = 1): number {
  const f = 10 ** decimals;
  // `+ 0` turns -0 into 0 so JSON and sentences never show "-0".
  return Math.round(x * f) / f + 0;
}

/** A number for a sentence: at most `decimals` decimals, no trailing zeros, thousands separated by commas. */
export function fmt(x: number, decimals = 1): string {
  const r = round(x, decimals);
  const [int, frac] = Math.abs(r).toString().split(".");
  const grouped = (int ?? "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${r < 0 ? "-" : ""}${grouped}${frac ? `.${frac}` : ""}`;
}

export const iso = (d: Date): string => d.toISOString();

export const tsMs = (r: Pick<TelemetryRecord, "ts">): number => r.ts.getTime();

/**
 * A sorted copy (ts ascending) without records whose timestamp is not a valid date. `Array.prototype.sort`
 * is stable, so records with equal timestamps keep their input order: the result is deterministic.
 */
export function sortedByTs(records: readonly TelemetryRecord[]): TelemetryRecord[] {
  // Fast path (the ingest's and every detector's case: records already in time order): a copy. The
  // sort is stable, so for records that are all valid and in non-decreasing order it would return them
  // in the same order; NaN and anything else take the general path.
  let prev = Number.NEGATIVE_INFINITY;
  let ordered = true;
  for (const r of records) {
    const t = r.ts instanceof Date ? r.ts.getTime() : Number.NaN;
    if (!(t >= prev) || !Number.isFinite(t)) {
      ordered = false;
      break;
    }
    prev = t;
  }
  if (ordered) return records.slice();
  return records.filter((r) => r.ts instanceof Date && Number.isFinite(r.ts.getTime())).sort((a, b) => tsMs(a) - tsMs(b));
}

/** Clamped to [0, 1] and rounded to 2 decimals. */
function confidence(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return round(Math.min(1, Math.max(0, x)), 2);
}

/** base + step per corroborating reading beyond the first, capped. */
export function corroborated(base: number, step: number, readings: number, cap: number): number {
  return confidence(Math.min(cap, base + step * Math.max(0, readings - 1)));
}

/** The charging vocabulary (lib/vocabulary/charging.ts), re-exported for the detectors. */
export { isChargingStatus };

export function isMoving(r: TelemetryRecord): boolean {
  return isMovingSpeed(finiteOrNull(r.speedKmh));
}

/** Charging as the fleet status sees it: standing, and a charging status or a positive charging power. */
/**
 * The vehicle is awake in this reading (moving, ignition on, charging power or a charging word): its 12 V
 * battery is charged or loaded, so a resting reading must wait SETTLE_MS after it. The JS twin of
 * `awakeSql` (lib/vocabulary/readings.ts), the rule of vehicle health's SQL and of readDeviceContexts'
 * last-awake probe: a reading with neither speed nor ignition nor charging information is not awake.
 */
export function isAwakeRecord(r: Pick<TelemetryRecord, "speedKmh" | "ignition" | "chargingPowerKw" | "chargingStatus">): boolean {
  return (finiteOrNull(r.speedKmh) ?? 0) > 0 || r.ignition === 1 || (finiteOrNull(r.chargingPowerKw) ?? 0) > 0 || isChargingStatus(r.chargingStatus);
}

export function isChargingRecord(r: TelemetryRecord): boolean {
  if (isMoving(r)) return false;
  return isChargingStatus(r.chargingStatus) || (finiteOrNull(r.chargingPowerKw) ?? 0) > 0;
}

interface DraftInput {
  deviceId: string;
  agent: AlertDraft["agent"];
  severity: Severity;
  prediction: string;
  confidence: number;
  dedupeKey: string;
  observedAt: Date;
  technicalData: Record<string, unknown>;
  /**
   * Which `technicalData` value measures the occurrence and which way is worse; null for a rule without
   * one. Every rule says it, so the lifecycle can keep the worst value (docs/methodology/alerts.md#lifecycle).
   */
  measure: { field: string; worse: WorseDirection } | null;
}

/** The draft's measure, read from its technical data; null when that value is not a finite number. */
function measureOf(d: DraftInput): AlertDraft["measure"] {
  if (!d.measure) return null;
  const value = d.technicalData[d.measure.field];
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return { field: d.measure.field, value, worst: value, worse: d.measure.worse };
}

/** The worse of two values of a measure. */
export function worseOf(a: number, b: number, worse: WorseDirection): number {
  return worse === "higher" ? Math.max(a, b) : Math.min(a, b);
}

/**
 * Every draft goes through here: confidence clamped and rounded, `detector_version` and the measure's
 * name and direction (`value_field`, `worse_when`) stamped, dates copied.
 */
export function makeDraft(d: DraftInput): AlertDraft {
  const measure = measureOf(d);
  const measureData = measure ? { value_field: measure.field, worse_when: measure.worse } : {};
  return {
    deviceId: d.deviceId,
    agent: d.agent,
    severity: d.severity,
    prediction: d.prediction,
    confidence: confidence(d.confidence),
    technicalData: { ...d.technicalData, ...measureData, detector_version: DETECTOR_VERSION },
    dedupeKey: d.dedupeKey,
    measure,
    observedAt: new Date(d.observedAt.getTime()),
    firstObservedAt: new Date(d.observedAt.getTime()),
  };
}
