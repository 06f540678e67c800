import { rootLogger } from "@/lib/log/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { devices, telemetry } from "@/lib/db/schema";
import { fleetRiskScoreSchema, greenFleetScoreSchema } from "@/lib/schemas/scores-fleet";
import { createTenantWithKey, insertAlert } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;
type Body = Record<string, unknown> & { details?: { field: string }[] };

let tdb: TestDatabase;
let app: RouteServer;
const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.now();

let base: Tenant; // mixed fleet with some alerts
let riskier: Tenant; // the same fleet + extra critical alerts
let other: Tenant; // same device ids as `base`, used for isolation
let fewEvs: Tenant;
let manyEvs: Tenant;
let empty: Tenant;
let noScope: Tenant;

interface Vehicle {
  deviceId: string;
  powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | null;
  fuelType?: string | null;
}

/** Devices with master data and 2 h of telemetry each (one sample every 5 min, ending 10 min ago). */
async function insertFleet(db: Db, tenantId: string, list: Vehicle[]): Promise<void> {
  await db.insert(devices).values(list.map((v) => ({ tenantId, deviceId: v.deviceId, name: v.deviceId, powertrain: v.powertrain, fuelType: v.fuelType ?? null })));
  const samples: (typeof telemetry.$inferInsert)[] = [];
  for (const v of list) {
    const ev = v.powertrain === "BEV" || v.powertrain === "PHEV";
    for (let i = 0; i < 24; i++) {
      const ts = new Date(T0 - 10 * MIN - (23 - i) * 5 * MIN);
      const charging = ev && i >= 18; // last half hour: charging
      samples.push({
        tenantId,
        deviceId: v.deviceId,
        ts,
        speedKmh: charging ? 0 : i % 6 === 0 ? 140 : 80,
        weatherTemp: i % 3 === 0 ? -12 : 4,
        odometerKm: 10_000 + i * 6,
        socPct: ev ? (charging ? 40 + i : 60 - i) : null,
        chargingStatus: charging ? "dc_charging" : null,
        // 150 kW: DC above 100 kW, the wear-relevant band of ev_charging_risk.
        chargingPowerKw: ev ? (charging ? 150 : 0) : null,
        fuelLevelPct: ev && v.powertrain === "BEV" ? null : 50,
      });
    }
  }
  if (samples.length > 0) await db.insert(telemetry).values(samples);
}

const MIXED: Vehicle[] = [
  { deviceId: "car-1", powertrain: "BEV" },
  { deviceId: "car-2", powertrain: "ICE", fuelType: "diesel" },
  { deviceId: "car-3", powertrain: "PHEV" },
  { deviceId: "car-4", powertrain: null },
];

