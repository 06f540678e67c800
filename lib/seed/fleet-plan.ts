import type { CityKey } from "./finland";
import type { ModelKey } from "./vehicle-catalog";

/**
 * The 42 vehicles of the sandbox tenant: model, home city, how they are used, and the few
 * scripted conditions (faults, outages, states at the anchor) that give the detectors something
 * to report. Everything else about them is drawn from the seeded PRNG.
 */

export type UsageProfile =
  /** Home–office on weekdays, errands and the odd weekend trip. */
  | "commuter"
  /** Several intercity customer visits a week. */
  | "sales"
  /** Service van: depot, 3–6 jobs around the region, back to the depot. */
  | "van_service"
  /** Delivery van: early start, many short stops. */
  | "van_delivery"
  /** Pick-up on site work: fewer, longer local legs. */
  | "pickup";

export interface DtcEpisode {
  code: string;
  description: string;
  /** Days before the anchor when the code first appears. */
  fromDaysAgo: number;
  /** Days before the anchor when it was cleared; absent = still active. */
  toDaysAgo?: number;
}

export interface VehiclePlan {
  model: ModelKey;
  home: CityKey;
  profile: UsageProfile;
  leaseMonths: number;
  /**
   * Arrives through a feed adapter (docs/feeds.md) instead of as SPEC 2.17 records: the simulator's records
   * are sent as that source's documents (lib/seed/feed-documents.ts) and read back by its adapter. The
   * device id is then the feed's (`oem-<vin>`, `traccar-<imei>`), and only what the source reports is stored.
   */
  feed?: { format: "tesla"; carType: string } | { format: "traccar"; category: string };
  /** Fixed lease age in months at the anchor (else drawn from 6–40). */
  leaseAgeMonths?: number;
  /**
   * Drives faster than the fleet's 110 km/h policy on motorways, and on one in five trips
   * with a motorway stretch holds 134–146 km/h: what the driving detector's overspeed rule catches.
   */
  heavyFoot?: boolean;
  /** With heavyFoot: the chance of holding 134–146 km/h on a trip with a motorway stretch (default 0.2); a habitual speeder does it on most. */
  speedingHabit?: number;
  /** Brakes and accelerates hard about 4 times per 100 km (with reportsDrivingEvents, which reports them). */
  harshDriver?: boolean;
  /** Keeps to 100 km/h on motorways and rarely brakes or accelerates hard (with reportsDrivingEvents, the calm end of the range). */
  calmDriver?: boolean;
  /** The telematics unit reports driving events (`raw_data.events`: harsh braking/acceleration, overspeed). */
  reportsDrivingEvents?: boolean;
  /** Daily charge limit set in the car (default 80 %, vans 90 %). */
  chargeLimitPct?: number;
  /** Delays home charging to the 22–07 night tariff. */
  nightTariff?: boolean;
  /** PHEV: chance of plugging in at home after the last trip of a day (default 0.8). */
  plugInProbability?: number;
  /** Battery ageing: SOH loss coefficient (default drawn from 2.4–3.4). */
  sohAgeing?: number;
  dtc?: DtcEpisode[];
  /** 12 V battery that loses charge week by week (rest voltage 12.35 V → about 11.5 V, below the battery detector's 11.8 V). */
  weak12V?: boolean;
  /** Battery management recalibration: the reported state of health steps down by `pp` points from `daysAgo` on. */
  sohStep?: { daysAgo: number; pp: number };
  /**
   * A degraded battery: the reported state of health follows a straight line from `fromPct` at the start
   * of the history to `toPct` at the anchor (instead of the calendar-ageing curve), with the usual BMS scatter.
   */
  sohTrend?: { fromPct: number; toPct: number };
  /** Home wallbox delivering one phase only (3.7 kW) for a while (no detector rule covers this; it shows in the charging power). */
  slowWallbox?: { fromDaysAgo: number; toDaysAgo: number };
  /** Faulty home wallbox: sessions stop delivering power 20 min in while the car still says "charging". */
  stalledCharging?: { fromDaysAgo: number; toDaysAgo: number };
  /** Telematics unit silent for a while; the odometer keeps counting. */
  telemetryGap?: { fromDaysAgo: number; hours: number };
  /**
   * Odometer signal frozen (CAN fault or blocker) while the GPS keeps moving; it recovers mid-trip after
   * `toDaysAgo`, catching up in one step.
   */
  odometerFreeze?: { fromDaysAgo: number; toDaysAgo: number };
  /**
   * Clocked odometer: from `daysAgo` on, every reading is `km` lower than the distance driven (wound back
   * while the telematics unit was unplugged) and stays so: odometer manipulation, a TAS knockout.
   */
  odometerClock?: { daysAgo: number; km: number };
  /**
   * Glitching odometer: one reading mid-trip `lowByKm` below the truth, contradicted by the next reading
   * minutes later (a bus error, not manipulation: no knockout).
   */
  odometerGlitch?: { daysAgo: number; lowByKm: number };
  /** Scripted state at the anchor; unscripted vehicles are wherever their routine put them. */
  atAnchor?: { state: "driving"; minutesUnderway: number } | { state: "charging" } | { state: "offline"; sinceDaysAgo: number };
}

