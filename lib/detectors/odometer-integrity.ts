import { finiteOrNull } from "@/lib/numbers";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { above, fmt, iso, makeDraft, round, sortedByTs, tsMs } from "./common";
import type { AlertDraft, AlertResolution, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Odometer integrity detector. CONTRACT ("Settled details", knockout `odometer_manipulation`): an
 * odometer reading lower than the highest EARLIER reading (device time) by more than 1 km that no later
 * reading contradicts (CRITICAL rollback); one that a later reading contradicts, and an implausible
 * upward spike the next reading falls back from, are data-quality outliers (INFO). Also flags forward
 * jumps no vehicle could drive. Sources and limitations: docs/methodology/alerts.md#odometer-integrity.
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

/** A jump no road vehicle could drive (both limits exceeded). */
export const implausibleJump = (delta: number, hours: number) => above(delta, JUMP_MIN_KM) && above(delta / hours, JUMP_MAX_AVG_KMH);

/**
 * A one-sample upward outlier (CONTRACT: "a one-sample outlier that the next reading contradicts"):
 * the NEXT reading falls back from it by more than the tolerance, to near the reading BEFORE it — not
 * more than the tolerance below it, and nearer to it than to the outlier — whatever speed the rise
 * implies. A +10,000 km glitch after three days parked is one as much as a +9,000 km one within the
 * hour. A next reading below the level before the rise is not a spike's contradiction (the rise stands
 * and the drop is judged as a possible rollback), nor is one that keeps most of the rise (10,000 →
 * 10,050 → 10,040: the 10,050 was driven, the 10 km drop is judged). The knockout's SQL applies the same
 * rule over the history (docs/methodology/alerts.md#odometer-integrity).
 */
export function isOdometerSpike(beforeKm: number, km: number, nextKm: number): boolean {
  return above(km - nextKm, ROLLBACK_TOLERANCE_KM) && !above(beforeKm - nextKm, ROLLBACK_TOLERANCE_KM) && nextKm - beforeKm < km - nextKm;
}

/**
 * One-sample outliers within the batch (isOdometerSpike against the reading just before, the device's
 * stored state `before` for the batch's first reading). They are not the odometer's level: later readings
 * are not judged against them, and the device's highest reading (`odometer_max_km`, confirmedOdometerMax in
 * lib/ingest/normalize-records.ts, which also holds back a reading no later one has confirmed yet) ignores
 * them. A reading held back that the next batch falls back from is judged by spikeInStoredState below.
 * `sorted`: ts ascending.
 */
export function odometerSpikes(sorted: readonly TelemetryRecord[], before: { km: number; ts: Date } | null = null): Set<TelemetryRecord> {
  const rs = readings(sorted);
  const spikes = new Set<TelemetryRecord>();
  for (let i = 0; i < rs.length; i++) {
    const x = rs[i]!;
    const t = tsMs(x.r);
    // The first later reading and the last earlier one (loops, not slices: this runs for every reading).
    let next: Reading | undefined;
    for (let j = i + 1; j < rs.length && next === undefined; j++) if (tsMs(rs[j]!.r) > t) next = rs[j];
    let prior: Reading | undefined;
    for (let j = i - 1; j >= 0 && prior === undefined; j--) if (tsMs(rs[j]!.r) < t) prior = rs[j];
    const priorKm = prior ? prior.km : before && before.ts.getTime() < tsMs(x.r) ? before.km : null;
    if (priorKm !== null && next && isOdometerSpike(priorKm, x.km, next.km)) spikes.add(x.r);
  }
  return spikes;
}

/** A reading that later readings contradicted: a data-quality event, not manipulation (CONTRACT). */
interface Outlier {
  kind: "drop" | "spike" | "earlier_drop";
  reading: Known;
  /** The level it departed from: the highest earlier reading (drop), the reading before it (spike). */
  level: Known;
  /** The reading that contradicts it. */
  next: Known;
  deviationKm: number;
  /** The batch record the outlier alert is dated by. */
  evidence: TelemetryRecord;
}

const known = (x: Reading): Known => ({ km: x.km, ts: x.r.ts, source: "batch" });

export const detectOdometerIntegrity: Detector = ({ device, records }) => {
  const sorted = sortedByTs(records);
  const prevKm = device.previous ? finiteOrNull(device.previous.odometerKm) : null;
  const spikeSet = odometerSpikes(sorted, device.previous && prevKm !== null ? { km: prevKm, ts: device.previous.ts } : null);
  const all = readings(sorted);
  if (all.length === 0) return [];
  const rs = all.filter((x) => !spikeSet.has(x.r));
  const outliers: Outlier[] = [];
  const storedSpike = spikeInStoredState(device, rs);
  if (storedSpike) outliers.push(storedSpike);
  // A stored state that was a spike is not a level the batch is judged against.
  const context = contextReadings(device).filter((k) => !(storedSpike && k.source === "previous_state"));

  for (const [i, x] of all.entries()) {
    if (!spikeSet.has(x.r)) continue;
    const before = all
      .slice(0, i)
      .reverse()
      .find((y) => !spikeSet.has(y.r));
    const next = all.slice(i + 1).find((y) => tsMs(y.r) > tsMs(x.r));
    if (before && next) outliers.push({ kind: "spike", reading: known(x), level: known(before), next: known(next), deviationKm: x.km - before.km, evidence: x.r });
  }

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
    // The highest earlier reading (the first of equals: context in order, then the batch's).
    let earlierMax: Known | null = null;
    for (const k of context) if (k.ts.getTime() < t && (!earlierMax || k.km > earlierMax.km)) earlierMax = k;
    if (batchMax && (!earlierMax || batchMax.km > earlierMax.km)) earlierMax = batchMax;
    if (earlierMax) {
      const diff = round(earlierMax.km - x.km, 6);
      if (above(diff, ROLLBACK_TOLERANCE_KM)) violations.push({ x, earlierMax, diff });
    }

    // The latest earlier reading (the last of equals).
    let prior: Known | null = null;
    for (const k of context) if (k.ts.getTime() < t && (!prior || k.ts.getTime() >= prior.ts.getTime())) prior = k;
    if (batchLatest && (!prior || batchLatest.ts.getTime() >= prior.ts.getTime())) prior = batchLatest;
    // A prior reading below the level (a drop, contradicted or not) is not where a rise is measured
    // from: a return from a glitch to the level is no jump, and a rise is judged from the level.
    if (prior && earlierMax && above(earlierMax.km - prior.km, ROLLBACK_TOLERANCE_KM)) prior = earlierMax;
    if (prior) {
      const delta = x.km - prior.km;
      const hours = (t - prior.ts.getTime()) / 3_600_000;
      if (implausibleJump(delta, hours)) jumps.push({ x, prior, delta, hours, avgKmh: delta / hours });
    }

    const here: Known = { km: x.km, ts: x.r.ts, source: "batch" };
    if (!pendingMax || x.km > pendingMax.km) pendingMax = here;
    pendingLatest = here;
  }

  // CONTRACT: a lower reading is manipulation only while no later reading contradicts it (is back
  // within the tolerance of the level it fell from); a contradicted one is a data-quality event.
  const contradiction = (v: Violation): Reading | undefined => rs.find((y) => tsMs(y.r) > tsMs(v.x.r) && !above(v.earlierMax.km - y.km, ROLLBACK_TOLERANCE_KM));
  const persisting: Violation[] = [];
  for (const v of violations) {
    const back = contradiction(v);
    if (back) outliers.push({ kind: "drop", reading: known(v.x), level: v.earlierMax, next: known(back), deviationKm: v.diff, evidence: v.x.r });
    else persisting.push(v);
  }
  const earlier = contradictedEarlierDrop(device, rs);
  if (earlier) outliers.push(earlier);

  const last = rs[rs.length - 1];
  const storedLow = storedStateBelowMax(device, persisting[0]);
  return [...rollbackDraft(device, persisting, violations.length - persisting.length, last, storedLow), ...outlierDraft(device, outliers), ...jumpDraft(device, jumps, rs)];
};

