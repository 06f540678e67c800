import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { alerts, devices, fleetSnapshot, telemetry } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { rootLogger } from "@/lib/log/logger";
import { countingDb } from "../helpers/counting-db";
import { loadBatterySnapshotInputs } from "@/lib/scores/queries/load-battery-snapshot-inputs";
import { loadDeviceFleetInputs } from "@/lib/scores/queries/load-device-fleet-inputs";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";
import {
  batteryHealthSnapshotSchema,
  eolSummarySchema,
  scoresBatchResponseSchema,
  tasBatchResponseSchema,
  tasScoreSchema,
  vehicleHealthScoreSchema,
} from "@/lib/schemas/scores-device";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";
import type { AlertAgent } from "@/lib/vocabulary/alerts";
import type { AssetClass } from "@/lib/vocabulary/master-data";

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let b: Awaited<ReturnType<typeof createTenantWithKey>>;
let bulk: Awaited<ReturnType<typeof createTenantWithKey>>;
let noScopes: Awaited<ReturnType<typeof createTenantWithKey>>;
const DAY = 86_400_000;
const NOW = Date.now();

interface VehicleSpec {
  deviceId: string;
  powertrain: "BEV" | "ICE";
  soh: number | null;
  /** Odometer readings per day, newest last; the last reading can be a rollback. */
  odometer?: (day: number) => number;
  days?: number;
  assetClass?: AssetClass;
}

/** A vehicle with master data, a snapshot and one telemetry record per day for `days` days. */
async function insertVehicle(db: Db, tenantId: string, v: VehicleSpec): Promise<void> {
  const days = v.days ?? 30;
  await db.insert(devices).values({
    tenantId,
    deviceId: v.deviceId,
    name: v.deviceId,
    powertrain: v.powertrain,
    powertrainSource: "master_data",
    fuelType: v.powertrain === "ICE" ? "diesel" : null,
    batteryKwh: v.powertrain === "BEV" ? 75 : null,
    year: 2023,
    contractKm: 120_000,
    leaseMonths: 48,
    leaseStart: new Date(NOW - 400 * DAY).toISOString().slice(0, 10),
    assetClass: v.assetClass ?? null,
  });
  const odo = v.odometer ?? ((d: number) => 20_000 + d * 60);
  const records = Array.from({ length: days }, (_, i) => {
    const day = i; // 0 = oldest
    return {
      tenantId,
      deviceId: v.deviceId,
      ts: new Date(NOW - (days - 1 - i) * DAY - 60_000),
      speedKmh: 0,
      ignition: 0,
      batteryVoltage: 12.6,
      socPct: v.powertrain === "BEV" ? 80 : null,
      sohPct: v.soh,
      odometerKm: odo(day),
      dtcCodes: [] as string[],
      weatherTemp: 5,
    };
  });
  await db.insert(telemetry).values(records);
  const last = records[records.length - 1]!;
  await db.insert(fleetSnapshot).values({ ...last, chargingStatus: v.powertrain === "BEV" ? "not_charging" : null, chargingPowerKw: null });
}

