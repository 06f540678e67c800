import type { AlertAgent, Severity } from "@/lib/vocabulary/alerts";
import type { Powertrain } from "@/lib/vocabulary/powertrain";

/** One telemetry record after ingest validation and mapping (SPEC 2.17 → FDP columns). */
export interface TelemetryRecord {
  deviceId: string;
  vin: string;
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
}

/** An alert a detector wants raised; the store drops it when the same open alert exists. */
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
   * Identifies "the same alert": while an unacknowledged alert with this key exists for the
   * device, another one is not raised. Stable across batches: ALERT_KEYS and diagnosticsKey() of
   * lib/vocabulary/alerts.ts.
   */
  dedupeKey: string;
  /** Device time of the evidence that triggered it (used as created_at when it is in the past). */
  observedAt: Date;
}

/**
 * A detector: a pure function of one device's context and its records of this batch, sorted by
 * `ts` ascending. No I/O, no clock: the same input gives the same drafts.
 */
export type Detector = (input: { device: DeviceContext; records: readonly TelemetryRecord[] }) => AlertDraft[];
