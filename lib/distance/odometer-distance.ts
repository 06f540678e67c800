/**
 * The distance a vehicle drove over a period, one module for the emissions report, the CSRD report and
 * the mileage forecast (CONTRACT "Evidence and trust": the sum of plausible consecutive odometer
 * increases, a rollback or reset not erasing distance driven, or great-circle distance where the
 * odometer is unusable; each vehicle's method named). Pure: the SQL that reads the period is
 * ./queries/period-distance-sql.ts. Method, rules and limits: docs/methodology/emissions.md#distance.
 *
 * "Plausible" is the odometer-integrity detector's own rules (lib/detectors/odometer-integrity.ts),
 * imported, not restated:
 * - a one-sample spike (isOdometerSpike: the next reading falls back from it to near the one before)
 *   is set aside, as if it had not been read;
 * - a forward step that implausibleJump flags (> JUMP_MIN_KM at > JUMP_MAX_AVG_KMH) moves the level but
 *   is not counted as driven;
 * - a reading more than ROLLBACK_TOLERANCE_KM below the level: when a later reading is back within the
 *   tolerance of that level it was a data error (set aside, the level stands); when none is, it is a
 *   rollback or reset (the detector's manipulation rule): the step across it is not counted and the
 *   increases go on being summed from the new, lower baseline.
 */
import { ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { formatKmInNote } from "@/lib/display/format";
import type { DistanceMethod } from "@/lib/vocabulary/distance";

/**
 * The implied speed above which a step between two GPS positions is not driving but a position error
 * (a teleport, a fix at 0°/0°): the odometer-integrity detector's JUMP_MAX_AVG_KMH, "no road vehicle
 * sustains" it (docs/methodology/emissions.md#distance). Re-exported here so the GPS rule reads as the
 * same bound the odometer rule uses.
 */
export { JUMP_MAX_AVG_KMH as GPS_MAX_PLAUSIBLE_KMH } from "@/lib/detectors/odometer-integrity";

/**
 * The great-circle sum of consecutive positions is a lower bound of the distance driven (a straight
 * line is the shortest path between two positions): when it exceeds the odometer's plausible
 * increases by more than this fraction of them, and by more than GPS_EXCESS_MIN_KM, the odometer did
 * not record the whole period (a frozen or silent odometer, readings only in part of it) and the GPS
 * distance is used. The margins absorb GNSS position noise summed over many short steps; a judgement,
 * documented as such.
 */
export const GPS_EXCESS_FRACTION = 0.1;
const GPS_EXCESS_MIN_KM = 2;

/** A level in a series of odometer readings (a run's first or highest reading, a day's highest). */
interface LevelPoint {
  km: number;
  /** Implausible forward jump(s) landing on this point (km): they move the level but were not driven. */
  jumpKm: number;
}

interface RollbackEvent {
  /** Index of the point that fell below the level (and stayed below). */
  index: number;
  /** The level it fell from (km). */
  fromKm: number;
  /** The reading it fell to (km): the new baseline. */
  toKm: number;
}

interface OdometerWalk {
  /** Indices of the points kept, in order. */
  kept: number[];
  /** Distance between consecutive kept points; none across a rollback. */
  steps: { from: number; to: number; km: number }[];
  rollbacks: RollbackEvent[];
  /** Points below the level that a later point contradicted (set aside). */
  contradictedDrops: number;
  /**
   * 1 when the series' first point was set aside as an unconfirmed level: the next kept point fell
   * below it and no later point returned (see walkOdometerLevels); else 0.
   */
  unconfirmedStart: number;
}

/**
 * The one drop rule over a series of levels, oldest first (the mileage forecast walks Helsinki days,
 * the period distance walks runs of readings). A point more than ROLLBACK_TOLERANCE_KM below the level
 * (the highest kept point since the last rollback) is set aside when a LATER point is back at or above
 * level − tolerance (a contradicted drop, a data error), else it is a rollback: the level restarts from
 * it and the step across it counts nothing. A step between consecutive kept points counts
 * max(0, b − a − b.jumpKm): never negative (a reading within the tolerance below the previous one is
 * no distance), never an implausible jump.
 *
 * One exception at the series' start: a drop that no later point contradicts, from a level held by the
 * series' FIRST point alone, is not a rollback. The first reading of a series has no reading before it,
 * so isOdometerSpike cannot judge it, and a one-sample spike there looks exactly like a rollback right
 * after it; that first point is set aside instead (`unconfirmedStart`, counted with the spikes by the
 * callers) and the series starts from the lower point. Distance is the same either way (nothing before
 * the drop is counted); a rollback would add the spike's km back to the mileage forecast's series.
 */
export function walkOdometerLevels(points: readonly LevelPoint[]): OdometerWalk {
  // suffixMax[i]: the highest point from i on (contradiction looks at LATER points).
  const suffixMax = new Array<number>(points.length + 1).fill(Number.NEGATIVE_INFINITY);
  for (let i = points.length - 1; i >= 0; i--) suffixMax[i] = Math.max(points[i]!.km, suffixMax[i + 1]!);
  const kept: number[] = [];
  const breaks = new Set<number>();
  const rollbacks: RollbackEvent[] = [];
  let contradictedDrops = 0;
  let unconfirmedStart = 0;
  let level = Number.NEGATIVE_INFINITY;
  for (const [i, p] of points.entries()) {
    if (!Number.isFinite(p.km)) continue;
    const threshold = level - ROLLBACK_TOLERANCE_KM;
    if (p.km < threshold) {
      if (suffixMax[i + 1]! >= threshold) {
        contradictedDrops += 1;
        continue;
      }
      if (rollbacks.length === 0 && kept.length === 1) {
        // The series' first point alone held the level: an unconfirmed start, not a rollback.
        kept.length = 0;
        unconfirmedStart = 1;
      } else {
        rollbacks.push({ index: i, fromKm: level, toKm: p.km });
        breaks.add(i);
      }
      level = p.km;
    }
    level = Math.max(level, p.km);
    kept.push(i);
  }
  const steps: OdometerWalk["steps"] = [];
  for (let k = 1; k < kept.length; k++) {
    const a = kept[k - 1]!;
    const b = kept[k]!;
    if (breaks.has(b)) continue;
    steps.push({ from: a, to: b, km: Math.max(0, points[b]!.km - points[a]!.km - points[b]!.jumpKm) });
  }
  return { kept, steps, rollbacks, contradictedDrops, unconfirmedStart };
}

/**
 * A run of consecutive plausible readings of the period (./queries/period-distance-sql.ts): spikes
 * removed, no step inside it a drop of more than ROLLBACK_TOLERANCE_KM nor an implausible jump; a new
 * run starts at each such step.
 */
export interface OdometerRun {
  firstAt: Date;
  firstKm: number;
  /** The run's highest reading (its level at the end: a reading within the tolerance below is jitter). */
  maxKm: number;
  lastAt: Date;
  /** The implausible jump the run starts with (km, 0 when it starts after a drop or is the first). */
  jumpKm: number;
  readings: number;
}

/** The period's odometer readings as the SQL summarises them. */
export interface OdometerPeriod {
  runs: OdometerRun[];
  /** Readings set aside as one-sample spikes. */
  spikes: number;
}

/** The odometer's plausible increases over a period, and what was set aside to get them. */
export interface OdometerIncreases {
  km: number;
  /** Plausible (non-spike) readings of the period. */
  readings: number;
  rollbacks: { at: string; from_km: number; to_km: number }[];
  contradicted_drops: number;
  spikes: number;
  jumps: number;
  /** Km of the implausible jumps, not counted. */
  jump_km: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The sum of plausible consecutive increases over the period's runs; null when the odometer says
 * nothing about the distance (fewer than two plausible readings at distinct times). Each run is two
 * levels (its first reading, with the jump it starts with, and its highest) walked by
 * walkOdometerLevels, so a run that starts below the level and climbs back is a contradicted drop
 * whose climb counts only above the level.
 */
export function odometerIncreases(period: OdometerPeriod): OdometerIncreases | null {
  const runs = [...period.runs].sort((a, b) => a.firstAt.getTime() - b.firstAt.getTime());
  const readings = runs.reduce((n, r) => n + r.readings, 0);
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (!first || !last || readings < 2 || !(last.lastAt.getTime() > first.firstAt.getTime())) return null;
  const points: (LevelPoint & { at: Date })[] = runs.flatMap((r) => [
    { km: r.firstKm, jumpKm: r.jumpKm, at: r.firstAt },
    ...(r.readings > 1 ? [{ km: r.maxKm, jumpKm: 0, at: r.lastAt }] : []),
  ]);
  const walk = walkOdometerLevels(points);
  const jumps = runs.filter((r) => r.jumpKm > 0);
  return {
    km: round3(walk.steps.reduce((s, x) => s + x.km, 0)),
    readings,
    rollbacks: walk.rollbacks.map((r) => ({ at: points[r.index]!.at.toISOString(), from_km: round3(r.fromKm), to_km: round3(r.toKm) })),
    contradicted_drops: walk.contradictedDrops,
    // A first reading set aside as an unconfirmed level is a one-sample spike the detector could not judge.
    spikes: period.spikes + walk.unconfirmedStart,
    jumps: jumps.length,
    jump_km: round3(jumps.reduce((s, r) => s + r.jumpKm, 0)),
  };
}

/** The great-circle distance of the period's positions (./queries/period-distance-sql.ts). */
export interface GpsDistance {
  /** Σ haversine over consecutive kept positions whose implied speed is at most GPS_MAX_PLAUSIBLE_KMH. */
  km: number;
  positions: number;
  /** Positions set aside as one-sample outliers (implausibly fast both to reach and to leave). */
  outliers: number;
  /** Steps between kept positions not counted for their implied speed. */
  fastSteps: number;
}

/** What the period's readings say about the distance, as read (./queries/period-distance-sql.ts). */
export interface DistanceEvidence {
  odometer: OdometerPeriod;
  /**
   * The plausible positions' great-circle sum; null when it was not needed: the odometer has two
   * plausible readings and even the sum over ALL positions (never below the plausible one) is within
   * the margin of odometerCovers.
   */
  gps: GpsDistance | null;
}

/**
 * The odometer covers the period: it has two plausible readings and the positions' great-circle
 * distance (a lower bound of the distance driven) does not exceed its increases by more than
 * GPS_EXCESS_FRACTION of them and GPS_EXCESS_MIN_KM.
 */
export function odometerCovers(odo: OdometerIncreases | null, gpsKm: number): boolean {
  return odo !== null && !(gpsKm > odo.km * (1 + GPS_EXCESS_FRACTION) && gpsKm > odo.km + GPS_EXCESS_MIN_KM);
}

/** The distance of a period and how it was measured (the answer's per-vehicle evidence). */
export interface PeriodDistance {
  km: number;
  method: DistanceMethod;
  /** One sentence for an auditor: what was measured, and what was set aside or why the odometer was not used. */
  note: string;
  /** The odometer's account (null without two plausible readings). */
  odometer: OdometerIncreases | null;
  /** The plausible positions' great-circle distance, km (0 without two positions); null when not computed (DistanceEvidence.gps). */
  gps_km: number | null;
}

function setAsideWords(o: OdometerIncreases): string[] {
  const out: string[] = [];
  if (o.rollbacks.length > 0)
    out.push(
      `${o.rollbacks.length} rollback(s) or reset(s) (${o.rollbacks.map((r) => `${formatKmInNote(r.from_km)} → ${formatKmInNote(r.to_km)} km at ${r.at}`).join("; ")}), the increases summed on from the lower reading`,
    );
  if (o.spikes > 0) out.push(`${o.spikes} one-sample spike reading(s) set aside`);
  if (o.jumps > 0) out.push(`${o.jumps} implausible forward jump(s) (${formatKmInNote(o.jump_km)} km) not counted`);
  if (o.contradicted_drops > 0) out.push(`${o.contradicted_drops} drop(s) contradicted by later readings set aside`);
  return out;
}

/**
 * The period's distance: the odometer's plausible increases when it has two plausible readings and
 * the positions' great-circle distance (a lower bound) does not exceed them by more than
 * GPS_EXCESS_FRACTION and GPS_EXCESS_MIN_KM; else the great-circle distance of the positions; else
 * nothing ("none", 0 km: no data is not zero driving, and the note says so).
 */
export function periodDistance(e: DistanceEvidence): PeriodDistance {
  const odo = odometerIncreases(e.odometer);
  const gps = e.gps;
  const gpsKm = gps === null ? null : round3(Math.max(0, gps.km));
  const gpsWords = gps !== null && gps.outliers + gps.fastSteps > 0 ? ` (${gps.outliers} position outlier(s) and ${gps.fastSteps} step(s) faster than plausible set aside)` : "";
  if (odo) {
    // Without the plausible sum the loader found even the all-positions sum within the margin.
    if (gpsKm === null || odometerCovers(odo, gpsKm)) {
      const aside = setAsideWords(odo);
      return aside.length === 0
        ? { km: odo.km, method: "odometer", note: `Odometer: ${odo.readings} plausible readings, none set aside.`, odometer: odo, gps_km: gpsKm }
        : {
            km: odo.km,
            method: "odometer_plausible_increases",
            note: `Odometer, sum of plausible increases over ${odo.readings} readings: ${aside.join("; ")}.`,
            odometer: odo,
            gps_km: gpsKm,
          };
    }
    const aside = setAsideWords(odo);
    return {
      km: gpsKm,
      method: "gps_great_circle",
      note: `GPS great-circle over ${gps?.positions ?? 0} positions${gpsWords}: the odometer's plausible increases (${formatKmInNote(odo.km)} km${aside.length > 0 ? `; ${aside.join("; ")}` : ""}) are below the positions' great-circle distance (${formatKmInNote(gpsKm)} km, a lower bound of the distance driven), so the odometer did not record the whole period.`,
      odometer: odo,
      gps_km: gpsKm,
    };
  }
  if (gpsKm !== null && gpsKm > 0) {
    return {
      km: gpsKm,
      method: "gps_great_circle",
      note: `GPS great-circle over ${gps?.positions ?? 0} positions${gpsWords}: fewer than two plausible odometer readings in the period. A lower bound of the road distance.`,
      odometer: null,
      gps_km: gpsKm,
    };
  }
  return {
    km: 0,
    method: "none",
    note: "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
    odometer: null,
    gps_km: gpsKm,
  };
}

/** Evidence of a vehicle that reported nothing in the period. */
export const NO_DISTANCE_EVIDENCE: DistanceEvidence = { odometer: { runs: [], spikes: 0 }, gps: { km: 0, positions: 0, outliers: 0, fastSteps: 0 } };
