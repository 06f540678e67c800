import type { DrivingEventInput, IngestRecordInput } from "@/lib/schemas/ingest";
import { isPlugIn } from "@/lib/vocabulary/powertrain";
import { DAY_MS, helsinkiDayNumber, helsinkiHourOfDay, helsinkiTime, HOUR_MS, MINUTE_MS } from "./calendar";
import { planDay, somewhereFar } from "./daily-plan";
import { type Coord, localRegion } from "./finland";
import type { VehiclePlan } from "./fleet-plan";
import { type Rng, rngFor } from "./prng";
import { type Location, planRoute, sameLocation, type Trip } from "./trip";
import type { VehicleModel } from "./vehicle-catalog";
import { temperatureC } from "./weather";

/** One record as the vehicle's telematics feed sends it to FDP: a SPEC 2.17 ingest record. */
export type OemRecord = IngestRecordInput;
type ChargingStatus = "charging" | "not_charging" | "complete";

/** Everything the simulator needs to know about one vehicle (derived from its plan by the generator). */
export interface VehicleSetup {
  tenantId: string;
  deviceId: string;
  /**
   * What the vehicle's random draws are keyed by (`sbx-<n>`): the same behaviour whatever its device id,
   * which for a vehicle arriving through a feed adapter is that feed's (`oem-<vin>`, `traccar-<imei>`).
   */
  rngKey: string;
  vin: string;
  plan: VehiclePlan;
  model: VehicleModel;
  home: Location;
  work: Location;
  leaseStartDay: number;
  initialOdometerKm: number;
  initialSocPct: number | null;
  initialFuelPct: number | null;
  initialEngineHours: number | null;
  /** Average motorway speed in summer. */
  cruiseKmh: number;
  /** 12 V rest voltage of a rested, healthy battery. */
  restVoltage: number;
  /** BEV: plugs in at home when the SOC is below this. */
  plugBelowSocPct: number;
  sohAgeing: number;
  /** How long after the device timestamp the platform stored the record. */
  receiveLatencyMs: number;
}

interface SimWindow {
  /** First record (anchor − history length). */
  startMs: number;
  anchorMs: number;
}

export interface ChargeSession {
  startMs: number;
  endMs: number;
  kind: "AC" | "DC";
  energyKwh: number;
  peakPowerKw: number;
  atHome: boolean;
}

export interface TripLog {
  departMs: number;
  arriveMs: number;
  km: number;
  kmElectric: number;
  kmFuel: number;
}

export interface SimResult {
  /** The feed, oldest first: what FDP's ingest would receive from this vehicle. */
  records: OemRecord[];
  sessions: ChargeSession[];
  trips: TripLog[];
}

// Record cadence: the telematics unit reports every 5 min while awake, and wakes every few hours while parked.
const DRIVE_RECORD_MS = 5 * MINUTE_MS;
const AC_RECORD_MS = 45 * MINUTE_MS;
const DC_RECORD_MS = 5 * MINUTE_MS;
const FORCED_CHARGE_RECORD_MS = 30 * MINUTE_MS;
const PARKED_RECORD_MIN_MS = 2 * HOUR_MS;
const PARKED_RECORD_MAX_MS = 4 * HOUR_MS;
/** Integration step of a charging session. */
const CHARGE_STEP_MS = 5 * MINUTE_MS;
/** Shortest pause between arriving and leaving again. */
const MIN_STOP_MS = 5 * MINUTE_MS;
const PLUG_IN_DELAY_MS = 2 * MINUTE_MS;
/** No moving record this close before a stop: two readings seconds apart would imply absurd speeds. */
const MIN_RECORD_SPACING_MS = MINUTE_MS;
/** Forced charging at the anchor starts this long before it (so two records show the SOC rising). */
const FORCED_CHARGE_LEAD_MS = 60 * MINUTE_MS;

const AC_EFFICIENCY = 0.9;
const DC_EFFICIENCY = 0.93;
const HOME_WALLBOX_KW = 11;
/** A wallbox that lost two phases delivers 230 V × 16 A. */
const ONE_PHASE_WALLBOX_KW = 3.7;
const PUBLIC_AC_KW = 11;
const DC_STATION_KW = [50, 100, 150] as const;

const DC_TRIGGER_SOC = 15;
const DC_TARGET_SOC = 80;
const ARRIVAL_MIN_SOC = 12;
const AWAY_CHARGE_TARGET_SOC = 80;
/** A depleted PHEV keeps this much as hybrid buffer and runs on fuel. */
const PHEV_RESERVE_SOC = 8;
const FUEL_STOP_TRIGGER_PCT = 8;
const FUEL_ARRIVAL_MIN_PCT = 6;
const REFUEL_ON_ARRIVAL_BELOW_PCT = 20;

