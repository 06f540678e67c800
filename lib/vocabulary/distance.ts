/**
 * The distance-method vocabulary: how a vehicle's distance over a period was measured. The emissions
 * report (per vehicle, JSON and CSV), the CSRD report's data-quality table and the mileage forecast all
 * name their method with these words (CONTRACT "Evidence and trust": "each vehicle's method is named").
 * The rules behind each: lib/distance/odometer-distance.ts and docs/methodology/emissions.md#distance.
 */

export const DISTANCE_METHODS = ["odometer", "odometer_plausible_increases", "gps_great_circle", "none"] as const;
export type DistanceMethod = (typeof DISTANCE_METHODS)[number];

/** Mean Earth radius (IUGG), km: the sphere of every great-circle (haversine) distance FDP computes, in SQL and in JS. */
export const EARTH_RADIUS_KM = 6371.0088;

/** What each word means, for schema descriptions, the CSRD PDF and the docs. */
const DISTANCE_METHOD_LABELS: Record<DistanceMethod, string> = {
  odometer: "Odometer: every consecutive reading plausible, no reading set aside (the sum of increases is last minus first)",
  odometer_plausible_increases:
    "Odometer, sum of plausible increases: readings were set aside (a rollback or reset, a one-sample spike, an implausible jump or a contradicted drop) and the distance is the sum of the plausible consecutive increases",
  gps_great_circle:
    "GPS great-circle: no usable odometer (fewer than two plausible readings, or its increases do not cover the positions' distance), the haversine sum over consecutive plausible positions (a lower bound of the road distance)",
  none: "No distance data in the period: neither two plausible odometer readings nor positions",
};

export const DISTANCE_METHOD_DESCRIPTION = DISTANCE_METHODS.map((m) => `\`${m}\`: ${DISTANCE_METHOD_LABELS[m]}`).join("; ");