/**
 * The device's stored state stands above its stored maximum: the maximum did not rise to it because no
 * later reading had confirmed it yet (confirmedOdometerMax, lib/ingest/normalize-records.ts, holds such a
 * reading back). When the batch's first later reading falls back from it, near the level before it
 * (isOdometerSpike), it was a one-sample spike (a data-quality event), not the level later readings are judged against.
 */
function spikeInStoredState(device: DeviceContext, rs: readonly Reading[]): Outlier | null {
  const prev = device.previous;
  const max = device.odometerMax;
  const prevKm = prev ? finiteOrNull(prev.odometerKm) : null;
  if (!prev || !max || prevKm === null || !(max.ts.getTime() < prev.ts.getTime()) || !above(prevKm - max.km, ROLLBACK_TOLERANCE_KM)) return null;
  const next = rs.find((y) => tsMs(y.r) > prev.ts.getTime());
  // The highest confirmed reading stands for the reading before the stored one (the context keeps no other).
  if (!next || !isOdometerSpike(max.km, prevKm, next.km)) return null;
  return {
    kind: "spike",
    reading: { km: prevKm, ts: prev.ts, source: "previous_state" },
    level: { km: max.km, ts: max.ts, source: "odometer_max" },
    next: known(next),
    deviationKm: prevKm - max.km,
    evidence: next.r,
  };
}

