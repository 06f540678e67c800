import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { alerts, devices, drivingEvents, fleetSnapshot } from "@/lib/db/schema";
import type { TelemetryRow } from "@/lib/ingest/store-batch";
import type { FeedFormat } from "@/lib/vocabulary/feeds";
import { DAY_MS, helsinkiDayNumber, isoDate, MINUTE_MS } from "./calendar";
import { locationIn } from "./daily-plan";
import { CITIES, type CityKey, localRegion } from "./finland";
import { teslaPayload, traccarDocument } from "./feed-documents";
import { FLEET_PLAN, type UsageProfile, type VehiclePlan } from "./fleet-plan";
import { type Rng, rngFor } from "./prng";
import { type Acknowledge, type ReplayedAlert, replayedDeviceState, replayFeed } from "./replay-feed";
import { type OemRecord, type SimResult, type VehicleSetup, VehicleSimulator } from "./simulate-vehicle";
import type { Location } from "./trip";
import { MODELS, type VehicleModel } from "./vehicle-catalog";

export type DeviceRow = typeof devices.$inferSelect;
export type SnapshotRow = typeof fleetSnapshot.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;
export type DrivingEventDbRow = typeof drivingEvents.$inferSelect;
export type { TelemetryRow };

export interface SandboxFleet {
  devices: DeviceRow[];
  telemetry: TelemetryRow[];
  snapshots: SnapshotRow[];
  alerts: AlertRow[];
  drivingEvents: DrivingEventDbRow[];
  /** Each vehicle's feed as FDP's ingest would receive it (SPEC 2.17 records), oldest first; not stored. */
  feeds: Map<string, OemRecord[]>;
  /** The feed vehicles' (VehiclePlan.feed): their documents in the source's format, oldest first; not stored. */
  sourceFeeds: Map<string, { format: FeedFormat; documents: unknown[] }>;
}

/** Days of history per vehicle, ending at the anchor. */
export const HISTORY_DAYS = 95;

/** Stable across anchors: the same 42 vehicles (ids, VINs, homes) whenever the sandbox is reseeded. */
const FLEET_SEED = "fdp-sandbox-fleet-v1";

const AVERAGE_MONTH_DAYS = 30.44;
const MIN_LEASE_AGE_MONTHS = 6;
const MAX_LEASE_AGE_MONTHS = 40;

/** Typical daily distance by use, for the odometer at the start of the history. */
const DAILY_KM: Record<UsageProfile, number> = { commuter: 55, sales: 115, van_service: 85, van_delivery: 110, pickup: 75 };
/** Contracted yearly distance by use (the lease contract's km allowance). */
const CONTRACT_KM_PER_YEAR: Record<UsageProfile, number> = { commuter: 20_000, sales: 35_000, van_service: 30_000, van_delivery: 35_000, pickup: 25_000 };
const MIN_CONTRACT_KM = 60_000;
const MAX_CONTRACT_KM = 150_000;
/** Engine running hours per km from the pre-history mileage (about 40 km/h average). */
const ENGINE_HOURS_PER_KM = 1 / 40;

/** Who acknowledges sandbox alerts (the fleet manager twice as often as the service desk). */
const ACKNOWLEDGERS = ["fleet.manager@sandbox.fdp.example", "fleet.manager@sandbox.fdp.example", "service.desk@sandbox.fdp.example"] as const;

/**
 * The simulated fleet manager: acknowledges an alert 1–48 h after it was created, more often the
 * older it is at the anchor (always beyond 60 days, 75 % beyond two weeks, 40 % beyond three days, else
 * 10 %), and INFO alerts ("good to know") a quarter as often; never after the anchor. An
 * acknowledged key can fire again, so a condition that persists shows up again later in the
 * history. Decided when the alert is created, from a PRNG keyed by the alert, so the replay stays
 * deterministic.
 */
