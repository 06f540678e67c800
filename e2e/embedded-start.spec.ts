import { SANDBOX_SERVED, sandboxServedFacts } from "../tests/helpers/sandbox-served";
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
test("npm start on the embedded database serves the sandbox fleet of at least 40 vehicles, alerts, health and the OpenAPI document", async ({ baseURL }) => {
  expect(await sandboxServedFacts(baseURL!)).toEqual(SANDBOX_SERVED);
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
