/**
 * The scenario fleet: constructed vehicles whose truth is known exactly (distance, energy, speeding
 * share, harsh events, night driving, SoH trend, odometer story), emitted as SPEC 2.17 ingest records
 * at a chosen sampling interval. The scenario suite (tests/scenarios/) pushes them through the real
 * ingest → query → score path and checks the scores against the truth; `npm run calibrate` prints
 * their score distribution next to the sandbox's.
 *
 * Pure and deterministic: time comes from `anchor`, noise from the seeded PRNG (./../prng.ts).
 *
 * How a vehicle is built: a timeline of phases (drive segments at a constant speed, parked, charging
 * at a constant power), integrated exactly (the truth), then sampled every `samplingMinutes` (the
 * telemetry). The truth is therefore what really happened between the samples, not what the samples
 * say: a score computed from sparse samples is judged against the continuous drive.
 */
import type { DrivingEventInput, IngestRecordInput, VehicleMasterData } from "@/lib/schemas/ingest";
import { DAY_MS, helsinkiHourOfDay, HOUR_MS, MINUTE_MS } from "../calendar";
import { type Rng, rngFor } from "../prng";

/**
 * Share of the energy drawn at the plug that reaches the battery when charging on AC (11 kW): 0.90.
 * The same figure the sandbox simulator uses (lib/seed/simulate-vehicle.ts AC_EFFICIENCY); the fleet
 * scores report consumption at the plug, so the truth is battery energy ÷ this.
 */
export const SCENARIO_CHARGING_EFFICIENCY = 0.9;
/** Days of dense telemetry before the anchor: short, so that a database run stays well under a minute. */
const SCENARIO_DAYS = 2;
/** The scenario fleet's own seed: changing it changes the noise, never the truth's structure. */
const SCENARIO_SEED = "fdp-scenario-fleet-v1";

type ScenarioPhase = { kind: "drive"; minutes: number; speedKmh: number } | { kind: "park"; minutes: number } | { kind: "charge"; minutes: number; powerKw: number };

export type OdometerStory =
  | { kind: "monotone" }
  /** The reading drops by `dropKm` at `at` and every later reading stays down: manipulation. */
  | { kind: "clocked"; dropKm: number; at: string; highestBeforeKm: number; firstLowKm: number }
  /** One reading `lowByKm` below the truth at `at`; the next reading is back above: a data-quality event. */
  | { kind: "glitch"; lowByKm: number; at: string; readingKm: number; previousKm: number; nextKm: number };

export interface ScenarioTruth {
  deviceId: string;
  /** What the vehicle is for in the suite, in a sentence. */
  story: string;
  powertrain: "BEV" | "ICE" | "HEV";
  samplingMinutes: number;
  /** Distance driven inside the dense window (the period the scores see), km. */
  distanceKm: number;
  drivingMinutes: number;
  /** BEV: energy taken from the battery while driving in the window, kWh; null otherwise. */
  batteryEnergyUsedKwh: number | null;
  /** BEV: energy drawn at the plug by charging inside the window, kWh (0 when it charged only outside); null otherwise. */
  gridEnergyChargedKwh: number | null;
  /** BEV: consumption at the plug, kWh per 100 km = battery energy used ÷ charging efficiency ÷ distance. */
  gridKwhPer100Km: number | null;
  chargesInPeriod: boolean;
  /** Shares of driving time and of distance above 130 and 160 km/h (0–1). */
  timeShareOver130: number;
  timeShareOver160: number;
  distanceShareOver130: number;
  distanceShareOver160: number;
  /** OEM-reported harsh events (raw_data.events) and their rate; null when the unit reports no events. */
  harshEvents: number | null;
  harshPer100Km: number | null;
  /** Share of driving time between 22:00 and 06:00 Helsinki time (0–1). */
  nightShare: number;
  soh: {
    /** Reported SoH at the first and the last plausible reading; null without a traction-battery BMS. */
    firstPct: number | null;
    latestPlausiblePct: number | null;
    /** Readings a plausibility check must reject (e.g. SoH 0 from a BMS). */
    implausibleReadings: { at: string; pct: number }[];
  };
  odometer: OdometerStory;
  /** Knockouts the TAS must (and must only) raise on this vehicle. */
  expectedKnockouts: ("soh_below_60" | "odometer_manipulation")[];
}

