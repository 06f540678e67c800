import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, test } from "./fixtures";
import { runCli } from "./global-setup";

/** CONTRACT: a revoked key is refused within 5 s (the server caches key lookups for AUTH_CACHE_TTL_SECONDS). */
const REVOCATION_DEADLINE_MS = 5_000;

/**
 * What a new user gets from `npm start` with no DATABASE_URL: the server e2e/global-setup.ts started is
 * exactly that (the production build on a fresh embedded PGlite database under FDP_DATA_DIR, migrated and
 * seeded by the start itself, and the admin CLI beside it added a tenant). `npm run dev` on the embedded
 * database is tests/integration/embedded-app.test.ts.
 */
test("npm start on the embedded database serves the sandbox fleet of at least 40 vehicles, alerts, health and the OpenAPI document", async ({ request }) => {
  const auth = { authorization: `Bearer ${SANDBOX_KEY}` };
  const health = await request.get("/api/health");
  expect(await health.json()).toEqual({ status: "ok" });

  const fleet = await request.get("/api/v1/fleet?limit=500", { headers: auth });
  expect(fleet.status()).toBe(200);
  const body = (await fleet.json()) as { _sandbox: boolean; count: number; tenant_id: string; data: { status: string; lat: number; lon: number }[] };
  expect(body._sandbox).toBe(true);
  expect(body.tenant_id).toBe("sandbox");
  expect(body.count).toBeGreaterThanOrEqual(40);
  expect(new Set(body.data.map((d) => d.status)).size).toBeGreaterThanOrEqual(3);
  for (const d of body.data) {
    // Finland's bounding box: the sandbox drives there.
    expect(d.lat).toBeGreaterThan(59.5);
    expect(d.lat).toBeLessThan(70.2);
    expect(d.lon).toBeGreaterThan(19);
    expect(d.lon).toBeLessThan(31.6);
  }

  const alerts = await request.get("/api/v1/alerts?limit=200", { headers: auth });
  const alertBody = (await alerts.json()) as { data: { severity: string }[] };
  expect(new Set(alertBody.data.map((a) => a.severity))).toEqual(new Set(["CRITICAL", "WARNING", "INFO"]));

  const spec = (await (await request.get("/api/v1/openapi.json")).json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
  expect(spec.openapi).toBe("3.1.0");
  expect(spec.info.version).toBe("1.2.0");
  expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/fleet", "/alerts"]));

  const home = await request.get("/");
  expect(home.status()).toBe(200);
  const html = await home.text();
  expect(html).toContain('href="/docs"');
  expect(html).toContain('href="/dashboard"');
});

test("the admin CLI beside npm start issues and revokes keys on the embedded database, and the server refuses a revoked key within 5 s", async ({ request }) => {
  // The CLI is another process than the server's: it reaches the database through the server's socket.
  const cliEnv = { ...process.env, FDP_DATA_DIR: process.env.FDP_E2E_DATA_DIR, LOG_LEVEL: "silent" } as NodeJS.ProcessEnv;
  delete cliEnv.DATABASE_URL;
  const { tenant_id } = runCli(["tenant:create", "--name", "Live beside the server"], cliEnv);
  const { key, key_id } = runCli(["key:create", "--tenant", tenant_id!], cliEnv);
  const fleet = await request.get("/api/v1/fleet", { headers: { authorization: `Bearer ${key}` } });
  expect(fleet.status()).toBe(200);
  expect(await fleet.json()).toEqual({ data: [], count: 0, tenant_id });

  expect(runCli(["key:revoke", "--key-id", key_id!], cliEnv)).toEqual({ revoked: true });
  const revokedAt = Date.now();
  let status = 200;
  while (status !== 401 && Date.now() - revokedAt < REVOCATION_DEADLINE_MS) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await request.get("/api/v1/fleet", { headers: { authorization: `Bearer ${key}` } })).status();
  }
  expect(status).toBe(401);
});