/** Energy use grows in the cold (cabin heating, battery conditioning, winter tyres). */
const EV_COLD_PENALTY_PER_DEG = 0.012;
const FUEL_COLD_PENALTY_PER_DEG = 0.006;
const COLD_REFERENCE_C = 15;
/** Air drag makes EVs use more at motorway speed; combustion engines are at their best there. */
const EV_MOTORWAY_PENALTY = 0.15;
const FUEL_MOTORWAY_SAVING = 0.12;
/** Share of driving time a full hybrid's engine runs. */
const HEV_ENGINE_SHARE = 0.55;
/** Winter speed limits (100 km/h on motorways) and slippery roads. */
const WINTER_SPEED_DROP_KMH = 6;

/** Days between the lease start (delivery) and the vehicle's build, for battery calendar ageing. */
const BUILD_TO_DELIVERY_DAYS = 60;

/**
 * Heavy-footed drivers: on one in five of their trips with a motorway stretch they hold well above
 * the limit for the whole stretch (mean 134–146 km/h), so that consecutive 5-minute samples stay
 * above the driving detector's 130 km/h and its overspeed rule (two readings ≤ 300 s apart, ≥ 60 s)
 * sees it. Their reported speed is capped here instead of at 120 km/h.
 */
const HEAVY_FOOT_PUSH_CHANCE = 0.2;
const HEAVY_FOOT_PUSH_KMH = [134, 146] as const;
const HEAVY_FOOT_MAX_KMH = 170;
/** Rest-voltage loss of the weak 12 V battery over the history: 12.35 V → ~11.5 V, below the detector's 11.8 V in the last weeks. */
const WEAK_12V_LOSS_V = 0.75;
/** A home charging session on a faulty wallbox stops delivering power this long after it starts (status still "charging"). */
const STALL_AFTER_MS = 20 * MINUTE_MS;
/**
 * While no current flows the car keeps retrying the charge handshake, which wakes its telematics
 * unit: a record every 15 min instead of every 45 (and so three of them within an hour's batch, what
 * the charging detector's stall rule needs).
 */
const STALLED_RECORD_MS = 15 * MINUTE_MS;
/**
 * Harsh events the telematics unit of an event-reporting vehicle sends, per km driven. Chosen so
 * that a heavy-footed driver shows about 3 harsh events per 1,000 km and a delivery van about 1.7
 * (synthetic figures, not calibrated against a real fleet).
 */
const HARSH_PER_KM = {
  heavyFoot: { braking: 1.6e-3, acceleration: 1.4e-3, g: [0.32, 0.55] },
  normal: { braking: 1.2e-3, acceleration: 0.5e-3, g: [0.31, 0.45] },
  /** Harsh drivers: about 4 per 100 km, and harder (synthetic; the scenario suite's harsh driver has 10). */
  harsh: { braking: 2.5e-2, acceleration: 1.5e-2, g: [0.38, 0.6] },
  /** Calm drivers: an order of magnitude fewer, and milder. */
  calm: { braking: 0.15e-3, acceleration: 0.05e-3, g: [0.3, 0.36] },
} as const;
/** Calm drivers keep to 100 km/h on motorways, whatever the limit. */
const CALM_MAX_KMH = 100;

/**
 * Reported state of health: real BMSs re-estimate SoH from time to time (typically after a charge)
 * and the estimate scatters around the true value by about half a point to a point (σ 0.6 pp here).
 * The scatter changes once per BMS "epoch" (a day, offset half a day from the anchor so a scripted
 * step never coincides with an epoch change) and is clipped at ±1.4 pp, so two successive readings
 * never differ by 3 pp or more (the battery detector's soh_drop threshold) unless a fault is scripted.
 */
const SOH_NOISE_SD_PP = 0.6;
const SOH_NOISE_MAX_PP = 1.4;

/** Rounds for storage; `+ 0` turns -0 (which JSON and Postgres make 0) into 0, so output round-trips exactly. */
const round = (x: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f + 0;
};
const roundToSecond = (ms: number) => Math.round(ms / 1000) * 1000;

interface PendingCharge {
  startAt: number;
  powerKw: number;
  targetPct: number;
  atHome: boolean;
}

interface Rates {
  kwhPerKm: number;
  litresPerKm: number;
}

/** Day-by-day simulation of one vehicle over the window, emitting its telematics feed as it goes. */
export class VehicleSimulator {
  private readonly records: OemRecord[] = [];
  private readonly sessions: ChargeSession[] = [];
  private readonly trips: TripLog[] = [];
  /** Behaviour and sensor noise; plans use their own per-day streams. */
  private readonly rng: Rng;
  private readonly endMs: number;
  private readonly plugIn: boolean;

