/**
 * When a reading is usable: the validity rules every score and detector applies to the same signal,
 * so that one vehicle is never "healthy" in one answer and "unknown" in another. Ingest refuses values
 * outside the physical ranges (lib/schemas/ingest.ts); these rules also screen what is stored.
 */

/**
 * A state of health FDP can use: above 0 % (some battery management systems send 0 for "no value")
 * and at most 100 % (the ingest range). Methodology: docs/methodology/tas.md, vehicle-health.md.
 */
export function usableSohPct(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x > 0 && x <= 100 ? x : null;
}

/** A state of charge, 0–100 %. */
export function usableSocPct(x: number | null): number | null {
  return x !== null && Number.isFinite(x) && x >= 0 && x <= 100 ? x : null;
}

/**
 * Plausible range of a 12 V (auxiliary) system reading; outside it the value is a traction-pack
 * voltage or invalid. Sources: docs/methodology/alerts.md ("Weak 12 V battery").
 */
export const LOW_VOLTAGE_RANGE_V = { min: 6, max: 16 } as const;

export function isLowVoltageSystemReading(v: number | null): v is number {
  return v !== null && Number.isFinite(v) && v >= LOW_VOLTAGE_RANGE_V.min && v <= LOW_VOLTAGE_RANGE_V.max;
}

/**
 * Below this a reported speed is GPS jitter, not movement: a vehicle at 1 km/h or more is moving (the
 * fleet status `driving`, the detectors, the fleet scores' driving minutes all use this one cut).
 */
export const MOVING_SPEED_KMH = 1;

export function isMovingSpeed(speedKmh: number | null): boolean {
  return speedKmh !== null && Number.isFinite(speedKmh) && speedKmh >= MOVING_SPEED_KMH;
}
