import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { PROBE_TTL_MS } from "@/lib/http/database-gate";
import { startApp, type AppProcess } from "../helpers/app-process";
import { startPrivateCluster, type PrivateCluster } from "../helpers/private-postgres";

/**
 * CONTRACT "Reliability and hardening" for pages: while the database is unreachable, the production
 * build answers the pages that read it with its 503 page and Retry-After (lib/http/database-gate.ts)
 * instead of Next.js's 500 page, the API with the 503 envelope, and all of it comes back by itself when
 * the database does. On a Postgres cluster of this file's own, stopped and started under the app.
 */
let cluster: PrivateCluster;
let app: AppProcess;

beforeAll(async () => {
  cluster = await startPrivateCluster("fdp-pg-pages-");
  // The default connect timeout: a stopped server refuses connections at once, and a 2 s bound made the
  // app's own start fail on a CI machine busy with the other tests.
  app = await startApp({ mode: "start", env: { DATABASE_URL: cluster.url, REDIS_URL: undefined } });
}, 240_000);

afterAll(async () => {
  await app?.stop();
  cluster?.dispose();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await fetch(`${app.url}${path}`, { redirect: "manual", headers });
  const body = await res.text();
  return { status: res.status, headers: res.headers, body, ms: performance.now() - started };
}

const PAGES = ["/login", "/dashboard", "/dashboard/keys", "/verify/FDP-2026-000001"];

describe("pages while the database is down", () => {
  it("503 page with Retry-After while it is down, the pages back by themselves once it answers", async () => {
    // Up: the sign-in page renders, the dashboard sends a signed-out browser to it.
    expect((await get("/login")).status).toBe(200);
    expect((await get("/dashboard")).status).toBe(307);

    await cluster.stop("fast");
    // The gate's answer is cached for PROBE_TTL_MS: the pages turn to the 503 page within that (plus a probe).
    const stoppedAt = performance.now();
    let first = await get("/login");
    while (first.status === 200 && performance.now() - stoppedAt < PROBE_TTL_MS + 2_000) first = await get("/login");
    expect(first.status).toBe(503);
    console.log(`[outage pages] 503 page ${Math.round(performance.now() - stoppedAt)} ms after the database stopped`);
    for (const page of PAGES) {
      const answer = await get(page);
      expect(answer.status, page).toBe(503);
      expect(answer.headers.get("content-type"), page).toBe("text/html; charset=utf-8");
      expect(Number(answer.headers.get("retry-after")), page).toBeGreaterThan(0);
      expect(answer.body, page).toContain("<h1>FDP is briefly unavailable</h1>");
      // The headers every answer carries (CONTRACT "Reliability and hardening").
      expect(answer.headers.get("content-security-policy"), page).toContain("frame-ancestors 'none'");
      expect(answer.headers.get("x-content-type-options"), page).toBe("nosniff");
      expect(answer.ms, `${page} answered in ${Math.round(answer.ms)} ms`).toBeLessThan(3_000);
    }
    // A page that reads nothing still renders; the API answers in its envelope; readiness says 503.
    expect((await get("/")).status).toBe(200);
    const api = await get("/api/v1/fleet?limit=1", { authorization: `Bearer ${SANDBOX_KEY}` });
    expect(api.status).toBe(503);
    expect(JSON.parse(api.body)).toMatchObject({ error: "service_unavailable" });
    expect((await get("/api/health")).status).toBe(503);

    await cluster.start();
    const startedAt = performance.now();
    let login = await get("/login");
    while (login.status !== 200 && performance.now() - startedAt < 15_000) {
      await new Promise((r) => setTimeout(r, 100));
      login = await get("/login");
    }
    expect(login.status).toBe(200);
    console.log(`[outage pages] pages back ${Math.round(performance.now() - startedAt)} ms after the database started`);
    expect((await get("/dashboard")).status).toBe(307);
  }, 120_000);
});