/**
 * The device's stored state was already below the level the batch's first persisting drop falls from
 * (after it, by more than the tolerance): the drop was seen before this batch, so the batch's reading
 * is a second one that stays low.
 */
function storedStateBelowMax(device: DeviceContext, first: Violation | undefined): boolean {
  const prev = device.previous;
  const prevKm = prev ? finiteOrNull(prev.odometerKm) : null;
  if (!first || !prev || prevKm === null) return false;
  return first.earlierMax.ts.getTime() < prev.ts.getTime() && prev.ts.getTime() < tsMs(first.x.r) && above(first.earlierMax.km - prevKm, ROLLBACK_TOLERANCE_KM);
}

/**
 * The device's stored state was a drop below its highest earlier reading (a rollback alert may be open
 * for it), and the batch's first later reading is back at that level: the drop was contradicted.
 */
function contradictedEarlierDrop(device: DeviceContext, rs: readonly Reading[]): Outlier | null {
  const prev = device.previous;
  const max = device.odometerMax;
  const prevKm = prev ? finiteOrNull(prev.odometerKm) : null;
  if (!prev || !max || prevKm === null || !(max.ts.getTime() < prev.ts.getTime())) return null;
  const drop = round(max.km - prevKm, 6);
  if (!above(drop, ROLLBACK_TOLERANCE_KM)) return null;
  const next = rs.find((y) => tsMs(y.r) > prev.ts.getTime());
  if (!next || above(max.km - next.km, ROLLBACK_TOLERANCE_KM)) return null;
  return {
    kind: "earlier_drop",
    reading: { km: prevKm, ts: prev.ts, source: "previous_state" },
    level: { km: max.km, ts: max.ts, source: "odometer_max" },
    next: known(next),
    deviationKm: drop,
    evidence: next.r,
  };
}

/**
 * A drop below the highest earlier reading that no later reading contradicts. Seen in ONE reading only
 * (nothing after it yet, in this batch or stored before it) it is a WARNING, "unconfirmed": the next
 * reading may still be back at the level (a one-sample glitch, CONTRACT). Once a second reading stays low
 * it is CRITICAL (raised alongside the open WARNING by the lifecycle: same problem key, higher severity).
 * Methodology: docs/methodology/alerts.md#odometer-integrity.
 */
