/**
 * Measures the device-level scores derive from raw readings: the observation windows, the state of
 * health trend, kilometres per year, the lease age, which harsh-event count to trust, and whether an
 * odometer was manipulated. Pure (no clock, no I/O): the query modules load the readings
 * (lib/scores/queries/), these functions turn them into score inputs. Methodology: docs/methodology/tas.md.
 */

export const DAY_MS = 86_400_000;
/** Observation window of TAS behaviour, coverage, km driven and critical alerts. */
export const DEVICE_WINDOW_DAYS = 90;
/** Window of `records_30d` (vehicle health) and of the per-device fleet-level items of the scores batch. */
export const SHORT_WINDOW_DAYS = 30;
/** SoH trend: the oldest reading at most this many days before the latest one is the base. */
export const SOH_TREND_LOOKBACK_DAYS = 365;
/** A trend needs readings at least this far apart, else it is unknown (measurement noise dominates). */
export const SOH_TREND_MIN_SPAN_DAYS = 30;
/** Kilometres per year need odometer readings at least this far apart (a weekend says nothing of a year). */
export const KM_PER_YEAR_MIN_SPAN_DAYS = 7;

export interface Reading {
  value: number;
  at: Date;
}

/** Signed SoH change in percentage points per year from `early` to `latest`; null when too close together. */
export function sohTrendPpPerYear(latest: Reading | null, early: Reading | null): number | null {
  if (!latest || !early) return null;
  const spanDays = (latest.at.getTime() - early.at.getTime()) / DAY_MS;
  return spanDays >= SOH_TREND_MIN_SPAN_DAYS ? ((latest.value - early.value) / spanDays) * 365 : null;
}

/** Kilometres between the lowest and highest odometer reading of a window (never negative), or null. */
export function distanceKm(min: number | null, max: number | null): number | null {
  return min !== null && max !== null ? Math.max(0, max - min) : null;
}

/** `km` driven between the first and last reading, annualised; null when the readings are too close. */
export function kmPerYear(km: number | null, first: Date | null, last: Date | null): number | null {
  if (km === null || !first || !last) return null;
  const spanDays = (last.getTime() - first.getTime()) / DAY_MS;
  return spanDays >= KM_PER_YEAR_MIN_SPAN_DAYS ? (km / spanDays) * 365 : null;
}

/** Months from `from` to `to` (calendar months plus the day fraction), never negative. */
export function monthsBetween(from: Date, to: Date): number {
  return Math.max(
    0,
    (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + (to.getUTCDate() - from.getUTCDate()) / 30,
  );
}

/** The vehicle's age from its lease start (`YYYY-MM-DD`); null when unknown or in the future. */
export function ageMonths(leaseStart: string | null, now: Date): number | null {
  if (!leaseStart) return null;
  const start = new Date(`${leaseStart}T00:00:00Z`);
  if (!Number.isFinite(start.getTime()) || start.getTime() > now.getTime()) return null;
  return monthsBetween(start, now);
}

export interface HarshEventEvidence {
  /** Harsh events the OEM reported in the window. */
  oemCount: number;
  /** Harsh events FDP derived from dense speed samples in the window. */
  derivedCount: number;
  /** Device time of the newest record that carried a `raw_data.events` array (the source reports events). */
  reportedAt: Date | null;
  /** Device time of the newest speed-sample pair dense enough to derive harsh events. */
  denseSpeedAt: Date | null;
}

/**
 * Harsh events in the window: the OEM's count when the source reported events in it (its accelerometer
 * is authoritative), else FDP's derived count when speed was sampled densely enough; otherwise nothing
 * tells us, which is unknown (null), not zero.
 */
export function harshEventsInWindow(e: HarshEventEvidence, windowStart: Date): number | null {
  const covers = (at: Date | null) => at !== null && at.getTime() >= windowStart.getTime();
  if (covers(e.reportedAt)) return e.oemCount;
  if (covers(e.denseSpeedAt)) return e.derivedCount;
  return null;
}

/**
 * true: an odometer rollback was detected (`odometer_integrity:rollback`, acknowledged or not: a
 * detected rollback stays a fact); false: odometer readings exist and none was; null: never checked.
 */
export function odometerManipulation(rollbacks: number, latestOdometerKm: number | null): boolean | null {
  if (rollbacks > 0) return true;
  return latestOdometerKm !== null ? false : null;
}
