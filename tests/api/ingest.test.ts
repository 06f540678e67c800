import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { alerts, devices, fleetSnapshot, telemetry, tenants } from "@/lib/db/schema";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { tenantRowCounts } from "../helpers/counts";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
const MIN = 60_000;
const base = Date.now() - 60 * MIN;
const at = (minutes: number) => new Date(base + minutes * MIN).toISOString();
let vinSeq = 0;
const newVin = () => `WVWZZZ1KZ${String(++vinSeq).padStart(8, "0")}`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db);
  await tdb.handle.db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "sandbox-secret" }).onConflictDoNothing();
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

function post(body: unknown, opts: { key?: string; headers?: Record<string, string>; raw?: string } = {}) {
  return app.fetch("/api/v1/oem/ingest", {
    method: "POST",
    key: opts.key ?? t.key,
    headers: { "content-type": "application/json", ...opts.headers },
    body: opts.raw ?? JSON.stringify(body),
  });
}

const counts = () => tenantRowCounts(tdb.handle.db, t.tenantId);

async function expectNothingStored(run: () => Promise<Response>, status: number, code: string) {
  const before = await counts();
  const res = await run();
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: string; details?: { field: string }[] };
  expect(body.error).toBe(code);
  expect(await counts()).toEqual(before);
  return body;
}

describe("POST /api/v1/oem/ingest: refusals store nothing", () => {
  it("401 without a key, 403 without ingest:write", async () => {
    await expectNothingStored(() => post({ vehicles: [{ vin: newVin() }] }, { key: "" }), 401, "unauthorized");
    const narrow = await createTenantWithKey(tdb.handle.db, { scopes: ["fleet:read"] });
    const res = await post({ vehicles: [{ vin: newVin() }] }, { key: narrow.key });
    expect(res.status).toBe(403);
    expect(await tenantRowCounts(tdb.handle.db, narrow.tenantId)).toEqual({ devices: 0, snapshots: 0, telemetry: 0, alerts: 0, drivingEvents: 0 });
  });

  it("400 for invalid JSON, a non-object, a missing or empty vehicles array", async () => {
    await expectNothingStored(() => post(null, { raw: "{not json" }), 400, "invalid_request");
    await expectNothingStored(() => post([1, 2]), 400, "invalid_request");
    const missing = await expectNothingStored(() => post({ source: "x" }), 400, "invalid_request");
    expect(missing.details?.[0]?.field).toBe("vehicles");
    await expectNothingStored(() => post({ vehicles: [] }), 400, "invalid_request");
  });

  it("400 naming the index and field of every invalid record, and nothing of the valid ones is stored", async () => {
    const body = await expectNothingStored(
      () =>
        post({
          vehicles: [
            { vin: newVin(), timestamp: at(1), soc_percent: 50 },
            { vin: newVin(), timestamp: at(1), soc_percent: 150 },
            { timestamp: at(1) },
            { vin: newVin(), timestamp: "yesterday" },
            { vin: newVin(), dtc_codes: ["NOPE"] },
            { vin: newVin(), raw_data: { vehicle: { powertrain: "STEAM" } } },
          ],
        }),
      400,
      "invalid_request",
    );
    expect(body.details?.map((d) => d.field)).toEqual([
      "vehicles.1.soc_percent",
      "vehicles.2.vin",
      "vehicles.3.timestamp",
      "vehicles.4.dtc_codes.0",
      "vehicles.5.raw_data.vehicle.powertrain",
    ]);
  });

  it("400 for a timestamp far in the future", async () => {
    const body = await expectNothingStored(() => post({ vehicles: [{ vin: newVin(), timestamp: new Date(Date.now() + 3_600_000).toISOString() }] }), 400, "invalid_request");
    expect(body.details?.[0]?.field).toBe("vehicles.0.timestamp");
  });

  it("413 beyond 10,000 vehicles or 10 MiB", async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ vin: `VIN${i}` }));
    await expectNothingStored(() => post({ vehicles: many }), 413, "payload_too_large");
    const padding = "x".repeat(10 * 1024 * 1024);
    await expectNothingStored(() => post({ vehicles: [{ vin: newVin(), raw_data: { padding } }] }), 413, "payload_too_large");
  });
});

