/**
 * The exposure a behaviour rate is measured on, and the minimum below which FDP does not state the
 * rate (unknown, not zero, not a full penalty). Pure. Shared by the TAS usage pillar (tas.ts, through
 * queries/load-tas-inputs.ts) and fleet risk (fleet-risk.ts) so both judge exposure the same way.
 * Methodology: docs/methodology/fleet-risk.md ("Minimum exposure") and tas.md (usage pillar).
 */
import { harshEventsInWindow } from "./derived-measures";
import type { DrivingBehaviourRow } from "@/lib/telemetry/queries/behaviour-sql";

/**
 * A speeding share (or a harsh-event rate in the TAS) needs at least this many km of measured driving.
 * At the 1–5-minute sampling of OEM feeds one sample pair at motorway speed covers 2–11 km, so 100 km
 * is at least about ten such pairs: one misread sample or one overtaking cannot make the whole share.
 * It is also the distance the TAS already requires of the period for any rate (MIN_PERIOD_KM_FOR_RATES),
 * now required of the distance the rate was actually measured on. FDP choice.
 */
export const MIN_RATE_EXPOSURE_KM = 100;
/** The same for a time share (odometer pairs missing): 2 h, i.e. 100 km at a 50 km/h average. FDP choice. */
export const MIN_RATE_EXPOSURE_HOURS = 2;

interface SpeedingFigures {
  moving_km: number;
  km_over_130: number;
  km_over_160: number;
  driving_minutes: number;
  minutes_over_130: number;
  minutes_over_160: number;
}

interface SpeedingShare {
  over_130_share: number;
  over_160_share: number;
  basis: "distance" | "time";
  exposure_km: number;
  exposure_hours: number;
}

const clampShare = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.max(0, part / whole)) : 0);

/** true when a share's exposure reaches the minimum for its basis. */
export function hasSpeedingExposure(s: Pick<SpeedingShare, "basis" | "exposure_km" | "exposure_hours">): boolean {
  return s.basis === "distance" ? s.exposure_km >= MIN_RATE_EXPOSURE_KM : s.exposure_hours >= MIN_RATE_EXPOSURE_HOURS;
}

/**
 * The share of the distance above 130 / 160 km/h when odometer pairs measured at least
 * MIN_RATE_EXPOSURE_KM of driving, else the share of the driving time when at least
 * MIN_RATE_EXPOSURE_HOURS were driven; null (insufficient exposure) otherwise.
 */
export function speedingShare(b: SpeedingFigures): SpeedingShare | null {
  const hours = Math.max(0, b.driving_minutes) / 60;
  const km = Math.max(0, b.moving_km);
  if (km >= MIN_RATE_EXPOSURE_KM) {
    return { over_130_share: clampShare(b.km_over_130, km), over_160_share: clampShare(b.km_over_160, km), basis: "distance", exposure_km: km, exposure_hours: hours };
  }
  if (hours >= MIN_RATE_EXPOSURE_HOURS) {
    const min = Math.max(0, b.driving_minutes);
    return { over_130_share: clampShare(b.minutes_over_130, min), over_160_share: clampShare(b.minutes_over_160, min), basis: "time", exposure_km: km, exposure_hours: hours };
  }
  return null;
}

/** The harsh-event figures of the behaviour aggregate (counts, weights, coverage times and km by source). */
type HarshFigures = DrivingBehaviourRow["harsh"];

/**
 * Harsh events of the window from the source that covers it (harshEventsInWindow's rule) and the km
 * THAT source covered: the rate's denominator must be the distance over which events could have been
 * seen, not the window's odometer distance (a device that started sending OEM events yesterday would
 * otherwise have its rate diluted by the whole month's km). null: no source covers the window.
 */
export function harshExposure(h: HarshFigures, windowStart: Date): { count: number; weighted: number; km: number } | null {
  // Literals, not a spread of shared fields: this runs once per vehicle of a fleet score (10,000 a call).
  const reportedAt = h.reported_at;
  const denseSpeedAt = h.dense_speed_at;
  const count = harshEventsInWindow({ reportedAt, denseSpeedAt, oemCount: h.oem, derivedCount: h.derived }, windowStart);
  const weighted = harshEventsInWindow({ reportedAt, denseSpeedAt, oemCount: h.oem_weighted, derivedCount: h.derived_weighted }, windowStart);
  // The same selection rule applied to the sources' km picks the km of the chosen source.
  const km = harshEventsInWindow({ reportedAt, denseSpeedAt, oemCount: h.oem_km, derivedCount: h.derived_km }, windowStart);
  if (count === null || weighted === null || km === null) return null;
  return { count, weighted, km: Math.max(0, km) };
}
