import { finiteOrNull } from "@/lib/numbers";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { above, fmt, iso, makeDraft, round, sortedByTs, tsMs } from "./common";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Odometer integrity detector. CONTRACT ("Settled details", knockout `odometer_manipulation`): an
 * odometer reading lower than the highest EARLIER reading (device time) by more than 1 km. Also flags
 * forward jumps no vehicle could drive. Sources and limitations: docs/methodology/alerts.md#odometer-integrity.
 */

/** CONTRACT: more than this below the highest earlier reading is a rollback. */
export const ROLLBACK_TOLERANCE_KM = 1;
/** A forward jump is implausible when it is larger than this … */
export const JUMP_MIN_KM = 50;
/** … and needs a higher average speed than this between the two readings. */
export const JUMP_MAX_AVG_KMH = 250;
const KM_PER_MILE = 1.609344;
/** A ratio within this fraction of 1.609 (or 1/1.609) hints at a miles/km unit change. */
const UNIT_RATIO_TOLERANCE = 0.02;

type Source = "batch" | "odometer_max" | "previous_state";

interface Known {
  km: number;
  ts: Date;
  source: Source;
}

interface Reading {
  r: TelemetryRecord;
  km: number;
}

function readings(records: readonly TelemetryRecord[]): Reading[] {
  return records.flatMap((r) => {
    const km = finiteOrNull(r.odometerKm);
    return km === null || km < 0 ? [] : [{ r, km }];
  });
}

/** What FDP knew before the batch, each only usable for records later than it. */
function contextReadings(device: DeviceContext): Known[] {
  const out: Known[] = [];
  const max = device.odometerMax;
  if (max && finiteOrNull(max.km) !== null && Number.isFinite(max.ts.getTime())) out.push({ km: max.km, ts: max.ts, source: "odometer_max" });
  const prev = device.previous;
  const prevKm = prev ? finiteOrNull(prev.odometerKm) : null;
  if (prev && prevKm !== null && Number.isFinite(prev.ts.getTime())) out.push({ km: prevKm, ts: prev.ts, source: "previous_state" });
  return out;
}

const nearRatio = (ratio: number, target: number) => Math.abs(ratio / target - 1) <= UNIT_RATIO_TOLERANCE;
const day = (d: Date) => iso(d).slice(0, 10);
/** "25 min", "3.5 h", "4 days". */
const elapsed = (hours: number) => (hours < 2 ? `${fmt(hours * 60, 0)} min` : hours < 48 ? `${fmt(hours, 1)} h` : `${fmt(hours / 24, 0)} days`);

interface Violation {
  x: Reading;
  earlierMax: Known;
  diff: number;
}

interface Jump {
  x: Reading;
  prior: Known;
  delta: number;
  hours: number;
  avgKmh: number;
}

export const detectOdometerIntegrity: Detector = ({ device, records }) => {
  const rs = readings(sortedByTs(records));
  if (rs.length === 0) return [];
  const context = contextReadings(device);

  const violations: Violation[] = [];
  const jumps: Jump[] = [];
  // Batch readings strictly earlier than the current one (equal timestamps are not "earlier").
  let batchMax: Known | null = null;
  let batchLatest: Known | null = null;
  let pendingMax: Known | null = null;
  let pendingLatest: Known | null = null;
  let groupTs = Number.NaN;

  for (const x of rs) {
    const t = tsMs(x.r);
    if (t !== groupTs) {
      // A new timestamp: the previous group's readings become "earlier".
      if (pendingMax && (!batchMax || pendingMax.km > batchMax.km)) batchMax = pendingMax;
      if (pendingLatest) batchLatest = pendingLatest;
      pendingMax = null;
      pendingLatest = null;
      groupTs = t;
    }
    const earlier = [...context.filter((k) => k.ts.getTime() < t), ...(batchMax ? [batchMax] : [])];
    const earlierMax = earlier.reduce<Known | null>((m, k) => (!m || k.km > m.km ? k : m), null);
    if (earlierMax) {
      const diff = round(earlierMax.km - x.km, 6);
      if (above(diff, ROLLBACK_TOLERANCE_KM)) violations.push({ x, earlierMax, diff });
    }

    const priors = [...context.filter((k) => k.ts.getTime() < t), ...(batchLatest ? [batchLatest] : [])];
    const prior = priors.reduce<Known | null>((p, k) => (!p || k.ts.getTime() >= p.ts.getTime() ? k : p), null);
    if (prior) {
      const delta = x.km - prior.km;
      const hours = (t - prior.ts.getTime()) / 3_600_000;
      const avgKmh = delta / hours;
      if (above(delta, JUMP_MIN_KM) && above(avgKmh, JUMP_MAX_AVG_KMH)) jumps.push({ x, prior, delta, hours, avgKmh });
    }

    const here: Known = { km: x.km, ts: x.r.ts, source: "batch" };
    if (!pendingMax || x.km > pendingMax.km) pendingMax = here;
    pendingLatest = here;
  }

  const last = rs[rs.length - 1];
  return [...rollbackDraft(device, violations, last), ...jumpDraft(device, jumps, rs)];
};