  private t: number;
  private loc: Location;
  private pos: Coord;
  private odo: number;
  private soc: number | null;
  private fuel: number | null;
  private engineHours: number | null;
  private parkedSince: number;
  private pendingCharge: PendingCharge | null = null;
  /** A charging cable is connected (the session may have finished). */
  private plugged = false;
  /** Plugged in and full: parked records say "complete" until the vehicle leaves. */
  private chargeComplete = false;
  private frozenOdometer: number | null = null;
  private odometerThawed = false;
  private odometerGlitched = false;
  private readonly sohNoiseByEpoch = new Map<number, number>();
  private lastTs = -Infinity;
  private lastRecordMoving = false;
  /** Odometer at the last emitted record: the distance a driving record covers. */
  private odoAtLastRecord: number;
  /** A separate stream for reported driving events, so that they do not shift the behaviour draws. */
  private readonly eventRng: Rng;

  constructor(
    private readonly v: VehicleSetup,
    private readonly w: SimWindow,
  ) {
    this.rng = rngFor(v.rngKey, "behaviour", w.anchorMs);
    this.eventRng = rngFor(v.rngKey, "driving-events", w.anchorMs);
    this.odoAtLastRecord = v.initialOdometerKm;
    const at = v.plan.atAnchor;
    this.endMs = at?.state === "offline" ? roundToSecond(w.anchorMs - at.sinceDaysAgo * DAY_MS) : w.anchorMs;
    this.plugIn = isPlugIn(v.model.powertrain);
    this.t = w.startMs;
    this.loc = v.home;
    this.pos = v.home.coord;
    this.odo = v.initialOdometerKm;
    this.soc = v.initialSocPct;
    this.fuel = v.initialFuelPct;
    this.engineHours = v.initialEngineHours;
    this.parkedSince = w.startMs - 12 * HOUR_MS;
  }

  run(): SimResult {
    const { plan } = this.v;
    const at = plan.atAnchor;
    const forcedStart = at?.state === "driving" ? this.w.anchorMs - at.minutesUnderway * MINUTE_MS : at?.state === "charging" ? this.w.anchorMs - FORCED_CHARGE_LEAD_MS : undefined;

    this.emitParked(this.t);
    days: for (let day = helsinkiDayNumber(this.w.startMs); day <= helsinkiDayNumber(this.endMs); day++) {
      const intents = planDay({ profile: plan.profile, home: this.v.home, work: this.v.work, day, here: this.loc, rng: rngFor(this.v.rngKey, "day", day) });
      for (const intent of intents) {
        if (sameLocation(intent.to, this.loc)) continue;
        const wanted = "at" in intent ? intent.at : this.t + intent.afterMin * MINUTE_MS;
        if (wanted < this.w.startMs) continue;
        const depart = Math.max(wanted, this.t + MIN_STOP_MS);
        if (depart >= this.endMs) break days;
        const trip = this.route(this.loc, intent.to, depart);
        // Leave room for the scripted final activity instead of overlapping it.
        if (forcedStart !== undefined && depart + trip.durationHours * HOUR_MS + MIN_STOP_MS >= forcedStart) break days;
        this.park(depart);
        this.drive(trip, depart, true);
      }
    }

    if (at?.state === "driving" && forcedStart !== undefined) {
      this.park(forcedStart);
      const far = somewhereFar(rngFor(this.v.rngKey, "final-drive", this.w.anchorMs), this.loc.city, 60, 250);
      if (!far) throw new Error(`${this.v.deviceId}: no destination for the drive at the anchor`);
      this.drive(this.route(this.loc, far, forcedStart), forcedStart, false);
    } else if (at?.state === "charging" && forcedStart !== undefined) {
      this.park(forcedStart);
      this.charge({
        start: forcedStart,
        until: this.w.anchorMs,
        inclusive: true,
        powerKw: Math.min(this.v.model.acKw ?? PUBLIC_AC_KW, HOME_WALLBOX_KW),
        targetPct: 100,
        kind: "AC",
        recordEveryMs: FORCED_CHARGE_RECORD_MS,
        atHome: sameLocation(this.loc, this.v.home),
      });
    } else {
      this.park(this.endMs + 1);
    }

    if (at?.state === "offline") {
      // The unit went silent while parked, not in the middle of a drive or a charge.
      while (this.records.length > 1) {
        const last = this.records[this.records.length - 1];
        if (!last || (last.raw_data?.ignition === false && last.charging_status !== "charging")) break;
        this.records.pop();
      }
    }
    return { records: this.records, sessions: this.sessions, trips: this.trips };
  }

  // -------------------------------------------------------------------------------------------
  // Driving

