import { implausibleJump, isOdometerSpike, ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
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
    const point = byDay.get(day) ?? { day, maxKm: Number.NEGATIVE_INFINITY, jumpKm: 0, spikes: 0 };
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
    point.maxKm = Math.max(point.maxKm, r.km);
    prev = r;
  }
  return [...byDay.values()].map((p) => (Number.isFinite(p.maxKm) ? p : { ...p, maxKm: Number.NaN })).sort((a, b) => a.day - b.day);
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
  spikes: number;
  jumps: number;
}

/**
 * Drops at the daily level, per CONTRACT's knockout rule: a day more than ROLLBACK_TOLERANCE_KM below
 * the highest earlier day is a data error when a later day is back at that level (the day is dropped),
 * and a rollback when none is (the level restarts from the lower reading, and the step across the drop
 * is not counted as distance). Steps subtract the day's implausible jumps.
 */
export function cleanOdometerHistory(series: readonly OdometerDay[]): CleanHistory {
  const kept: OdometerDay[] = [];
  const breaks = new Set<number>();
  let contradictedDrops = 0;
  let rollbacks = 0;
  let level = Number.NEGATIVE_INFINITY;
  const levelled = series.filter((d) => Number.isFinite(d.maxKm));
  for (const [i, d] of levelled.entries()) {
    if (d.maxKm < level - ROLLBACK_TOLERANCE_KM) {
      const threshold = level - ROLLBACK_TOLERANCE_KM;
      if (levelled.slice(i + 1).some((later) => later.maxKm >= threshold)) {
        contradictedDrops += 1;
        continue;
      }
      rollbacks += 1;
      breaks.add(d.day);
      level = d.maxKm;
    }
    level = Math.max(level, d.maxKm);
    kept.push(d);
  }
  const steps: DistanceStep[] = [];
  for (let i = 1; i < kept.length; i++) {
    const a = kept[i - 1] as OdometerDay;
    const b = kept[i] as OdometerDay;
    if (breaks.has(b.day)) continue;
    // Within the tolerance a reading may sit a little below the previous day's: that is no distance.
    steps.push({ fromDay: a.day, days: b.day - a.day, km: Math.max(0, b.maxKm - a.maxKm - b.jumpKm) });
  }
  return {
    steps,
    days: kept,
    contradictedDrops,
    rollbacks,
    spikes: series.reduce((n, d) => n + d.spikes, 0),
    jumps: series.filter((d) => d.jumpKm > 0).length,
  };
}
