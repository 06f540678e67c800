import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeOperationPools } from "@/lib/db/operation-pools";
import { heavyInFlight } from "@/lib/rate-limit/heavy-concurrency";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { connectMcpClient } from "../helpers/mcp-client";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * Budgets, so that no tenant stalls another (issue 28; docs/scaling.md "Budgets: heavy and interactive
 * operations"). Tenant A holds a fleet whose 90-day fleet risk reads ~90,000 raw readings (seconds of
 * Postgres work per request, the rollups deliberately not built); tenant B holds a small fleet.
 *
 * - While A sends heavy reads at its full rate limit, B's `GET /fleet` keeps answering within 1 s (p99).
 *   Before the budgets (every operation on the one pool of 10 connections, no cap) this failed: see the
 *   figures in docs/scaling.md.
 * - A's third concurrent heavy request is refused with 429 and Retry-After, on REST and MCP alike,
 *   while B's heavy request is served.
 *
 * Postgres only (so in the db project, which runs each file once): the pools and the statement timeouts are Postgres connections' (the embedded database
 * serves one connection at a time; the cap itself is tested without a database in
 * tests/unit/operations/budget.test.ts).
 */

const DEVICES = 170;
const DAYS = 90;
const READINGS_PER_DAY = 6;
/** A's limit per minute, and the pace of its heavy requests: exactly that rate. */
const A_RATE_PER_MIN = 240;
const A_REQUESTS = 16;
const HEAVY_PATH = `/api/v1/scores/fleet-risk?period=${DAYS}d`;

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let b: Awaited<ReturnType<typeof createTenantWithKey>>;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

async function timed(path: string, key: string): Promise<{ status: number; ms: number; end: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const t0 = performance.now();
  const res = await app.fetch(path, { key });
  const body = (await res.json()) as Record<string, unknown>;
  const end = performance.now();
  return { status: res.status, ms: end - t0, end, retryAfter: res.headers.get("retry-after"), body };
}

