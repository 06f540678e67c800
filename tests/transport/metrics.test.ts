import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDbHandle, openPostgresDatabase, setDbHandle } from "@/lib/db/client";
import { setEnv } from "../helpers/test-env";
import { OPERATIONS } from "@/lib/operations/registry";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { parseExposition, scrapeMetrics, type Scrape } from "../helpers/metrics-scrape";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * `GET /api/metrics` (CONTRACT "Operations", docs/metrics.md) through the production request handler:
 * the token rules, the exposition format, and counters that move by exactly what the requests did.
 * The counters are the process's, shared with the files this worker ran before: every check compares
 * two scrapes. (Webhook delivery attempts are checked where deliveries happen:
 * tests/api/webhook-delivery.test.ts.)
 */

const TOKEN = "metrics-token-0123456789abcdef";
let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;

const scrape = () => scrapeMetrics((path, init) => app.fetch(path, init), TOKEN);
const requests = (s: Scrape, operation: string, method: string, status: number | string) => s.value("fdp_http_requests_total", { operation, method, status: String(status) });

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db);
  await insertDevices(tdb.handle.db, t.tenantId, [{ deviceId: "dev-1" }]);
  app = await startRouteServer({
    db: tdb.handle,
    env: { RATE_LIMIT_API_PER_MIN: "1000", RATE_LIMIT_AUTH_PER_MIN: "1000", REDIS_URL: undefined, DATABASE_URL: tdb.url, METRICS_TOKEN: TOKEN },
  });
});

afterAll(async () => {
  setEnv({ METRICS_TOKEN: undefined, RATE_LIMIT_AUTH_PER_MIN: undefined, TRUST_PROXY: undefined });
  await app?.close();
  await tdb?.dispose();
});