  private route(from: Location, to: Location, depart: number): Trip {
    const temp = temperatureC(from.coord, depart);
    const winter = temp < 0 ? WINTER_SPEED_DROP_KMH : 0;
    const push = this.v.plan.heavyFoot && this.rng.chance(this.v.plan.speedingHabit ?? HEAVY_FOOT_PUSH_CHANCE) ? this.rng.float(...HEAVY_FOOT_PUSH_KMH) : null;
    return planRoute(from, to, { urbanKmh: this.rng.float(30, 40), highwayKmh: push ?? this.v.cruiseKmh - winter });
  }

  private rates(temp: number, motorwayShare: number): Rates {
    const cold = Math.max(0, COLD_REFERENCE_C - temp);
    const m = this.v.model;
    return {
      kwhPerKm: (m.kwhPerKm ?? 0) * (1 + EV_COLD_PENALTY_PER_DEG * cold) * (1 + EV_MOTORWAY_PENALTY * motorwayShare),
      litresPerKm: ((m.litresPer100Km ?? 0) / 100) * (1 + FUEL_COLD_PENALTY_PER_DEG * cold) * (1 - FUEL_MOTORWAY_SAVING * motorwayShare),
    };
  }

  private drive(trip: Trip, depart: number, mayIdle: boolean): void {
    const m = this.v.model;
    const unplugging = this.plugged;
    this.pendingCharge = null;
    this.plugged = false;
    this.chargeComplete = false;
    const temp = temperatureC(this.pos, depart);
    let t = depart;

    // Ignition on before moving off: engines warm up in the cold, EV drivers clear the windscreen.
    // Unplugging always shows, so that a charging session never seems to run into the next one.
    const combustion = m.powertrain !== "BEV";
    const idles = mayIdle && this.rng.chance(temp < -5 ? 0.7 : 0.25);
    if (idles || unplugging) this.emit(t, { speedKmh: 0, ignition: 1, voltage: this.runningVoltage(), charging: null });
    if (idles) {
      const idleMs = roundToSecond((temp < -5 ? this.rng.float(3, 9) : this.rng.float(1, 3)) * MINUTE_MS);
      if (combustion && this.engineHours !== null) this.engineHours += idleMs / HOUR_MS;
      t += idleMs;
    }

    const rates = this.rates(temp, trip.highwayShare);
    const log: TripLog = { departMs: depart, arriveMs: depart, km: 0, kmElectric: 0, kmFuel: 0 };
    let d = 0;
    let nextRecord = t + DRIVE_RECORD_MS;
    while (d < trip.totalKm) {
      const stopAt = this.energyStopAt(d, trip.totalKm, rates);
      const segmentEnd = stopAt ?? trip.totalKm;
      const segmentEndMs = t + roundToSecond(trip.hoursBetween(d, segmentEnd) * HOUR_MS);
      while (nextRecord <= segmentEndMs - MIN_RECORD_SPACING_MS) {
        const dNext = trip.distanceAfter(d, (nextRecord - t) / HOUR_MS);
        this.advance(trip, d, dNext, nextRecord - t, rates, log);
        d = dNext;
        t = nextRecord;
        const leg = trip.legAt(d);
        this.emit(t, {
          speedKmh: this.reportedSpeed(leg?.speedKmh ?? 40, leg?.highway ?? false),
          ignition: 1,
          voltage: this.runningVoltage(),
          charging: null,
          drivenKm: this.odo - this.odoAtLastRecord,
        });
        nextRecord += DRIVE_RECORD_MS;
      }
      this.advance(trip, d, segmentEnd, segmentEndMs - t, rates, log);
      d = segmentEnd;
      t = segmentEndMs;
      if (stopAt !== null) {
        t = this.energyStop(t);
        nextRecord = t + DRIVE_RECORD_MS;
      }
    }

    this.loc = trip.to;
    this.pos = trip.to.coord;
    if (this.fuel !== null && this.fuel < REFUEL_ON_ARRIVAL_BELOW_PCT) this.fuel = this.rng.float(92, 100); // filled up on the way in
    this.t = t;
    this.parkedSince = t;
    this.emitParked(t);
    log.arriveMs = t;
    this.trips.push(log);
    this.decideCharging(t);
  }

  private advance(trip: Trip, fromKm: number, toKm: number, dtMs: number, rates: Rates, log: TripLog): void {
    const km = toKm - fromKm;
    const hours = dtMs / HOUR_MS;
    const m = this.v.model;
    this.odo += km;
    log.km += km;
    if (m.powertrain === "BEV" && this.soc !== null && m.batteryKwh) {
      this.soc = Math.max(0, this.soc - ((km * rates.kwhPerKm) / m.batteryKwh) * 100);
      log.kmElectric += km;
    } else if (m.powertrain === "PHEV" && this.soc !== null && m.batteryKwh) {
      const electricKm = Math.min(km, Math.max(0, (((this.soc - PHEV_RESERVE_SOC) / 100) * m.batteryKwh) / rates.kwhPerKm));
      this.soc -= ((electricKm * rates.kwhPerKm) / m.batteryKwh) * 100;
      this.burnFuel(km - electricKm, rates);
      if (this.engineHours !== null && km > 0) this.engineHours += (hours * (km - electricKm)) / km;
      log.kmElectric += electricKm;
      log.kmFuel += km - electricKm;
    } else {
      this.burnFuel(km, rates);
      if (this.engineHours !== null) this.engineHours += hours * (m.powertrain === "HEV" ? HEV_ENGINE_SHARE : 1);
      log.kmFuel += km;
    }
    this.pos = trip.positionAt(toKm);
  }