describe("noisy neighbour: one tenant's heavy reads do not stall another's", () => {
  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
    const db = tdb.handle.db;
    a = await createTenantWithKey(db, { name: "A: large fleet", rateLimitPerMin: A_RATE_PER_MIN });
    b = await createTenantWithKey(db, { name: "B: small fleet", rateLimitPerMin: 10_000 });
    // A: set-based rows (seconds, not minutes), raw telemetry only, so each fleet risk reads it all.
    await db.execute(
      sql.raw(`insert into devices (tenant_id, device_id, name, powertrain)
        select '${a.tenantId}', 'a-' || lpad(n::text, 4, '0'), 'A ' || n, case when n % 2 = 0 then 'BEV' else 'ICE' end
        from generate_series(1, ${DEVICES}) n`),
    );
    await db.execute(
      sql.raw(`insert into telemetry (tenant_id, device_id, ts, lat, lon, speed_kmh, soc_pct, odometer_km, fuel_level_pct, weather_temp, ignition)
        select '${a.tenantId}', 'a-' || lpad(n::text, 4, '0'), date_trunc('hour', now()) - make_interval(days => d, hours => r * 3),
          60.1 + (n % 10) * 0.01 + r * 0.001, 24.9 + d * 0.0001, (r * 37 + d) % 130, case when n % 2 = 0 then 20 + (r * 13 + d) % 70 end,
          10000 + (${DAYS} - d) * 40 + r * 5, case when n % 2 = 1 then 30 + (r * 7 + d) % 60 end, -5 + (d % 30), 1
        from generate_series(1, ${DEVICES}) n cross join generate_series(0, ${DAYS - 1}) d cross join generate_series(0, ${READINGS_PER_DAY - 1}) r`),
    );
    await db.execute(sql`analyze telemetry`);
    await insertDevices(
      db,
      b.tenantId,
      Array.from({ length: 50 }, (_, i) => ({ deviceId: `b-${String(i).padStart(3, "0")}`, speedKmh: 30, lat: 60.2, lon: 24.9, odometerKm: 1000 + i })),
    );
    // DATABASE_URL: the operation pools (lib/db/operation-pools.ts) open on the test database.
    app = await startRouteServer({ db: tdb.handle, env: { REDIS_URL: undefined, DATABASE_URL: tdb.url, RATE_LIMIT_API_PER_MIN: "10000" } });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await closeOperationPools();
    await tdb?.dispose();
  });

  it("keeps tenant B's GET /fleet under 1 s (p99) while tenant A runs heavy reads at its full rate limit", async () => {
    await timed("/api/v1/fleet?limit=100", b.key); // the route's modules load on first use
    const baseline: number[] = [];
    for (let i = 0; i < 5; i++) baseline.push((await timed("/api/v1/fleet?limit=100", b.key)).ms);
    const alone = await timed(HEAVY_PATH, a.key);
    expect(alone.status).toBe(200);

    let aFinished = false;
    const aRuns = (async () => {
      const sent: Promise<Awaited<ReturnType<typeof timed>>>[] = [];
      for (let i = 0; i < A_REQUESTS; i++) {
        sent.push(timed(HEAVY_PATH, a.key));
        await sleep(60_000 / A_RATE_PER_MIN); // the load's pace: A's full rate
      }
      const results = await Promise.all(sent);
      aFinished = true;
      return results;
    })();
    const bLatencies: number[] = [];
    while (!aFinished) {
      const r = await timed("/api/v1/fleet?limit=100", b.key);
      expect(r.status).toBe(200);
      expect((r.body.data as unknown[]).length).toBe(50);
      bLatencies.push(r.ms);
      await sleep(100);
    }
    const aResults = await aRuns;
    const byStatus = aResults.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    console.log(
      `[noisy-neighbour] A's fleet risk alone ${alone.ms.toFixed(0)} ms; A's ${A_REQUESTS} requests at ${A_RATE_PER_MIN}/min: ${JSON.stringify(byStatus)}; ` +
        `B's GET /fleet before: p50 ${percentile(baseline, 50).toFixed(0)} ms; during (${bLatencies.length} requests): p50 ${percentile(bLatencies, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(bLatencies, 99).toFixed(0)} ms, max ${Math.max(...bLatencies).toFixed(0)} ms`,
    );
    // As many as fit in A's run: 16 on a loaded clean-clone CI run (2026-11-30), 20 and more alone. With
    // fewer samples the p99 below comes closer to the maximum, so a short run bounds B's latency no less strictly.
    expect(bLatencies.length).toBeGreaterThanOrEqual(10);
    expect(percentile(bLatencies, 99)).toBeLessThan(1000);
    // A was served within its cap and refused beyond it, never with a 5xx.
    expect(Object.keys(byStatus).map(Number).sort()).toEqual([200, 429]);
    for (const r of aResults.filter((x) => x.status === 429)) {
      expect(r.body.error).toBe("rate_limited");
      expect(r.retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
  });

  it("refuses A's third concurrent heavy request with 429 and Retry-After (REST and MCP) while B's heavy request is served", async () => {
    // Connected first, so that the tool call goes out at once below.
    const mcp = await connectMcpClient(app.url, a.key);
    try {
      const running = [timed(HEAVY_PATH, a.key), timed(HEAVY_PATH, a.key)];
      // Both admitted (they run for seconds; this waits for the admission, not for a time).
      await expect.poll(() => heavyInFlight(a.tenantId), { timeout: 10_000, interval: 10 }).toBe(2);

      // A's third over REST, its MCP twin, and B's heavy request, all while A's two run.
      const [third, tool, other] = await Promise.all([
        timed(HEAVY_PATH, a.key),
        mcp.callTool({ name: "get_fleet_risk", arguments: { period: `${DAYS}d` } }),
        timed(HEAVY_PATH, b.key),
      ]);
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: "rate_limited" });
      expect(third.retryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(tool.isError).toBe(true);
      expect(tool.structuredContent).toMatchObject({ error: "rate_limited" });
      expect(other.status).toBe(200);
      expect(typeof other.body.fleet_risk_score).toBe("number");

      const done = await Promise.all(running);
      expect(done.map((r) => r.status)).toEqual([200, 200]);
      console.log(`[noisy-neighbour] A's two heavy requests ${done.map((r) => r.ms.toFixed(0)).join(" and ")} ms; B's heavy request meanwhile ${other.ms.toFixed(0)} ms`);
      // B was answered while A's two were still running.
      expect(other.end).toBeLessThan(Math.min(...done.map((r) => r.end)));
      expect(heavyInFlight(a.tenantId)).toBe(0);
    } finally {
      await mcp.close();
    }
  });

  // Last: it restarts the server with a statement timeout far below what A's fleet risk needs.
  it("cuts a heavy request's statement at STATEMENT_TIMEOUT_MS and answers 503 service_unavailable with Retry-After, at once", async () => {
    await app.close();
    app = await startRouteServer({ db: tdb.handle, env: { REDIS_URL: undefined, DATABASE_URL: tdb.url, RATE_LIMIT_API_PER_MIN: "10000", STATEMENT_TIMEOUT_MS: "300" } });
    const cut = await timed(HEAVY_PATH, a.key);
    console.log(`[noisy-neighbour] A's fleet risk with STATEMENT_TIMEOUT_MS=300: ${cut.status} after ${cut.ms.toFixed(0)} ms`);
    expect(cut.status).toBe(503);
    expect(cut.body).toMatchObject({ error: "service_unavailable" });
    expect(typeof cut.body.message).toBe("string");
    expect(cut.retryAfter).toMatch(/^[1-9][0-9]*$/);
    // Cut near the timeout, not after the seconds the statement needs (a bound the timeout itself names, with room for a loaded machine).
    expect(cut.ms).toBeLessThan(2_000);
    // The tenant's place was given back: its next request is admitted (and cut again), not refused.
    expect(heavyInFlight(a.tenantId)).toBe(0);
    // Interactive reads are on their own pool and unaffected by the heavy pool's timeout.
    expect((await timed("/api/v1/fleet?limit=100", b.key)).status).toBe(200);
  });
});