export const FLEET_PLAN: readonly VehiclePlan[] = [
  { model: "teslaModelY", home: "helsinki", profile: "sales", leaseMonths: 36, heavyFoot: true, reportsDrivingEvents: true, atAnchor: { state: "driving", minutesUnderway: 35 } },
  { model: "teslaModelY", home: "espoo", profile: "commuter", leaseMonths: 36, atAnchor: { state: "charging" } },
  { model: "teslaModelY", home: "tampere", profile: "commuter", leaseMonths: 48, nightTariff: true, feed: { format: "tesla", carType: "CarTypeModelY" } },
  { model: "teslaModel3", home: "turku", profile: "sales", leaseMonths: 36, calmDriver: true, reportsDrivingEvents: true },
  { model: "vwId4", home: "vantaa", profile: "commuter", leaseMonths: 36, nightTariff: true },
  // Degraded battery, knocked out: the reported SoH falls from 66 % to 57.5 % over the history.
  { model: "vwId4", home: "oulu", profile: "commuter", leaseMonths: 48, leaseAgeMonths: 40, sohTrend: { fromPct: 66, toPct: 57.5 } },
  { model: "skodaEnyaq", home: "helsinki", profile: "commuter", leaseMonths: 36, slowWallbox: { fromDaysAgo: 38, toDaysAgo: 29 } },
  { model: "skodaEnyaq", home: "jyvaskyla", profile: "sales", leaseMonths: 36 },
  { model: "skodaEnyaq", home: "kuopio", profile: "commuter", leaseMonths: 48, atAnchor: { state: "offline", sinceDaysAgo: 4.6 } },
  // Habitual speeder who fast-charges a lot: holds 134–146 km/h on most motorway trips, and the battery shows it (SoH 69 % → 64 %).
  { model: "kiaEv6", home: "espoo", profile: "sales", leaseMonths: 36, heavyFoot: true, speedingHabit: 0.7, reportsDrivingEvents: true, sohTrend: { fromPct: 69, toPct: 64 } },
  { model: "volvoXc40", home: "helsinki", profile: "commuter", leaseMonths: 36, atAnchor: { state: "charging" } },
  { model: "hyundaiIoniq5", home: "tampere", profile: "commuter", leaseMonths: 36, nightTariff: true },
  { model: "polestar2", home: "helsinki", profile: "commuter", leaseMonths: 36, chargeLimitPct: 100, stalledCharging: { fromDaysAgo: 27, toDaysAgo: 23 } },
  { model: "bmwI4", home: "espoo", profile: "sales", leaseMonths: 36 },
  { model: "nissanLeaf", home: "turku", profile: "commuter", leaseMonths: 48, leaseAgeMonths: 39, sohAgeing: 4.6, sohStep: { daysAgo: 12, pp: 3.5 } },
  // Degraded battery, not knocked out (71 % → 66.5 %, below the 70 % warranty threshold), and a harsh driver.
  {
    model: "mg4",
    home: "lahti",
    profile: "commuter",
    leaseMonths: 36,
    leaseAgeMonths: 33,
    nightTariff: true,
    sohTrend: { fromPct: 71, toPct: 66.5 },
    harshDriver: true,
    reportsDrivingEvents: true,
  },
  { model: "vwIdBuzzCargo", home: "helsinki", profile: "van_service", leaseMonths: 48 },
  { model: "vwIdBuzzCargo", home: "tampere", profile: "van_delivery", leaseMonths: 48, reportsDrivingEvents: true, atAnchor: { state: "driving", minutesUnderway: 20 } },
  { model: "mercedesEvito", home: "vantaa", profile: "van_delivery", leaseMonths: 48, reportsDrivingEvents: true },
  { model: "toyotaProaceElectric", home: "turku", profile: "van_service", leaseMonths: 48 },
  { model: "fordETransitCustom", home: "oulu", profile: "van_service", leaseMonths: 48 },
  { model: "toyotaRav4Phev", home: "helsinki", profile: "commuter", leaseMonths: 36 },
  { model: "toyotaRav4Phev", home: "jyvaskyla", profile: "commuter", leaseMonths: 36, plugInProbability: 0.12 },
  { model: "mitsubishiOutlanderPhev", home: "kouvola", profile: "commuter", leaseMonths: 48, plugInProbability: 0.15 },
  { model: "mitsubishiOutlanderPhev", home: "seinajoki", profile: "sales", leaseMonths: 36 },
  { model: "vwPassatGte", home: "hameenlinna", profile: "sales", leaseMonths: 48 },
  { model: "volvoXc60Recharge", home: "espoo", profile: "commuter", leaseMonths: 36, calmDriver: true, reportsDrivingEvents: true },
  { model: "skodaSuperbIv", home: "lappeenranta", profile: "sales", leaseMonths: 36 },
  { model: "bmw330e", home: "tampere", profile: "commuter", leaseMonths: 24 },
  {
    model: "toyotaCorollaHybrid",
    home: "helsinki",
    profile: "commuter",
    leaseMonths: 48,
    leaseAgeMonths: 37,
    dtc: [{ code: "P0A80", description: "Replace hybrid battery pack", fromDaysAgo: 19 }],
  },
  { model: "toyotaChrHybrid", home: "oulu", profile: "commuter", leaseMonths: 36 },
  // Glitching odometer: one reading 14 km low mid-trip, contradicted by the next (no knockout).
  { model: "skodaOctaviaTdi", home: "pori", profile: "sales", leaseMonths: 36, odometerGlitch: { daysAgo: 17, lowByKm: 14 }, atAnchor: { state: "driving", minutesUnderway: 30 } },
  // Clocked odometer: wound back 48,000 km while the telematics unit was unplugged (the 30 h gap), and it stays down.
  {
    model: "skodaOctaviaTdi",
    home: "vaasa",
    profile: "sales",
    leaseMonths: 36,
    telemetryGap: { fromDaysAgo: 22, hours: 30 },
    odometerClock: { daysAgo: 22 - 30 / 24, km: 48_000 },
  },
  {
    model: "skodaOctaviaTsi",
    home: "vantaa",
    profile: "commuter",
    leaseMonths: 36,
    calmDriver: true,
    reportsDrivingEvents: true,
    dtc: [{ code: "P0420", description: "Catalyst system efficiency below threshold (bank 1)", fromDaysAgo: 62 }],
  },
  {
    model: "volvoV60",
    home: "turku",
    profile: "sales",
    leaseMonths: 36,
    heavyFoot: true,
    reportsDrivingEvents: true,
    dtc: [{ code: "P0300", description: "Random/multiple cylinder misfire detected", fromDaysAgo: 41, toDaysAgo: 37 }],
  },
  { model: "toyotaHilux", home: "rovaniemi", profile: "pickup", leaseMonths: 48, weak12V: true },
  {
    model: "vwTransporter",
    home: "helsinki",
    profile: "van_service",
    leaseMonths: 48,
    atAnchor: { state: "driving", minutesUnderway: 25 },
    dtc: [{ code: "U0100", description: "Lost communication with ECM/PCM", fromDaysAgo: 9, toDaysAgo: 8 }],
  },
  {
    model: "vwTransporter",
    home: "kuopio",
    profile: "van_service",
    leaseMonths: 48,
    atAnchor: { state: "offline", sinceDaysAgo: 3.3 },
    feed: { format: "traccar", category: "van" },
  },
  { model: "fordTransitCustom", home: "tampere", profile: "van_delivery", leaseMonths: 48, reportsDrivingEvents: true },
  { model: "fordTransitCustom", home: "joensuu", profile: "van_service", leaseMonths: 48, odometerFreeze: { fromDaysAgo: 48, toDaysAgo: 42 } },
  { model: "renaultTrafic", home: "vantaa", profile: "van_service", leaseMonths: 48, atAnchor: { state: "offline", sinceDaysAgo: 2.2 } },
  {
    model: "mercedesSprinter",
    home: "helsinki",
    profile: "van_delivery",
    leaseMonths: 48,
    reportsDrivingEvents: true,
    atAnchor: { state: "driving", minutesUnderway: 15 },
    dtc: [{ code: "P2463", description: "Diesel particulate filter: soot accumulation", fromDaysAgo: 30 }],
  },
];
