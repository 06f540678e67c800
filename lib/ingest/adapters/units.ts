/**
 * Unit conversions of the feed adapters, all exact by definition.
 */

/**
 * km/h per knot. The international nautical mile is 1852 m by definition (First International
 * Extraordinary Hydrographic Conference, Monaco 1929; listed by the BIPM's SI Brochure among non-SI
 * units), and a knot is one nautical mile per hour. Traccar reports `position.speed` in knots.
 */
export const KMH_PER_KNOT = 1.852;

/**
 * km per international mile: 1,609.344 m exactly (international yard and pound agreement, 1959; NIST
 * SP 811, Appendix B). Tesla Fleet Telemetry reports `VehicleSpeed` in mph and `Odometer` in miles.
 */
export const KM_PER_MILE = 1.609344;

/** Traccar reports distances (`odometer`, `totalDistance`) in metres. */
export const KM_PER_METRE = 0.001;

/** Traccar reports `hours` (engine hours) in milliseconds (org.traccar.model.Position, KEY_HOURS). */
export const HOURS_PER_MILLISECOND = 1 / 3_600_000;
