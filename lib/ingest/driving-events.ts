import { finiteOrNull } from "@/lib/numbers";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { DENSE_MAX_INTERVAL_S, DENSE_MIN_INTERVAL_S, type DrivingEventKind, type DrivingEventSource, isDrivingEventKind } from "@/lib/vocabulary/driving-events";

/**
 * Driving events of one device's batch, as stored in `driving_events`: those the OEM reports in
 * `raw_data.events` (kinds FDP knows; others stay in raw_data only) and harsh accelerations and
 * braking FDP derives from consecutive speed samples where they are dense enough. Pure: the ingest
 * and the sandbox replay call the same functions. Thresholds and sources:
 * docs/methodology/alerts.md ("Driving events").
 */

/** Standard gravity (ISO 80000-3), m/s² per g. */
export const STANDARD_GRAVITY_MS2 = 9.80665;
const KMH_PER_MS = 3.6;

/**
 * Harsh braking: a deceleration above 0.3 g (2.94 m/s², 10.6 km/h lost per second). Published
 * definitions cluster at 0.28–0.32 g: Google Research's hard-braking events, 3 m/s² (0.31 g);
 * Zendrive and Driveway Software, a speed drop of 7 mph (11 km/h) within one second (0.32 g);
 * Teltonika's default for harsh braking computed from 1 Hz GPS speed, 2.7 m/s² (0.28 g).
 */
export const HARSH_BRAKING_G = 0.3;
/**
 * Harsh acceleration: above 0.3 g. Zendrive: a speed gain of 7 mph (11 km/h) within one second
 * (0.32 g); the Telematics SDK, above 3 m/s² (0.31 g); Teltonika's GPS default 2.5 m/s² (0.25 g);
 * Samsara labels 16 mph within 2 s (0.36 g) as harsh acceleration.
 */
export const HARSH_ACCELERATION_G = 0.3;
/** The faster of the two samples must be at least 10 km/h (Teltonika's condition for GPS-based harsh acceleration/braking). */
const DERIVED_MIN_SPEED_KMH = 10;
/**
 * Above 1.5 g a speed change is a sample error, not driving (FDP choice): road tyres give about 1 g
 * at best; a race car rarely exceeds 0.9 g on any axis (Positrace knowledge base).
 */
const DERIVED_IMPLAUSIBLE_G = 1.5;

/** Floating-point noise: exactly at a threshold is not above it. */
const EPSILON = 1e-9;

export interface DrivingEventRow {
  deviceId: string;
  /** Device time of the event (for a derived one, the first sample of the manoeuvre). */
  ts: Date;
  kind: DrivingEventKind;
  source: DrivingEventSource;
  /** g for the harsh kinds, km/h for overspeed. */
  value: number;
  durationS: number | null;
  /** Device time of the record that carried (oem) or completed (derived) the event: only events of newly stored records are stored. */
  recordTs: Date;
}

interface DrivingEventObservation {
  events: DrivingEventRow[];
  /** Device time of the newest record carrying a `raw_data.events` array (the source reports events), or null. */
  eventsReportedAt: Date | null;
  /** Device time of the newest dense speed-sample pair while driving (harsh events could have been derived), or null. */
  denseSpeedAt: Date | null;
}

/** Events of known kinds in the records' `raw_data.events` (validated at ingest; anything malformed is skipped, not guessed). */
export function oemDrivingEvents(deviceId: string, records: readonly TelemetryRecord[]): DrivingEventRow[] {
  const out: DrivingEventRow[] = [];
  for (const r of records) {
    const events = r.rawData?.events;
    if (!Array.isArray(events)) continue;
    for (const e of events as unknown[]) {
      if (e === null || typeof e !== "object") continue;
      const { kind, ts, value, duration_s: durationS } = e as Record<string, unknown>;
      const at = typeof ts === "string" ? new Date(ts) : null;
      const v = finiteOrNull(value);
      if (!isDrivingEventKind(kind) || !at || !Number.isFinite(at.getTime()) || v === null) continue;
      out.push({ deviceId, ts: at, kind, source: "oem", value: v, durationS: finiteOrNull(durationS), recordTs: r.ts });
    }
  }
  return out;
}

interface Sample {
  ts: Date;
  speedKmh: number;
}

interface DensePair {
  from: Sample;
  to: Sample;
  /** Signed longitudinal acceleration in g (negative: braking). */
  g: number;
}

/**
 * Consecutive speed samples (the state before the batch first, when it is older than the batch)
 * that are dense enough to measure an acceleration.
 */
