import { createHmac } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { devices, telemetry, tenants } from "@/lib/db/schema";
import { tenantRowCounts } from "../helpers/counts";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * `POST /oem/ingest/traccar` and `/oem/ingest/tesla` (CONTRACT "Feeds", docs/feeds.md) end to end: a
 * source's own documents in, the fleet record and history the CONTRACT says out (km/h, km, SOC,
 * position, time), with endpoint 16's refusals, signatures, sandbox and idempotence.
 */

let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
const MIN = 60_000;
const base = Date.now() - 60 * MIN;
const at = (minutes: number) => new Date(base + minutes * MIN).toISOString();

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

function post(feed: "traccar" | "tesla", body: unknown, opts: { key?: string; headers?: Record<string, string> } = {}) {
  return app.fetch(`/api/v1/oem/ingest/${feed}`, {
    method: "POST",
    key: opts.key ?? t.key,
    headers: { "content-type": "application/json", ...opts.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A position as Traccar's JSON forwarding posts it (org.traccar.model.Position / Device). */
function traccarPosition(uniqueId: string, minutes: number, over: { speed?: number; odometer?: number; attributes?: Record<string, unknown> } = {}) {
  return {
    position: {
      protocol: "teltonika",
      fixTime: at(minutes),
      deviceTime: at(minutes),
      valid: true,
      outdated: false,
      latitude: 60.17,
      longitude: 24.94,
      speed: over.speed ?? 27,
      attributes: { ignition: true, odometer: over.odometer ?? 18_250_400, power: 13.9, ...over.attributes },
    },
    device: { uniqueId, name: "Van 12", model: "Transit Custom", category: "van" },
  };
}

/** A Fleet Telemetry payload in protobuf JSON. */
function teslaPayload(vin: string, minutes: number, data: { key: string; value: Record<string, unknown> }[]) {
  return { vin, createdAt: at(minutes), data };
}

const fleetRecord = async (deviceId: string) => {
  const res = await app.fetch("/api/v1/fleet", { key: t.key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown>[] }).data.find((r) => r.device_id === deviceId);
};
const history = (deviceId: string) =>
  tdb.handle.db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.tenantId, t.tenantId), eq(telemetry.deviceId, deviceId)))
    .orderBy(asc(telemetry.ts));
const counts = () => tenantRowCounts(tdb.handle.db, t.tenantId);

describe("POST /api/v1/oem/ingest/traccar", () => {
  it("stores knots as km/h and metres as km under traccar-<uniqueId>, with no VIN invented", async () => {
    const res = await post("traccar", traccarPosition("356307042441013", 0));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: true, device_count: 1, tenant_id: t.tenantId });

    expect(await fleetRecord("traccar-356307042441013")).toMatchObject({
      device_name: "Transit Custom",
      vehicle_speed: 50.004,
      battery_voltage: 13.9,
      lat: 60.17,
      lon: 24.94,
      ignition: 1,
      status: "driving",
      updated_at: at(0),
    });
    const [row] = await history("traccar-356307042441013");
    expect(row).toMatchObject({ speedKmh: 50.004, odometerKm: 18250.4, ts: new Date(at(0)) });
    const [device] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, "traccar-356307042441013")));
    expect(device).toMatchObject({ vin: null, model: "Transit Custom", assetClass: "light_commercial" });
  });

  it("takes an array, stores a re-sent position once, and keeps a VIN a later position reports", async () => {
    const positions = [traccarPosition("1001", 1), traccarPosition("1001", 2, { attributes: { vin: "WF0XXXTTGXKA12345" } }), traccarPosition("1002", 1)];
    const first = await post("traccar", positions);
    expect(await first.json()).toMatchObject({ accepted: true, device_count: 2 });
    const before = await counts();
    expect((await post("traccar", positions)).status).toBe(200);
    expect(await counts()).toEqual(before);
    expect((await history("traccar-1001")).map((r) => r.ts.toISOString())).toEqual([at(1), at(2)]);
    // A position without the attribute keeps the VIN a newer one reported.
    await post("traccar", traccarPosition("1001", 3));
    const [device] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, "traccar-1001")));
    expect(device?.vin).toBe("WF0XXXTTGXKA12345");
  });

  it("refuses a bad document with 400 naming Traccar's field, and stores nothing of the request", async () => {
    const before = await counts();
    const res = await post("traccar", [traccarPosition("2001", 1), traccarPosition("2002", 1, { speed: 400 })]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", details: [{ field: "1.position.speed", message: "must be at most 500 km/h (knots × 1.852 = km/h)" }] });
    const notNumber = await post("traccar", traccarPosition("2003", 1, { attributes: { power: "twelve" } }));
    expect(await notNumber.json()).toMatchObject({ details: [{ field: "position.attributes.power", message: "must be a number (volts)" }] });
    expect(await counts()).toEqual(before);
  });

  it("413 beyond 10,000 documents, 401 for a signature that does not verify, and the sandbox stores nothing", async () => {
    const before = await counts();
    const many = await post("traccar", `[${Array.from({ length: 10_001 }, () => "{}").join(",")}]`);
    expect(many.status).toBe(413);
    const body = JSON.stringify(traccarPosition("3001", 1));
    const bad = await post("traccar", body, { headers: { "x-fdp-signature": `sha256=${"0".repeat(64)}` } });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: string }).error).toBe("invalid_signature");
    const sandbox = await post("traccar", body, { key: SANDBOX_KEY });
    expect(await sandbox.json()).toMatchObject({ accepted: true, device_count: 1, tenant_id: SANDBOX_TENANT_ID });
    expect(await counts()).toEqual(before);
  });

  it("accepts a header signature over the raw body with the tenant's ingest secret", async () => {
    const body = JSON.stringify(traccarPosition("4001", 1));
    const t0 = Math.floor(Date.now() / 1000);
    const sig = createHmac("sha256", t.ingestSecret).update(`${t0}.${body}`).digest("hex");
    const res = await post("traccar", body, { headers: { "x-fdp-signature": `t=${t0},sha256=${sig}` } });
    expect(res.status).toBe(200);
    expect(await history("traccar-4001")).toHaveLength(1);
  });
});