function rollbackDraft(device: DeviceContext, violations: readonly Violation[], last: Reading | undefined): AlertDraft[] {
  const first = violations[0];
  if (!first || !last) return [];
  const largest = violations.reduce((m, v) => (v.diff > m.diff ? v : m), first);
  // Persistent: the batch's latest reading is still below the level the rollback fell from.
  const persistent = above(first.earlierMax.km - last.km, ROLLBACK_TOLERANCE_KM);
  const conf = !persistent ? 0.5 : violations.length >= 2 ? 0.9 : 0.75;
  const unitHint = nearRatio(first.x.km / first.earlierMax.km, 1 / KM_PER_MILE);
  const cause = unitHint
    ? "the ratio matches a km→miles change, so check the unit first; otherwise it suggests odometer manipulation"
    : "a reading lower than an earlier one by more than 1 km suggests odometer manipulation or an unrecorded instrument-cluster replacement";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "odometer_integrity",
      severity: "CRITICAL",
      prediction: `Odometer reads ${fmt(first.x.km, 0)} km, ${fmt(first.diff, first.diff < 10 ? 2 : 0)} km below the ${fmt(first.earlierMax.km, 0)} km recorded on ${day(first.earlierMax.ts)}: ${cause}; the Total Asset Score treats it as a manipulation knockout (grade F) until it is explained.`,
      confidence: conf,
      dedupeKey: ALERT_KEYS.odometerRollback,
      observedAt: first.x.r.ts,
      technicalData: {
        rule: "rollback",
        reading_km: round(first.x.km, 3),
        reading_ts: iso(first.x.r.ts),
        earlier_max_km: round(first.earlierMax.km, 3),
        earlier_max_ts: iso(first.earlierMax.ts),
        earlier_max_source: first.earlierMax.source,
        difference_km: round(first.diff, 3),
        tolerance_km: ROLLBACK_TOLERANCE_KM,
        readings_below_earlier_max: violations.length,
        largest_difference_km: round(largest.diff, 3),
        latest_reading_km: round(last.km, 3),
        latest_reading_ts: iso(last.r.ts),
        persistent,
        possible_unit_change: unitHint,
        tas_knockout: "odometer_manipulation",
      },
    }),
  ];
}

function jumpDraft(device: DeviceContext, jumps: readonly Jump[], rs: readonly Reading[]): AlertDraft[] {
  const first = jumps[0];
  if (!first) return [];
  const after = rs.filter((y) => tsMs(y.r) > tsMs(first.x.r));
  // Persistent: later readings continue from the new level instead of falling back.
  const persistent = after.length > 0 && after.every((y) => !above(first.x.km - y.km, ROLLBACK_TOLERANCE_KM));
  const unitHint = first.prior.km > 0 && nearRatio(first.x.km / first.prior.km, KM_PER_MILE);
  const cause = unitHint
    ? "the ratio matches a miles→km change, so the unit probably changed"
    : "probably a unit error, a data error or an instrument-cluster swap";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "odometer_integrity",
      severity: "WARNING",
      prediction: `Odometer jumped ${fmt(first.delta, 0)} km in ${elapsed(first.hours)} (from ${fmt(first.prior.km, 0)} to ${fmt(first.x.km, 0)} km), an average of ${fmt(first.avgKmh, 0)} km/h, above the ${JUMP_MAX_AVG_KMH} km/h no road vehicle sustains: ${cause}; mileage-based figures may be wrong until it is checked.`,
      confidence: persistent || unitHint ? 0.75 : 0.6,
      dedupeKey: ALERT_KEYS.odometerJump,
      observedAt: first.x.r.ts,
      technicalData: {
        rule: "jump",
        reading_km: round(first.x.km, 3),
        reading_ts: iso(first.x.r.ts),
        prior_km: round(first.prior.km, 3),
        prior_ts: iso(first.prior.ts),
        prior_source: first.prior.source,
        difference_km: round(first.delta, 3),
        elapsed_h: round(first.hours, 4),
        average_kmh: round(first.avgKmh, 1),
        threshold_km: JUMP_MIN_KM,
        threshold_avg_kmh: JUMP_MAX_AVG_KMH,
        jumps_in_batch: jumps.length,
        persistent,
        possible_unit_change: unitHint,
      },
    }),
  ];
}