describe("storage", () => {
  it("stores devices, history and snapshot; new devices appear in GET /fleet with status and alert level", async () => {
    const vin = newVin();
    const res = await post({
      source: "oem-x",
      vehicles: [
        { vin, timestamp: at(1), speed_kmh: 50, odometer_km: 1000, soc_percent: 80, lat: 60.17, lon: 24.94, raw_data: { ambient_temp_c: -4.5 } },
        { vin, timestamp: at(2), speed_kmh: 62, odometer_km: 1001, soc_percent: 79, lat: 60.18, lon: 24.95, raw_data: { ambient_temp_c: -4 } },
        { vin: newVin(), device_id: "van-7", timestamp: at(2), speed_kmh: 0, fuel_level_pct: 40, raw_data: { ignition: true } },
      ],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: true, device_count: 2, tenant_id: t.tenantId });

    const fleet = (await (await app.fetch("/api/v1/fleet?limit=500", { key: t.key })).json()) as { data: Record<string, unknown>[] };
    const byId = Object.fromEntries(fleet.data.map((d) => [d.device_id, d]));
    expect(byId[`oem-${vin}`]).toMatchObject({ status: "driving", ignition: 1, vehicle_speed: 62, weather_temp: -4, lat: 60.18, updated_at: at(2), device_name: vin });
    expect(byId["van-7"]).toMatchObject({ status: "idle", ignition: 1, alert_level: "none" });

    const [dev] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, `oem-${vin}`)));
    // The stored odometer maximum rises to a reading once the next one confirms it (not a one-sample
    // spike, docs/methodology/alerts.md "Outlier"): 1000 is confirmed by 1001; 1001 waits for the next batch.
    expect(dev).toMatchObject({ vin, powertrain: "BEV", powertrainSource: "inferred", odometerMaxKm: 1000 });
    const [van] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, "van-7")));
    expect(van).toMatchObject({ powertrain: "ICE", powertrainSource: "inferred" });
    const history = await tdb.handle.db
      .select()
      .from(telemetry)
      .where(and(eq(telemetry.tenantId, t.tenantId), eq(telemetry.deviceId, `oem-${vin}`)));
    expect(history).toHaveLength(2);
    expect(history.every((h) => h.receivedAt.getTime() >= h.ts.getTime())).toBe(true);
  });

  it("stores awkward strings exactly (quotes, backslashes, newlines, braces, unicode)", async () => {
    const vin = newVin();
    const raw_data = { note: 'say "hi"\\ {a,b}\nnext line', emoji: "⚡ Jyväskylä", nested: { list: [null, "NULL", ""] }, vehicle: { make: 'Citroën "ë"', model: "C\\4" } };
    const res = await post({ vehicles: [{ vin, device_id: "dev:with.odd-chars_1", timestamp: at(3), charging_status: 'weird"\tstatus', raw_data }] });
    expect(res.status).toBe(200);
    const [snap] = await tdb.handle.db
      .select()
      .from(fleetSnapshot)
      .where(and(eq(fleetSnapshot.tenantId, t.tenantId), eq(fleetSnapshot.deviceId, "dev:with.odd-chars_1")));
    expect(snap?.rawData).toEqual(raw_data);
    expect(snap?.chargingStatus).toBe('weird"\tstatus');
    const [dev] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, "dev:with.odd-chars_1")));
    expect(dev?.name).toBe('Citroën "ë" C\\4');
  });

  it("is idempotent: re-sending a payload changes nothing", async () => {
    const vin = newVin();
    const payload = { vehicles: [1, 2, 3].map((m) => ({ vin, timestamp: at(10 + m), speed_kmh: 30, odometer_km: 2000 + m, dtc_codes: ["P0420"] })) };
    expect((await post(payload)).status).toBe(200);
    const first = await counts();
    const snap = await tdb.handle.db
      .select()
      .from(fleetSnapshot)
      .where(eq(fleetSnapshot.deviceId, `oem-${vin}`));
    expect((await post(payload)).status).toBe(200);
    expect(await counts()).toEqual(first);
    expect(
      await tdb.handle.db
        .select()
        .from(fleetSnapshot)
        .where(eq(fleetSnapshot.deviceId, `oem-${vin}`)),
    ).toEqual(snap);
  });

  it("keeps the newest state when records arrive out of order, and every record in history", async () => {
    const vin = newVin();
    expect((await post({ vehicles: [{ vin, timestamp: at(30), speed_kmh: 80, odometer_km: 500 }] })).status).toBe(200);
    expect(
      (
        await post({
          vehicles: [
            { vin, timestamp: at(20), speed_kmh: 0, odometer_km: 490 },
            { vin, timestamp: at(25), speed_kmh: 10, odometer_km: 495 },
          ],
        })
      ).status,
    ).toBe(200);
    const [snap] = await tdb.handle.db
      .select()
      .from(fleetSnapshot)
      .where(eq(fleetSnapshot.deviceId, `oem-${vin}`));
    expect(snap?.ts.toISOString()).toBe(at(30));
    expect(snap?.speedKmh).toBe(80);
    const history = await tdb.handle.db
      .select({ ts: telemetry.ts })
      .from(telemetry)
      .where(eq(telemetry.deviceId, `oem-${vin}`));
    expect(history).toHaveLength(3);
    // Late records that are merely older are not odometer manipulation.
    const open = await tdb.handle.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.deviceId, `oem-${vin}`), eq(alerts.agent, "odometer_integrity")));
    expect(open).toHaveLength(0);
  });

  it("upserts master data: newer values overwrite, older ones only fill gaps; declared powertrain beats inference", async () => {
    const vin = newVin();
    const v = (minutes: number, vehicle: Record<string, unknown>) => ({ vin, timestamp: at(minutes), soc_percent: 60, raw_data: { vehicle } });
    expect((await post({ vehicles: [v(40, { make: "Skoda", model: "Enyaq 85", powertrain: "BEV", battery_kwh: 77 })] })).status).toBe(200);
    expect((await post({ vehicles: [v(35, { make: "Old", contract_km: 120000, asset_class: "light_commercial" })] })).status).toBe(200);
    expect((await post({ vehicles: [v(45, { model: "Enyaq 85x", lease_start: "2025-03-01", lease_months: 36 })] })).status).toBe(200);
    const [dev] = await tdb.handle.db
      .select()
      .from(devices)
      .where(eq(devices.deviceId, `oem-${vin}`));
    expect(dev).toMatchObject({
      name: "Skoda Enyaq 85x",
      make: "Skoda",
      model: "Enyaq 85x",
      powertrain: "BEV",
      powertrainSource: "master_data",
      batteryKwh: 77,
      contractKm: 120000,
      assetClass: "light_commercial",
      leaseStart: "2025-03-01",
      leaseMonths: 36,
    });
  });
});