function fleetManager(anchorMs: number): Acknowledge {
  return ({ draft, createdAt }) => {
    const created = createdAt.getTime();
    const rng = rngFor("sandbox-ack", draft.deviceId, draft.dedupeKey, created);
    const ageDays = (anchorMs - created) / DAY_MS;
    const byAge = ageDays > 60 ? 1 : ageDays > 14 ? 0.75 : ageDays > 3 ? 0.4 : 0.1;
    const p = draft.severity === "INFO" ? byAge / 4 : byAge;
    const at = created + Math.round(rng.float(1, 48) * 60) * MINUTE_MS;
    if (!rng.chance(p) || at >= anchorMs) return null;
    return { at: new Date(at), by: rng.pick(ACKNOWLEDGERS) };
  };
}

/**
 * The sandbox tenant's synthetic fleet: 42 vehicles in Finland with 95 days of telemetry ending
 * at `anchor`, their latest state, driving events, and the alerts FDP's real detectors raise when
 * the simulated feeds are replayed through the ingest's code paths (./replay-feed.ts). Pure and
 * deterministic: the same anchor always gives the same output.
 */
export function generateSandboxFleet({ anchor }: { anchor: Date }): SandboxFleet {
  const anchorMs = anchor.getTime();
  if (!Number.isFinite(anchorMs)) throw new Error("generateSandboxFleet: invalid anchor");
  const window = { startMs: anchorMs - HISTORY_DAYS * DAY_MS, anchorMs };
  const acknowledge = fleetManager(anchorMs);

  const vehicles = FLEET_PLAN.map((plan, i) => {
    const idRng = rngFor(FLEET_SEED, "vin", i + 1);
    const setup = vehicleSetup(plan, i + 1, window.startMs, anchorMs, idRng);
    const sim: SimResult = new VehicleSimulator(setup, window).run();
    const declared = deviceRow(setup, idRng, window.startMs);
    const feed = sourceFeed(setup, declared);
    const replay = replayFeed({
      tenantId: setup.tenantId,
      deviceId: setup.deviceId,
      records: sim.records,
      master: { powertrain: declared.powertrain, powertrainSource: declared.powertrainSource, batteryKwh: declared.batteryKwh, masterDataAt: declared.masterDataAt },
      latencyMs: setup.receiveLatencyMs,
      anchorMs,
      acknowledge,
      feed,
    });
    const last = replay.telemetry[replay.telemetry.length - 1];
    if (!last) throw new Error(`${setup.deviceId}: no telemetry generated`);
    // What the ingest's device upsert would hold after the last batch.
    const device: DeviceRow = { ...declared, ...replayedDeviceState(replay) };
    return { setup, sim, replay, device, snapshot: { ...last }, feed };
  });

  return {
    devices: vehicles.map((v) => v.device),
    telemetry: vehicles.flatMap((v) => v.replay.telemetry),
    snapshots: vehicles.map((v) => v.snapshot),
    alerts: alertRows(vehicles.flatMap((v) => v.replay.alerts)),
    drivingEvents: vehicles.flatMap((v) =>
      v.replay.events.map((e) => ({
        tenantId: v.setup.tenantId,
        deviceId: e.deviceId,
        ts: e.ts,
        kind: e.kind,
        source: e.source,
        value: e.value,
        durationS: e.durationS,
        recordTs: e.recordTs,
        receivedAt: e.receivedAt,
      })),
    ),
    feeds: new Map(vehicles.filter((v) => !v.feed).map((v) => [v.setup.deviceId, v.sim.records])),
    sourceFeeds: new Map(vehicles.flatMap((v) => (v.feed ? [[v.setup.deviceId, { format: v.feed.format, documents: v.sim.records.map(v.feed.document) }] as const] : []))),
  };
}

