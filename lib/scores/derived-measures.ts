/**
 * Measures the device-level scores derive from raw readings: the observation windows, the state of
 * health trend, kilometres per year, the lease age, which harsh-event count to trust, and whether an
 * odometer was manipulated. Pure (no clock, no I/O): the query modules load the readings
 * (lib/scores/queries/), these functions turn them into score inputs. Methodology: docs/methodology/tas.md.
 */
import type { OdometerEvidence } from "@/lib/devices/reading-rows";

export const DAY_MS = 86_400_000;
/** Observation window of TAS behaviour, coverage, km driven and critical alerts. */
export const DEVICE_WINDOW_DAYS = 90;
/** Window of `records_30d` (vehicle health) and of the per-device fleet-level items of the scores batch. */
export const SHORT_WINDOW_DAYS = 30;
/** A trend needs readings at least this far apart, else it is unknown (measurement noise dominates). */
export const SOH_TREND_MIN_SPAN_DAYS = 30;
/** Kilometres per year need odometer readings at least this far apart (a weekend says nothing of a year). */
export const KM_PER_YEAR_MIN_SPAN_DAYS = 7;

/** The device queries' windows before `now` (the short and the device window), computed once per load. */
interface Windows {
  since30: string;
  since90: string;
}

export function windowsAt(now: Date): Windows {
  return {
    since30: new Date(now.getTime() - SHORT_WINDOW_DAYS * DAY_MS).toISOString(),
    since90: new Date(now.getTime() - DEVICE_WINDOW_DAYS * DAY_MS).toISOString(),
  };
}

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

/**
 * Kilometres from the first to the last odometer reading of a window (never negative), or null: the
 * distance the fleet scores use too. Not max − min: one high glitch inside the window would inflate it.
 */
export function distanceKm(first: number | null, last: number | null): number | null {
  return first !== null && last !== null ? Math.max(0, last - first) : null;
}

/** `km` driven between the first and last reading, annualised; null when the readings are too close. */
export function kmPerYear(km: number | null, first: Date | null, last: Date | null): number | null {
  if (km === null || !first || !last) return null;
  const spanDays = (last.getTime() - first.getTime()) / DAY_MS;
  return spanDays >= KM_PER_YEAR_MIN_SPAN_DAYS ? (km / spanDays) * 365 : null;
}

/** Months from `from` to `to` (calendar months plus the day fraction), never negative. */
export function monthsBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + (to.getUTCDate() - from.getUTCDate()) / 30);
}

/** The vehicle's age from its lease start (`YYYY-MM-DD`); null when unknown or in the future. */
export function ageMonths(leaseStart: string | null, now: Date): number | null {
  if (!leaseStart) return null;
  const start = new Date(`${leaseStart}T00:00:00Z`);
  if (!Number.isFinite(start.getTime()) || start.getTime() > now.getTime()) return null;
  return monthsBetween(start, now);
}

interface HarshEventEvidence {
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
 * true: the latest odometer reading is more than 1 km below the highest earlier one (the evidence,
 * loaded by `parts.odometerEvidence`), so no later reading contradicts the drop; a later reading back
 * at the earlier level withdraws it. false: odometer readings exist and show no such drop; null: no
 * odometer reading, never checked. Alerts do not decide it: an alert records what a batch looked like.
 */
export function odometerManipulation(latestOdometerKm: number | null, evidence: OdometerEvidence | null): boolean | null {
  if (evidence !== null) return true;
  return latestOdometerKm !== null ? false : null;
}

const km = (x: number) => `${Math.round(x * 10) / 10} km`;

/** One sentence naming the evidence, for `limitations` and `data_quality`. */
export function odometerEvidenceSentence(e: OdometerEvidence): string {
  return (
    `The odometer read ${km(e.highest.km)} at ${e.highest.at.toISOString()}, then ${km(e.firstLower.km)} at ${e.firstLower.at.toISOString()}; ` +
    `the latest reading, ${km(e.latest.km)} at ${e.latest.at.toISOString()}, is still ${km(e.highest.km - e.latest.km)} lower, ` +
    `and none of the ${e.readingsSince} reading(s) since returned to the earlier level.`
  );
}

/** The evidence as answer fields (ISO timestamps). */
export function odometerEvidenceJson(e: OdometerEvidence): {
  readings: { role: string; value: number; unit: "km"; at: string }[];
  readings_since: number;
} {
  return {
    readings: [
      { role: "highest_earlier", value: e.highest.km, unit: "km", at: e.highest.at.toISOString() },
      { role: "first_lower", value: e.firstLower.km, unit: "km", at: e.firstLower.at.toISOString() },
      { role: "latest", value: e.latest.km, unit: "km", at: e.latest.at.toISOString() },
    ],
    readings_since: e.readingsSince,
  };
}
