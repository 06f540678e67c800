import type { DistanceEvidence } from "@/lib/distance/odometer-distance";

/**
 * Distance evidence for the pure report tests: `odometerKm` as one clean run of two readings (null: no
 * odometer reading), `gpsKm` as the positions' great-circle sum.
 */
function distanceEvidence(odometerKm: number | null, gpsKm = 0): DistanceEvidence {
  const at = new Date("2026-01-10T08:00:00Z");
  const later = new Date("2026-01-10T18:00:00Z");
  return {
    odometer: { runs: odometerKm === null ? [] : [{ firstAt: at, firstKm: 10_000, maxKm: 10_000 + odometerKm, lastAt: later, jumpKm: 0, readings: 2 }], spikes: 0 },
    gps: { km: gpsKm, positions: gpsKm > 0 ? 2 : 0, outliers: 0, fastSteps: 0 },
  };
}

/** The reports' test vehicles in shorthand: `odometer_km` and `great_circle_km` become `distance`. */
export function withDistance<T extends { odometer_km?: number | null; great_circle_km?: number }>(
  v: T,
): Omit<T, "odometer_km" | "great_circle_km"> & { distance: DistanceEvidence } {
  const { odometer_km = null, great_circle_km = 0, ...rest } = v;
  return { ...rest, distance: distanceEvidence(odometer_km, great_circle_km) };
}
