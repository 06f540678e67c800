import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { limiterStoreKind } from "@/lib/rate-limit/limiter-store";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * The same behaviour on every counter store this project can run with: Postgres and Redis next to
 * a Postgres database, in-process memory next to the embedded PGlite.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const stores = process.env.FDP_TEST_DB === "pglite" ? (["memory"] as const) : (["postgres", "redis"] as const);

/** A distinct client address per case (TRUST_PROXY=1), so counters never collide across runs on a shared Redis. */
function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

describe.each(stores)("rate limits on the %s store", (store) => {
  let tdb: TestDatabase;
  let app: RouteServer;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    await tdb.handle.db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" });
    app = await startRouteServer({
      db: tdb.handle,
      env: {
        RATE_LIMIT_API_PER_MIN: "5",
        RATE_LIMIT_AUTH_PER_MIN: "3",
        RATE_LIMIT_PUBLIC_PER_MIN: "3",
        TRUST_PROXY: "1",
        DATABASE_URL: tdb.url,
        REDIS_URL: store === "redis" ? REDIS_URL : undefined,
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    await tdb?.dispose();
  });

  it("uses the expected store", async () => {
    expect(await limiterStoreKind()).toBe(store);
  });

  it("counts requests per key, with headers on every answer, then 429 with Retry-After", async () => {
    const t = await createTenantWithKey(tdb.handle.db);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      // One of them is a 400: 4xx answers of a limited endpoint count and carry the headers too.
      const res = await app.fetch(i === 2 ? "/api/v1/fleet?limit=0" : "/api/v1/fleet", { key: t.key, headers: { "x-forwarded-for": randomIp() } });
      expect(res.status).toBe(i === 2 ? 400 : 200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
      expect(res.headers.get("retry-after")).toBeNull();
      remaining.push(res.headers.get("ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const over = await app.fetch("/api/v1/alerts", { key: t.key });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: "rate_limited" });
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("retry-after")).toBe(over.headers.get("ratelimit-reset"));
    expect(over.headers.get("x-request-id")).toBeTruthy();
  });

  it("counts concurrent requests of one key exactly (coalesced increments): each remaining value once, then 429", async () => {
    const t = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 6 });
    const answers = await Promise.all(Array.from({ length: 9 }, () => app.fetch("/api/v1/fleet", { key: t.key })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(6).fill(200), 429, 429, 429]);
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const r of answers.filter((x) => x.status === 429)) {
      expect(r.headers.get("ratelimit-remaining")).toBe("0");
      expect(r.headers.get("retry-after")).toBe(r.headers.get("ratelimit-reset"));
    }
    // All nine were counted in the shared store: the next one is refused too.
    expect((await app.fetch("/api/v1/fleet", { key: t.key })).status).toBe(429);
  });

  it("applies a tenant's custom limit per key", async () => {
    const t = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.fetch("/api/v1/fleet", { key: t.key })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("gives each key of a tenant its own budget", async () => {
    const t = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 1 });
    const { createApiKey } = await import("@/lib/api-keys/create-api-key");
    const second = await createApiKey({ ctx: { db: tdb.handle.db }, input: { tenantId: t.tenantId } });
    expect((await app.fetch("/api/v1/fleet", { key: t.key })).status).toBe(200);
    expect((await app.fetch("/api/v1/fleet", { key: t.key })).status).toBe(429);
    expect((await app.fetch("/api/v1/fleet", { key: second.key })).status).toBe(200);
  });

  it("limits failed authentications per client IP, and a valid key from that IP is still served", async () => {
    const ip = randomIp();
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      // The proxy appended `ip`; whatever the client put before it is not its address.
      const res = await app.fetch("/api/v1/fleet", { headers: { "x-forwarded-for": `10.0.0.1, ${ip}`, authorization: i % 2 ? "Bearer nope" : "" } });
      statuses.push(res.status);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const t = await createTenantWithKey(tdb.handle.db);
    const ok = await app.fetch("/api/v1/fleet", { key: t.key, headers: { "x-forwarded-for": ip } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-limit")).toBe("5");
    // Another client IP keeps its own budget.
    expect((await app.fetch("/api/v1/fleet", { headers: { "x-forwarded-for": randomIp() } })).status).toBe(401);
  });

  it("a key guesser prepending a new X-Forwarded-For value to each request stays within the per-IP budget (the right-most entry counts)", async () => {
    const ip = randomIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.fetch("/api/v1/fleet", { headers: { "x-forwarded-for": `${randomIp()}, ${randomIp()}, ${ip}`, authorization: "Bearer nope" } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("certificate-number guessing on the public verification endpoint cannot escape its per-IP limit by prepending X-Forwarded-For values", async () => {
    const ip = randomIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.fetch(`/api/v1/certificates/FDP-CERT-20261124-GUES${i}/verify`, {
        key: null,
        headers: { "x-forwarded-for": `${randomIp()}, ${ip}` },
      });
      statuses.push(res.status);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    // The budget belongs to the right-most address: another one is served.
    expect((await app.fetch("/api/v1/certificates/FDP-CERT-20261124-GUESS/verify", { key: null, headers: { "x-forwarded-for": `${ip}, ${randomIp()}` } })).status).toBe(404);
  });

  it("limits the shared sandbox key per key and client IP", async () => {
    const ipA = randomIp();
    const ipB = randomIp();
    for (let i = 0; i < 5; i++) expect((await app.fetch("/api/v1/fleet", { key: SANDBOX_KEY, headers: { "x-forwarded-for": ipA } })).status).toBe(200);
    const over = await app.fetch("/api/v1/fleet", { key: SANDBOX_KEY, headers: { "x-forwarded-for": ipA } });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: "rate_limited", _sandbox: true });
    expect((await app.fetch("/api/v1/fleet", { key: SANDBOX_KEY, headers: { "x-forwarded-for": ipB } })).status).toBe(200);
  });
});

describe("client IP without TRUST_PROXY", () => {
  let tdb: TestDatabase;
  let app: RouteServer;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    app = await startRouteServer({
      db: tdb.handle,
      env: { RATE_LIMIT_AUTH_PER_MIN: "2", TRUST_PROXY: "0", DATABASE_URL: tdb.url, REDIS_URL: undefined },
    });
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.dispose();
  });

  it("ignores X-Forwarded-For: a key guesser cannot dodge the limit by rotating it", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await app.fetch("/api/v1/fleet", { headers: { "x-forwarded-for": randomIp(), "x-fdp-client-ip": randomIp() } })).status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
