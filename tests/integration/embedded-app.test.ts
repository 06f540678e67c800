import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { runAdminInProcess } from "../helpers/admin-in-process";
import { startApp, type AppProcess } from "../helpers/app-process";

const REVOCATION_DEADLINE_MS = 5_000;

/**
 * What a new user gets from the README's first command (`npm run dev`): no DATABASE_URL, so the embedded
 * PGlite database under FDP_DATA_DIR, migrated and seeded with the sandbox fleet by the start itself.
 * `npm start` on the embedded database is e2e/embedded-start.spec.ts (the browser tests' server is that
 * start, and the admin CLI adds a tenant beside it in e2e/global-setup.ts).
 */
describe("npm run dev on the embedded database", () => {
  const mode = "dev";
  const dataDir = mkdtempSync(path.join(tmpdir(), `fdp-embedded-${mode}-`));
  let app: AppProcess | undefined;

  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the sandbox fleet of at least 40 vehicles, alerts, health and the OpenAPI document", async () => {
    app = await startApp({ mode, env: { DATABASE_URL: undefined, REDIS_URL: undefined, FDP_DATA_DIR: dataDir } });
    const health = await fetch(`${app.url}/api/health`);
    expect(await health.json()).toEqual({ status: "ok" });

    const fleet = await fetch(`${app.url}/api/v1/fleet?limit=500`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(fleet.status).toBe(200);
    const body = (await fleet.json()) as { _sandbox: boolean; count: number; tenant_id: string; data: { status: string; lat: number; lon: number }[] };
    expect(body._sandbox).toBe(true);
    expect(body.tenant_id).toBe("sandbox");
    expect(body.count).toBeGreaterThanOrEqual(40);
    expect(new Set(body.data.map((d) => d.status)).size).toBeGreaterThanOrEqual(3);
    for (const d of body.data) {
      expect(d.lat).toBeGreaterThan(59.5);
      expect(d.lat).toBeLessThan(70.2);
      expect(d.lon).toBeGreaterThan(19);
      expect(d.lon).toBeLessThan(31.6);
    }

    const alerts = await fetch(`${app.url}/api/v1/alerts?limit=200`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    const alertBody = (await alerts.json()) as { data: { severity: string }[] };
    expect(new Set(alertBody.data.map((a) => a.severity))).toEqual(new Set(["CRITICAL", "WARNING", "INFO"]));

    const spec = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.info.version).toBe("1.2.0");
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/fleet", "/alerts"]));

    const home = await fetch(`${app.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('href="/docs"');
    expect(html).toContain('href="/dashboard"');
    // The first `npm run dev` migrates, seeds (≈20 s on PGlite) and compiles each page on its first request:
    // beside the browser tests (npm run test:all) it takes longer than the default 60 s.
  }, 240_000);

  it("lets the admin CLI issue and revoke keys on the embedded database while the app runs", async () => {
    // The CLI's commands in this process, another one than the server's: it reaches the database through the server's socket.
    const admin = async (...args: string[]) => {
      const run = await runAdminInProcess(args, { DATABASE_URL: undefined, FDP_DATA_DIR: dataDir });
      expect(run.code, JSON.stringify(run.json) + run.stderr).toBe(0);
      return run.json as Record<string, string>;
    };
    const { tenant_id } = await admin("tenant:create", "--name", "Live beside the server");
    const { key, key_id } = await admin("key:create", "--tenant", tenant_id!);
    const fleet = await fetch(`${app!.url}/api/v1/fleet`, { headers: { authorization: `Bearer ${key}` } });
    expect(fleet.status).toBe(200);
    expect(await fleet.json()).toEqual({ data: [], count: 0, tenant_id });

    expect(await admin("key:revoke", "--key-id", key_id!)).toEqual({ revoked: true });
    // CONTRACT: a revoked key is refused within 5 s (the server caches key lookups for AUTH_CACHE_TTL_SECONDS).
    const revokedAt = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < REVOCATION_DEADLINE_MS) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await fetch(`${app!.url}/api/v1/fleet`, { headers: { authorization: `Bearer ${key}` } })).status;
    }
    expect(status).toBe(401);
  });
});