describe("POST /api/v1/oem/ingest/tesla", () => {
  const vin = "5YJ3E7EB2KF123456";

  it("stores mph as km/h, miles as km, Soc as SOC under oem-<vin>, reading numbers sent as strings", async () => {
    const res = await post(
      "tesla",
      teslaPayload(vin, 5, [
        { key: "VehicleSpeed", value: { stringValue: "40.0" } },
        { key: "Odometer", value: { stringValue: "11340.25" } },
        { key: "Soc", value: { stringValue: "71.3" } },
        { key: "BatteryLevel", value: { stringValue: "69" } },
        { key: "Location", value: { locationValue: { latitude: 59.3293, longitude: 18.0686 } } },
        { key: "CarType", value: { carTypeValue: "CarTypeModel3" } },
        { key: "PackVoltage", value: { stringValue: "398.2" } },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await fleetRecord(`oem-${vin}`)).toMatchObject({ device_name: "Tesla Model 3", vehicle_speed: 64.37376, lat: 59.3293, lon: 18.0686, battery_voltage: null });
    const [row] = await history(`oem-${vin}`);
    expect(row).toMatchObject({ speedKmh: 64.37376, odometerKm: 18250.3633, socPct: 71.3, ts: new Date(at(5)) });
    expect((row?.rawData as { tesla: Record<string, unknown> }).tesla.PackVoltage).toEqual({ stringValue: "398.2" });
    const [device] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, `oem-${vin}`)));
    expect(device).toMatchObject({ vin, make: "Tesla", model: "Model 3", powertrain: "BEV" });
  });

  it("is the same vehicle as endpoint 16's record for the VIN", async () => {
    const res = await app.fetch("/api/v1/oem/ingest", {
      method: "POST",
      key: t.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ vehicles: [{ vin, timestamp: at(6), soc_percent: 70 }] }),
    });
    expect(res.status).toBe(200);
    expect((await history(`oem-${vin}`)).map((r) => r.socPct)).toEqual([71.3, 70]);
  });

  it("refuses a string that is not a number at its datum, and a payload without a VIN, storing nothing", async () => {
    const before = await counts();
    const res = await post("tesla", [teslaPayload(vin, 7, []), teslaPayload(vin, 8, [{ key: "Odometer", value: { stringValue: "n/a" } }])]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: "1.data.0.value.stringValue", message: "must be a number (miles)" }] });
    const noVin = await post("tesla", { createdAt: at(9), data: [] });
    expect(await noVin.json()).toMatchObject({ details: [{ field: "vin" }] });
    const ahead = await post("tesla", { ...teslaPayload(vin, 0, []), createdAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(await ahead.json()).toMatchObject({ details: [{ field: "createdAt", message: "is more than 10 minutes in the future" }] });
    expect(await counts()).toEqual(before);
  });
});