/** Alert rows numbered in creation order (`alt_sbx_0001`, …), as the alert store would hold them. */
function alertRows(replayed: readonly ReplayedAlert[]): AlertRow[] {
  const sorted = [...replayed].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.draft.deviceId.localeCompare(b.draft.deviceId) || a.draft.dedupeKey.localeCompare(b.draft.dedupeKey),
  );
  return sorted.map(({ draft, evidence, createdAt, acknowledgedAt, acknowledgedBy }, i) => ({
    id: `alt_sbx_${String(i + 1).padStart(4, "0")}`,
    tenantId: SANDBOX_TENANT_ID,
    deviceId: draft.deviceId,
    agent: draft.agent,
    // The alert as the store holds it after the lifecycle folded its later occurrences in.
    severity: evidence.severity,
    prediction: evidence.prediction,
    confidence: evidence.confidence,
    technicalData: evidence.technicalData,
    occurrences: evidence.occurrences,
    firstSeenAt: evidence.firstSeenAt,
    lastSeenAt: evidence.lastSeenAt,
    worstValue: evidence.worstValue,
    latestValue: evidence.latestValue,
    dedupeKey: draft.dedupeKey,
    acknowledged: acknowledgedAt !== null,
    acknowledgedBy,
    acknowledgedAt,
    // The sandbox seeds no dismissals: a reviewer makes them in the dashboard.
    dismissedAt: null,
    dismissedBy: null,
    dismissalReason: null,
    createdAt,
  }));
}

/**
 * How a feed vehicle's records travel (VehiclePlan.feed): as the source's documents, read back by its
 * adapter in the replay; undefined for a vehicle that sends SPEC 2.17 records.
 */
function sourceFeed(setup: VehicleSetup, declared: DeviceRow): { format: FeedFormat; document: (r: OemRecord) => unknown } | undefined {
  const feed = setup.plan.feed;
  if (feed?.format === "tesla") return { format: "tesla", document: (r) => teslaPayload(r, feed.carType) };
  if (feed?.format === "traccar") {
    const uniqueId = setup.deviceId.slice(TRACCAR_PREFIX.length);
    const device = { id: Number(uniqueId.slice(-4)), name: declared.name ?? setup.deviceId, uniqueId, model: setup.model.model, category: feed.category };
    return { format: "traccar", document: (r) => traccarDocument(r, device) };
  }
  return undefined;
}

const TRACCAR_PREFIX = "traccar-";

