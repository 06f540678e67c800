import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_SCOPES, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { tenants } from "@/lib/db/schema";
import { allowHeader } from "@/lib/http/bind-route";
import { type Operation, wireBody } from "@/lib/operations/define-operation";
import { OPERATIONS, operationsAt } from "@/lib/operations/registry";
import { rootLogger } from "@/lib/log/logger";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices, issueCertificate } from "../helpers/fixtures";
import { exampleParts, send, type RequestParts } from "../helpers/operation-requests";
import { startRouteServer, type RouteServer, unlimitedEdgeEnv } from "../helpers/route-server";

/**
 * The checks every operation must pass, run over the whole registry (the shape of unkey's shared
 * route tests): 401 without a key and with a revoked key, 403 without the scope, 404 for unknown and
 * other tenants' devices, 400 for malformed path parameters, 405 and OPTIONS, 415 and I-JSON for
 * bodies, and on every answer the CONTRACT envelope and X-Request-Id.
 */

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let noScope: Awaited<ReturnType<typeof createTenantWithKey>>;
let revoked: Awaited<ReturnType<typeof createTenantWithKey>>;
const OWN_DEVICE = "dev-a";
/** A certificate of each tenant (numbers are drawn at random when issued). */
let certificates: { own: string; foreign: string; sandbox: string };
const FOREIGN_DEVICE = "dev-b";
/** A webhook of each tenant (ids drawn at random). */
let webhooks: { own: string; foreign: string };
/** A new webhook of tenant `a`: a deletion needs one of its own. */
const newWebhook = async (tenantId: string) =>
  (await createWebhook({ ctx: { db: tdb.handle.db, tenantId, isSandbox: false, log: rootLogger() }, input: { url: "https://93.184.215.14/hook", events: ["alert.created"] } })).id;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  a = await createTenantWithKey(db);
  const b = await createTenantWithKey(db);
  noScope = await createTenantWithKey(db, { scopes: ["mcp"] });
  revoked = await createTenantWithKey(db);
  await revokeApiKey({ ctx: { db }, input: { keyId: revoked.keyId } });
  await insertDevices(db, a.tenantId, [{ deviceId: OWN_DEVICE, odometerKm: 12_345, socPct: 55, powertrain: "BEV", batteryKwh: 64 }]);
  await insertDevices(db, b.tenantId, [{ deviceId: FOREIGN_DEVICE }]);
  await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
  await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: "sbx-001", odometerKm: 23_456, socPct: 60, powertrain: "BEV", batteryKwh: 72 }]);
  certificates = {
    own: await issueCertificate(db, a.tenantId, OWN_DEVICE),
    foreign: await issueCertificate(db, b.tenantId, FOREIGN_DEVICE),
    sandbox: await issueCertificate(db, SANDBOX_TENANT_ID, "sbx-001"),
  };
  webhooks = { own: await newWebhook(a.tenantId), foreign: await newWebhook(b.tenantId) };
  app = await startRouteServer({
    db: tdb.handle,
    env: unlimitedEdgeEnv(tdb.url),
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
  request_id?: string;
  _sandbox?: boolean;
}

/** The CONTRACT error envelope with the given status and code, X-Request-Id equal to `request_id`. */
async function expectError(res: Response, status: number, code: string): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
  const body = (await res.json()) as ErrorBody;
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(10);
  expect(body.request_id).toBe(requestId);
  return body;
}

const scopeOf = (op: Operation) => ("scope" in op.access ? op.access.scope : null);
const ownRequest = (op: Operation): RequestParts => {
  const parts = exampleParts(op, op.pathParams.length > 0 ? { path: { device_id: OWN_DEVICE, certificate_number: certificates.own, webhook_id: webhooks.own } } : {});
  const body = parts.body as Record<string, unknown> | undefined;
  if (body && Array.isArray(body.device_ids)) parts.body = { ...body, device_ids: [OWN_DEVICE, FOREIGN_DEVICE] };
  return parts;
};

it("covers every operation of the registry", () => {
  expect(OPERATIONS.length).toBeGreaterThanOrEqual(11);
  expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
});

