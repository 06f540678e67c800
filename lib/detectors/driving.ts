import { finiteOrNull } from "@/lib/numbers";
import { ALERT_KEYS, type Severity } from "@/lib/vocabulary/alerts";
import { above, atLeast, corroborated, fmt, iso, makeDraft, round, sortedByTs, tsMs } from "./common";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Driving detector: sustained overspeed and implausible speed readings. Thresholds and sources:
 * docs/methodology/alerts.md#driving.
 */

/** Finland's highest general motorway limit (120 km/h) plus a 10 km/h tolerance for speedometer/GPS error. */
const OVERSPEED_WARNING_KMH = 130;
/** 40 km/h above the highest Finnish limit. */
const OVERSPEED_CRITICAL_KMH = 160;
/** A speed must be held at least this long (first to last reading of the run, device time). */
const SUSTAINED_S = 60;
/** Readings further apart than this do not prove the speed was held in between: the run breaks. */
const MAX_GAP_S = 300;
/** Above this a reading is treated as a probable sensor/unit error, not as driving. */
const IMPLAUSIBLE_KMH = 200;

interface SpeedReading {
  r: TelemetryRecord;
  speed: number;
}

interface Run {
  readings: SpeedReading[];
  threshold: number;
  durationS: number;
  maxKmh: number;
  /** The reading at which the run had lasted SUSTAINED_S: when the alert condition was first met. */
  trigger: SpeedReading;
}

function speedReadings(records: readonly TelemetryRecord[]): SpeedReading[] {
  return records.flatMap((r) => {
    const speed = finiteOrNull(r.speedKmh);
    return speed === null || speed < 0 ? [] : [{ r, speed }];
  });
}

/** Runs of consecutive plausible readings above `threshold`, at most MAX_GAP_S apart, that last ≥ SUSTAINED_S. */
function sustainedRuns(readings: readonly SpeedReading[], threshold: number): Run[] {
  const runs: Run[] = [];
  let cur: SpeedReading[] = [];
  const close = () => {
    const first = cur[0];
    const last = cur[cur.length - 1];
    if (first && last) {
      const durationS = (tsMs(last.r) - tsMs(first.r)) / 1000;
      const trigger = cur.find((x) => atLeast((tsMs(x.r) - tsMs(first.r)) / 1000, SUSTAINED_S));
      if (trigger) runs.push({ readings: cur, threshold, durationS, maxKmh: Math.max(...cur.map((x) => x.speed)), trigger });
    }
    cur = [];
  };
  for (const x of readings) {
    if (x.speed > IMPLAUSIBLE_KMH) continue; // judged separately; neither extends nor breaks a run
    const prev = cur[cur.length - 1];
    if (prev && (tsMs(x.r) - tsMs(prev.r)) / 1000 > MAX_GAP_S) close();
    if (above(x.speed, threshold)) cur.push(x);
    else close();
  }
  close();
  return runs;
}

/** Longest, then fastest, then latest. */
function best(runs: readonly Run[]): Run | undefined {
  let b: Run | undefined;
  for (const r of runs) {
    if (!b || r.durationS > b.durationS || (r.durationS === b.durationS && r.maxKmh >= b.maxKmh)) b = r;
  }
  return b;
}

function fmtDuration(s: number): string {
  if (s < 120) return `${fmt(s, 0)} s`;
  if (s < 7200) return `${fmt(s / 60, 1)} min`;
  return `${fmt(s / 3600, 1)} h`;
}