  private burnFuel(km: number, rates: Rates): void {
    const tank = this.v.model.tankL;
    if (this.fuel === null || !tank) return;
    this.fuel = Math.max(0, this.fuel - ((km * rates.litresPerKm) / tank) * 100);
  }

  /** Trip km at which the vehicle must stop to charge or refuel, or null if it reaches the destination. */
  private energyStopAt(d: number, total: number, rates: Rates): number | null {
    const m = this.v.model;
    const remaining = total - d;
    const soonest = (km: number) => d + Math.min(remaining, Math.max(0.5, km));
    if (m.powertrain === "BEV" && this.soc !== null && m.batteryKwh) {
      const needPct = ((remaining * rates.kwhPerKm) / m.batteryKwh) * 100;
      if (this.soc - needPct >= ARRIVAL_MIN_SOC) return null;
      return soonest((((this.soc - DC_TRIGGER_SOC) / 100) * m.batteryKwh) / rates.kwhPerKm);
    }
    if (this.fuel === null || !m.tankL) return null;
    const electricKm = m.powertrain === "PHEV" && this.soc !== null && m.batteryKwh ? Math.max(0, (((this.soc - PHEV_RESERVE_SOC) / 100) * m.batteryKwh) / rates.kwhPerKm) : 0;
    const needPct = ((Math.max(0, remaining - electricKm) * rates.litresPerKm) / m.tankL) * 100;
    if (this.fuel - needPct >= FUEL_ARRIVAL_MIN_PCT) return null;
    return soonest(electricKm + (((this.fuel - FUEL_STOP_TRIGGER_PCT) / 100) * m.tankL) / rates.litresPerKm);
  }

  /** A fast-charging stop (BEV) or a refuelling stop on the way; returns when the drive resumes. */
  private energyStop(t: number): number {
    const m = this.v.model;
    if (m.powertrain === "BEV") {
      const station = this.rng.pick(DC_STATION_KW);
      const start = t + 3 * MINUTE_MS;
      const { endMs } = this.charge({
        start,
        until: Infinity,
        inclusive: false,
        powerKw: Math.min(m.dcKw ?? station, station),
        targetPct: DC_TARGET_SOC,
        kind: "DC",
        recordEveryMs: DC_RECORD_MS,
        atHome: false,
      });
      return endMs + 3 * MINUTE_MS;
    }
    const stopMs = roundToSecond(this.rng.float(6, 10) * MINUTE_MS);
    this.fuel = this.rng.float(92, 100);
    this.emit(roundToSecond(t + stopMs / 2), { speedKmh: 0, ignition: 0, voltage: this.restVoltage(t), charging: null });
    return t + stopMs;
  }

  private reportedSpeed(meanKmh: number, highway: boolean): number {
    const s = this.rng.normal(meanKmh, highway ? 5 : 6);
    const cap = this.v.plan.heavyFoot ? HEAVY_FOOT_MAX_KMH : this.v.plan.calmDriver ? CALM_MAX_KMH : 120;
    return highway ? Math.min(cap, Math.max(60, s)) : Math.min(60, Math.max(30, s));
  }

  // -------------------------------------------------------------------------------------------
  // Parking and charging

  private decideCharging(t: number): void {
    const { model: m, plan, home, work } = this.v;
    if (!this.plugIn || this.soc === null) return;
    const atHome = sameLocation(this.loc, home);
    if (m.powertrain === "PHEV") {
      if (atHome && this.soc < 98 && this.rng.chance(plan.plugInProbability ?? 0.8)) {
        this.pendingCharge = { startAt: t, powerKw: m.acKw ?? ONE_PHASE_WALLBOX_KW, targetPct: 100, atHome };
      }
      return;
    }
    const isVan = m.assetClass === "light_commercial";
    const limit = plan.chargeLimitPct ?? (isVan ? 90 : 80);
    if (atHome) {
      if ((isVan && this.soc < limit - 2) || this.soc < this.v.plugBelowSocPct || (limit >= 95 && this.soc < limit - 5)) {
        const hour = helsinkiHourOfDay(t);
        const waitForNight = plan.nightTariff && hour >= 7 && hour < 22;
        const startAt = waitForNight ? helsinkiTime(helsinkiDayNumber(t), 22 * 60) : t;
        this.pendingCharge = { startAt, powerKw: Math.min(m.acKw ?? HOME_WALLBOX_KW, this.wallboxKw(t)), targetPct: limit, atHome };
      }
    } else if (sameLocation(this.loc, work) && this.soc < 50 && this.rng.chance(0.5)) {
      this.pendingCharge = { startAt: t, powerKw: Math.min(m.acKw ?? PUBLIC_AC_KW, PUBLIC_AC_KW), targetPct: AWAY_CHARGE_TARGET_SOC, atHome };
    } else if (!localRegion(home.city).includes(this.loc.city) && this.soc < 60) {
      this.pendingCharge = { startAt: t, powerKw: Math.min(m.acKw ?? PUBLIC_AC_KW, PUBLIC_AC_KW), targetPct: AWAY_CHARGE_TARGET_SOC, atHome };
    }
  }

