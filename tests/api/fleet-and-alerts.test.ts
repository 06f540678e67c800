import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantWithKey, insertAlert, insertDevices } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let b: Awaited<ReturnType<typeof createTenantWithKey>>;
const HOUR = 3_600_000;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  a = await createTenantWithKey(db, { name: "Tenant A" });
  b = await createTenantWithKey(db, { name: "Tenant B" });
  const now = Date.now();
  await insertDevices(db, a.tenantId, [
    { deviceId: "a-driving", speedKmh: 72, ts: new Date(now - 60_000) },
    { deviceId: "a-idle", speedKmh: 0, ignition: 1, ts: new Date(now - 60_000) },
    { deviceId: "a-parked", speedKmh: 0, ignition: 0, ts: new Date(now - HOUR) },
    { deviceId: "a-charging", speedKmh: 0, chargingStatus: "charging", ts: new Date(now - 60_000) },
    { deviceId: "a-offline", speedKmh: 50, ts: new Date(now - 25 * HOUR) },
    { deviceId: "shared-id", weatherTemp: null },
  ]);
  // Tenant B holds the same device_id as A (allowed: unique per tenant only) plus its own.
  await insertDevices(db, b.tenantId, [{ deviceId: "shared-id" }, { deviceId: "b-only" }]);
  await insertAlert(db, a.tenantId, { deviceId: "a-driving", severity: "WARNING" });
  await insertAlert(db, a.tenantId, { deviceId: "a-driving", severity: "CRITICAL", acknowledged: true });
  await insertAlert(db, a.tenantId, { deviceId: "a-idle", severity: "INFO" });
  await insertAlert(db, a.tenantId, { deviceId: "a-parked", severity: "CRITICAL" });
  await insertAlert(db, b.tenantId, { deviceId: "shared-id", severity: "CRITICAL" });
  await insertAlert(db, b.tenantId, { deviceId: "b-only", severity: "INFO" });
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "1000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

async function getJson(path: string, key: string) {
  const res = await app.fetch(path, { key });
  return { res, body: (await res.json()) as Record<string, unknown> & { data: Record<string, unknown>[]; count: number; details?: { field: string }[] } };
}

describe("GET /api/v1/fleet", () => {
  it("lists only the caller's devices, with derived status, alert level and ignition", async () => {
    const { res, body } = await getJson("/api/v1/fleet", a.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(body.tenant_id).toBe(a.tenantId);
    expect(body.count).toBe(body.data.length);
    expect(body._sandbox).toBeUndefined();
    const byId = Object.fromEntries(body.data.map((r) => [r.device_id, r]));
    expect(Object.keys(byId).sort()).toEqual(["a-charging", "a-driving", "a-idle", "a-offline", "a-parked", "shared-id"]);
    expect(byId["a-driving"]).toMatchObject({ status: "driving", ignition: 1, alert_level: "warning", vehicle_speed: 72 });
    expect(byId["a-idle"]).toMatchObject({ status: "idle", ignition: 1, alert_level: "info" });
    expect(byId["a-parked"]).toMatchObject({ status: "parked", ignition: 0, alert_level: "critical" });
    expect(byId["a-charging"]).toMatchObject({ status: "charging", alert_level: "none" });
    expect(byId["a-offline"]).toMatchObject({ status: "offline" });
    // B's critical alert on its own `shared-id` must not leak into A's record of the same id.
    expect(byId["shared-id"]).toMatchObject({ alert_level: "none", weather_temp: null });
    expect(String(byId["a-driving"]?.updated_at)).toMatch(/Z$/);
  });

  it("tenant B sees only its devices", async () => {
    const { body } = await getJson("/api/v1/fleet", b.key);
    expect(body.data.map((r) => r.device_id).sort()).toEqual(["b-only", "shared-id"]);
    expect(body.data.find((r) => r.device_id === "shared-id")?.alert_level).toBe("critical");
  });

  it("honours limit and its bounds", async () => {
    expect((await getJson("/api/v1/fleet?limit=2", a.key)).body.count).toBe(2);
    expect((await getJson("/api/v1/fleet?limit=500", a.key)).res.status).toBe(200);
    for (const bad of ["0", "501", "-1", "abc", "1.5", "", "1e2", "10x"]) {
      const { res, body } = await getJson(`/api/v1/fleet?limit=${bad}`, a.key);
      expect(res.status, `limit=${bad}`).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.details).toEqual([expect.objectContaining({ field: "limit" })]);
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
  });

  it("ignores unknown query parameters", async () => {
    const { res, body } = await getJson("/api/v1/fleet?foo=bar&limit=3", a.key);
    expect(res.status).toBe(200);
    expect(body.count).toBe(3);
  });
});

describe("GET /api/v1/alerts", () => {
  it("lists the caller's alerts newest first with the full alert shape", async () => {
    const { res, body } = await getJson("/api/v1/alerts", a.key);
    expect(res.status).toBe(200);
    expect(body.count).toBe(4);
    expect(body.data.every((x) => String(x.device_id).startsWith("a-"))).toBe(true);
    const acked = body.data.find((x) => x.acknowledged === true);
    expect(acked).toMatchObject({ severity: "CRITICAL", acknowledged_by: "ops@example.com" });
    expect(String(acked?.acknowledged_at)).toMatch(/Z$/);
    for (const x of body.data.filter((y) => y.acknowledged === false)) {
      expect(x.acknowledged_by).toBeNull();
      expect(x.acknowledged_at).toBeNull();
    }
    expect(Object.keys(body.data[0] ?? {}).sort()).toEqual(
      ["acknowledged", "acknowledged_at", "acknowledged_by", "agent", "confidence", "created_at", "device_id", "id", "prediction", "severity", "technical_data"].sort(),
    );
  });

  it("filters by severity and acknowledged", async () => {
    const critical = (await getJson("/api/v1/alerts?severity=CRITICAL", a.key)).body;
    expect(critical.data.map((x) => x.severity)).toEqual(["CRITICAL", "CRITICAL"]);
    const open = (await getJson("/api/v1/alerts?acknowledged=false", a.key)).body;
    expect(open.count).toBe(3);
    expect(open.data.every((x) => x.acknowledged === false)).toBe(true);
    const both = (await getJson("/api/v1/alerts?severity=CRITICAL&acknowledged=true", a.key)).body;
    expect(both.count).toBe(1);
    expect(both.data[0]).toMatchObject({ severity: "CRITICAL", acknowledged: true });
    expect((await getJson("/api/v1/alerts?severity=warning", a.key)).body.count).toBe(1);
  });

  it("rejects malformed filters and limits with 400", async () => {
    for (const q of ["limit=0", "limit=201", "limit=x", "severity=BOGUS", "acknowledged=maybe", "acknowledged=1"]) {
      const { res, body } = await getJson(`/api/v1/alerts?${q}`, a.key);
      expect(res.status, q).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.details?.[0]?.field).toBe(q.split("=")[0]);
    }
    expect((await getJson("/api/v1/alerts?limit=200", a.key)).res.status).toBe(200);
  });

  it("never shows another tenant's alerts", async () => {
    const { body } = await getJson("/api/v1/alerts", b.key);
    expect(body.count).toBe(2);
    expect(body.tenant_id).toBe(b.tenantId);
  });
});

describe("unknown /api paths", () => {
  it("answer the JSON 404 envelope", async () => {
    const res = await app.fetch("/api/v1/nothing-here", { key: a.key });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("unsupported methods", () => {
  it("answer 405 in the JSON envelope with Allow", async () => {
    const res = await app.fetch("/api/v1/fleet", { key: a.key, method: "POST", body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });
});