async function baseAlerts(db: Db, tenantId: string) {
  await insertAlert(db, tenantId, { deviceId: "car-1", severity: "WARNING" });
  await insertAlert(db, tenantId, { deviceId: "car-2", severity: "INFO", agent: "driving" });
  // 10 days old: inside 30d, outside 7d.
  await insertAlert(db, tenantId, { deviceId: "car-2", severity: "CRITICAL", createdAt: new Date(T0 - 10 * DAY) });
  // 40 days old: outside the default period.
  await insertAlert(db, tenantId, { deviceId: "car-3", severity: "CRITICAL", createdAt: new Date(T0 - 40 * DAY) });
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  base = await createTenantWithKey(db, { name: "Base" });
  riskier = await createTenantWithKey(db, { name: "Riskier" });
  other = await createTenantWithKey(db, { name: "Other" });
  fewEvs = await createTenantWithKey(db, { name: "Few EVs" });
  manyEvs = await createTenantWithKey(db, { name: "Many EVs" });
  empty = await createTenantWithKey(db, { name: "Empty" });
  noScope = await createTenantWithKey(db, { name: "No scope", scopes: ["fleet:read"] });

  for (const t of [base, riskier, other]) {
    await insertFleet(db, t.tenantId, MIXED);
    await baseAlerts(db, t.tenantId);
  }
  for (const id of ["car-1", "car-2", "car-3", "car-4"]) {
    await insertAlert(db, riskier.tenantId, { deviceId: id, severity: "CRITICAL" });
    await insertAlert(db, riskier.tenantId, { deviceId: id, severity: "CRITICAL", agent: "diagnostics" });
  }
  await insertFleet(db, fewEvs.tenantId, [
    { deviceId: "v-1", powertrain: "BEV" },
    { deviceId: "v-2", powertrain: "ICE", fuelType: "diesel" },
    { deviceId: "v-3", powertrain: "ICE", fuelType: "petrol" },
    { deviceId: "v-4", powertrain: "ICE", fuelType: "diesel" },
  ]);
  await insertFleet(db, manyEvs.tenantId, [
    { deviceId: "v-1", powertrain: "BEV" },
    { deviceId: "v-2", powertrain: "BEV" },
    { deviceId: "v-3", powertrain: "PHEV" },
    { deviceId: "v-4", powertrain: "ICE", fuelType: "diesel" },
  ]);
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "1000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

async function getJson(path: string, key: string) {
  const res = await app.fetch(path, { key });
  return { res, body: (await res.json()) as Body };
}

const isScore = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 100;

function expectFleetRiskShape(body: Body) {
  expect(fleetRiskScoreSchema.safeParse(body).success).toBe(true);
  expect(isScore(body.fleet_risk_score)).toBe(true);
  expect(typeof body.score_version).toBe("string");
  expect(["high", "medium", "low"]).toContain(body.confidence);
  for (const k of ["period_days", "device_count", "alerts_period", "critical_alerts_period"]) {
    expect(Number.isInteger(body[k]), k).toBe(true);
  }
  const dist = body.severity_distribution as Record<string, unknown>;
  for (const k of ["critical", "warning", "info"]) expect(Number.isInteger(dist[k]), k).toBe(true);
  expect(typeof body.scoring_method).toBe("string");
  const comps = body.components as Record<string, unknown>;
  expect(Object.keys(comps).sort()).toEqual(["ev_charging_risk", "event_severity", "speed_compliance", "time_pattern", "weather_exposure"]);
  for (const v of Object.values(comps)) expect(isScore(v)).toBe(true);
  expect(Array.isArray(body.limitations)).toBe(true);
  for (const l of body.limitations as unknown[]) expect(typeof l).toBe("string");
  expect(String(body.generated_at)).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
}

function expectGreenShape(body: Body) {
  expect(greenFleetScoreSchema.safeParse(body).success).toBe(true);
  expect(isScore(body.green_fleet_score)).toBe(true);
  expect(typeof body.score_version).toBe("string");
  const comps = body.components as Record<string, unknown>;
  expect(Object.keys(comps).sort()).toEqual(["co2_intensity", "energy_efficiency", "ev_share"]);
  for (const v of Object.values(comps)) expect(v === null || isScore(v)).toBe(true);
  expect(Array.isArray(body.limitations)).toBe(true);
  for (const l of body.limitations as unknown[]) expect(typeof l).toBe("string");
  expect(String(body.generated_at)).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
}

describe("GET /api/v1/scores/fleet-risk", () => {
  it("answers every SPEC 2.3 field, with the default period of 30 days", async () => {
    const { res, body } = await getJson("/api/v1/scores/fleet-risk", base.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expectFleetRiskShape(body);
    expect(body).toMatchObject({
      period_days: 30,
      device_count: 4,
      alerts_period: 3,
      critical_alerts_period: 1,
      severity_distribution: { critical: 1, warning: 1, info: 1 },
    });
    const comps = body.components as Record<string, number>;
    // Driving above 130 km/h, at −12 °C and DC charging above 100 kW are all in the constructed telemetry.
    expect(comps.speed_compliance).toBeGreaterThan(0);
    expect(comps.weather_exposure).toBeGreaterThan(0);
    expect(comps.ev_charging_risk).toBeGreaterThan(0);
    // fleet-risk-2027.01: event_severity is harsh events per 100 km; nothing reports or allows deriving
    // them here (5-minute samples, no OEM event feed), so it is unknown (0, left out), not scored from alerts.
    expect(comps.event_severity).toBe(0);
    expect((body.limitations as string[]).some((l) => l.startsWith("event_severity: no source covers the period"))).toBe(true);
  });

  it("honours period=7d (the 10-day-old critical alert drops out)", async () => {
    const { res, body } = await getJson("/api/v1/scores/fleet-risk?period=7d", base.key);
    expect(res.status).toBe(200);
    expectFleetRiskShape(body);
    expect(body).toMatchObject({ period_days: 7, alerts_period: 2, critical_alerts_period: 0 });
    expect((await getJson("/api/v1/scores/fleet-risk?period=365d", base.key)).body).toMatchObject({ period_days: 365, alerts_period: 4 });
    expect((await getJson("/api/v1/scores/fleet-risk?period=1d", base.key)).res.status).toBe(200);
  });

  it("rejects malformed periods with 400 invalid_request naming `period`", async () => {
    for (const bad of ["30", "d", "0d", "-1d", "366d", "1.5d", "abc", "", "30D", "7d7"]) {
      const { res, body } = await getJson(`/api/v1/scores/fleet-risk?period=${encodeURIComponent(bad)}`, base.key);
      expect(res.status, `period=${bad}`).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.details).toEqual([expect.objectContaining({ field: "period" })]);
    }
  });

  it("more critical alerts on the same fleet are reported as facts but do not move the behaviour score (fleet-risk-2027.01)", async () => {
    // Alerts measure acknowledgement habits and batch sizes, not driving: the same telemetry scores the same.
    const a = (await getJson("/api/v1/scores/fleet-risk", base.key)).body;
    const b = (await getJson("/api/v1/scores/fleet-risk", riskier.key)).body;
    expectFleetRiskShape(b);
    expect(b.critical_alerts_period).toBe(9);
    expect(b.fleet_risk_score).toBe(a.fleet_risk_score);
    expect(b.components).toEqual(a.components);
  });

  it("another tenant's alerts never change the score (same device ids)", async () => {
    const before = (await getJson("/api/v1/scores/fleet-risk", base.key)).body;
    const db = tdb.handle.db;
    for (let i = 0; i < 10; i++) await insertAlert(db, other.tenantId, { deviceId: "car-1", severity: "CRITICAL" });
    const after = (await getJson("/api/v1/scores/fleet-risk", base.key)).body;
    expect(after.fleet_risk_score).toBe(before.fleet_risk_score);
    expect(after.severity_distribution).toEqual(before.severity_distribution);
    expect(after.components).toEqual(before.components);
    const theirs = (await getJson("/api/v1/scores/fleet-risk", other.key)).body;
    expect(theirs.critical_alerts_period).toBe(11);
  });

  it("answers 200 with a valid low-confidence result for an empty fleet", async () => {
    const { res, body } = await getJson("/api/v1/scores/fleet-risk", empty.key);
    expect(res.status).toBe(200);
    expectFleetRiskShape(body);
    expect(body).toMatchObject({ device_count: 0, alerts_period: 0, confidence: "low", period_days: 30 });
  });

  it("needs scores:read (403) and a key (401)", async () => {
    const { res, body } = await getJson("/api/v1/scores/fleet-risk", noScope.key);
    expect(res.status).toBe(403);
    expect(body.error).toBe("forbidden");
    expect((await app.fetch("/api/v1/scores/fleet-risk")).status).toBe(401);
  });
});

describe("GET /api/v1/scores/green-fleet", () => {
  it("answers every SPEC 2.5 field", async () => {
    const { res, body } = await getJson("/api/v1/scores/green-fleet", base.key);
    expect(res.status).toBe(200);
    expectGreenShape(body);
    expect(["high", "medium", "low"]).toContain(body.confidence);
    expect((body.components as Record<string, unknown>).ev_share).toBeCloseTo(66.7, 1); // BEV + PHEV of 3 known
    expect((await getJson("/api/v1/scores/green-fleet?period=7d", base.key)).res.status).toBe(200);
  });

  it("rejects malformed periods with 400 invalid_request naming `period`", async () => {
    for (const bad of ["30", "d", "0d", "-1d", "366d", "1.5d", "abc"]) {
      const { res, body } = await getJson(`/api/v1/scores/green-fleet?period=${encodeURIComponent(bad)}`, base.key);
      expect(res.status, `period=${bad}`).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.details).toEqual([expect.objectContaining({ field: "period" })]);
    }
  });

  it("more EVs give a higher score", async () => {
    const few = (await getJson("/api/v1/scores/green-fleet", fewEvs.key)).body;
    const many = (await getJson("/api/v1/scores/green-fleet", manyEvs.key)).body;
    expectGreenShape(few);
    expectGreenShape(many);
    expect(many.green_fleet_score as number).toBeGreaterThan(few.green_fleet_score as number);
  });

  it("answers 200 with a valid low-confidence result for an empty fleet", async () => {
    const { res, body } = await getJson("/api/v1/scores/green-fleet", empty.key);
    expect(res.status).toBe(200);
    expectGreenShape(body);
    expect(body.confidence).toBe("low");
  });

  it("needs scores:read (403)", async () => {
    const { res, body } = await getJson("/api/v1/scores/green-fleet", noScope.key);
    expect(res.status).toBe(403);
    expect(body.error).toBe("forbidden");
  });
});