  private wallboxKw(t: number): number {
    const slow = this.v.plan.slowWallbox;
    if (slow && t >= this.w.anchorMs - slow.fromDaysAgo * DAY_MS && t < this.w.anchorMs - slow.toDaysAgo * DAY_MS) return ONE_PHASE_WALLBOX_KW;
    return HOME_WALLBOX_KW;
  }

  /** Parked from now until `until` (exclusive): a planned charging session, then wake-up records. */
  private park(until: number): void {
    let t = this.t;
    const pending = this.pendingCharge;
    this.pendingCharge = null;
    if (pending) {
      const start = Math.max(pending.startAt, t + PLUG_IN_DELAY_MS);
      if (start < until) {
        this.parkedRecords(t, start);
        this.plugged = true;
        const stallAt = pending.atHome && this.inEpisode(this.v.plan.stalledCharging, start) ? start + STALL_AFTER_MS : undefined;
        const result = this.charge({
          start,
          until,
          inclusive: false,
          powerKw: pending.powerKw,
          targetPct: pending.targetPct,
          kind: "AC",
          recordEveryMs: AC_RECORD_MS,
          atHome: pending.atHome,
          stallAt,
        });
        this.chargeComplete = result.complete;
        t = result.endMs;
      }
    }
    this.parkedRecords(t, until);
    this.t = Math.max(this.t, until);
  }

  private parkedRecords(from: number, until: number): void {
    for (let t = from + this.parkedInterval(); t < until; t += this.parkedInterval()) this.emitParked(t);
  }

  private parkedInterval(): number {
    return roundToSecond(this.rng.float(PARKED_RECORD_MIN_MS, PARKED_RECORD_MAX_MS));
  }

  private charge(o: {
    start: number;
    until: number;
    /** Whether a step landing exactly on `until` still counts (the final session at the anchor). */
    inclusive: boolean;
    powerKw: number;
    targetPct: number;
    kind: "AC" | "DC";
    recordEveryMs: number;
    atHome: boolean;
    /** A faulty charger delivers nothing from this time on, while the car still says "charging". */
    stallAt?: number;
  }): { endMs: number; complete: boolean } {
    const capacity = this.v.model.batteryKwh;
    if (this.soc === null || !capacity) return { endMs: o.start, complete: false };
    let soc: number = this.soc;
    const efficiency = o.kind === "AC" ? AC_EFFICIENCY : DC_EFFICIENCY;
    // DC power falls off above half charge; AC holds until the last few percent.
    const curve = (pct: number) => {
      if (o.kind === "DC") return pct < 50 ? o.powerKw : o.powerKw * Math.max(0.35, 1 - ((pct - 50) / 50) * 0.65);
      return pct < 95 ? o.powerKw : o.powerKw * 0.5;
    };
    let stalled = false;
    const powerAt = (pct: number) => (stalled ? 0 : curve(pct));
    const session: ChargeSession = { startMs: o.start, endMs: o.start, kind: o.kind, energyKwh: 0, peakPowerKw: powerAt(soc), atHome: o.atHome };
    this.sessions.push(session);

    let t = o.start;
    let lastRecord = t;
    this.emit(t, { speedKmh: 0, ignition: 0, voltage: this.chargingVoltage(), charging: { status: "charging", powerKw: powerAt(soc) } });
    for (;;) {
      const next = t + CHARGE_STEP_MS;
      if (o.inclusive ? next > o.until : next >= o.until) break;
      stalled = o.stallAt !== undefined && t >= o.stallAt;
      const storedKwh = powerAt(soc) * (CHARGE_STEP_MS / HOUR_MS) * efficiency;
      const charged = soc + (storedKwh / capacity) * 100;
      t = next;
      stalled = o.stallAt !== undefined && t >= o.stallAt;
      session.endMs = t;
      if (charged >= o.targetPct) {
        session.energyKwh += (((o.targetPct - soc) / 100) * capacity) / efficiency;
        this.soc = o.targetPct;
        this.emit(t, { speedKmh: 0, ignition: 0, voltage: this.chargingVoltage(), charging: { status: "complete", powerKw: 0 } });
        return { endMs: t, complete: true };
      }
      session.energyKwh += storedKwh / efficiency;
      soc = charged;
      this.soc = soc;
      if (t - lastRecord >= (stalled ? STALLED_RECORD_MS : o.recordEveryMs)) {
        this.emit(t, { speedKmh: 0, ignition: 0, voltage: this.chargingVoltage(), charging: { status: "charging", powerKw: powerAt(soc) } });
        lastRecord = t;
      }
    }
    return { endMs: t, complete: false };
  }