function rollbackDraft(device: DeviceContext, violations: readonly Violation[], contradicted: number, last: Reading | undefined, storedLow: boolean): AlertDraft[] {
  const first = violations[0];
  if (!first || !last) return [];
  const largest = violations.reduce((m, v) => (v.diff > m.diff ? v : m), first);
  // Every reading from the first persisting one to the batch's end stays below the level (none contradicts it).
  const lowReadings = violations.length + (storedLow ? 1 : 0);
  const confirmed = lowReadings >= 2;
  const conf = confirmed ? 0.9 : 0.5;
  const unitHint = nearRatio(first.x.km / first.earlierMax.km, 1 / KM_PER_MILE);
  const cause = unitHint
    ? "the ratio matches a km→miles change, so check the unit first; otherwise it suggests odometer manipulation"
    : "a reading lower than an earlier one by more than 1 km that no later reading contradicts suggests odometer manipulation or an unrecorded instrument-cluster replacement";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "odometer_integrity",
      severity: confirmed ? "CRITICAL" : "WARNING",
      prediction: confirmed
        ? `Odometer reads ${fmt(first.x.km, 0)} km, ${fmt(first.diff, first.diff < 10 ? 2 : 0)} km below the ${fmt(first.earlierMax.km, 0)} km recorded on ${day(first.earlierMax.ts)}, and ${lowReadings} readings in a row stay below that level: ${cause}; the Total Asset Score treats it as a manipulation knockout (grade F) while no later reading returns to the earlier level.`
        : `Odometer below its earlier maximum — unconfirmed: it reads ${fmt(first.x.km, 0)} km, ${fmt(first.diff, first.diff < 10 ? 2 : 0)} km below the ${fmt(first.earlierMax.km, 0)} km recorded on ${day(first.earlierMax.ts)}, in one reading so far. If the next reading is back at that level it was a data error; if it stays low, ${cause}. Until a later reading returns to the earlier level the Total Asset Score treats it as a manipulation knockout (grade F).`,
      confidence: conf,
      dedupeKey: ALERT_KEYS.odometerRollback,
      measure: { field: "largest_difference_km", worse: "higher" },
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
        stored_state_below_earlier_max: storedLow,
        confirmed,
        contradicted_readings: contradicted,
        largest_difference_km: round(largest.diff, 3),
        latest_reading_km: round(last.km, 3),
        latest_reading_ts: iso(last.r.ts),
        persistent: true,
        possible_unit_change: unitHint,
        tas_knockout: "odometer_manipulation",
      },
    }),
  ];
}

function outlierSentence(o: Outlier): string {
  const dev = fmt(o.deviationKm, o.deviationKm < 10 ? 2 : 0);
  if (o.kind === "spike") {
    const base = o.level.source === "odometer_max" ? `the highest confirmed reading (${fmt(o.level.km, 0)} km)` : "the reading before it";
    return `Odometer read ${fmt(o.reading.km, 0)} km on ${day(o.reading.ts)}, ${dev} km above ${base}, and the next reading fell back to ${fmt(o.next.km, 0)} km: a one-sample data error, not the odometer's level, and later readings are not judged against it.`;
  }
  if (o.kind === "earlier_drop") {
    return `The odometer reading of ${fmt(o.reading.km, 0)} km on ${day(o.reading.ts)}, ${dev} km below the ${fmt(o.level.km, 0)} km recorded before, is contradicted: the odometer reads ${fmt(o.next.km, 0)} km again. It was a data error, not odometer manipulation; a rollback alert raised for it no longer holds: FDP resolves it (acknowledged by fdp:odometer_integrity, the reason in its technical_data.resolution).`;
  }
  return `Odometer read ${fmt(o.reading.km, 0)} km on ${day(o.reading.ts)}, ${dev} km below the ${fmt(o.level.km, 0)} km recorded before, and the next reading (${fmt(o.next.km, 0)} km) was back at that level: a data error, not odometer manipulation.`;
}

/**
 * The rollback alerts a contradicted drop shows to be wrong: open ones evidenced before the latest
 * contradicting reading, fallen from a level that reading is back at (within the tolerance). CONTRACT:
 * a lower reading that a later reading contradicts is a data-quality event, not manipulation, so its
 * WARNING (or CRITICAL) must not keep the fleet's alert_level up once the data has cleared it.
 */