describe("signatures", () => {
  let signed: Awaited<ReturnType<typeof createTenantWithKey>>;
  beforeAll(async () => {
    signed = await createTenantWithKey(tdb.handle.db);
  });
  const hmac = (data: string) => createHmac("sha256", Buffer.from(signed.ingestSecret, "utf8")).update(data).digest("hex");

  it("accepts a valid header signature over the raw bytes and refuses a wrong one", async () => {
    const raw = JSON.stringify({ vehicles: [{ vin: newVin(), timestamp: at(5) }] }, null, 2);
    expect((await post(null, { key: signed.key, raw, headers: { "x-fdp-signature": `sha256=${hmac(raw)}` } })).status).toBe(200);
    const before = await tenantRowCounts(tdb.handle.db, signed.tenantId);
    for (const header of [`sha256=${hmac(raw + " ")}`, hmac(raw), "sha256=zz", `sha1=${hmac(raw)}`]) {
      const res = await post(null, { key: signed.key, raw, headers: { "x-fdp-signature": header } });
      expect(res.status, header).toBe(401);
      expect(await res.json()).toMatchObject({ error: "invalid_signature" });
    }
    expect(await tenantRowCounts(tdb.handle.db, signed.tenantId)).toEqual(before);
  });

  it("accepts a valid body signature over the RFC 8785 canonical JSON and refuses a wrong one", async () => {
    const body = { source: "oem", vehicles: [{ vin: newVin(), timestamp: at(6), speed_kmh: 1.0, raw_data: { z: 1, a: [true, null] } }] };
    const good = { ...body, hmac_signature: hmac(canonicalize(body)!) };
    // Key order and whitespace do not matter: the canonical form is signed.
    const reordered = `{"vehicles":${JSON.stringify(body.vehicles)},   "hmac_signature":"${good.hmac_signature}","source":"oem"}`;
    expect((await post(null, { key: signed.key, raw: reordered })).status).toBe(200);
    const before = await tenantRowCounts(tdb.handle.db, signed.tenantId);
    const tampered = { ...good, source: "other" };
    const res = await post(tampered, { key: signed.key });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_signature" });
    expect(await tenantRowCounts(tdb.handle.db, signed.tenantId)).toEqual(before);
  });

  it("refuses unsigned payloads once the tenant requires signatures", async () => {
    await updateTenant({ ctx: { db: tdb.handle.db }, input: { tenantId: signed.tenantId, requireSignedIngest: true } });
    const raw = JSON.stringify({ vehicles: [{ vin: newVin() }] });
    const before = await tenantRowCounts(tdb.handle.db, signed.tenantId);
    const res = await post(null, { key: signed.key, raw });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "invalid_signature" });
    expect(await tenantRowCounts(tdb.handle.db, signed.tenantId)).toEqual(before);
    expect((await post(null, { key: signed.key, raw, headers: { "x-fdp-signature": `sha256=${hmac(raw)}` } })).status).toBe(200);
  });
});