  // -------------------------------------------------------------------------------------------
  // Records

  private runningVoltage(): number {
    return this.rng.float(13.8, 14.4);
  }

  private chargingVoltage(): number {
    return this.rng.float(13.3, 13.7); // the DC-DC converter keeps the 12 V battery topped up
  }

  private restVoltage(t: number): number {
    const hoursParked = (t - this.parkedSince) / HOUR_MS;
    let v = this.v.restVoltage - Math.min(0.12, 0.0025 * hoursParked); // parasitic drain, ~0.06 V a day
    if (hoursParked < 1) v += 0.1; // surface charge right after driving
    if (this.v.plan.weak12V) v -= WEAK_12V_LOSS_V * ((t - this.w.startMs) / (this.w.anchorMs - this.w.startMs));
    if (temperatureC(this.pos, t) < -10) v -= 0.08;
    return v + this.rng.normal(0, 0.02);
  }

  private emitParked(t: number): void {
    const status: ChargingStatus = this.chargeComplete ? "complete" : "not_charging";
    this.emit(t, { speedKmh: 0, ignition: 0, voltage: this.restVoltage(t), charging: this.plugIn ? { status, powerKw: 0 } : null });
  }

  private sohPct(t: number): number {
    const step = this.v.plan.sohStep;
    const stepPp = step && t >= this.w.anchorMs - step.daysAgo * DAY_MS ? step.pp : 0;
    const trend = this.v.plan.sohTrend;
    const truth = trend
      ? trend.fromPct + (trend.toPct - trend.fromPct) * ((t - this.w.startMs) / (this.w.anchorMs - this.w.startMs))
      : 100 - this.v.sohAgeing * Math.max(0, (helsinkiDayNumber(t) - this.v.leaseStartDay + BUILD_TO_DELIVERY_DAYS) / 365.25) ** 0.75;
    return round(truth - stepPp + this.sohNoise(t), 1);
  }

  private sohNoise(t: number): number {
    const epoch = Math.floor((t - this.w.anchorMs - DAY_MS / 2) / DAY_MS);
    let noise = this.sohNoiseByEpoch.get(epoch);
    if (noise === undefined) {
      const draw = rngFor(this.v.rngKey, "soh-noise", epoch).normal(0, SOH_NOISE_SD_PP);
      noise = Math.max(-SOH_NOISE_MAX_PP, Math.min(SOH_NOISE_MAX_PP, draw));
      this.sohNoiseByEpoch.set(epoch, noise);
    }
    return noise;
  }

  /**
   * The frozen signal recovers at the first record after the episode that follows another moving
   * record (the CAN fault clears mid-trip), so the catch-up shows as a jump between two readings
   * minutes apart: the only trace the odometer-integrity detector can see of a freeze.
   */
  private reportedOdometer(t: number, moving: boolean): number {
    const clock = this.v.plan.odometerClock;
    const clockedKm = clock && t >= this.w.anchorMs - clock.daysAgo * DAY_MS ? clock.km : 0;
    const glitch = this.v.plan.odometerGlitch;
    // The glitch hits one reading mid-trip (a moving record after a moving record), so the next one, minutes later, contradicts it.
    if (glitch && !this.odometerGlitched && t >= this.w.anchorMs - glitch.daysAgo * DAY_MS && moving && this.lastRecordMoving) {
      this.odometerGlitched = true;
      return this.odometerBeforeClock(t, moving) - clockedKm - glitch.lowByKm;
    }
    return this.odometerBeforeClock(t, moving) - clockedKm;
  }

  private odometerBeforeClock(t: number, moving: boolean): number {
    const freeze = this.v.plan.odometerFreeze;
    if (freeze && !this.odometerThawed && t >= this.w.anchorMs - freeze.fromDaysAgo * DAY_MS) {
      const over = t >= this.w.anchorMs - freeze.toDaysAgo * DAY_MS;
      if (!(over && moving && this.lastRecordMoving)) {
        this.frozenOdometer ??= this.odo;
        return this.frozenOdometer;
      }
      this.odometerThawed = true;
    }
    return this.odo;
  }