describe("GET /api/metrics: who may read it", () => {
  it("is a 404, exactly as an unknown path, while METRICS_TOKEN is unset", async () => {
    setEnv({ METRICS_TOKEN: undefined });
    try {
      const res = await app.fetch("/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      const unknown = await app.fetch("/api/nothing-here");
      expect(res.status).toBe(404);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: "not_found", message: expect.stringMatching(/^No endpoint GET \/api\/metrics\./), request_id: expect.stringMatching(/^req_/) });
      expect(Object.keys(body).sort()).toEqual(Object.keys((await unknown.json()) as object).sort());
    } finally {
      setEnv({ METRICS_TOKEN: TOKEN });
    }
  });

  it("answers 401 in the envelope without the token, with another token, or a prefix of it; 200 with it", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await app.fetch("/api/metrics", { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.json()).toMatchObject({ error: "unauthorized", message: expect.stringContaining("METRICS_TOKEN") });
    }
    const ok = await app.fetch("/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    // The answer is the exposition format throughout (parseExposition throws on any other line).
    const scraped = parseExposition(await ok.text());
    expect(scraped.types.get("fdp_http_requests_total")).toBe("counter");
    expect(scraped.types.get("fdp_http_request_duration_seconds")).toBe("histogram");
    // Node's own figures, event-loop lag among them.
    expect(scraped.types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");
    expect(scraped.value("process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts failed tokens against the client IP's budget of failed authentications: past it, 429 with Retry-After", async () => {
    // A client IP of its own (through a trusted proxy's X-Forwarded-For): the failures above were 127.0.0.1's.
    setEnv({ RATE_LIMIT_AUTH_PER_MIN: "2", TRUST_PROXY: "1" });
    try {
      const before = await scrape();
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 4; i++) {
        const res = await app.fetch("/api/metrics", { headers: { "x-forwarded-for": "203.0.113.9", authorization: "Bearer guess-0123456789abcdef" } });
        statuses.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get("retry-after");
        await res.arrayBuffer();
      }
      expect(statuses).toEqual([401, 401, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      // The right token is not refused for its IP's failures (as a valid API key is not).
      const after = await scrape();
      expect(after.value("fdp_rate_limit_refusals_total", { bucket: "auth" }) - before.value("fdp_rate_limit_refusals_total", { bucket: "auth" })).toBe(2);
      expect(requests(after, "metrics", "GET", 429) - requests(before, "metrics", "GET", 429)).toBe(2);
    } finally {
      setEnv({ RATE_LIMIT_AUTH_PER_MIN: "1000", TRUST_PROXY: undefined });
    }
  });
});

describe("GET /api/metrics: what it counts", () => {
  it("counts each request once by operation, method and status, with its time in the histogram", async () => {
    const before = await scrape();
    const get = (path: string, init: RequestInit & { key?: string } = {}) => app.fetch(path, { key: t.key, ...init }).then(async (r) => (await r.arrayBuffer(), r.status));
    expect(await get("/api/v1/fleet")).toBe(200);
    expect(await get("/api/v1/fleet")).toBe(200);
    expect(await get("/api/v1/fleet", { method: "HEAD" })).toBe(200);
    expect(await get("/api/v1/tas/no-such-device")).toBe(404);
    expect(await get("/api/v1/fleet", { key: "" })).toBe(401);
    expect(await get("/api/v1/fleet", { method: "DELETE" })).toBe(405);
    expect(await get("/api/v1/fleet", { method: "OPTIONS" })).toBe(204);
    expect(await get("/api/v1/nothing/here")).toBe(404);
    expect(await get("/api/health")).toBe(200);
    const after = await scrape();

    const fleet = OPERATIONS.find((op) => op.method === "GET" && op.path === "/fleet")!.id;
    const tas = OPERATIONS.find((op) => op.method === "GET" && op.path === "/tas/{device_id}")!.id;
    const moved = (operation: string, method: string, status: number) => requests(after, operation, method, status) - requests(before, operation, method, status);
    expect(moved(fleet, "GET", 200)).toBe(2);
    expect(moved(fleet, "HEAD", 200)).toBe(1);
    expect(moved(tas, "GET", 404)).toBe(1);
    expect(moved(fleet, "GET", 401)).toBe(1);
    expect(moved("method_not_allowed", "DELETE", 405)).toBe(1);
    expect(moved("options", "OPTIONS", 204)).toBe(1);
    expect(moved("not_found", "GET", 404)).toBe(1);
    expect(moved("health", "GET", 200)).toBe(1);
    // The first scrape, counted once it was answered.
    expect(moved("metrics", "GET", 200)).toBe(1);
    // One observation per request in the histogram, in the bucket its time fell into.
    const observed = (s: Scrape) => s.value("fdp_http_request_duration_seconds_count", { operation: fleet, method: "GET" });
    expect(observed(after) - observed(before)).toBe(3); // the two 200s and the 401
    const inf = (s: Scrape) => s.value("fdp_http_request_duration_seconds_bucket", { operation: fleet, method: "GET", le: "+Inf" });
    expect(inf(after) - inf(before)).toBe(3);
    const sum = (s: Scrape) => s.value("fdp_http_request_duration_seconds_sum", { operation: fleet, method: "GET" });
    expect(sum(after) - sum(before)).toBeGreaterThan(0);
    expect(sum(after) - sum(before)).toBeLessThan(60);
  });

  it("labels only closed sets: an unknown method is `other`, a path never appears", async () => {
    const before = await scrape();
    const res = await app.fetch("/api/v1/devices/SECRET-PATH-0001/whatever", { key: t.key, method: "PROPFIND" });
    await res.arrayBuffer();
    const after = await scrape();
    const moved = [...after.samples].filter(([k, v]) => k.startsWith('["fdp_http_requests_total"') && v !== (before.samples.get(k) ?? 0));
    // The PROPFIND (refused by the edge guard before any route: lib/http/edge-guard.ts) and the first scrape.
    expect(moved.map(([k]) => JSON.parse(k) as unknown).sort()).toEqual(
      [
        ["fdp_http_requests_total", { method: "GET", operation: "metrics", status: "200" }],
        ["fdp_http_requests_total", { method: "other", operation: "refused", status: String(res.status) }],
      ].sort(),
    );
    expect([...after.samples.keys()].join("\n")).not.toContain("SECRET-PATH");
  });

  it("counts the records an ingest stored, by format, and nothing for a refused one", async () => {
    const before = await scrape();
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    const post = (path: string, body: unknown) =>
      app
        .fetch(path, { key: t.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        .then(async (r) => (await r.arrayBuffer(), r.status));
    expect(
      await post("/api/v1/oem/ingest", {
        // A free-text source is the client's own word: counted as spec, never a label of its own.
        source: "my-own-gateway",
        vehicles: [
          { vin: "METRICSVIN0000001", timestamp: at(3), speed_kmh: 10 },
          { vin: "METRICSVIN0000001", timestamp: at(2), speed_kmh: 20 },
          { vin: "METRICSVIN0000002", timestamp: at(2), speed_kmh: 30 },
        ],
      }),
    ).toBe(200);
    expect(
      await post("/api/v1/oem/ingest/traccar", {
        position: { fixTime: at(1), latitude: 60.17, longitude: 24.94, speed: 10, attributes: { ignition: true } },
        device: { uniqueId: "metrics-tracker-1" },
      }),
    ).toBe(200);
    expect(await post("/api/v1/oem/ingest", { vehicles: [{ vin: "METRICSVIN0000003", timestamp: "not a time" }] })).toBe(400);
    const after = await scrape();
    const stored = (s: Scrape, source: string) => s.value("fdp_ingest_records_total", { source });
    expect(stored(after, "spec") - stored(before, "spec")).toBe(3);
    expect(stored(after, "traccar") - stored(before, "traccar")).toBe(1);
    expect(after.sum("fdp_ingest_records_total") - before.sum("fdp_ingest_records_total")).toBe(4);
    expect(after.value("fdp_ingest_records_total", { source: "my-own-gateway" })).toBe(0);
  });

  it("reports the pools' connections from pg_stat_activity, and the database as up; down, the scrape still answers", async () => {
    const up = await scrape();
    expect(up.value("fdp_database_up")).toBe(1);
    // This file's database is open through the app's main pool (application_name fdp): at least the
    // connection that ran the scrape's own query.
    expect(up.sum("fdp_db_connections", { pool: "fdp" })).toBeGreaterThanOrEqual(1);
    expect(up.value("fdp_db_pool_max_connections", { pool: "fdp" })).toBe(10);

    // A database nobody listens on: the scrape answers within its bound, database down, no connections.
    const serving = await getDbHandle();
    const dead = await openPostgresDatabase("postgres://postgres@127.0.0.1:1/none", { connectTimeoutSeconds: 1 });
    setDbHandle(dead);
    try {
      const started = Date.now();
      const down = await scrape();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(down.value("fdp_database_up")).toBe(0);
      expect(down.sum("fdp_db_connections")).toBe(0);
    } finally {
      setDbHandle(serving);
      await dead.close();
    }
    expect((await scrape()).value("fdp_database_up")).toBe(1);
  });
});
