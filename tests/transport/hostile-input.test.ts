import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantDataState } from "../helpers/counts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices, OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * Regression tests for each probe of issue 7 that used to answer 500 (or outside the envelope): a
 * hostile client's requests, named one by one. All must be a 4xx in the CONTRACT envelope with
 * X-Request-Id, and none may write a row. (The generated variety is in operations.fuzz.test.ts; the
 * probes that only server.ts sees are in tests/integration/http-edge.test.ts.)
 */
let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db);
  await insertDevices(tdb.handle.db, t.tenantId, [{ deviceId: "dev-1" }]);
  app = await startRouteServer({
    db: tdb.handle,
    env: { RATE_LIMIT_API_PER_MIN: "10000", RATE_LIMIT_AUTH_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url, SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL },
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

interface Refusal {
  status: number;
  error: string;
  fields: string[];
  message: string;
}

/** Sends, and checks the refusal: status, envelope, X-Request-Id, and not one row written. */
async function refused(path: string, init: RequestInit & { rawBody?: string } = {}): Promise<Refusal> {
  const before = await tenantDataState(tdb.handle.db, t.tenantId);
  const headers = new Headers(init.headers);
  if (init.rawBody !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await app.fetch(path, { ...init, key: t.key, headers, body: init.rawBody ?? init.body });
  const body = (await res.json()) as { error: string; message: string; request_id: string; details?: { field: string }[] };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get("x-request-id")).toBe(body.request_id);
  expect(await tenantDataState(tdb.handle.db, t.tenantId)).toEqual(before);
  return { status: res.status, error: body.error, fields: body.details?.map((d) => d.field) ?? [], message: body.message };
}

const ingestRecord = (extra: string) => `{"vehicles":[{"vin":"YV1XZ16K7P1234567","timestamp":"${new Date().toISOString()}",${extra}}]}`;

describe("the probes that answered 500", () => {
  it('{"device_ids":["a\\u0000b"]} on both batch endpoints: 400 naming device_ids.0', async () => {
    for (const path of ["/api/v1/scores/batch", "/api/v1/tas/batch"]) {
      const r = await refused(path, { method: "POST", rawBody: '{"device_ids":["a\\u0000b"]}' });
      expect(r).toMatchObject({ status: 400, error: "invalid_request", fields: ["device_ids.0"] });
    }
  });

  it("GET /tas/a%00b: 400 naming device_id", async () => {
    expect(await refused("/api/v1/tas/a%00b")).toMatchObject({ status: 400, fields: ["device_id"] });
  });

  it("an ingest record with \\u0000 or \\udc00 in raw_data, charging_status or raw_data.vehicle.make: 400 naming it", async () => {
    for (const poison of ["\\u0000", "\\udc00"]) {
      expect((await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"note":"a${poison}b"}`) })).fields).toEqual(["vehicles.0.raw_data.note"]);
      expect((await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"charging_status":"x${poison}"`) })).fields).toEqual(["vehicles.0.charging_status"]);
      expect((await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"vehicle":{"make":"Vol${poison}vo"}}`) })).fields).toEqual([
        "vehicles.0.raw_data.vehicle.make",
      ]);
      // As a member name, too.
      expect((await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"k${poison}":1}`) })).status).toBe(400);
    }
  });

  it("raw_data nested 5,000 arrays deep: 400", async () => {
    const r = await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}`) });
    expect(r).toMatchObject({ status: 400, error: "invalid_request" });
    expect(r.message).toMatch(/nests deeper than/);
  });

  it("a timestamp in year 0000 (and in 1970, or crossing into year 0 by its offset): 400 naming it", async () => {
    for (const ts of ["0000-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00"]) {
      const r = await refused("/api/v1/oem/ingest", { method: "POST", rawBody: `{"vehicles":[{"vin":"YV1XZ16K7P1234567","timestamp":"${ts}"}]}` });
      expect(r.fields).toEqual(["vehicles.0.timestamp"]);
      // The same bound holds for a driving event's time (found by the fuzz test after the first fix).
      const event = `{"kind":"harsh_braking","ts":"${ts}","value":0.4}`;
      const e = await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"events":[${event}]}`) });
      expect(e.fields).toEqual(["vehicles.0.raw_data.events.0.ts"]);
    }
  });

  it("raw_data.lv_battery_chemistry that is not a bounded string (number, object, 41 characters): 400 naming it", async () => {
    for (const value of ["1", '{"kind":"lfp"}', "true", `"${"l".repeat(41)}"`]) {
      const r = await refused("/api/v1/oem/ingest", { method: "POST", rawBody: ingestRecord(`"raw_data":{"lv_battery_chemistry":${value}}`) });
      expect(r).toMatchObject({ status: 400, error: "invalid_request", fields: ["vehicles.0.raw_data.lv_battery_chemistry"] });
    }
  });

  it("a 201-character path device_id: 400 (the schema's bound), not a 404 echoing it", async () => {
    const r = await refused(`/api/v1/tas/${"d".repeat(201)}`);
    expect(r).toMatchObject({ status: 400, fields: ["device_id"] });
    expect(r.message).not.toContain("d".repeat(129));
  });
});

describe("the probes that answered outside the envelope or accepted what they should not", () => {
  it("/api/v1/tas/%FF, TRACE and PROPFIND: in the envelope with X-Request-Id", async () => {
    expect(await refused("/api/v1/tas/%FF")).toMatchObject({ status: 400, error: "invalid_request" });
    // fetch refuses to send TRACE; the same guard's answer is tested over a raw socket in http-edge.test.ts.
    expect(await refused("/api/v1/fleet", { method: "PROPFIND" })).toMatchObject({ status: 405, error: "invalid_request" });
  });

  it("OPTIONS advertises only what is served, and PUT/PATCH/DELETE are then refused in the envelope", async () => {
    const options = await app.fetch("/api/v1/fleet", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    for (const method of ["PUT", "PATCH", "DELETE"]) expect(await refused("/api/v1/fleet", { method })).toMatchObject({ status: 405 });
  });

  it("/api/v1/fleet/ and /api/v1//fleet: 404 in the envelope, not a 308", async () => {
    expect(await refused("/api/v1/fleet/")).toMatchObject({ status: 404, error: "not_found" });
    expect(await refused("/api/v1//fleet")).toMatchObject({ status: 404, error: "not_found" });
  });

  it("JSON bodies as text/plain, form-encoded or without a content type: 415", async () => {
    const body = '{"device_ids":["dev-1"]}';
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      expect(await refused("/api/v1/tas/batch", { method: "POST", headers: { "content-type": type }, body })).toMatchObject({ status: 415, error: "unsupported_media_type" });
    }
    expect(await refused("/api/v1/tas/batch", { method: "POST", body: new Blob([body]) })).toMatchObject({ status: 415 });
  });

  it("duplicate member names: 400 naming the member (the last one no longer silently wins)", async () => {
    expect(await refused("/api/v1/tas/batch", { method: "POST", rawBody: '{"device_ids":["dev-1"],"device_ids":["x"]}' })).toMatchObject({ status: 400, fields: ["device_ids"] });
    const signedTwice = ingestRecord('"speed_kmh":10,"speed_kmh":90');
    expect((await refused("/api/v1/oem/ingest", { method: "POST", rawBody: signedTwice })).fields).toEqual(["vehicles.0.speed_kmh"]);
  });
});
