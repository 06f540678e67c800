/**
 * Driving events: what a telematics source reports in `raw_data.events` (CONTRACT "Settled
 * details") and what FDP derives from dense speed samples. Kinds, which of them are "harsh" (the
 * Total Asset Score counts those), units, accepted ranges and where an event came from.
 * Methodology: docs/methodology/alerts.md ("Driving events"), docs/methodology/tas.md.
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */

/** CONTRACT: the kinds FDP knows. Any other kind is kept in `raw_data` as sent and ignored by the scores. */
export const DRIVING_EVENT_KINDS = ["harsh_braking", "harsh_acceleration", "harsh_cornering", "overspeed"] as const;
export type DrivingEventKind = (typeof DRIVING_EVENT_KINDS)[number];

/** The kinds the Total Asset Score counts as harsh events. Overspeed is counted from `driving:overspeed` alerts instead. */
export const HARSH_EVENT_KINDS = ["harsh_braking", "harsh_acceleration", "harsh_cornering"] as const satisfies readonly DrivingEventKind[];
type HarshEventKind = (typeof HARSH_EVENT_KINDS)[number];

/** `oem`: reported by the vehicle or its telematics unit (accelerometer); `derived`: computed by FDP from consecutive speed samples. */
export const DRIVING_EVENT_SOURCES = ["oem", "derived"] as const;
export type DrivingEventSource = (typeof DRIVING_EVENT_SOURCES)[number];

export function isDrivingEventKind(x: unknown): x is DrivingEventKind {
  return typeof x === "string" && (DRIVING_EVENT_KINDS as readonly string[]).includes(x);
}

export function isHarshKind(x: unknown): x is HarshEventKind {
  return typeof x === "string" && (HARSH_EVENT_KINDS as readonly string[]).includes(x);
}

/**
 * `value` of each kind: its unit and the accepted range (exclusive minimum 0: a magnitude; braking
 * is sent as a positive deceleration).
 * - Harsh kinds, g, at most 2: a road car's tyres give about 1 g at best (a race car on a track
 *   rarely exceeds 0.9 g on any axis) and telematics units start "crash detection" between 1 and
 *   2.5 g (Positrace knowledge base, "How are acceleration, deceleration and harsh turns detected?");
 *   above 2 g the event is a crash or a sensor fault, not a driving style.
 * - Overspeed, km/h, at most 500: the same bound as a record's `speed_kmh`.
 */
export const DRIVING_EVENT_VALUE: Readonly<Record<DrivingEventKind, { unit: "g" | "km/h"; max: number }>> = {
  harsh_braking: { unit: "g", max: 2 },
  harsh_acceleration: { unit: "g", max: 2 },
  harsh_cornering: { unit: "g", max: 2 },
  overspeed: { unit: "km/h", max: 500 },
};

/** `duration_s`, when sent: 0 to one hour (an event is a manoeuvre or a stretch of road, not a trip). */
export const DRIVING_EVENT_MAX_DURATION_S = 3600;
/** Events per record: a record covers minutes of driving; more than this is a feed error. */
export const DRIVING_EVENTS_PER_RECORD_MAX = 500;

// Events FDP derives from speed samples (lib/ingest/driving-events.ts) only from dense enough pairs, and
// the scores' behaviour figures count the distance those pairs cover (lib/telemetry/queries/behaviour-sql.ts).

/**
 * Dense enough: two consecutive speed samples at most 2 s apart. The published harsh-event definitions
 * (lib/ingest/driving-events.ts) measure a speed change within 1 s (Zendrive, Driveway, Teltonika's 1 Hz
 * GPS) or 2 s (Samsara); over a longer interval the average hides the peak (a 1-second stop at 0.4 g
 * averaged over 5 s reads 0.08 g).
 */
export const DENSE_MAX_INTERVAL_S = 2;
/**
 * … and at least 0.5 s apart (FDP choice, unverified): speeds come in whole or tenths of km/h and
 * device clocks jitter (Driveway Software reports 0.8–1.1 s between nominally 1 Hz OBD samples); over
 * a shorter interval rounding alone reads as a harsh event (1 km/h in 0.2 s is 0.14 g).
 */
export const DENSE_MIN_INTERVAL_S = 0.5;