async function insertAlertRow(
  db: Db,
  tenantId: string,
  a: { deviceId: string; agent: AlertAgent; severity: "CRITICAL" | "WARNING" | "INFO"; dedupeKey: string; createdAt?: Date },
): Promise<void> {
  await db.insert(alerts).values({
    id: newId("alt"),
    tenantId,
    deviceId: a.deviceId,
    agent: a.agent,
    severity: a.severity,
    prediction: `Test ${a.dedupeKey}`,
    confidence: 0.9,
    technicalData: {},
    dedupeKey: a.dedupeKey,
    createdAt: a.createdAt ?? new Date(NOW - DAY),
  });
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  a = await createTenantWithKey(db, { name: "Scores A" });
  b = await createTenantWithKey(db, { name: "Scores B" });
  bulk = await createTenantWithKey(db, { name: "Scores bulk" });
  noScopes = await createTenantWithKey(db, { name: "Scores no scope", scopes: ["fleet:read"] });

  await insertVehicle(db, a.tenantId, { deviceId: "ev-good", powertrain: "BEV", soh: 95 });
  await insertVehicle(db, a.tenantId, { deviceId: "ev-mid", powertrain: "BEV", soh: 75 });
  await insertVehicle(db, a.tenantId, { deviceId: "ev-low", powertrain: "BEV", soh: 55 });
  await insertVehicle(db, a.tenantId, {
    deviceId: "ice-rollback",
    powertrain: "ICE",
    soh: null,
    assetClass: "light_commercial",
    odometer: (d) => (d === 29 ? 15_000 : 80_000 + d * 100),
  });
  await insertVehicle(db, a.tenantId, { deviceId: "shared-id", powertrain: "BEV", soh: 96 });
  // Tenant B holds the same device_id with very different data.
  await insertVehicle(db, b.tenantId, { deviceId: "shared-id", powertrain: "BEV", soh: 50 });

  await insertAlertRow(db, a.tenantId, { deviceId: "ice-rollback", agent: "odometer_integrity", severity: "CRITICAL", dedupeKey: "odometer_integrity:rollback" });
  await insertAlertRow(db, a.tenantId, { deviceId: "ev-good", agent: "battery", severity: "WARNING", dedupeKey: "battery:low_soc", createdAt: new Date(NOW - 2 * DAY) });
  await insertAlertRow(db, a.tenantId, { deviceId: "ev-good", agent: "battery", severity: "INFO", dedupeKey: "battery:soh_drop", createdAt: new Date(NOW - DAY) });
  await insertAlertRow(db, b.tenantId, { deviceId: "shared-id", agent: "battery", severity: "CRITICAL", dedupeKey: "battery:soh_low" });

  await insertDevices(
    db,
    bulk.tenantId,
    Array.from({ length: 50 }, (_, i) => ({ deviceId: `bulk-${i}` })),
  );

  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

type Json = Record<string, unknown>;
async function get(path: string, key: string) {
  const res = await app.fetch(path, { key });
  return { res, body: (await res.json()) as Json };
}
async function post(path: string, key: string, body: unknown) {
  const res = await app.fetch(path, {
    key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { res, body: (await res.json()) as Json };
}

const SINGLE_PATHS = [
  (id: string) => `/api/v1/scores/vehicle-health/${id}`,
  (id: string) => `/api/v1/vehicles/${id}/battery-health-snapshot`,
  (id: string) => `/api/v1/vehicles/${id}/eol-summary`,
  (id: string) => `/api/v1/tas/${id}`,
];

describe("single-device score endpoints", () => {
  it("GET /scores/vehicle-health/{id} answers SPEC 2.4", async () => {
    const { res, body } = await get("/api/v1/scores/vehicle-health/ev-good", a.key);
    expect(res.status).toBe(200);
    const parsed = vehicleHealthScoreSchema.strict().parse(body);
    expect(parsed.device_id).toBe("ev-good");
    expect(parsed.components.battery).not.toBeNull();
    expect(parsed.components.electrical_12v).toBe(100);
    expect(parsed.available_signals).toEqual(["soh_pct", "dtc_codes", "battery_voltage", "odometer_km"]);
    expect(parsed.missing_signals).toEqual([]);
    expect(parsed.confidence).toBe("high");
    expect(parsed.generated_at).toMatch(/Z$/);
    // A rollback alert zeroes the odometer integrity component.
    const ice = vehicleHealthScoreSchema.parse((await get("/api/v1/scores/vehicle-health/ice-rollback", a.key)).body);
    expect(ice.components.odometer_integrity).toBe(0);
    expect(ice.components.battery).toBeNull();
  });

  it("GET /vehicles/{id}/battery-health-snapshot answers SPEC 2.6 with the newest battery alert", async () => {
    const { res, body } = await get("/api/v1/vehicles/ev-good/battery-health-snapshot", a.key);
    expect(res.status).toBe(200);
    const parsed = batteryHealthSnapshotSchema.strict().parse(body);
    expect(parsed.snapshot.soc_current_pct).toBe(80);
    expect(parsed.snapshot.battery_voltage).toBe(12.6);
    expect(parsed.snapshot.estimated_range_km).toBeGreaterThan(0);
    expect(parsed.last_battery_alert).toMatchObject({ severity: "INFO", prediction: "Test battery:soh_drop" });
    expect(parsed.last_battery_alert?.created_at).toMatch(/Z$/);
    expect(parsed.data_quality.soh_pct).toBe(95);
    const ice = batteryHealthSnapshotSchema.parse((await get("/api/v1/vehicles/ice-rollback/battery-health-snapshot", a.key)).body);
    expect(ice.last_battery_alert).toBeNull();
    expect(ice.snapshot.soc_current_pct).toBeNull();
  });

  it("GET /vehicles/{id}/eol-summary answers SPEC 2.7 with knockouts", async () => {
    const { res, body } = await get("/api/v1/vehicles/ev-good/eol-summary", a.key);
    expect(res.status).toBe(200);
    const parsed = eolSummarySchema.strict().parse(body);
    expect(["A", "B"]).toContain(parsed.condition_grade);
    expect(typeof parsed.vehicle_health_score).toBe("number");
    expect(eolSummarySchema.parse((await get("/api/v1/vehicles/ev-low/eol-summary", a.key)).body).condition_grade).toBe("F");
    expect(eolSummarySchema.parse((await get("/api/v1/vehicles/ice-rollback/eol-summary", a.key)).body).condition_grade).toBe("F");
  });

  it("GET /tas/{id} answers SPEC 2.14", async () => {
    const { res, body } = await get("/api/v1/tas/ev-good", a.key);
    expect(res.status).toBe(200);
    const parsed = tasScoreSchema.strict().parse(body);
    expect(parsed.knockout_flags).toEqual([]);
    expect(parsed.tas_grade).not.toBe("F");
    expect(parsed.vertical).toBe("passenger_car");
    expect(parsed.fuel_type).toBeNull();
    expect(parsed.pillars.battery_health.source).toBe("oem_bms");
    expect(JSON.stringify(body)).not.toMatch(/weight/i);
    const van = tasScoreSchema.parse((await get("/api/v1/tas/ice-rollback", a.key)).body);
    expect(van.vertical).toBe("light_commercial");
    expect(van.fuel_type).toBe("diesel");
    expect(van.pillars.battery_health.source).toBe("not_applicable");
  });

  it("TAS knockouts: SoH below 60 and odometer manipulation force F", async () => {
    const low = tasScoreSchema.parse((await get("/api/v1/tas/ev-low", a.key)).body);
    expect(low.tas_grade).toBe("F");
    expect(low.knockout_flags).toEqual(["soh_below_60"]);
    expect(low.tas_score).toBeLessThan(25);
    const rollback = tasScoreSchema.parse((await get("/api/v1/tas/ice-rollback", a.key)).body);
    expect(rollback.tas_grade).toBe("F");
    expect(rollback.knockout_flags).toEqual(["odometer_manipulation"]);
  });

  it("lower SoH gives a lower TAS battery pillar", async () => {
    const good = tasScoreSchema.parse((await get("/api/v1/tas/ev-good", a.key)).body);
    const mid = tasScoreSchema.parse((await get("/api/v1/tas/ev-mid", a.key)).body);
    expect(mid.pillars.battery_health.score).toBeLessThan(good.pillars.battery_health.score);
    expect(mid.tas_score).toBeLessThan(good.tas_score);
  });

  it("answers 404 for unknown devices and for another tenant's device", async () => {
    for (const path of SINGLE_PATHS) {
      const unknown = await get(path("no-such-device"), a.key);
      expect(unknown.res.status, path("no-such-device")).toBe(404);
      expect(unknown.body).toMatchObject({ error: "not_found", message: "No device no-such-device." });
      // ev-good belongs to A only.
      const foreign = await get(path("ev-good"), b.key);
      expect(foreign.res.status, path("ev-good")).toBe(404);
      expect(foreign.body.error).toBe("not_found");
    }
  });

  it("the same device_id in two tenants answers each tenant's own data", async () => {
    const tasA = tasScoreSchema.parse((await get("/api/v1/tas/shared-id", a.key)).body);
    const tasB = tasScoreSchema.parse((await get("/api/v1/tas/shared-id", b.key)).body);
    expect(tasA.knockout_flags).toEqual([]);
    expect(tasB.knockout_flags).toEqual(["soh_below_60"]);
    const snapA = batteryHealthSnapshotSchema.parse((await get("/api/v1/vehicles/shared-id/battery-health-snapshot", a.key)).body);
    const snapB = batteryHealthSnapshotSchema.parse((await get("/api/v1/vehicles/shared-id/battery-health-snapshot", b.key)).body);
    expect(snapA.data_quality.soh_pct).toBe(96);
    expect(snapA.last_battery_alert).toBeNull();
    expect(snapB.data_quality.soh_pct).toBe(50);
    expect(snapB.last_battery_alert?.severity).toBe("CRITICAL");
  });

  it("needs a key with scores:read (401 without a key, 403 without the scope)", async () => {
    for (const path of SINGLE_PATHS) {
      expect((await app.fetch(path("ev-good"))).status).toBe(401);
      const { res, body } = await get(path("ev-good"), noScopes.key);
      expect(res.status).toBe(403);
      expect(body.error).toBe("forbidden");
    }
    expect((await post("/api/v1/scores/batch", noScopes.key, { device_ids: ["ev-good"] })).res.status).toBe(403);
    expect((await post("/api/v1/tas/batch", noScopes.key, { device_ids: ["ev-good"] })).res.status).toBe(403);
  });
});

describe("POST /scores/batch", () => {
  it("answers every score by default, with per-device errors and consistent meta", async () => {
    const { res, body } = await post("/api/v1/scores/batch", a.key, { device_ids: ["ev-good", "no-such-device", "ice-rollback"] });
    expect(res.status).toBe(200);
    const parsed = scoresBatchResponseSchema.parse(body);
    expect(parsed.meta).toEqual({
      total: 3,
      processed: 2,
      errors: 1,
      scores_requested: ["fleet_risk", "vehicle_health", "green_fleet", "battery_health", "eol_summary"],
    });
    expect(parsed.meta.processed + parsed.meta.errors).toBe(parsed.meta.total);
    expect(parsed.generated_at).toMatch(/Z$/);
    expect(parsed.results.map((r) => r.device_id)).toEqual(["ev-good", "no-such-device", "ice-rollback"]);
    const [good, missing, ice] = parsed.results;
    expect(Object.keys(good!).sort()).toEqual(["battery_health", "device_id", "eol_summary", "fleet_risk", "green_fleet", "vehicle_health"]);
    expect(good!.fleet_risk?.device_count).toBe(1);
    expect(good!.vehicle_health?.device_id).toBe("ev-good");
    expect(missing).toEqual({ device_id: "no-such-device", error: { error: "not_found", message: "No device no-such-device." } });
    expect(ice!.eol_summary?.condition_grade).toBe("F");
  });

  it("answers only the requested scores, and another tenant's device is an item error", async () => {
    const { res, body } = await post("/api/v1/scores/batch", b.key, { device_ids: ["shared-id", "ev-good"], scores: ["battery_health", "vehicle_health"] });
    expect(res.status).toBe(200);
    const parsed = scoresBatchResponseSchema.parse(body);
    expect(parsed.meta).toEqual({ total: 2, processed: 1, errors: 1, scores_requested: ["vehicle_health", "battery_health"] });
    expect(Object.keys(parsed.results[0]!).sort()).toEqual(["battery_health", "device_id", "vehicle_health"]);
    expect(parsed.results[0]!.battery_health?.data_quality.soh_pct).toBe(50);
    expect(parsed.results[1]!.error?.error).toBe("not_found");
  });

  it("refuses empty, oversized, invalid score names and invalid JSON with 400", async () => {
    const bad: unknown[] = [
      { device_ids: [] },
      { device_ids: Array.from({ length: 101 }, (_, i) => `d-${i}`) },
      { device_ids: ["ev-good"], scores: ["vehicle_health", "nope"] },
      {},
      { device_ids: "ev-good" },
      "{not json",
      "[]",
    ];
    for (const payload of bad) {
      const { res, body } = await post("/api/v1/scores/batch", a.key, payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(body.error).toBe("invalid_request");
    }
    const ok = await post("/api/v1/scores/batch", a.key, { device_ids: Array.from({ length: 100 }, (_, i) => `d-${i}`), scores: ["eol_summary"] });
    expect(ok.res.status).toBe(200);
    expect(ok.body.meta).toMatchObject({ total: 100, processed: 0, errors: 100 });
  });
});

describe("POST /tas/batch", () => {
  it("grades each device, reporting failures per item", async () => {
    const { res, body } = await post("/api/v1/tas/batch", a.key, { device_ids: ["ev-good", "ev-low", "ghost", "ice-rollback"] });
    expect(res.status).toBe(200);
    const parsed = tasBatchResponseSchema.strict().parse(body);
    expect(parsed.meta).toEqual({ total: 4, scored: 3, errors: 1, score_version: expect.any(String) });
    expect(parsed.generated_at).toMatch(/Z$/);
    const byId = Object.fromEntries(parsed.results.map((r) => [r.device_id, r]));
    expect(byId["ev-good"]).toMatchObject({ error: null, tas_grade: expect.stringMatching(/^[A-E]$/), confidence: expect.any(String) });
    expect(byId["ev-low"]).toMatchObject({ tas_grade: "F", error: null });
    expect(byId["ice-rollback"]).toMatchObject({ tas_grade: "F", error: null });
    expect(byId.ghost).toEqual({ device_id: "ghost", tas_grade: null, tas_score: null, confidence: null, error: "No device ghost." });
    // The single endpoint and the batch agree.
    const single = tasScoreSchema.parse((await get("/api/v1/tas/ev-good", a.key)).body);
    expect(byId["ev-good"]?.tas_score).toBe(single.tas_score);
  });

  it("refuses 0 and 1001 device ids with 400 and accepts 1000", async () => {
    for (const n of [0, 1001]) {
      const { res, body } = await post("/api/v1/tas/batch", a.key, { device_ids: Array.from({ length: n }, (_, i) => `d-${i}`) });
      expect(res.status, `n=${n}`).toBe(400);
      expect(body.error).toBe("invalid_request");
    }
    expect((await post("/api/v1/tas/batch", a.key, "nope")).res.status).toBe(400);
    const ok = await post("/api/v1/tas/batch", bulk.key, { device_ids: Array.from({ length: 1000 }, (_, i) => `bulk-${i}`) });
    expect(ok.res.status).toBe(200);
    expect(ok.body.meta).toMatchObject({ total: 1000, scored: 50, errors: 950 });
  });
});

describe("device input loaders", () => {
  const LOADERS = { tas: loadTasInputs, vehicle_health: loadVehicleHealthInputs, battery_health: loadBatterySnapshotInputs, fleet_scores: loadDeviceFleetInputs };

  it("each take one round trip, for 1 and for 50 devices alike", async () => {
    for (const [name, load] of Object.entries(LOADERS)) {
      const count = async (ids: string[]) => {
        const counting = countingDb(tdb.handle.db);
        const map = await load({ ctx: { db: counting.db, tenantId: bulk.tenantId }, deviceIds: ids, now: new Date() });
        return { n: counting.statements(), size: map.size };
      };
      expect(await count(["bulk-0"]), name).toEqual({ n: 1, size: 1 });
      expect(await count(Array.from({ length: 50 }, (_, i) => `bulk-${i}`)), name).toEqual({ n: 1, size: 50 });
    }
  });

  it("never return another tenant's device", async () => {
    for (const [name, load] of Object.entries(LOADERS)) {
      const map = await load({ ctx: { db: tdb.handle.db, tenantId: b.tenantId }, deviceIds: ["shared-id", "ev-good"], now: new Date() });
      expect([...map.keys()], name).toEqual(["shared-id"]);
    }
    const tas = await loadTasInputs({ ctx: { db: tdb.handle.db, tenantId: b.tenantId }, deviceIds: ["shared-id"], now: new Date() });
    expect(tas.get("shared-id")?.battery.soh_pct).toBe(50);
  });

  it("the scores batch runs only the loaders its scores need: TAS-like requests never load the battery snapshot", async () => {
    const counting = countingDb(tdb.handle.db);
    const { scoresBatch } = await import("@/lib/scores/score-batch");
    const { tasBatch } = await import("@/lib/scores/tas-batch");
    const ctx = { db: counting.db, tenantId: bulk.tenantId, isSandbox: false, log: rootLogger() };
    const ids = Array.from({ length: 40 }, (_, i) => `bulk-${i}`);
    await tasBatch({ ctx, input: { device_ids: ids } });
    expect(counting.statements()).toBe(1);
    counting.reset();
    await scoresBatch({ ctx, input: { device_ids: ids, scores: ["vehicle_health", "eol_summary"] } });
    expect(counting.statements()).toBe(1);
    counting.reset();
    await scoresBatch({ ctx, input: { device_ids: ids } });
    expect(counting.statements()).toBe(3);
  });
});

describe("batch request bodies", () => {
  it("answer 413 above 1 MiB on both batch endpoints", async () => {
    const huge = { device_ids: ["x"], padding: "p".repeat(1024 * 1024) };
    for (const path of ["/api/v1/scores/batch", "/api/v1/tas/batch"]) {
      const { res, body } = await post(path, a.key, huge);
      expect(res.status, path).toBe(413);
      expect(body).toMatchObject({ error: "payload_too_large" });
    }
  });
});