/** A tracker's IMEI: 14 digits (a Teltonika-like type allocation code, then a serial) and the Luhn check digit. */
function imei(rng: Rng): string {
  const body = `35${String(rng.int(100_000, 999_999))}${String(rng.int(100_000, 999_999))}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = Number(body[body.length - 1 - i]);
    const x = i % 2 === 0 ? d * 2 : d;
    sum += x > 9 ? x - 9 : x;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** `idRng` draws the VIN here and the list price in deviceRow, in that order (the VINs and prices stay those of earlier seeds). */
function vehicleSetup(plan: VehiclePlan, index: number, startMs: number, anchorMs: number, idRng: Rng): VehicleSetup {
  const rng = rngFor(FLEET_SEED, "vehicle", index);
  const model = MODELS[plan.model];
  const rngKey = `sbx-${String(index).padStart(3, "0")}`;
  const isVan = model.assetClass === "light_commercial";
  const combustion = model.powertrain !== "BEV";

  const leaseAgeMonths = plan.leaseAgeMonths ?? rng.float(MIN_LEASE_AGE_MONTHS, Math.min(MAX_LEASE_AGE_MONTHS, plan.leaseMonths - 3));
  const leaseStartDay = helsinkiDayNumber(anchorMs) - Math.round(leaseAgeMonths * AVERAGE_MONTH_DAYS);
  const daysBeforeHistory = helsinkiDayNumber(startMs) - leaseStartDay;
  const initialOdometerKm = DAILY_KM[plan.profile] * rng.float(0.8, 1.2) * daysBeforeHistory + rng.float(15, 60);

  const home = locationIn(rng, plan.home, rng.int(0, CITIES[plan.home].districts.length - 1));
  const modelYear = Number(isoDate(leaseStartDay).slice(0, 4));
  const vehicleVin = vin(model, modelYear, idRng);
  // A feed vehicle has the device id its adapter gives (CONTRACT "Feeds"); the others their sandbox id.
  const deviceId = plan.feed?.format === "tesla" ? `oem-${vehicleVin}` : plan.feed?.format === "traccar" ? `${TRACCAR_PREFIX}${imei(rngFor(FLEET_SEED, "imei", index))}` : rngKey;
  return {
    tenantId: SANDBOX_TENANT_ID,
    deviceId,
    rngKey,
    vin: vehicleVin,
    plan,
    model,
    home,
    work: workplace(rng, plan.profile, home),
    leaseStartDay,
    initialOdometerKm,
    initialSocPct: model.batteryKwh ? rng.float(50, 80) : null,
    initialFuelPct: model.tankL ? rng.float(35, 90) : null,
    initialEngineHours: combustion ? initialOdometerKm * ENGINE_HOURS_PER_KM * (model.powertrain === "ICE" ? 1 : 0.5) : null,
    cruiseKmh: plan.heavyFoot ? rng.float(109, 112) : isVan ? rng.float(86, 90) : plan.calmDriver ? rng.float(86, 90) : rng.float(92, 98),
    restVoltage: plan.weak12V ? 12.35 : rng.float(12.45, 12.65),
    plugBelowSocPct: rng.float(45, 70),
    sohAgeing: plan.sohAgeing ?? rng.float(2.4, 3.4),
    receiveLatencyMs: rng.int(2, 40) * 1000,
  };
}

/** Office of a commuter or sales rep: mostly central Helsinki in the capital region. Vans work from home (the depot). */
function workplace(rng: Rng, profile: UsageProfile, home: Location): Location {
  if (profile !== "commuter" && profile !== "sales") return home;
  const region = localRegion(home.city);
  const city: CityKey = region.includes("helsinki") && rng.chance(0.6) ? "helsinki" : rng.pick(region);
  for (;;) {
    const district = rng.int(0, CITIES[city].districts.length - 1);
    if (city !== home.city || district !== home.district) return locationIn(rng, city, district);
  }
}

function deviceRow(setup: VehicleSetup, rng: Rng, startMs: number): DeviceRow {
  const { model, plan } = setup;
  const leaseStart = isoDate(setup.leaseStartDay);
  const year = Number(leaseStart.slice(0, 4));
  const contractKm = Math.round((CONTRACT_KM_PER_YEAR[plan.profile] * plan.leaseMonths) / 12 / 10_000) * 10_000;
  return {
    tenantId: setup.tenantId,
    deviceId: setup.deviceId,
    name: `${model.make} ${model.model}`,
    vin: setup.vin,
    make: model.make,
    model: model.model,
    year,
    powertrain: model.powertrain,
    powertrainSource: "master_data",
    fuelType: model.fuelType,
    batteryKwh: model.batteryKwh,
    // List prices vary by trim and options: ±4 %, rounded to 10 €.
    originalPriceEur: Math.round((model.priceEur * rng.float(0.96, 1.04)) / 10) * 10,
    contractKm: Math.min(MAX_CONTRACT_KM, Math.max(MIN_CONTRACT_KM, contractKm)),
    leaseStart,
    leaseMonths: plan.leaseMonths,
    assetClass: model.assetClass,
    masterDataAt: new Date(startMs),
    odometerMaxKm: null,
    odometerMaxAt: null,
    eventsReportedAt: null,
    denseSpeedAt: null,
    createdAt: new Date(startMs),
    updatedAt: new Date(startMs),
  };
}

// ---------------------------------------------------------------------------------------------
// VIN: ISO 3779 layout with the (North American) check digit, which European VINs may carry too.

const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"; // I, O and Q are never used
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const VIN_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
/** Model-year letters cycle every 30 years; 2010 = A (I, O, Q, U, Z and 0 are skipped). */
const MODEL_YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";

export function vinCheckDigit(vin17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const ch = vin17[i] ?? "0";
    const value = /\d/.test(ch) ? Number(ch) : (VIN_VALUES[ch] ?? 0);
    sum += value * (VIN_WEIGHTS[i] ?? 0);
  }
  const r = sum % 11;
  return r === 10 ? "X" : String(r);
}

function vin(model: VehicleModel, year: number, rng: Rng): string {
  const pick = (n: number, alphabet: string) => Array.from({ length: n }, () => alphabet[rng.int(0, alphabet.length - 1)]).join("");
  const vds = pick(5, VIN_CHARS);
  const yearCode = MODEL_YEAR_CODES[(((year - 2010) % 30) + 30) % 30] ?? "A";
  const plant = pick(1, VIN_CHARS.slice(0, 23));
  const serial = pick(6, "0123456789");
  const draft = `${model.wmi}${vds}0${yearCode}${plant}${serial}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}