function overspeed(device: DeviceContext, readings: readonly SpeedReading[]): AlertDraft[] {
  const warningRuns = sustainedRuns(readings, OVERSPEED_WARNING_KMH);
  if (warningRuns.length === 0) return [];
  const criticalRun = best(sustainedRuns(readings, OVERSPEED_CRITICAL_KMH));
  const run = criticalRun ?? best(warningRuns);
  if (!run) return [];
  const first = run.readings[0];
  const last = run.readings[run.readings.length - 1];
  if (!first || !last) return [];
  const severity: Severity = criticalRun ? "CRITICAL" : "WARNING";
  const mean = run.readings.reduce((s, x) => s + x.speed, 0) / run.readings.length;
  const consequence = criticalRun
    ? "at least 40 km/h over Finland's highest 120 km/h limit: a serious crash risk and, if caught, a heavy fine and possibly a driving ban; talk to the driver now"
    : "over Finland's 120 km/h motorway limit with tolerance: higher crash risk, fuel or energy use and fines; remind the driver of the speed policy";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "driving",
      severity,
      prediction: `Speed stayed above ${run.threshold} km/h for ${fmtDuration(run.durationS)} (up to ${fmt(run.maxKmh, 0)} km/h), ${consequence}.`,
      confidence: corroborated(0.7, 0.05, run.readings.length, 0.95),
      dedupeKey: ALERT_KEYS.drivingOverspeed,
      measure: { field: "max_speed_kmh", worse: "higher" },
      observedAt: run.trigger.r.ts,
      technicalData: {
        rule: "overspeed",
        threshold_kmh: run.threshold,
        warning_threshold_kmh: OVERSPEED_WARNING_KMH,
        critical_threshold_kmh: OVERSPEED_CRITICAL_KMH,
        highest_general_limit_kmh: 120,
        sustained_threshold_s: SUSTAINED_S,
        max_gap_s: MAX_GAP_S,
        max_speed_kmh: round(run.maxKmh, 1),
        mean_speed_kmh: round(mean, 1),
        duration_s: round(run.durationS, 0),
        readings: run.readings.length,
        start_ts: iso(first.r.ts),
        end_ts: iso(last.r.ts),
        runs_over_warning_threshold: warningRuns.length,
        total_sustained_s: round(
          warningRuns.reduce((s, r) => s + r.durationS, 0),
          0,
        ),
      },
    }),
  ];
}

function implausible(device: DeviceContext, readings: readonly SpeedReading[]): AlertDraft[] {
  let worst: { x: SpeedReading; i: number } | undefined;
  let count = 0;
  for (const [i, x] of readings.entries()) {
    if (!above(x.speed, IMPLAUSIBLE_KMH)) continue;
    count++;
    if (!worst || x.speed > worst.x.speed) worst = { x, i };
  }
  if (!worst) return [];
  const { x, i } = worst;
  const before = readings[i - 1];
  const after = readings[i + 1];
  // Isolated: the neighbouring readings are ordinary speeds, so the spike is most likely a sensor error.
  const isolated = [before, after].every((n) => !n || n.speed <= OVERSPEED_CRITICAL_KMH);
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "driving",
      severity: "INFO",
      prediction: `A speed of ${fmt(x.speed, 0)} km/h was reported, above the ${IMPLAUSIBLE_KMH} km/h plausibility limit: probably a sensor, GPS or unit (mph/km/h) error rather than real driving; check the telematics unit's speed source.`,
      confidence: isolated ? 0.7 : 0.4,
      dedupeKey: ALERT_KEYS.drivingImplausibleSpeed,
      measure: { field: "speed_kmh", worse: "higher" },
      observedAt: x.r.ts,
      technicalData: {
        rule: "implausible_speed",
        speed_kmh: round(x.speed, 1),
        threshold_kmh: IMPLAUSIBLE_KMH,
        readings_above_threshold: count,
        isolated,
        previous_speed_kmh: before ? round(before.speed, 1) : null,
        previous_ts: before ? iso(before.r.ts) : null,
        next_speed_kmh: after ? round(after.speed, 1) : null,
        next_ts: after ? iso(after.r.ts) : null,
        observed_at: iso(x.r.ts),
      },
    }),
  ];
}

export const detectDriving: Detector = ({ device, records }) => {
  const readings = speedReadings(sortedByTs(records));
  return [...overspeed(device, readings), ...implausible(device, readings)];
};
