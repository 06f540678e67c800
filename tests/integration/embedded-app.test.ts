import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runAdminInProcess } from "../helpers/admin-in-process";
import { startApp, type AppProcess } from "../helpers/app-process";
import { SANDBOX_SERVED, sandboxServedFacts } from "../helpers/sandbox-served";

const REVOCATION_DEADLINE_MS = 5_000;
/**
 * The first `npm run dev` migrates, seeds (17 s on PGlite alone on this machine) and compiles each page on
 * its first request: 30 s to ready and 48 s for the test alone, but in `npm run test:all` it shares two
 * cores with the rest of Vitest and another integration file, and on 2026-11-30 it took more than 240 s
 * there (stop 41). A bound against a hang, not a speed test.
 */
const FIRST_DEV_START_MS = 420_000;

/**
 * What a new user gets from the README's first command (`npm run dev`): no DATABASE_URL, so the embedded
 * PGlite database under FDP_DATA_DIR, migrated and seeded with the sandbox fleet by the start itself.
 * `npm start` on the embedded database is e2e/embedded-start.spec.ts (the browser tests' server is that
 * start, and the admin CLI adds a tenant beside it in e2e/global-setup.ts).
 */
describe("npm run dev on the embedded database", () => {
  const mode = "dev";
  // One level down, as .data/pglite is: the session secret the app generates goes beside it, in this folder.
  const work = mkdtempSync(path.join(tmpdir(), `fdp-embedded-${mode}-`));
  const dataDir = path.join(work, "pglite");
  let app: AppProcess | undefined;

  afterAll(async () => {
    await app?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    "serves the sandbox fleet of at least 40 vehicles, alerts, health and the OpenAPI document",
    async () => {
      app = await startApp({ mode, env: { DATABASE_URL: undefined, REDIS_URL: undefined, FDP_DATA_DIR: dataDir }, readyTimeoutMs: FIRST_DEV_START_MS });
      expect(await sandboxServedFacts(app.url)).toEqual(SANDBOX_SERVED);
      // The test environment's throwaway PDF signing keys (vitest.config.ts TEST_ENV) are named at start-up.
      expect(app.output()).toContain("FDP_PDF_SIGNING_RSA_BITS=2048: new PDF signing keys get 112-bit security");
    },
    FIRST_DEV_START_MS + 60_000,
  );

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