describe('timestamped signatures (X-FDP-Signature: t=<unix seconds>,sha256=<hex over "<t>.<raw body>">)', () => {
  let ts: Awaited<ReturnType<typeof createTenantWithKey>>;
  beforeAll(async () => {
    ts = await createTenantWithKey(tdb.handle.db);
  });
  const nowS = () => Math.floor(Date.now() / 1000);
  const signAt = (t: number, raw: string) => `t=${t},sha256=${createHmac("sha256", Buffer.from(ts.ingestSecret, "utf8")).update(`${t}.${raw}`).digest("hex")}`;
  const send = (raw: string, signature?: string) => post(null, { key: ts.key, raw, headers: signature ? { "x-fdp-signature": signature } : {} });
  const tsCounts = () => tenantRowCounts(tdb.handle.db, ts.tenantId);
  const telemetryRows = async (vin: string) =>
    (
      await tdb.handle.db
        .select()
        .from(telemetry)
        .where(and(eq(telemetry.tenantId, ts.tenantId), eq(telemetry.deviceId, `oem-${vin}`)))
    ).length;

  it("accepts a fresh timestamp and refuses one more than 300 s away (401 invalid_signature, nothing stored)", async () => {
    const raw = JSON.stringify({ vehicles: [{ vin: newVin(), timestamp: at(7), speed_kmh: 3 }] });
    expect((await send(raw, signAt(nowS(), raw))).status).toBe(200);
    const before = await tsCounts();
    for (const t of [nowS() - 400, nowS() + 400]) {
      const res = await send(raw, signAt(t, raw));
      expect(res.status, String(t)).toBe(401);
      expect(await res.json()).toMatchObject({ error: "invalid_signature" });
    }
    expect(await tsCounts()).toEqual(before);
  });

  it("a replay of the same signed request within the window stores nothing again: records without timestamps are not doubled", async () => {
    const vin = newVin();
    // No record timestamp: each accepted request stores the records at its arrival time (the issue 28 finding).
    const raw = JSON.stringify({ vehicles: [{ vin, speed_kmh: 12, odometer_km: 1000 }] });
    const signature = signAt(nowS(), raw);
    expect((await send(raw, signature)).status).toBe(200);
    expect(await telemetryRows(vin)).toBe(1);
    const before = await tsCounts();
    const replays = await Promise.all([send(raw, signature), send(raw, signature), send(raw, signature)]);
    for (const res of replays) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "invalid_signature", message: expect.stringMatching(/already used/) });
    }
    expect(await tsCounts()).toEqual(before);
    expect(await telemetryRows(vin)).toBe(1);
    // The same body signed again (a new t) is a new request.
    expect((await send(raw, signAt(nowS() + 1, raw))).status).toBe(200);
  });

  it("concurrent copies of one new signed request: exactly one is stored", async () => {
    const vin = newVin();
    const raw = JSON.stringify({ vehicles: [{ vin, speed_kmh: 5 }] });
    const signature = signAt(nowS(), raw);
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(raw, signature)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    expect(await telemetryRows(vin)).toBe(1);
  });

  it("a refused request (invalid payload) does not use up its signature", async () => {
    const invalid = JSON.stringify({ vehicles: [{ vin: "" }] });
    const signature = signAt(nowS(), invalid);
    expect((await send(invalid, signature)).status).toBe(400);
    expect((await send(invalid, signature)).status).toBe(400);
  });

  it("the older sha256= form is still accepted, until the tenant requires timestamped signatures", async () => {
    const raw = JSON.stringify({ vehicles: [{ vin: newVin(), timestamp: at(8) }] });
    const plain = `sha256=${createHmac("sha256", Buffer.from(ts.ingestSecret, "utf8")).update(raw).digest("hex")}`;
    expect((await send(raw, plain)).status).toBe(200);
    await updateTenant({ ctx: { db: tdb.handle.db }, input: { tenantId: ts.tenantId, requireSignedIngest: "timestamped" } });
    try {
      const [row] = await tdb.handle.db.select().from(tenants).where(eq(tenants.id, ts.tenantId));
      expect(row).toMatchObject({ requireSignedIngest: true, requireTimestampedSignature: true });
      const raw2 = JSON.stringify({ vehicles: [{ vin: newVin(), timestamp: at(9) }] });
      const before = await tsCounts();
      for (const sig of [undefined, `sha256=${createHmac("sha256", Buffer.from(ts.ingestSecret, "utf8")).update(raw2).digest("hex")}`]) {
        const res = await send(raw2, sig);
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ error: "invalid_signature", message: expect.stringMatching(/timestamped/) });
      }
      expect(await tsCounts()).toEqual(before);
      expect((await send(raw2, signAt(nowS(), raw2))).status).toBe(200);
    } finally {
      await updateTenant({ ctx: { db: tdb.handle.db }, input: { tenantId: ts.tenantId, requireSignedIngest: false } });
    }
    const [row] = await tdb.handle.db.select().from(tenants).where(eq(tenants.id, ts.tenantId));
    expect(row).toMatchObject({ requireSignedIngest: false, requireTimestampedSignature: false });
  });
});