function densePairs(records: readonly TelemetryRecord[], previous: DeviceContext["previous"]): DensePair[] {
  const samples: Sample[] = [];
  const prevSpeed = finiteOrNull(previous?.speedKmh);
  const first = records[0];
  if (previous && prevSpeed !== null && first && previous.ts.getTime() < first.ts.getTime()) samples.push({ ts: previous.ts, speedKmh: prevSpeed });
  for (const r of records) {
    const speed = finiteOrNull(r.speedKmh);
    if (speed !== null && speed >= 0) samples.push({ ts: r.ts, speedKmh: speed });
  }
  const pairs: DensePair[] = [];
  for (let i = 1; i < samples.length; i++) {
    const from = samples[i - 1] as Sample;
    const to = samples[i] as Sample;
    const dtS = (to.ts.getTime() - from.ts.getTime()) / 1000;
    if (dtS < DENSE_MIN_INTERVAL_S - EPSILON || dtS > DENSE_MAX_INTERVAL_S + EPSILON) continue;
    const g = (to.speedKmh - from.speedKmh) / KMH_PER_MS / dtS / STANDARD_GRAVITY_MS2;
    pairs.push({ from, to, g });
  }
  return pairs;
}

function harshKindOf(pair: DensePair): "harsh_braking" | "harsh_acceleration" | null {
  if (Math.max(pair.from.speedKmh, pair.to.speedKmh) < DERIVED_MIN_SPEED_KMH) return null;
  if (Math.abs(pair.g) > DERIVED_IMPLAUSIBLE_G) return null;
  if (pair.g < 0 && -pair.g - HARSH_BRAKING_G > EPSILON) return "harsh_braking";
  if (pair.g > 0 && pair.g - HARSH_ACCELERATION_G > EPSILON) return "harsh_acceleration";
  return null;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000 + 0;

/**
 * Harsh braking and acceleration from dense speed samples (records sorted by time). Consecutive
 * harsh pairs of the same kind, each following on from the last, form one event: it starts at the
 * first sample, its value is the peak in g, its duration runs to the last sample.
 */
export function deriveHarshEvents(
  deviceId: string,
  records: readonly TelemetryRecord[],
  previous: DeviceContext["previous"],
): { events: DrivingEventRow[]; denseSpeedAt: Date | null } {
  interface Run {
    kind: "harsh_braking" | "harsh_acceleration";
    start: Date;
    end: Date;
    peak: number;
  }
  const pairs = densePairs(records, previous);
  const events: DrivingEventRow[] = [];
  const flush = (r: Run | null) => {
    if (!r) return;
    const durationS = round3((r.end.getTime() - r.start.getTime()) / 1000);
    events.push({ deviceId, ts: r.start, kind: r.kind, source: "derived", value: round3(r.peak), durationS, recordTs: r.end });
  };
  let run: Run | null = null;
  for (const pair of pairs) {
    const kind = harshKindOf(pair);
    if (run !== null && kind === run.kind && run.end.getTime() === pair.from.ts.getTime()) {
      run.end = pair.to.ts;
      run.peak = Math.max(run.peak, Math.abs(pair.g));
      continue;
    }
    flush(run);
    run = kind ? { kind, start: pair.from.ts, end: pair.to.ts, peak: Math.abs(pair.g) } : null;
  }
  flush(run);
  // Coverage: driving (not a parked car's zeros) was sampled densely enough to see a harsh event.
  const driving = pairs.filter((p) => Math.max(p.from.speedKmh, p.to.speedKmh) >= DERIVED_MIN_SPEED_KMH);
  const last = driving[driving.length - 1];
  return { events, denseSpeedAt: last ? last.to.ts : null };
}

/**
 * Everything one device's batch (records sorted by time, one per timestamp) says about driving
 * events: the OEM's and the derived ones (one per device, time, kind and source: the first wins),
 * and whether the batch shows event reporting or dense sampling at all.
 */
/** What identifies a stored driving event of one device (the table's primary key without tenant and device). */
export function drivingEventKey(e: Pick<DrivingEventRow, "ts" | "kind" | "source">): string {
  return `${e.ts.getTime()}\u0000${e.kind}\u0000${e.source}`;
}

export function observeDrivingEvents(deviceId: string, records: readonly TelemetryRecord[], previous: DeviceContext["previous"]): DrivingEventObservation {
  const derived = deriveHarshEvents(deviceId, records, previous);
  const seen = new Set<string>();
  const events = [...oemDrivingEvents(deviceId, records), ...derived.events].filter((e) => {
    const key = drivingEventKey(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  let eventsReportedAt: Date | null = null;
  for (const r of records) if (Array.isArray(r.rawData?.events) && (!eventsReportedAt || r.ts > eventsReportedAt)) eventsReportedAt = r.ts;
  return { events, eventsReportedAt, denseSpeedAt: derived.denseSpeedAt };
}