describe("loadFleetInputs (query module)", () => {
  it("aggregates telemetry per device in one round trip, with Helsinki night time, held states and SOC-pair charging", async () => {
    const db = tdb.handle.db;
    const t = await createTenantWithKey(db, { name: "Aggregates" });
    const now = new Date("2026-01-20T12:00:00Z");
    await db.insert(devices).values([
      { tenantId: t.tenantId, deviceId: "ev", name: "ev", powertrain: "BEV" },
      { tenantId: t.tenantId, deviceId: "idle", name: "idle", powertrain: "ICE" },
    ]);
    const at = (iso: string, o: Partial<typeof telemetry.$inferInsert>) => ({ tenantId: t.tenantId, deviceId: "ev", ts: new Date(iso), ...o });
    await db.insert(telemetry).values([
      // 2026-01-15 20:30–21:00 UTC = 22:30–23:00 Helsinki (EET, UTC+2): night driving, 150 km/h then 90.
      at("2026-01-15T20:30:00Z", { speedKmh: 150, weatherTemp: -15, odometerKm: 1000 }),
      at("2026-01-15T20:40:00Z", { speedKmh: 90, weatherTemp: 2, odometerKm: 1020 }),
      at("2026-01-15T20:50:00Z", { speedKmh: 90, odometerKm: 1035 }),
      // 20:50 → 23:50 is a 3 h gap: counts 10 min.
      at("2026-01-15T23:50:00Z", { speedKmh: 0, chargingStatus: "dc_charging", chargingPowerKw: 60, socPct: 5 }),
      at("2026-01-16T00:00:00Z", { speedKmh: 0, chargingPowerKw: 11, socPct: 8, odometerKm: 1040 }),
      at("2026-01-16T00:10:00Z", { speedKmh: 0, socPct: 9 }),
      // Outside a 7-day period ending `now`, inside 30 days; and one after `now` (never used).
      at("2026-01-05T10:00:00Z", { speedKmh: 50, odometerKm: 900 }),
      at("2026-01-21T10:00:00Z", { speedKmh: 50, odometerKm: 5000 }),
    ]);
    await insertAlert(db, t.tenantId, { deviceId: "ev", severity: "CRITICAL", agent: "battery", createdAt: new Date("2026-01-18T00:00:00Z") });
    await insertAlert(db, t.tenantId, { deviceId: "ev", severity: "WARNING", agent: "driving", createdAt: new Date("2026-01-18T00:00:00Z") });
    await insertAlert(db, t.tenantId, { deviceId: "ev", severity: "INFO", agent: "driving", createdAt: new Date("2026-01-01T00:00:00Z") });

    let calls = 0;
    const counting = new Proxy(db, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop === "execute" && typeof v === "function") {
          return (...args: unknown[]) => {
            calls++;
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return v;
      },
    });
    const { loadFleetInputs, toGreenFleetDevice } = await import("@/lib/scores/queries/load-fleet-inputs");
    const out = await loadFleetInputs({ ctx: { db: counting, tenantId: t.tenantId, isSandbox: false, log: rootLogger() }, periodDays: 7, now });
    expect(calls).toBe(1);
    expect(out.devices.map((d) => d.device_id)).toEqual(["ev", "idle"]);
    const ev = out.devices[0]!;
    const b = ev.behaviour;
    expect(ev.readings).toBe(6);
    expect(b.driving_minutes).toBeCloseTo(30, 6); // 10 + 10 + 10 (a sample's state holds at most 10 min)
    expect(b.minutes_over_130).toBeCloseTo(10, 6);
    expect(b.minutes_over_160).toBe(0);
    // Distances between samples: 20 km at 150 km/h, 15 km at 90; the 3 h gap has no odometer at its end.
    expect(b.moving_km).toBeCloseTo(35, 6);
    expect(b.km_over_130).toBeCloseTo(20, 6);
    expect(b.night_driving_minutes).toBeCloseTo(30, 6);
    expect(b.temp_known_driving_minutes).toBeCloseTo(20, 6);
    expect(b.driving_minutes_near_0c).toBeCloseTo(10, 6); // +2 °C
    expect(b.driving_minutes_below_0c).toBeCloseTo(10, 6);
    expect(b.driving_minutes_below_minus10c).toBeCloseTo(10, 6);
    // Pairs touching a charging sample: 20:50→23:50 (ends charging; its state holds 10 min), 23:50→00:00, 00:00→00:10.
    expect(b.charging_minutes).toBeCloseTo(30, 6);
    // SOC 5 → 8 on DC (status word, 60 kW: DC but not above 100 kW), 8 → 9 on AC (11 kW).
    expect(b.charged_dc_pp).toBeCloseTo(3, 6);
    expect(b.charged_ac_pp).toBeCloseTo(1, 6);
    expect(b.charged_high_power_pp).toBe(0);
    expect(b.soc_known_minutes).toBeCloseTo(20, 6);
    expect(b.low_soc_minutes).toBe(0); // SOC < 10 only while charging (the 00:10 sample is the last: 0 min)
    expect(b.telemetry_days).toBe(2);
    expect(b.newest_telemetry_at?.toISOString()).toBe("2026-01-16T00:10:00.000Z");
    expect(ev.distance_km).toBeCloseTo(40, 6);
    // No battery_kwh and only 4 SOC points of short-interval charging: capacity unknown, so no energy is invented.
    expect(ev.energy.capacity_kwh).toBeNull();
    expect(ev.energy_kwh).toBeNull();
    expect(ev.energy.consumption_reason).toMatch(/capacity is unknown/);
    expect(ev.energy.high_power_dc_share).toBe(0);
    expect(ev.harsh_events).toBeNull();
    expect(ev.alerts).toEqual({ critical: 1, warning: 1, info: 0 });
    expect(toGreenFleetDevice(ev).cold_driving_share).toBeCloseTo(0.5, 6);
    const idle = out.devices[1]!;
    expect(idle).toMatchObject({ readings: 0, distance_km: null, energy_kwh: null });
    expect(idle.behaviour).toMatchObject({ driving_minutes: 0, telemetry_days: 0, newest_telemetry_at: null });
    expect(idle.alerts).toEqual({ critical: 0, warning: 0, info: 0 });
  });
});