describe("sandbox", () => {
  it("validates, answers a mock acceptance and stores nothing", async () => {
    const before = await tenantRowCounts(tdb.handle.db, SANDBOX_TENANT_ID);
    const res = await post({ vehicles: [{ vin: newVin() }, { vin: "SAME" }, { vin: "SAME", timestamp: at(1) }] }, { key: SANDBOX_KEY });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: true, device_count: 2, tenant_id: SANDBOX_TENANT_ID, _sandbox: true });
    expect(await tenantRowCounts(tdb.handle.db, SANDBOX_TENANT_ID)).toEqual(before);
    const bad = await post({ vehicles: [{ vin: "X", soc_percent: -1 }] }, { key: SANDBOX_KEY });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_request", _sandbox: true });
  });
});

describe("detectors through ingest", () => {
  const openAlerts = async (deviceId: string) =>
    tdb.handle.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.tenantId, t.tenantId), eq(alerts.deviceId, deviceId), eq(alerts.acknowledged, false)));

  it("raise each agent's alert on its scenario, visible in GET /alerts and in the fleet's alert_level", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const recs = [
      { vin, timestamp: at(50), speed_kmh: 0, soc_percent: 4, battery_voltage: 12.5, odometer_km: 10_000, dtc_codes: ["P0301"] },
      { vin, timestamp: at(51), speed_kmh: 140, odometer_km: 10_002 },
      { vin, timestamp: at(52), speed_kmh: 145, odometer_km: 10_004 },
      { vin, timestamp: at(53), speed_kmh: 0, odometer_km: 9_000 },
    ];
    expect((await post({ vehicles: recs })).status).toBe(200);
    const agents = new Set((await openAlerts(id)).map((a) => a.agent));
    expect(agents).toEqual(new Set(["battery", "diagnostics", "driving", "odometer_integrity"]));
    const list = (await (await app.fetch("/api/v1/alerts?limit=200&severity=CRITICAL", { key: t.key })).json()) as {
      data: { device_id: string; technical_data: Record<string, unknown> }[];
    };
    const mine = list.data.filter((a) => a.device_id === id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => typeof a.technical_data.detector_version === "string")).toBe(true);
    const fleet = (await (await app.fetch("/api/v1/fleet?limit=500", { key: t.key })).json()) as { data: { device_id: string; alert_level: string }[] };
    expect(fleet.data.find((d) => d.device_id === id)?.alert_level).toBe("critical");
  });

  it("raise a charging alert on an implausible charging power", async () => {
    const vin = newVin();
    const recs = [{ vin, timestamp: at(54), speed_kmh: 0, soc_percent: 40, charging_status: "charging", raw_data: { charging_power_kw: 900 } }];
    expect((await post({ vehicles: recs })).status).toBe(200);
    expect((await openAlerts(`oem-${vin}`)).map((a) => a.agent)).toContain("charging");
  });

  it("stay quiet on normal driving data", async () => {
    const vin = newVin();
    const recs = Array.from({ length: 12 }, (_, i) => ({
      vin,
      timestamp: at(i * 5),
      speed_kmh: i % 4 === 0 ? 0 : 55,
      soc_percent: 80 - i,
      battery_voltage: i % 4 === 0 ? 12.6 : 14.1,
      odometer_km: 3000 + i * 4,
      raw_data: { ambient_temp_c: 2 },
    }));
    expect((await post({ vehicles: recs })).status).toBe(200);
    expect(await openAlerts(`oem-${vin}`)).toHaveLength(0);
  });

  it("judge a batch with the master data as the upsert merged it: a declaration beats a stored inference, an older one does not overwrite", async () => {
    // Powertrain: inferred BEV first; then a batch declares PHEV: its low SOC is judged as a PHEV's (one level lower).
    const vin = newVin();
    const id = `oem-${vin}`;
    expect((await post({ vehicles: [{ vin, timestamp: at(10), soc_percent: 60 }] })).status).toBe(200);
    expect((await post({ vehicles: [{ vin, timestamp: at(20), speed_kmh: 0, soc_percent: 4, fuel_level_pct: 50, raw_data: { vehicle: { powertrain: "PHEV" } } }] })).status).toBe(
      200,
    );
    const lowSoc = (await openAlerts(id)).filter((a) => a.dedupeKey === "battery:low_soc");
    expect(lowSoc.map((a) => [a.severity, a.technicalData.powertrain])).toEqual([["WARNING", "PHEV"]]);

    // Battery size: 77 kWh declared; a late record declaring 40 kWh does not replace it, so 200 kW is 2.6C, not 5C.
    const vin2 = newVin();
    const id2 = `oem-${vin2}`;
    expect((await post({ vehicles: [{ vin: vin2, timestamp: at(30), soc_percent: 50, raw_data: { vehicle: { powertrain: "BEV", battery_kwh: 77 } } }] })).status).toBe(200);
    const late = { vin: vin2, timestamp: at(25), speed_kmh: 0, soc_percent: 50, charging_status: "charging", raw_data: { charging_power_kw: 200, vehicle: { battery_kwh: 40 } } };
    expect((await post({ vehicles: [late] })).status).toBe(200);
    const [dev] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, id2)));
    expect(dev?.batteryKwh).toBe(77);
    expect((await openAlerts(id2)).map((a) => a.dedupeKey)).not.toContain("charging:high_c_rate");
    // The same record on a device whose stored size is 40 kWh is 5C: the rule itself fires.
    const vin3 = newVin();
    expect((await post({ vehicles: [{ ...late, vin: vin3 }] })).status).toBe(200);
    expect((await openAlerts(`oem-${vin3}`)).map((a) => a.dedupeKey)).toContain("charging:high_c_rate");
  });

  it("do not raise the same open alert twice, nor again while the code stays active; a code that returns is new", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const dtc = (m: number, codes: string[]) => ({ vin, timestamp: at(m), speed_kmh: 0, dtc_codes: codes });
    const diagnostics = async () => (await openAlerts(id)).filter((a) => a.agent === "diagnostics");
    expect((await post({ vehicles: [dtc(56, ["P0420"])] })).status).toBe(200);
    expect((await post({ vehicles: [dtc(57, ["P0420"]), dtc(57.5, ["P0420", "P0171"])] })).status).toBe(200);
    expect((await diagnostics()).map((a) => a.dedupeKey).sort()).toEqual(["diagnostics:P0171", "diagnostics:P0420"]);
    await tdb.handle.db.update(alerts).set({ acknowledged: true, acknowledgedBy: "ops@example.com", acknowledgedAt: new Date() }).where(eq(alerts.deviceId, id));
    expect((await post({ vehicles: [dtc(58, ["P0420"])] })).status).toBe(200);
    expect(await diagnostics()).toHaveLength(0);
    expect((await post({ vehicles: [dtc(59, []), dtc(59.5, ["P0420"])] })).status).toBe(200);
    expect((await diagnostics()).map((a) => a.dedupeKey)).toEqual(["diagnostics:P0420"]);
  });
});