describe.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_, op) => {
  // Every non-public operation needs a key (401 without one); only a scoped one can refuse a valid key
  // (403): an `anyKey` operation (the pricing calculators) accepts every valid key.
  const keyed = !("public" in op.access);

  const success = op.success ?? 200;
  it(`answers its example request with ${success} and a body its output schema accepts`, async () => {
    // A deletion deletes: it gets a webhook of its own, so the other checks keep theirs.
    const parts = op.method === "DELETE" ? exampleParts(op, { path: { webhook_id: await newWebhook(a.tenantId) } }) : ownRequest(op);
    const res = await send(app, op, parts, { key: a.key });
    expect(res.status).toBe(success);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-limit")).toBe("100000");
    if (success === 204) {
      expect(await res.text()).toBe("");
      return;
    }
    if (op.produces) {
      expect(res.headers.get("content-type")).toBe(op.produces);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      return;
    }
    const body = (await res.json()) as Record<string, unknown>;
    expect(body._sandbox).toBeUndefined();
    expect(op.output.safeParse(body).error).toBeUndefined();
  });

  // CONTRACT: the sandbox key has every scope but webhooks:write (it cannot register webhooks).
  const sandboxMay = !("scope" in op.access) || SANDBOX_SCOPES.includes(op.access.scope);
  it(`answers the sandbox key with _sandbox: true${sandboxMay ? "" : " (403: a scope the sandbox key lacks)"}`, async () => {
    const res = await send(app, op, exampleParts(op, { path: { certificate_number: certificates.sandbox } }), { key: SANDBOX_KEY });
    if (!sandboxMay) {
      const body = await expectError(res, 403, "forbidden");
      expect(body._sandbox).toBe(true);
      return;
    }
    expect(res.status).toBe(success);
    if (op.produces) {
      expect(res.headers.get("x-sandbox")).toBe("true");
      return;
    }
    const body = (await res.json()) as Record<string, unknown>;
    expect(body._sandbox).toBe(true);
  });

  if (keyed) {
    it("401 without a key, with a malformed key and with a revoked key", async () => {
      for (const key of [null, "fdp_live_short", revoked.key]) {
        const body = await expectError(await send(app, op, ownRequest(op), { key }), 401, "unauthorized");
        expect(body.message).toMatch(/valid API key.*Bearer/);
      }
    });
  }

  if (scopeOf(op) !== null) {
    it("403 with a key that lacks its scope", async () => {
      const body = await expectError(await send(app, op, ownRequest(op), { key: noScope.key }), 403, "forbidden");
      expect(body.message).toContain(scopeOf(op));
    });
  }

  if ("anyKey" in op.access) {
    it("200 with a valid key that holds none of the data scopes (any valid key will do)", async () => {
      expect((await send(app, op, ownRequest(op), { key: noScope.key })).status).toBe(200);
    });
  }

  if (op.pathParams.includes("certificate_number") && keyed) {
    it("404 for an unknown certificate and for another tenant's certificate, alike", async () => {
      const unknown = await expectError(await send(app, op, exampleParts(op, { path: { certificate_number: "FDP-CERT-20200101-NONE0" } }), { key: a.key }), 404, "not_found");
      const foreign = await expectError(await send(app, op, exampleParts(op, { path: { certificate_number: certificates.foreign } }), { key: a.key }), 404, "not_found");
      expect(foreign.message.replace(certificates.foreign, "X")).toBe(unknown.message.replace("FDP-CERT-20200101-NONE0", "X"));
    });
  }

  if (op.pathParams.includes("device_id")) {
    it("404 for an unknown device and for another tenant's device, alike", async () => {
      const unknown = await expectError(await send(app, op, exampleParts(op, { path: { device_id: "no-such-device" } }), { key: a.key }), 404, "not_found");
      const foreign = await expectError(await send(app, op, exampleParts(op, { path: { device_id: FOREIGN_DEVICE } }), { key: a.key }), 404, "not_found");
      expect(foreign.message.replace(FOREIGN_DEVICE, "X")).toBe(unknown.message.replace("no-such-device", "X"));
    });
  }

  if (op.pathParams.includes("device_id")) {
    it("400 naming device_id for a malformed path parameter, never a lookup", async () => {
      for (const bad of ["a\u0000b", "x".repeat(129), "a b", "ä", "a/b", "a\\b"]) {
        const body = await expectError(await send(app, op, exampleParts(op, { path: { device_id: bad } }), { key: a.key }), 400, "invalid_request");
        expect(body.details?.map((d) => d.field)).toEqual(["device_id"]);
        expect(body.message).not.toContain(bad.slice(0, 50));
      }
    });
  }

  if (Array.isArray((op.requestExample as { body?: { device_ids?: unknown } }).body?.device_ids)) {
    it("answers another tenant's device in a batch exactly as an unknown one", async () => {
      const res = await send(app, op, exampleParts(op, { body: { ...(op.requestExample as { body: object }).body, device_ids: [FOREIGN_DEVICE, "no-such-device", OWN_DEVICE] } }), {
        key: a.key,
      });
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: Record<string, unknown>[] };
      const [foreign, unknown, own] = results.map(
        (r) => JSON.parse(JSON.stringify(r).replaceAll(FOREIGN_DEVICE, "X").replaceAll("no-such-device", "X")) as Record<string, unknown>,
      );
      expect(foreign).toEqual(unknown);
      expect(foreign).toHaveProperty("error");
      expect(JSON.stringify(foreign)).not.toMatch(/score"?:\s*\d/);
      expect(own).not.toEqual(unknown);
    });
  }

  if (op.pathParams.includes("webhook_id")) {
    it("404 for an unknown webhook and for another tenant's webhook, alike", async () => {
      const unknownId = "wh_00000000000000000000";
      const unknown = await expectError(await send(app, op, exampleParts(op, { path: { webhook_id: unknownId } }), { key: a.key }), 404, "not_found");
      const foreign = await expectError(await send(app, op, exampleParts(op, { path: { webhook_id: webhooks.foreign } }), { key: a.key }), 404, "not_found");
      expect(foreign.message.replace(webhooks.foreign, "X")).toBe(unknown.message.replace(unknownId, "X"));
    });
  }

  it("405 with Allow for the methods it does not serve; OPTIONS lists exactly what it serves", async () => {
    const served = operationsAt(op.path).map((o) => o.method);
    const allow = allowHeader(served);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !served.includes(m as Operation["method"]))) {
      const res = await send(app, op, ownRequest(op), { key: a.key, method });
      await expectError(res, 405, "invalid_request");
      expect(res.headers.get("allow")).toBe(allow);
    }
    const sandbox405 = await send(app, op, ownRequest(op), { key: SANDBOX_KEY, method: "PATCH" });
    expect(((await sandbox405.json()) as { _sandbox?: boolean })._sandbox).toBe(true);
    const options = await send(app, op, ownRequest(op), { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe(allow);
    expect(options.headers.get("x-request-id")).toMatch(/^req_/);
  });

  if (op.input.body !== undefined) {
    it("415 for a body that is not sent as application/json", async () => {
      const json = JSON.stringify(wireBody(op, ownRequest(op).body));
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "application/jsonx", null]) {
        const headers: Record<string, string> = type ? { "content-type": type } : {};
        const res = await app.fetch(`/api/v1${op.path}`, { key: a.key, method: op.method, headers, body: type === null ? new Blob([json]) : json });
        await expectError(res, 415, "unsupported_media_type");
      }
      const ok = await send(app, op, ownRequest(op), { key: a.key, headers: { "content-type": "Application/JSON; charset=UTF-8" } });
      expect(ok.status).toBe(success);
    });
  }

  if (op.input.body !== undefined) {
    it("400 for a body that is not I-JSON: repeated names, NUL, lone surrogates, excessive depth", async () => {
      const json = JSON.stringify(wireBody(op, ownRequest(op).body));
      const cases: [string, string][] = [
        [`${json.slice(0, -1)},${json.slice(1)}`, "duplicate member name"],
        [`${json.slice(0, -1)},"extra":"a\\u0000b"}`, "NUL"],
        [`${json.slice(0, -1)},"extra":"\\udc00"}`, "surrogate"],
        [`${json.slice(0, -1)},"extra":${"[".repeat(5000)}${"]".repeat(5000)}}`, "deeper"],
        [`${json.slice(0, -1)},"extra":1e400}`, "finite"],
      ];
      for (const [body, expected] of cases) {
        const err = await expectError(await send(app, op, { ...ownRequest(op), body }, { key: a.key }), 400, "invalid_request");
        expect(`${err.message} ${err.details?.[0]?.message}`).toContain(expected);
      }
    });
  }
});
