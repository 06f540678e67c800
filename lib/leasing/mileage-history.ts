import { implausibleJump, isOdometerSpike } from "@/lib/detectors/odometer-integrity";
import { walkOdometerLevels } from "@/lib/distance/odometer-distance";
import { helsinkiDayNumber } from "@/lib/seed/calendar";

/**
 * The odometer history the mileage forecast reads: one point per Helsinki calendar day, built from
 * plausible readings only, with the odometer-integrity vocabulary of lib/detectors/odometer-integrity.ts
 * (one-sample spikes, implausible forward jumps, rollbacks), so a glitch never drives the trend.
 * docs/methodology/mileage-forecast.md "Which readings count".
 */

/** One Helsinki day of odometer history (the SQL of ./queries/load-odometer-history.ts answers these). */
export interface OdometerDay {
  /** Helsinki calendar day number (days since 1970-01-01). */
  day: number;
  /**
   * Highest plausible (not a one-sample spike) reading of the day: the odometer at the day's end. NaN
   * for a day whose only readings were spikes (it still counts them).
   */
  maxKm: number;
  /**
   * Sum of the implausible forward jumps (implausibleJump: > 50 km at > 250 km/h average, a unit change,
   * data error or cluster swap) that land in this day: they move the level but were not driven.
   */
  jumpKm: number;
  /** Readings of the day set aside as one-sample spikes (isOdometerSpike). */
  spikes: number;
  /** Device time (epoch ms) of the reading that set maxKm (the latest of equals); NaN without one. */
  maxAt?: number;
}

export interface OdometerReading {
  km: number;
  ts: Date;
}

/**
 * The JS twin of the SQL in ./queries/load-odometer-history.ts, for histories that are not in a
 * database (the backtest cuts the sandbox generator's telemetry in memory). Same rules: a reading is a
 * spike when the next reading falls back from it to near the one before it (isOdometerSpike over the
 * raw neighbours, as the knockout's SQL judges it); among the others, a step up from the previous one
 * that implausibleJump flags is a jump; each Helsinki day keeps its highest non-spike reading.
 */
export function dailyOdometerSeries(readings: readonly OdometerReading[]): OdometerDay[] {
  const rs = readings.filter((r) => Number.isFinite(r.km) && r.km >= 0).sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const spike = rs.map((r, i) => {
    const before = rs[i - 1];
    const next = rs[i + 1];
    return before !== undefined && next !== undefined && isOdometerSpike(before.km, r.km, next.km);
  });
  const byDay = new Map<number, OdometerDay>();
  let prev: OdometerReading | undefined;
  for (const [i, r] of rs.entries()) {
    const day = helsinkiDayNumber(r.ts.getTime());
    const point = byDay.get(day) ?? { day, maxKm: Number.NEGATIVE_INFINITY, jumpKm: 0, spikes: 0, maxAt: Number.NaN };
    byDay.set(day, point);
    if (spike[i]) {
      point.spikes += 1;
      continue;
    }
    if (prev) {
      const delta = r.km - prev.km;
      const hours = (r.ts.getTime() - prev.ts.getTime()) / 3_600_000;
      if (implausibleJump(delta, hours)) point.jumpKm += delta;
    }
    if (r.km >= point.maxKm) point.maxAt = r.ts.getTime();
    point.maxKm = Math.max(point.maxKm, r.km);
    prev = r;
  }
  return [...byDay.values()].map((p) => (Number.isFinite(p.maxKm) ? p : { ...p, maxKm: Number.NaN, maxAt: Number.NaN })).sort((a, b) => a.day - b.day);
}

/** A day-to-day step of the cleaned history: `km` driven over `days` calendar days. */
export interface DistanceStep {
  fromDay: number;
  days: number;
  km: number;
}

export interface CleanHistory {
  /** Steps between consecutive kept days, jumps and rollbacks taken out. */
  steps: DistanceStep[];
  /** The kept days (their level is what the odometer showed). */
  days: OdometerDay[];
  /** Days whose level a later day contradicted (a drop below the running level that did not persist). */
  contradictedDrops: number;
  /** Days with a drop below the running level that no later day contradicts (rollback suspicion). */
  rollbacks: number;
  /**
   * The km the odometer was wound back, summed over the rollbacks (the level before each drop minus the
   * day it fell to): added to the latest reading, it continues the series from the pre-rollback
   * baseline (the distance driven, which a rollback does not erase).
   */
  rolledBackKm: number;
  /** Each rollback: the day it was read, the level it fell from and the reading it fell to. */
  rollbackEvents: { day: number; fromKm: number; toKm: number }[];
  spikes: number;
  jumps: number;
}

/**
 * Drops at the daily level, by the one drop rule of lib/distance/odometer-distance.ts
 * (walkOdometerLevels, the CONTRACT's knockout rule that the emissions and CSRD distance use too): a day
 * more than ROLLBACK_TOLERANCE_KM below the highest earlier day is a data error when a later day is back
 * at that level (the day is dropped), and a rollback when none is (the level restarts from the lower
 * reading, and the step across the drop is not counted as distance). Steps subtract the day's
 * implausible jumps.
 */
export function cleanOdometerHistory(series: readonly OdometerDay[]): CleanHistory {
  const levelled = series.filter((d) => Number.isFinite(d.maxKm));
  const walk = walkOdometerLevels(levelled.map((d) => ({ km: d.maxKm, jumpKm: d.jumpKm })));
  return {
    steps: walk.steps.map((x) => {
      const a = levelled[x.from] as OdometerDay;
      const b = levelled[x.to] as OdometerDay;
      return { fromDay: a.day, days: b.day - a.day, km: x.km };
    }),
    days: walk.kept.map((i) => levelled[i] as OdometerDay),
    contradictedDrops: walk.contradictedDrops,
    rollbacks: walk.rollbacks.length,
    rolledBackKm: walk.rollbacks.reduce((s, r) => s + (r.fromKm - r.toKm), 0),
    rollbackEvents: walk.rollbacks.map((r) => ({ day: (levelled[r.index] as OdometerDay).day, fromKm: r.fromKm, toKm: r.toKm })),
    // The series' first day set aside as an unconfirmed level (walkOdometerLevels) counts as a spike.
    spikes: series.reduce((n, d) => n + d.spikes, 0) + walk.unconfirmedStart,
    jumps: series.filter((d) => d.jumpKm > 0).length,
  };
}