function rollbackResolution(outliers: readonly Outlier[]): AlertResolution | undefined {
  const drops = outliers.filter((o) => o.kind === "drop" || o.kind === "earlier_drop");
  const last = drops.reduce<Outlier | undefined>((m, o) => (!m || o.next.ts.getTime() > m.next.ts.getTime() ? o : m), undefined);
  if (!last) return undefined;
  return {
    dedupeKey: ALERT_KEYS.odometerRollback,
    evidenceBefore: new Date(last.next.ts.getTime()),
    levelAtMost: { field: "earlier_max_km", value: round(last.next.km + ROLLBACK_TOLERANCE_KM, 6) },
    reason: `Resolved by FDP: the odometer reads ${fmt(last.next.km, 0)} km on ${day(last.next.ts)}, back at the ${fmt(last.level.km, 0)} km it had fallen from (${fmt(last.reading.km, 0)} km on ${day(last.reading.ts)}): the low reading was a data error, not odometer manipulation, and the Total Asset Score's odometer knockout no longer rests on it.`,
    evidence: {
      contradicting_km: round(last.next.km, 3),
      contradicting_ts: iso(last.next.ts),
      low_reading_km: round(last.reading.km, 3),
      low_reading_ts: iso(last.reading.ts),
      level_km: round(last.level.km, 3),
    },
  };
}

/** INFO: readings later contradicted (a data-quality event); check the telematics unit if it recurs. */
function outlierDraft(device: DeviceContext, outliers: readonly Outlier[]): AlertDraft[] {
  const sorted = [...outliers].sort((a, b) => a.evidence.ts.getTime() - b.evidence.ts.getTime());
  const first = sorted[0];
  if (!first) return [];
  const resolves = rollbackResolution(sorted);
  const largest = sorted.reduce((m, o) => (o.deviationKm > m.deviationKm ? o : m), first);
  const more = sorted.length > 1 ? ` ${sorted.length} such readings in this batch; if it recurs, have the telematics unit checked.` : "";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "odometer_integrity",
      severity: "INFO",
      prediction: `${outlierSentence(first)}${more}`,
      confidence: 0.8,
      dedupeKey: ALERT_KEYS.odometerOutlier,
      measure: { field: "largest_deviation_km", worse: "higher" },
      observedAt: first.evidence.ts,
      technicalData: {
        rule: "outlier",
        kind: first.kind,
        reading_km: round(first.reading.km, 3),
        reading_ts: iso(first.reading.ts),
        level_km: round(first.level.km, 3),
        level_ts: iso(first.level.ts),
        level_source: first.level.source,
        contradicting_km: round(first.next.km, 3),
        contradicting_ts: iso(first.next.ts),
        deviation_km: round(first.deviationKm, 3),
        tolerance_km: ROLLBACK_TOLERANCE_KM,
        outliers_in_batch: sorted.length,
        largest_deviation_km: round(largest.deviationKm, 3),
        readings: sorted.slice(0, 10).map((o) => ({
          kind: o.kind,
          reading_km: round(o.reading.km, 3),
          reading_ts: iso(o.reading.ts),
          contradicting_km: round(o.next.km, 3),
          contradicting_ts: iso(o.next.ts),
        })),
        tas_knockout: null,
      },
    }),
  ].map((d) => (resolves ? { ...d, resolves } : d));
}

function jumpDraft(device: DeviceContext, jumps: readonly Jump[], rs: readonly Reading[]): AlertDraft[] {
  const first = jumps[0];
  if (!first) return [];
  const after = rs.filter((y) => tsMs(y.r) > tsMs(first.x.r));
  // Persistent: later readings continue from the new level instead of falling back.
  const persistent = after.length > 0 && after.every((y) => !above(first.x.km - y.km, ROLLBACK_TOLERANCE_KM));
  const unitHint = first.prior.km > 0 && nearRatio(first.x.km / first.prior.km, KM_PER_MILE);
  const cause = unitHint ? "the ratio matches a miles→km change, so the unit probably changed" : "probably a unit error, a data error or an instrument-cluster swap";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "odometer_integrity",
      severity: "WARNING",
      prediction: `Odometer jumped ${fmt(first.delta, 0)} km in ${elapsed(first.hours)} (from ${fmt(first.prior.km, 0)} to ${fmt(first.x.km, 0)} km), an average of ${fmt(first.avgKmh, 0)} km/h, above the ${JUMP_MAX_AVG_KMH} km/h no road vehicle sustains: ${cause}; mileage-based figures may be wrong until it is checked.`,
      confidence: persistent || unitHint ? 0.75 : 0.6,
      dedupeKey: ALERT_KEYS.odometerJump,
      measure: { field: "difference_km", worse: "higher" },
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
