import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { tenants } from "@/lib/db/schema";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

let tdb: TestDatabase;
let app: RouteServer;
let full: Awaited<ReturnType<typeof createTenantWithKey>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  full = await createTenantWithKey(db);
  await insertDevices(db, full.tenantId, [{ deviceId: "dev-1" }]);
  // The sandbox tenant as the seed creates it (its full synthetic fleet is tested with the seed).
  await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
  await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: "sbx-test" }]);
  app = await startRouteServer({
    db: tdb.handle,
    env: { RATE_LIMIT_API_PER_MIN: "1000", RATE_LIMIT_AUTH_PER_MIN: "1000", REDIS_URL: undefined, DATABASE_URL: tdb.url, AUTH_CACHE_TTL_SECONDS: "2" },
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

const ENDPOINTS = ["/api/v1/fleet", "/api/v1/alerts"];

describe("401 unauthorized", () => {
  const cases: [string, Record<string, string>][] = [
    ["no header", {}],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["empty bearer", { authorization: "Bearer " }],
    ["malformed token", { authorization: "Bearer not-a-key" }],
    ["unknown well-formed key", { authorization: `Bearer fdp_live_${"A".repeat(40)}` }],
    ["sandbox-like typo", { authorization: "Bearer fdp_sandbox_3f6c0a1e9b7d4c26" }],
  ];
  for (const path of ENDPOINTS) {
    for (const [label, headers] of cases) {
      it(`${path}: ${label}`, async () => {
        const res = await app.fetch(path, { headers });
        expect(res.status).toBe(401);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body.error).toBe("unauthorized");
        expect(String(body.message)).toMatch(/valid API key.*Bearer/i);
        expect(body._sandbox).toBeUndefined();
        expect(res.headers.get("x-request-id")).toBeTruthy();
        expect(res.headers.get("ratelimit-limit")).toBe("1000");
      });
    }
  }
});

describe("403 forbidden", () => {
  it("a valid key without fleet:read is refused on fleet and alerts", async () => {
    const narrow = await createTenantWithKey(tdb.handle.db, { scopes: ["scores:read", "mcp"] });
    for (const path of ENDPOINTS) {
      const res = await app.fetch(path, { key: narrow.key });
      expect(res.status).toBe(403);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toBe("forbidden");
      expect(String(body.message)).toContain("fleet:read");
    }
  });
});

describe("revoked keys", () => {
  it("are refused within 5 seconds of revocation", async () => {
    const t = await createTenantWithKey(tdb.handle.db);
    expect((await app.fetch("/api/v1/fleet", { key: t.key })).status).toBe(200);
    await revokeApiKey({ ctx: { db: tdb.handle.db }, input: { keyId: t.keyId } });
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 6000) {
      status = (await app.fetch("/api/v1/fleet", { key: t.key })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
  });
});

describe("sandbox key", () => {
  it("answers the sandbox tenant's data with _sandbox: true", async () => {
    const res = await app.fetch("/api/v1/fleet", { key: SANDBOX_KEY });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { _sandbox?: boolean; tenant_id: string; data: { device_id: string }[] };
    expect(body._sandbox).toBe(true);
    expect(body.tenant_id).toBe(SANDBOX_TENANT_ID);
    expect(body.data.map((d) => d.device_id)).toEqual(["sbx-test"]);
  });

  it("marks its error bodies too", async () => {
    const res = await app.fetch("/api/v1/alerts?limit=0", { key: SANDBOX_KEY });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request", _sandbox: true });
  });

  it("live keys never carry the flag", async () => {
    const body = (await (await app.fetch("/api/v1/alerts", { key: full.key })).json()) as Record<string, unknown>;
    expect(body._sandbox).toBeUndefined();
  });
});

describe("request ids", () => {
  it("keeps a caller's well-formed X-Request-Id and makes one otherwise", async () => {
    const mine = await app.fetch("/api/v1/fleet", { key: full.key, headers: { "x-request-id": "trace-12345678" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-12345678");
    const junk = await app.fetch("/api/v1/fleet", { key: full.key, headers: { "x-request-id": "bad id with spaces" } });
    expect(junk.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe("last_used_at", () => {
  it("is written on use", async () => {
    const t = await createTenantWithKey(tdb.handle.db);
    await app.fetch("/api/v1/fleet", { key: t.key });
    let last: unknown = null;
    for (let i = 0; i < 20 && !last; i++) {
      const [row] = await tdb.handle.db
        .execute(sql`select last_used_at from api_keys where id = ${t.keyId}`)
        .then((r) => (Array.isArray(r) ? r : (r as { rows: Record<string, unknown>[] }).rows));
      last = (row as Record<string, unknown> | undefined)?.last_used_at ?? null;
      if (!last) await new Promise((r) => setTimeout(r, 50));
    }
    expect(last).not.toBeNull();
  });
});

describe("internal errors", () => {
  it("answer 500 internal_error without SQL or stack traces", async () => {
    await tdb.handle.db.execute(sql`alter table alerts rename to alerts_gone`);
    try {
      const res = await app.fetch("/api/v1/alerts", { key: full.key });
      expect(res.status).toBe(500);
      const text = await res.text();
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(body.error).toBe("internal_error");
      expect(body.request_id).toBe(res.headers.get("x-request-id"));
      expect(text).not.toMatch(/alerts|relation|select|at \w+ \(/i);
    } finally {
      await tdb.handle.db.execute(sql`alter table alerts_gone rename to alerts`);
    }
  });
});