  private inEpisode(episode: { fromDaysAgo: number; toDaysAgo: number } | undefined, t: number): boolean {
    return episode !== undefined && t >= this.w.anchorMs - episode.fromDaysAgo * DAY_MS && t < this.w.anchorMs - episode.toDaysAgo * DAY_MS;
  }

  /** The events an event-reporting telematics unit sends with a driving record: harsh ones by distance, overspeed while above 130 km/h. */
  private drivingEvents(t: number, speedKmh: number, drivenKm: number): DrivingEventInput[] {
    const rng = this.eventRng;
    const plan = this.v.plan;
    const rates = plan.harshDriver ? HARSH_PER_KM.harsh : plan.heavyFoot ? HARSH_PER_KM.heavyFoot : plan.calmDriver ? HARSH_PER_KM.calm : HARSH_PER_KM.normal;
    // Somewhere since the previous record (device clocks tick in whole seconds).
    const backS = Math.max(1, Math.min(DRIVE_RECORD_MS, t - this.lastTs) / 1000 - 1);
    const at = () => new Date(t - Math.floor(rng.float(0, backS)) * 1000).toISOString();
    const events: DrivingEventInput[] = [];
    const km = Math.max(0, drivenKm);
    if (rng.chance(rates.braking * km))
      events.push({ kind: "harsh_braking", ts: at(), value: round(rng.float(rates.g[0], rates.g[1]), 2), duration_s: round(rng.float(0.8, 2.5), 1) });
    if (rng.chance(rates.acceleration * km))
      events.push({ kind: "harsh_acceleration", ts: at(), value: round(rng.float(rates.g[0], rates.g[1]), 2), duration_s: round(rng.float(1, 4), 1) });
    if (this.v.plan.heavyFoot && speedKmh > 130)
      events.push({ kind: "overspeed", ts: at(), value: round(speedKmh + rng.float(1, 6), 1), duration_s: round(rng.float(30, 280), 0) });
    return events.sort((a, b) => a.ts.localeCompare(b.ts));
  }

  private activeDtcs(t: number): string[] {
    const codes: string[] = [];
    for (const e of this.v.plan.dtc ?? []) {
      const from = this.w.anchorMs - e.fromDaysAgo * DAY_MS;
      const to = e.toDaysAgo === undefined ? Infinity : this.w.anchorMs - e.toDaysAgo * DAY_MS;
      if (t >= from && t < to) codes.push(e.code);
    }
    return codes;
  }

  private inTelemetryGap(t: number): boolean {
    const gap = this.v.plan.telemetryGap;
    if (!gap) return false;
    const from = this.w.anchorMs - gap.fromDaysAgo * DAY_MS;
    return t >= from && t < from + gap.hours * HOUR_MS;
  }

  private emit(t: number, s: { speedKmh: number; ignition: 0 | 1; voltage: number; charging: { status: ChargingStatus; powerKw: number } | null; drivenKm?: number }): void {
    if (t < this.w.startMs || t > this.endMs || t <= this.lastTs || this.inTelemetryGap(t)) return;
    const temp = round(temperatureC(this.pos, t), 1);
    const speed = round(s.speedKmh, 1);
    const moving = speed > 0;
    const raw: Record<string, unknown> = { source: "sandbox-sim", ambient_temp_c: temp, ignition: s.ignition === 1 };
    if (this.plugIn) raw.charging_power_kw = round(s.charging?.powerKw ?? 0, 1);
    // An event-reporting unit sends its (possibly empty) event list with every record while awake.
    if (this.v.plan.reportsDrivingEvents && s.ignition === 1) raw.events = moving ? this.drivingEvents(t, speed, s.drivenKm ?? 0) : [];
    this.records.push({
      vin: this.v.vin,
      device_id: this.v.deviceId,
      timestamp: new Date(t).toISOString(),
      odometer_km: round(this.reportedOdometer(t, moving), 1),
      soc_percent: this.soc === null ? null : round(this.soc, 1),
      soh_percent: this.plugIn ? this.sohPct(t) : null,
      battery_voltage: round(s.voltage, 2),
      charging_status: this.plugIn ? (s.charging?.status ?? "not_charging") : null,
      lat: round(this.pos[0], 5),
      lon: round(this.pos[1], 5),
      speed_kmh: speed,
      fuel_level_pct: this.fuel === null ? null : round(this.fuel, 1),
      engine_hours: this.engineHours === null ? null : round(this.engineHours, 1),
      dtc_codes: this.activeDtcs(t),
      raw_data: raw,
    });
    this.lastTs = t;
    this.lastRecordMoving = moving;
    this.odoAtLastRecord = this.odo;
  }
}
