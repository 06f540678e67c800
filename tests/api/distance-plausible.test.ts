import { beforeAll, describe, expect, it } from "vitest";
import { loadPeriodDistance } from "@/lib/distance/queries/period-distance-sql";
import { haversineKm } from "../oracles/haversine-km";
import { helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";
import { parseCsv } from "../helpers/emissions-csv-parse";
import { createTenantWithKey } from "../helpers/fixtures";
import { DAY, iso, MIN, useIngestServer, type Rec } from "../helpers/ingest-api";

/**
 * Issue 27 point 4, "Distance that survives a bad odometer" (CONTRACT "Evidence and trust": distance is
 * the sum of plausible consecutive odometer increases, a rollback or reset not erasing distance, or
 * great-circle distance where the odometer is unusable; each vehicle's method named). Constructed
 * telemetry with a known truth through the real ingest, read back over HTTP from the emissions report
 * (JSON, CSV), the CSRD report and the mileage forecast, on both databases.
 */
const server = useIngestServer();
let t: Awaited<ReturnType<typeof createTenantWithKey>>;

const todayMs = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const day = (offset: number) => new Date(todayMs + offset * DAY).toISOString().slice(0, 10);
const START = day(-10);
const END = day(-1);
const D1 = todayMs - 6 * DAY + 10 * 60 * MIN; // 10:00 UTC six days ago
const D2 = todayMs - 5 * DAY + 9 * 60 * MIN; // 09:00 UTC five days ago

const diesel = { vehicle: { make: "Skoda", model: "Octavia", powertrain: "ICE", fuel_type: "diesel" } };
const petrol = { vehicle: { make: "Toyota", model: "Yaris", powertrain: "ICE", fuel_type: "petrol" } };

const VIN = {
  rollback: "DISTROLLBACK00001",
  spike: "DISTSPIKE00000001",
  clean: "DISTCLEAN00000001",
  gps: "DISTGPSONLY000001",
  frozen: "DISTFROZEN0000001",
  idle: "DISTIDLE000000001",
} as const;
const dev = (vin: string) => `oem-${vin}`;

/** `n` readings 6 minutes apart from `startMs`, each 10 km further (100 km/h) from `startKm`. */
const driveReadings = (vin: string, startMs: number, startKm: number, n: number, master: Rec): Rec[] =>
  Array.from({ length: n + 1 }, (_, i) => ({ vin, timestamp: iso(startMs + i * 6 * MIN), odometer_km: startKm + 10 * i, speed_kmh: 100, raw_data: master }));

// 1,000 km driven: 500 km on day one (100,000 → 100,500, with a +5,000 km one-sample spike halfway),
// the odometer wound back to 40,000 overnight while parked, 500 km more on day two (→ 40,500).
// Last − first would say 0 km (floored), a plain sum of increases 6,000.
const rollback: Rec[] = [
  ...driveReadings(VIN.rollback, D1, 100_000, 50, diesel),
  { vin: VIN.rollback, timestamp: iso(D1 + 150 * MIN + 3 * MIN), odometer_km: 100_250 + 5_000, speed_kmh: 100, raw_data: diesel },
  ...driveReadings(VIN.rollback, D2, 40_000, 50, diesel),
];
const ROLLBACK_TRUE_KM = 1_000;

// 300 km with a +9,000 km one-sample spike halfway: last − first is right, but the method must say a reading was set aside.
const spike: Rec[] = [
  ...driveReadings(VIN.spike, D1, 20_000, 30, petrol),
  { vin: VIN.spike, timestamp: iso(D1 + 90 * MIN + 3 * MIN), odometer_km: 20_150 + 9_000, speed_kmh: 100, raw_data: petrol },
];
// A plain odometer: 200 km, nothing set aside.
const clean: Rec[] = driveReadings(VIN.clean, D1, 5_000, 20, petrol);

// No odometer, positions only: three laps of a 10 km-radius circle at 60 km/h, a fix a minute (1 km
// chords), and one GPS fix at 0°/0° (a teleport) in the middle.
const R_KM = 10;
const EARTH = 6371.0088;
const centre = { lat: 61.5, lon: 23.8 };
const onCircle = (phi: number) => ({
  lat: centre.lat + (R_KM / EARTH) * Math.cos(phi) * (180 / Math.PI),
  lon: centre.lon + ((R_KM / EARTH) * Math.sin(phi) * (180 / Math.PI)) / Math.cos((centre.lat * Math.PI) / 180),
});
const LAP_STEPS = Math.round(2 * Math.PI * R_KM); // 63 steps of ~1 km a lap
const GPS_STEPS = 3 * LAP_STEPS;
const phiAt = (i: number) => (2 * Math.PI * i) / LAP_STEPS;
const gps: Rec[] = Array.from({ length: GPS_STEPS + 1 }, (_, i) => ({ vin: VIN.gps, timestamp: iso(D1 + i * MIN), ...onCircle(phiAt(i)), speed_kmh: 60, raw_data: petrol }));
gps.push({ vin: VIN.gps, timestamp: iso(D1 + 90 * MIN + 30_000), lat: 0, lon: 0, speed_kmh: 60, raw_data: petrol });
/** The true track's length: the same path sampled 100 times finer. */
const GPS_TRUE_KM = (() => {
  let km = 0;
  const fine = GPS_STEPS * 100;
  for (let j = 0; j < fine; j++) {
    const a = onCircle(phiAt(j / 100));
    const b = onCircle(phiAt((j + 1) / 100));
    km += haversineKm(a.lat, a.lon, b.lat, b.lon);
  }
  return km;
})();

// Odometer frozen after 5 km (a CAN fault) while the car drives 150 km north, a fix a minute.
const frozen: Rec[] = Array.from({ length: 151 }, (_, i) => ({
  vin: VIN.frozen,
  timestamp: iso(D1 + i * MIN),
  odometer_km: 70_000 + Math.min(i, 5),
  lat: 60.2 + (i * 1) / 111.2,
  lon: 24.9,
  speed_kmh: 60,
  raw_data: diesel,
}));
const FROZEN_TRUE_KM = 150;
// Reported only before the period.
const idle: Rec[] = [{ vin: VIN.idle, timestamp: iso(todayMs - 30 * DAY), odometer_km: 10, raw_data: petrol }];

// Mileage forecast: one evening reading a day for 60 days, 100 km a day from 20,000 km; on day 40 the
// odometer is wound back 20,000 km and every later reading stays down. Lease: 12 months from the
// first day, contract 50,000 km. The real odometer ends near 20,000 + 100 × 365 = 56,500 km (over);
// the wound-back one near 36,500 km (under).
const MILEAGE_VIN = "DISTMILEAGE000001";
const LAST_DAY = helsinkiDayNumber(Date.now()) - 1;
const FIRST_DAY = LAST_DAY - 59;
const LEASE_START = new Date(FIRST_DAY * DAY).toISOString().slice(0, 10);
const mileage: Rec[] = Array.from({ length: 60 }, (_, i) => ({
  vin: MILEAGE_VIN,
  timestamp: iso(helsinkiTime(FIRST_DAY + i, 18 * 60)),
  speed_kmh: 0,
  odometer_km: 20_000 + 100 * i - (i >= 40 ? 20_000 : 0),
  raw_data: {
    ignition: false,
    vehicle: { make: "Skoda", model: "Octavia", powertrain: "ICE", fuel_type: "diesel", contract_km: 50_000, lease_start: LEASE_START, lease_months: 12 },
  },
}));
const MILEAGE_CURRENT_TRUE = 20_000 + 100 * 59;

type Vehicle = {
  device_id: string;
  distance_km: number;
  distance_method: string;
  distance_note?: string;
  distance_evidence?: { odometer_rollbacks: unknown[]; odometer_spikes: number; gps_km: number };
};
type Report = { vehicles: Vehicle[]; method_version: string };

beforeAll(async () => {
  t = await createTenantWithKey(server.tdb.handle.db, { name: "distance" });
  await server.ingestAs(t, [...rollback, ...spike, ...clean, ...gps, ...frozen, ...idle, ...mileage]);
}, 180_000);

async function emissions(format: "json" | "csv"): Promise<Response> {
  const res = await server.app.fetch(`/api/v1/reports/emissions?start_date=${START}&end_date=${END}&format=${format}`, { key: t.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return res;
}

describe("distance that survives a bad odometer: emissions report", () => {
  let by: Record<string, Vehicle>;
  beforeAll(async () => {
    const r = (await (await emissions("json")).json()) as Report;
    by = Object.fromEntries(r.vehicles.map((v) => [v.device_id, v]));
  });

  it("a rollback mid-period does not erase distance: 1,000 km driven, the spike not counted, the rollback named", () => {
    const v = by[dev(VIN.rollback)];
    expect(v?.distance_km).toBeCloseTo(ROLLBACK_TRUE_KM, 3);
    expect(v?.distance_method).toBe("odometer_plausible_increases");
    expect(v?.distance_evidence?.odometer_rollbacks).toEqual([{ at: expect.any(String), from_km: 100_500, to_km: 40_000 }]);
    expect(v?.distance_evidence?.odometer_spikes).toBe(1);
    expect(v?.distance_note).toMatch(/rollback/);
    expect(v?.distance_note).toMatch(/sum of plausible increases/);
  });

  it("a one-sample spike is set aside and the method says so", () => {
    const v = by[dev(VIN.spike)];
    expect(v?.distance_km).toBeCloseTo(300, 3);
    expect(v?.distance_method).toBe("odometer_plausible_increases");
    expect(v?.distance_note).toMatch(/1 one-sample spike/);
  });

  it("a clean odometer is plain 'odometer'", () => {
    expect(by[dev(VIN.clean)]).toMatchObject({ distance_km: 200, distance_method: "odometer" });
  });

  it("no odometer: the great-circle distance of the positions, within 1 % of the true track, the 0°/0° fix not counted", () => {
    const v = by[dev(VIN.gps)];
    expect(v?.distance_method).toBe("gps_great_circle");
    expect(Math.abs((v?.distance_km ?? 0) - GPS_TRUE_KM) / GPS_TRUE_KM).toBeLessThan(0.01);
    expect(v?.distance_km).toBeLessThanOrEqual(GPS_TRUE_KM);
  });

  it("an odometer that stopped counting does not cover the period: the positions' distance, not its 5 km", () => {
    const v = by[dev(VIN.frozen)];
    expect(v?.distance_method).toBe("gps_great_circle");
    expect(Math.abs((v?.distance_km ?? 0) - FROZEN_TRUE_KM) / FROZEN_TRUE_KM).toBeLessThan(0.01);
    expect(v?.distance_note).toMatch(/did not record the whole period/);
  });

  it("nothing in the period: 'none', 0 km", () => {
    expect(by[dev(VIN.idle)]).toMatchObject({ distance_km: 0, distance_method: "none" });
  });

  it("CSV: the CONTRACT's columns first and in order, then distance_method per vehicle", async () => {
    const csv = parseCsv(await (await emissions("csv")).text());
    expect(csv[0]?.slice(0, 8)).toEqual(["device_id", "device_name", "powertrain", "distance_km", "energy_kwh", "fuel_l", "co2_kg", "distance_method"]);
    const method = Object.fromEntries(csv.slice(1).map((row) => [row[0], row[7]]));
    const km = Object.fromEntries(csv.slice(1).map((row) => [row[0], Number(row[3])]));
    expect(method).toMatchObject({
      [dev(VIN.rollback)]: "odometer_plausible_increases",
      [dev(VIN.spike)]: "odometer_plausible_increases",
      [dev(VIN.clean)]: "odometer",
      [dev(VIN.gps)]: "gps_great_circle",
      [dev(VIN.frozen)]: "gps_great_circle",
      [dev(VIN.idle)]: "none",
    });
    expect(km[dev(VIN.rollback)]).toBeCloseTo(ROLLBACK_TRUE_KM, 3);
  });
});

describe("distance that survives a bad odometer: CSRD report", () => {
  it("the data-quality table counts each method apart and names the rollback; the rollback car's emissions are its 1,000 km", async () => {
    const res = await server.app.fetch(`/api/v1/reports/csrd/generate?start_date=${START}&end_date=${END}&format=json`, { key: t.key, method: "POST" });
    expect(res.status, await res.clone().text()).toBe(200);
    const r = (await res.json()) as { data_quality: { distance_method: Record<string, number>; limitations: string[] }; fleet_summary: { distance_km: number } };
    // The mileage car reported in the period too (its evening readings; its rollback was before the period): plain odometer.
    expect(r.data_quality.distance_method).toEqual({ odometer: 2, odometer_plausible_increases: 2, gps_great_circle: 2, none: 1 });
    const text = r.data_quality.limitations.join(" ");
    expect(text).toMatch(/rollback/);
    expect(text).toContain(dev(VIN.rollback));
    expect(r.fleet_summary.distance_km).toBeGreaterThan(ROLLBACK_TRUE_KM + 300 + 200 + 0.99 * GPS_TRUE_KM);
  });
});

describe("distance that survives a bad odometer: mileage forecast", () => {
  it("after a rollback it forecasts from the plausible series, says so, and the overrun risk is not 0 %", async () => {
    const res = await server.app.fetch(`/api/v1/predict/mileage/${dev(MILEAGE_VIN)}`, { key: t.key });
    expect(res.status, await res.clone().text()).toBe(200);
    const f = (await res.json()) as Record<string, unknown> & { current_km: number; predicted_end_km: number; risk_score: number; limitations: string[] };
    // The series continued from the pre-rollback baseline: the day of the rollback's own 100 km is the step across the drop.
    expect(f.current_km).toBeCloseTo(MILEAGE_CURRENT_TRUE - 100, 1);
    expect(f.odometer_reading_km).toBe(MILEAGE_CURRENT_TRUE - 20_000);
    expect(f.distance_method).toBe("odometer_plausible_increases");
    expect(f.predicted_end_km).toBeGreaterThan(50_000);
    expect(f.risk_score).toBeGreaterThan(50);
    expect(f.limitations.join(" ")).toMatch(/rollback/i);
    expect(f.limitations.join(" ")).toMatch(/plausible series/);
  });

  it("current_km_at is a date-time (RFC 3339, UTC): the latest plausible reading's time", async () => {
    const res = await server.app.fetch(`/api/v1/predict/mileage/${dev(MILEAGE_VIN)}`, { key: t.key });
    const f = (await res.json()) as { current_km_at: string };
    expect(f.current_km_at).toBe(iso(helsinkiTime(LAST_DAY, 18 * 60)));
  });
});

describe("distance that survives a bad odometer: bounded reads", () => {
  it("one statement for any number of devices, a second (positions) only for those whose odometer may not cover the period", async () => {
    const since = `${START}T00:00:00.000Z`;
    const until = `${END}T23:59:59.999Z`;
    const ctx = { db: server.tdb.handle.db, tenantId: t.tenantId };
    const all = Object.values(VIN).map(dev);
    const labels: string[] = [];
    const ev = await loadPeriodDistance({ ctx, deviceIds: all, since, until, onQuery: (l) => labels.push(l) });
    expect(labels).toEqual(["period distance: odometer", "period distance: positions"]);
    // The clean odometer's positions were not scanned; the GPS-only and frozen cars' were.
    expect(ev.get(dev(VIN.clean))?.gps).toBeNull();
    expect(ev.get(dev(VIN.gps))?.gps?.outliers).toBe(1);
    expect(ev.get(dev(VIN.frozen))?.gps?.km).toBeGreaterThan(140);
    const clean: string[] = [];
    await loadPeriodDistance({ ctx, deviceIds: [dev(VIN.clean), dev(VIN.rollback), dev(VIN.spike)], since, until, onQuery: (l) => clean.push(l) });
    expect(clean).toEqual(["period distance: odometer"]);
  });
});