export interface ScenarioVehicle {
  truth: ScenarioTruth;
  /** The feed, oldest first. */
  records: IngestRecordInput[];
}

export interface ScenarioFleet {
  anchor: Date;
  /** First instant of the dense window (anchor − SCENARIO_DAYS). */
  windowStart: Date;
  vehicles: ScenarioVehicle[];
}

interface Spec {
  deviceId: string;
  vin: string;
  story: string;
  master: VehicleMasterData;
  samplingMinutes: number;
  /** Minutes after the window start of the first sample (so the sampling grid does not line up with the phases). */
  sampleOffsetMinutes: number;
  /** Phases from the window start (the timeline is repeated from its end if it is shorter than the window). */
  phases: ScenarioPhase[];
  /** BEV battery consumption while driving, kWh per km (battery side). */
  batteryKwhPerKm?: number;
  initialSocPct?: number;
  initialOdometerKm: number;
  initialFuelPct?: number;
  litresPer100Km?: number;
  /** OEM events: harsh events per km (deterministic spacing), or 0 for a unit that reports but sees none; absent = no events reported. */
  harshPerKm?: number;
  soh?: { startPct: number; endPct: number; noisePp: number; zeroReadings?: number };
  /** Daily background history before the window (days), one parked reading per day at 12:00 UTC. */
  historyDays?: number;
  odometerFault?: { kind: "clocked"; atMinute: number; dropKm: number } | { kind: "glitch"; atMinute: number; lowByKm: number };
  ambientC: number;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** A commute day (UTC): 07:00 and 16:30 Helsinki in winter (UTC+2), `legs` of [minutes, km/h] each way. */
function commuteDay(legs: [number, number][], charge?: { atMinute: number; minutes: number; powerKw: number }): ScenarioPhase[] {
  const phases: ScenarioPhase[] = [];
  let t = 0;
  const parkUntil = (m: number) => {
    if (m > t) phases.push({ kind: "park", minutes: m - t });
    t = Math.max(t, m);
  };
  const drive = () => {
    for (const [minutes, speedKmh] of legs) {
      phases.push({ kind: "drive", minutes, speedKmh });
      t += minutes;
    }
  };
  parkUntil(5 * 60);
  drive();
  parkUntil(14 * 60 + 30);
  drive();
  if (charge) {
    parkUntil(charge.atMinute);
    phases.push({ kind: "charge", minutes: charge.minutes, powerKw: charge.powerKw });
    t += charge.minutes;
  }
  parkUntil(24 * 60);
  return phases;
}

const legKm = (legs: [number, number][]) => legs.reduce((s, [m, v]) => s + (m / 60) * v, 0);

/** Minutes of charging at `powerKw` (plug side) that put back what `km` of driving took from the battery. */
function chargeMinutesFor(km: number, batteryKwhPerKm: number, powerKw: number): number {
  return ((km * batteryKwhPerKm) / SCENARIO_CHARGING_EFFICIENCY / powerKw) * 60;
}

const COMMUTE: [number, number][] = [
  [10, 40],
  [50, 95],
  [10, 40],
];
const CALM: [number, number][] = [
  [10, 40],
  [50, 90],
  [10, 40],
];
const SPEEDER: [number, number][] = [
  [10, 50],
  [40, 140],
  [15, 165],
  [10, 50],
];
/** A night leg for the speeder: 23:00 Helsinki (21:00 UTC), 30 min at 120 km/h. */
function speederDay(): ScenarioPhase[] {
  const day = commuteDay(SPEEDER);
  // Replace the evening park (from 14:30 + legs to 24:00) with park → night drive → park.
  const last = day.pop();
  if (!last || last.kind !== "park") throw new Error("speederDay: a commute day ends parked");
  const eveningStart = 24 * 60 - last.minutes;
  const nightAt = 21 * 60;
  day.push({ kind: "park", minutes: nightAt - eveningStart }, { kind: "drive", minutes: 30, speedKmh: 120 }, { kind: "park", minutes: 24 * 60 - nightAt - 30 });
  return day;
}

const BEV_KWH_PER_KM = 0.18;
const BEV_CAPACITY_KWH = 75;
const BEV_CHARGE_KW = 11;
const commuteKm = 2 * legKm(COMMUTE);
const bevDay = commuteDay(COMMUTE, { atMinute: 16 * 60 + 30, minutes: chargeMinutesFor(commuteKm, BEV_KWH_PER_KM, BEV_CHARGE_KW), powerKw: BEV_CHARGE_KW });
const repeatDays = (day: ScenarioPhase[]) => Array.from({ length: SCENARIO_DAYS }, () => day).flat();

const bevMaster: VehicleMasterData = {
  make: "Scenario",
  model: "BEV 75",
  year: 2023,
  powertrain: "BEV",
  fuel_type: "electric",
  battery_kwh: BEV_CAPACITY_KWH,
  original_price_eur: 50_000,
  contract_km: 120_000,
  lease_start: "2024-01-01",
  lease_months: 48,
};
const iceMaster: VehicleMasterData = {
  make: "Scenario",
  model: "ICE petrol",
  year: 2022,
  powertrain: "ICE",
  fuel_type: "petrol",
  original_price_eur: 32_000,
  contract_km: 120_000,
  lease_start: "2024-01-01",
  lease_months: 48,
};

const SPECS: readonly Spec[] = [
  ...([1, 5, 15, 45] as const).map((rate): Spec => ({
    deviceId: `scn-bev-${String(rate).padStart(2, "0")}min`,
    vin: `SCNBEV${String(rate).padStart(2, "0")}MIN0000001`.slice(0, 17),
    story: `BEV with known consumption (${BEV_KWH_PER_KM * 100} kWh/100 km at the battery), charging inside the period, sampled every ${rate} min: the same drive at each rate`,
    master: bevMaster,
    samplingMinutes: rate,
    sampleOffsetMinutes: rate === 1 ? 0 : 7,
    phases: repeatDays(bevDay),
    batteryKwhPerKm: BEV_KWH_PER_KM,
    initialSocPct: 80,
    initialOdometerKm: 42_000,
    soh: { startPct: 94.2, endPct: 94.0, noisePp: 0.3 },
    ambientC: -5,
  })),
  {
    deviceId: "scn-bev-outside",
    vin: "SCNBEVOUTSIDE0001",
    story: "BEV that charged only before the period: drives, never plugs in inside it",
    master: bevMaster,
    samplingMinutes: 5,
    sampleOffsetMinutes: 3,
    phases: repeatDays(commuteDay(COMMUTE.map(([m, v]) => [m / 2, v] as [number, number]))),
    batteryKwhPerKm: BEV_KWH_PER_KM,
    initialSocPct: 95,
    initialOdometerKm: 18_000,
    soh: { startPct: 97.1, endPct: 97.0, noisePp: 0.3 },
    ambientC: -5,
  },
  {
    deviceId: "scn-speeder",
    vin: "SCNSPEEDER0000001",
    story: "Habitual speeder: every commute holds 140 km/h for 40 min and 165 km/h for 15 min, and drives at night",
    master: iceMaster,
    samplingMinutes: 1,
    sampleOffsetMinutes: 0,
    phases: repeatDays(speederDay()),
    initialOdometerKm: 61_000,
    initialFuelPct: 90,
    litresPer100Km: 7.5,
    harshPerKm: 0,
    ambientC: -5,
  },
  {
    deviceId: "scn-calm",
    vin: "SCNCALM0000000001",
    story: "Calm driver: 90 km/h on the motorway, daytime only, no harsh events (its unit reports events)",
    master: iceMaster,
    samplingMinutes: 1,
    sampleOffsetMinutes: 0,
    phases: repeatDays(commuteDay(CALM)),
    initialOdometerKm: 55_000,
    initialFuelPct: 90,
    litresPer100Km: 6.2,
    harshPerKm: 0,
    ambientC: -5,
  },
  {
    deviceId: "scn-harsh",
    vin: "SCNHARSH000000001",
    story: "Harsh driver: the calm driver's route and speeds, with OEM-reported harsh braking and acceleration (10 per 100 km)",
    master: iceMaster,
    samplingMinutes: 1,
    sampleOffsetMinutes: 0,
    phases: repeatDays(commuteDay(CALM)),
    initialOdometerKm: 57_000,
    initialFuelPct: 90,
    litresPer100Km: 6.8,
    harshPerKm: 0.1,
    ambientC: -5,
  },
  {
    deviceId: "scn-degraded",
    vin: "SCNDEGRADED000001",
    story: "Degraded battery: reported SoH declines from 66 % to 57.5 % over three months (BMS noise σ 0.4 pp)",
    master: { ...bevMaster, model: "BEV 39", battery_kwh: 39, year: 2018, lease_start: "2019-01-01", lease_months: 96 },
    samplingMinutes: 5,
    sampleOffsetMinutes: 2,
    phases: repeatDays(
      commuteDay(
        COMMUTE.map(([m, v]) => [m / 2, v] as [number, number]),
        { atMinute: 16 * 60 + 30, minutes: chargeMinutesFor(legKm(COMMUTE), BEV_KWH_PER_KM, 6.6), powerKw: 6.6 },
      ),
    ),
    batteryKwhPerKm: BEV_KWH_PER_KM,
    initialSocPct: 85,
    initialOdometerKm: 148_000,
    soh: { startPct: 66, endPct: 57.5, noisePp: 0.4 },
    historyDays: 90,
    ambientC: -5,
  },
  {
    deviceId: "scn-clocked",
    vin: "SCNCLOCKED0000001",
    story: "Clocked odometer: the reading drops by 60,000 km overnight and stays down",
    master: iceMaster,
    samplingMinutes: 5,
    sampleOffsetMinutes: 1,
    phases: repeatDays(commuteDay(COMMUTE)),
    initialOdometerKm: 184_000,
    initialFuelPct: 80,
    litresPer100Km: 6.5,
    odometerFault: { kind: "clocked", atMinute: 24 * 60 + 2 * 60, dropKm: 60_000 },
    historyDays: 30,
    ambientC: -5,
  },
  {
    deviceId: "scn-glitch",
    vin: "SCNGLITCH00000001",
    story: "Glitching odometer: one reading 13 km low while driving, contradicted by the next reading",
    master: iceMaster,
    samplingMinutes: 5,
    sampleOffsetMinutes: 1,
    phases: repeatDays(commuteDay(COMMUTE)),
    initialOdometerKm: 49_950,
    initialFuelPct: 80,
    litresPer100Km: 6.5,
    // Mid-motorway on the first morning (05:00 + 10 min + 25 min).
    odometerFault: { kind: "glitch", atMinute: 5 * 60 + 36, lowByKm: 13 },
    ambientC: -5,
  },
  {
    deviceId: "scn-bms-zero",
    vin: "SCNBMSZERO0000001",
    story: "BMS that sometimes reports SoH 0 (the latest reading among them); the true SoH is about 91 %",
    master: bevMaster,
    samplingMinutes: 15,
    sampleOffsetMinutes: 4,
    phases: repeatDays(bevDay),
    batteryKwhPerKm: BEV_KWH_PER_KM,
    initialSocPct: 80,
    initialOdometerKm: 77_000,
    soh: { startPct: 91.2, endPct: 91.0, noisePp: 0.3, zeroReadings: 4 },
    ambientC: -5,
  },
  {
    deviceId: "scn-ice",
    vin: "SCNICE00000000001",
    story: "Plain petrol car, commuting, nothing wrong",
    master: iceMaster,
    samplingMinutes: 5,
    sampleOffsetMinutes: 1,
    phases: repeatDays(commuteDay(COMMUTE)),
    initialOdometerKm: 33_000,
    initialFuelPct: 70,
    litresPer100Km: 6.5,
    ambientC: -5,
  },
  {
    deviceId: "scn-hev",
    vin: "SCNHEV00000000001",
    story: "Full hybrid (no plug, no BMS SoH reported): state of health is not applicable, not missing",
    master: {
      make: "Scenario",
      model: "HEV",
      year: 2023,
      powertrain: "HEV",
      fuel_type: "hybrid",
      original_price_eur: 33_000,
      contract_km: 120_000,
      lease_start: "2024-01-01",
      lease_months: 48,
    },
    samplingMinutes: 5,
    sampleOffsetMinutes: 1,
    phases: repeatDays(commuteDay(COMMUTE)),
    initialOdometerKm: 21_000,
    initialFuelPct: 70,
    litresPer100Km: 4.6,
    ambientC: -5,
  },
];

/** The scenario fleet anchored at `anchor` (floored to the hour); the dense window is the SCENARIO_DAYS before it. */
export function generateScenarioFleet({ anchor }: { anchor: Date }): ScenarioFleet {
  const anchorMs = Math.floor(anchor.getTime() / HOUR_MS) * HOUR_MS;
  // The window starts at a UTC midnight so the commute days fall where their comments say.
  const windowStartMs = Math.floor(anchorMs / DAY_MS) * DAY_MS - SCENARIO_DAYS * DAY_MS;
  return {
    anchor: new Date(anchorMs),
    windowStart: new Date(windowStartMs),
    vehicles: SPECS.map((s) => buildVehicle(s, windowStartMs, Math.min(anchorMs, windowStartMs + SCENARIO_DAYS * DAY_MS))),
  };
}

/** The vehicle's state along its timeline at phase boundaries (exact integration). */
interface Boundary {
  startMin: number;
  phase: ScenarioPhase;
  odoKm: number;
  socPct: number | null;
  fuelPct: number | null;
}

function integrate(s: Spec): Boundary[] {
  const out: Boundary[] = [];
  let t = 0;
  let odo = s.initialOdometerKm;
  let soc = s.master.powertrain === "BEV" ? (s.initialSocPct ?? 80) : null;
  let fuel = s.master.powertrain === "BEV" ? null : (s.initialFuelPct ?? 70);
  const capacity = s.master.battery_kwh ?? BEV_CAPACITY_KWH;
  const tank = 50;
  for (const phase of s.phases) {
    // A stop at the pump while parked when the tank runs low (the scores do not read fuel; it only has to stay valid).
    if (phase.kind === "park" && fuel !== null && fuel < 20) fuel = 90;
    out.push({ startMin: t, phase, odoKm: odo, socPct: soc, fuelPct: fuel });
    if (phase.kind === "drive") {
      const km = (phase.minutes / 60) * phase.speedKmh;
      odo += km;
      if (soc !== null) soc -= ((km * (s.batteryKwhPerKm ?? BEV_KWH_PER_KM)) / capacity) * 100;
      if (fuel !== null) fuel -= ((km * (s.litresPer100Km ?? 6.5)) / 100 / tank) * 100;
    } else if (phase.kind === "charge" && soc !== null) {
      soc += (((phase.minutes / 60) * phase.powerKw * SCENARIO_CHARGING_EFFICIENCY) / capacity) * 100;
    }
    t += phase.minutes;
  }
  out.push({ startMin: t, phase: { kind: "park", minutes: Number.POSITIVE_INFINITY }, odoKm: odo, socPct: soc, fuelPct: fuel });
  return out;
}

/** State at minute `m` of the window, interpolated inside its phase. */
function stateAt(bounds: Boundary[], m: number, s: Spec) {
  let i = 0;
  while (i + 1 < bounds.length && (bounds[i + 1] as Boundary).startMin <= m) i++;
  const b = bounds[i] as Boundary;
  const next = bounds[i + 1];
  const f = next && Number.isFinite(b.phase.minutes) ? (m - b.startMin) / b.phase.minutes : 0;
  const lerp = (a: number | null, z: number | null) => (a === null || z === null ? a : a + (z - a) * f);
  return {
    phase: b.phase,
    odoKm: lerp(b.odoKm, next?.odoKm ?? b.odoKm) as number,
    socPct: lerp(b.socPct, next?.socPct ?? b.socPct),
    fuelPct: lerp(b.fuelPct, next?.fuelPct ?? b.fuelPct),
    spec: s,
  };
}

function buildVehicle(s: Spec, windowStartMs: number, windowEndMs: number): ScenarioVehicle {
  const rng = rngFor(SCENARIO_SEED, s.deviceId);
  const bounds = integrate(s);
  const windowMinutes = (windowEndMs - windowStartMs) / MINUTE_MS;
  const isBev = s.master.powertrain === "BEV";
  const records: IngestRecordInput[] = [];
  const sohAt = sohModel(s, windowStartMs, windowEndMs, rng);

  // Background history: one parked reading a day at 12:00 UTC before the window.
  const historyOdoPerDay = 80;
  for (let d = s.historyDays ?? 0; d >= 1; d--) {
    const t = windowStartMs - d * DAY_MS + 12 * HOUR_MS;
    records.push(
      record(s, t, {
        odometerKm: s.initialOdometerKm - d * historyOdoPerDay,
        socPct: isBev ? 70 : null,
        fuelPct: isBev ? null : 60,
        sohPct: sohAt(t),
        speedKmh: 0,
        charging: isBev ? { status: "not_charging", powerKw: 0 } : null,
        events: undefined,
      }),
    );
  }

  // Truth, integrated per phase over the window.
  let distance = 0;
  let driving = 0;
  let over130Min = 0;
  let over160Min = 0;
  let over130Km = 0;
  let over160Km = 0;
  let nightMin = 0;
  let gridCharged = 0;
  for (const b of bounds) {
    if (b.startMin >= windowMinutes) break;
    const minutes = Math.min(b.phase.minutes, windowMinutes - b.startMin);
    if (b.phase.kind === "drive") {
      const km = (minutes / 60) * b.phase.speedKmh;
      distance += km;
      driving += minutes;
      if (b.phase.speedKmh > 130) {
        over130Min += minutes;
        over130Km += km;
      }
      if (b.phase.speedKmh > 160) {
        over160Min += minutes;
        over160Km += km;
      }
      for (let m = 0; m < minutes; m++) {
        const h = helsinkiHourOfDay(windowStartMs + (b.startMin + m + 0.5) * MINUTE_MS);
        if (h >= 22 || h < 6) nightMin += 1;
      }
    } else if (b.phase.kind === "charge") {
      gridCharged += (minutes / 60) * b.phase.powerKw;
    }
  }

  // Harsh events at even spacing along the distance (deterministic count = rate × distance).
  const harshTarget = s.harshPerKm === undefined ? null : Math.round(s.harshPerKm * distance);
  let harshEmitted = 0;
  let nextHarshKm = harshTarget ? distance / harshTarget / 2 : Number.POSITIVE_INFINITY;
  const harshSpacing = harshTarget ? distance / harshTarget : Number.POSITIVE_INFINITY;
  let drivenSoFar = 0;

  const first = s.sampleOffsetMinutes;
  let previousReported: number | null = null;
  let glitch: OdometerStory = { kind: "monotone" };
  let highestBefore = -Infinity;
  let clockedFirstLow: number | null = null;
  let clockedAt: string | null = null;
  let glitchPending: { at: string; readingKm: number; previousKm: number } | null = null;

  for (let m = first; m < windowMinutes; m += s.samplingMinutes) {
    const t = windowStartMs + m * MINUTE_MS;
    const st = stateAt(bounds, m, s);
    const drivingNow = st.phase.kind === "drive";
    drivenSoFar = st.odoKm - s.initialOdometerKm;
    let reported = st.odoKm;
    const fault = s.odometerFault;
    if (fault?.kind === "clocked" && m >= fault.atMinute) {
      reported -= fault.dropKm;
      if (clockedFirstLow === null) {
        clockedFirstLow = round(reported);
        clockedAt = new Date(t).toISOString();
      }
    } else highestBefore = Math.max(highestBefore, round(st.odoKm));
    if (fault?.kind === "glitch" && m >= fault.atMinute && glitch.kind === "monotone" && glitchPending === null) {
      reported -= fault.lowByKm;
      glitchPending = { at: new Date(t).toISOString(), readingKm: round(reported), previousKm: round(previousReported ?? reported) };
    } else if (glitchPending) {
      glitch = { kind: "glitch", lowByKm: fault?.kind === "glitch" ? fault.lowByKm : 0, ...glitchPending, nextKm: round(reported) };
      glitchPending = null;
    }

    // An event-reporting unit sends its (possibly empty) list with every driving record.
    const events: DrivingEventInput[] | undefined = s.harshPerKm !== undefined && drivingNow ? [] : undefined;
    if (events && harshTarget) {
      while (harshEmitted < harshTarget && nextHarshKm <= drivenSoFar) {
        const braking = harshEmitted % 2 === 0;
        events.push({
          kind: braking ? "harsh_braking" : "harsh_acceleration",
          ts: new Date(t - 20_000).toISOString(),
          value: braking ? 0.45 : 0.4,
          duration_s: 1.5,
        });
        harshEmitted++;
        nextHarshKm += harshSpacing;
      }
    }
    const charging = st.phase.kind === "charge";
    records.push(
      record(s, t, {
        odometerKm: reported,
        socPct: st.socPct,
        fuelPct: st.fuelPct,
        sohPct: sohAt(t),
        speedKmh: drivingNow ? (st.phase as { speedKmh: number }).speedKmh : 0,
        charging: isBev ? (charging ? { status: "charging", powerKw: (st.phase as { powerKw: number }).powerKw } : { status: "not_charging", powerKw: 0 }) : null,
        events,
      }),
    );
    previousReported = reported;
  }

  // Harsh events still owed at the window's end (a drive ending between samples) ride on the last driving record.
  if (harshTarget && harshEmitted < harshTarget) {
    const lastDriving = [...records].reverse().find((r) => (r.speed_kmh ?? 0) > 0);
    const list = (lastDriving?.raw_data?.events ?? []) as DrivingEventInput[];
    while (lastDriving && harshEmitted < harshTarget) {
      list.push({ kind: "harsh_braking", ts: new Date(Date.parse(lastDriving.timestamp ?? "") - 10_000 - harshEmitted * 1000).toISOString(), value: 0.45, duration_s: 1.5 });
      harshEmitted++;
    }
    if (lastDriving?.raw_data) lastDriving.raw_data.events = list.sort((a, b) => a.ts.localeCompare(b.ts));
  }

  // The BMS-0 story: SoH 0 on a few readings, the latest of all among them.
  const implausible: { at: string; pct: number }[] = [];
  if (s.soh?.zeroReadings) {
    const withSoh = records.filter((r) => r.soh_percent !== null && r.soh_percent !== undefined);
    const picks = new Set<number>([withSoh.length - 1]);
    while (picks.size < s.soh.zeroReadings) picks.add(rng.int(Math.floor(withSoh.length / 3), withSoh.length - 2));
    for (const i of picks) {
      const r = withSoh[i] as IngestRecordInput;
      r.soh_percent = 0;
      implausible.push({ at: r.timestamp ?? "", pct: 0 });
    }
    implausible.sort((a, b) => a.at.localeCompare(b.at));
  }

  const sohReadings = records.filter((r) => typeof r.soh_percent === "number" && r.soh_percent > 0).map((r) => r.soh_percent as number);
  const batteryUsed = isBev ? distance * (s.batteryKwhPerKm ?? BEV_KWH_PER_KM) : null;
  const odometer: OdometerStory =
    s.odometerFault?.kind === "clocked"
      ? { kind: "clocked", dropKm: s.odometerFault.dropKm, at: clockedAt ?? "", highestBeforeKm: highestBefore, firstLowKm: clockedFirstLow ?? 0 }
      : glitch;
  const latestSoh = sohReadings.at(-1) ?? null;

  return {
    truth: {
      deviceId: s.deviceId,
      story: s.story,
      powertrain: s.master.powertrain as "BEV" | "ICE" | "HEV",
      samplingMinutes: s.samplingMinutes,
      distanceKm: round(distance, 3),
      drivingMinutes: driving,
      batteryEnergyUsedKwh: batteryUsed === null ? null : round(batteryUsed, 3),
      gridEnergyChargedKwh: isBev ? round(gridCharged, 3) : null,
      gridKwhPer100Km: batteryUsed === null || distance === 0 ? null : round((batteryUsed / SCENARIO_CHARGING_EFFICIENCY / distance) * 100, 3),
      chargesInPeriod: gridCharged > 0,
      timeShareOver130: driving ? over130Min / driving : 0,
      timeShareOver160: driving ? over160Min / driving : 0,
      distanceShareOver130: distance ? over130Km / distance : 0,
      distanceShareOver160: distance ? over160Km / distance : 0,
      harshEvents: harshTarget,
      harshPer100Km: harshTarget === null || distance === 0 ? null : (harshTarget / distance) * 100,
      nightShare: driving ? nightMin / driving : 0,
      soh: { firstPct: sohReadings[0] ?? null, latestPlausiblePct: latestSoh, implausibleReadings: implausible },
      odometer,
      expectedKnockouts: [
        ...(latestSoh !== null && latestSoh < 60 ? (["soh_below_60"] as const) : []),
        ...(odometer.kind === "clocked" ? (["odometer_manipulation"] as const) : []),
      ],
    },
    records,
  };
}

/** Reported SoH: a linear trend from the first reading (history included) to the anchor, plus BMS noise (σ `noisePp`, clipped at 3σ). */
function sohModel(s: Spec, windowStartMs: number, windowEndMs: number, rng: Rng): (t: number) => number | null {
  const soh = s.soh;
  if (!soh) return () => null;
  const fromMs = windowStartMs - (s.historyDays ?? 0) * DAY_MS;
  return (t) => {
    const f = Math.min(1, Math.max(0, (t - fromMs) / (windowEndMs - fromMs)));
    const noise = Math.max(-3 * soh.noisePp, Math.min(3 * soh.noisePp, rng.normal(0, soh.noisePp)));
    return round(soh.startPct + (soh.endPct - soh.startPct) * f + noise, 1);
  };
}

function record(
  s: Spec,
  t: number,
  v: {
    odometerKm: number;
    socPct: number | null;
    fuelPct: number | null;
    sohPct: number | null;
    speedKmh: number;
    charging: { status: "charging" | "not_charging"; powerKw: number } | null;
    events: DrivingEventInput[] | undefined;
  },
): IngestRecordInput {
  const raw: Record<string, unknown> = { source: "scenario", ambient_temp_c: s.ambientC, ignition: v.speedKmh > 0 };
  if (v.charging) raw.charging_power_kw = v.charging.powerKw;
  if (v.events) raw.events = v.events;
  return {
    vin: s.vin,
    device_id: s.deviceId,
    timestamp: new Date(t).toISOString(),
    odometer_km: round(v.odometerKm, 1),
    soc_percent: v.socPct === null ? null : round(v.socPct, 1),
    soh_percent: v.sohPct,
    battery_voltage: v.speedKmh > 0 || v.charging?.status === "charging" ? 14.1 : 12.6,
    charging_status: v.charging?.status ?? null,
    lat: 60.17,
    lon: 24.94,
    speed_kmh: v.speedKmh,
    fuel_level_pct: v.fuelPct === null ? null : round(v.fuelPct, 1),
    dtc_codes: [],
    raw_data: raw,
  };
}

/**
 * The fleet's records in the batches an OEM platform delivers: every record of one UTC hour (all
 * vehicles together) in one payload, received a couple of minutes after the hour's last record.
 * The first record of each vehicle carries its master data (`raw_data.vehicle`).
 */
export function scenarioBatches(fleet: ScenarioFleet): { receivedAt: Date; vehicles: IngestRecordInput[] }[] {
  const masterOf = new Map(SPECS.map((s) => [s.deviceId, s.master]));
  const all = fleet.vehicles.flatMap((v) => v.records.map((r, i) => (i === 0 ? { ...r, raw_data: { ...r.raw_data, vehicle: masterOf.get(v.truth.deviceId) } } : r)));
  all.sort((a, b) => (a.timestamp ?? "").localeCompare(b.timestamp ?? ""));
  const byHour = new Map<number, IngestRecordInput[]>();
  for (const r of all) {
    const h = Math.floor(Date.parse(r.timestamp ?? "") / HOUR_MS);
    const list = byHour.get(h);
    if (list) list.push(r);
    else byHour.set(h, [r]);
  }
  return [...byHour.values()].map((vehicles) => {
    const last = Date.parse(vehicles[vehicles.length - 1]?.timestamp ?? "");
    return { receivedAt: new Date(Math.min(last + 2 * MINUTE_MS, fleet.anchor.getTime())), vehicles };
  });
}
