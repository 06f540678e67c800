import type { AlertAgent, Severity } from "@/lib/vocabulary/alerts";
import type { Powertrain } from "@/lib/vocabulary/powertrain";

/** One telemetry record after ingest validation and mapping (SPEC 2.17 → FDP columns). */
export interface TelemetryRecord {
  deviceId: string;
  /** Null when the source does not report it (a tracker behind Traccar without a VIN attribute). */
  vin: string | null;
  /** Device timestamp. */
  ts: Date;
  odometerKm: number | null;
  socPct: number | null;
  sohPct: number | null;
  /** Volts, as the OEM reports it (12 V system or traction pack; see `raw_data.voltage_kind` if given). */
  batteryVoltage: number | null;
  chargingStatus: string | null;
  /** kW, from `raw_data.charging_power_kw` when the OEM reports it. */
  chargingPowerKw: number | null;
  lat: number | null;
  lon: number | null;
  speedKmh: number | null;
  fuelLevelPct: number | null;
  engineHours: number | null;
  dtcCodes: string[] | null;
  /** °C, from `raw_data.ambient_temp_c`. */
  weatherTemp: number | null;
  ignition: 0 | 1 | null;
  rawData: Record<string, unknown> | null;
}

/**
 * What FDP knows about the device when it judges a batch (read in bounded queries for the whole
 * batch): its master data as merged with this batch's (the device upsert's result, so the same
 * precedence as stored), and its state before this batch.
 */
export interface DeviceContext {
  deviceId: string;
  powertrain: Powertrain | null;
  batteryKwh: number | null;
  /** The latest state before this batch, or null for a new device. */
  previous: {
    ts: Date;
    odometerKm: number | null;
    socPct: number | null;
    sohPct: number | null;
    /** Trouble codes active in that state (absent: unknown): a code still reported is not news. */
    dtcCodes?: string[] | null;
    /** Speed in that state (absent: unknown): the first sample of a pair for derived harsh events. */
    speedKmh?: number | null;
  } | null;
  /** Highest odometer reading seen before this batch and its device time, or null. */
  odometerMax: { km: number; ts: Date } | null;
  /**
   * The latest stored reading with the vehicle awake (moving, ignition on, charging: `isAwakeRecord`)
   * within SETTLE_MS before `previous.ts`, else null (none that recent, or unknown: absent). The 12 V
   * settle clock starts here, so one record per batch is judged as vehicle health's SQL judges it.
   */
  lastAwakeAt?: Date | null;
}

/** Which way a rule's measure gets worse (a lower SoH, a higher speed). */
export type WorseDirection = "higher" | "lower";

/**
 * The number an occurrence of a rule is judged by: `technicalData[field]`. The alert lifecycle keeps
 * the worst and the latest of it across occurrences (lib/alerts/alert-lifecycle.ts).
 */
export interface DraftMeasure {
  field: string;
  /** This occurrence's value (= `technicalData[field]`). */
  value: number;
  /** The worst value of the drafts folded into this one by in-batch de-duplication, else `value`. */
  worst: number;
  worse: WorseDirection;
}

/**
 * An occurrence of a problem a detector found. The store raises it as a new alert, or folds it into the
 * problem's open alert (lib/alerts/alert-lifecycle.ts, docs/methodology/alerts.md#lifecycle).
 */
export interface AlertDraft {
  deviceId: string;
  agent: AlertAgent;
  severity: Severity;
  /** A plain sentence a fleet manager understands. */
  prediction: string;
  /** 0–1. */
  confidence: number;
  /** The evidence: values, thresholds, timestamps (ISO strings). */
  technicalData: Record<string, unknown>;
  /**
   * Identifies the problem: occurrences with the same device and key are "the same alert" (an open
   * alert at least as severe absorbs them; a more severe one is raised alongside). Stable across
   * batches: ALERT_KEYS and diagnosticsKey() of lib/vocabulary/alerts.ts.
   */
  dedupeKey: string;
  /** The rule's measure for this occurrence, or null for a rule without one (a trouble code). */
  measure: DraftMeasure | null;
  /**
   * Device time of the evidence that triggered it, always the timestamp of one of the batch's records
   * (used as created_at when it is in the past; the store counts the occurrence only when that record
   * is new to FDP).
   */
  observedAt: Date;
  /** The earliest evidence folded into this draft (in-batch de-duplication), else `observedAt`. */
  firstObservedAt: Date;
  /**
   * Open alerts of another problem that this occurrence shows to be wrong, to be resolved (closed, kept)
   * by the store: e.g. a contradicted odometer drop resolves the rollback alert raised for it
   * (lib/alerts/alert-lifecycle.ts `resolvesAlert`, docs/methodology/alerts.md#lifecycle).
   */
  resolves?: AlertResolution;
}

/**
 * Which open alerts a later reading contradicts: those of `dedupeKey` on the draft's device whose latest
 * evidence is before `evidenceBefore` (the contradicting reading, a record of the batch) and whose
 * `technicalData[levelAtMost.field]` is a number no higher than `levelAtMost.value`. The store closes
 * them (acknowledged by `fdp:<agent>`) and records `reason` and `evidence` in their technical data.
 */
export interface AlertResolution {
  dedupeKey: string;
  evidenceBefore: Date;
  levelAtMost: { field: string; value: number };
  /** A plain sentence: why the alert no longer holds. */
  reason: string;
  /** The contradicting evidence (ISO strings for times). */
  evidence: Record<string, unknown>;
}

/**
 * A detector: a pure function of one device's context and its records of this batch, sorted by
 * `ts` ascending. No I/O, no clock: the same input gives the same drafts.
 */
export type Detector = (input: { device: DeviceContext; records: readonly TelemetryRecord[] }) => AlertDraft[];
