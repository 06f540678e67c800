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
  // The CLI runs in this test's process, another than the server's: it reaches the database through the server's socket.
  const { tenant_id } = await runCli(["tenant:create", "--name", "Live beside the server"]);
  const { key, key_id } = await runCli(["key:create", "--tenant", tenant_id!]);
  const fleet = await request.get("/api/v1/fleet", { headers: { authorization: `Bearer ${key}` } });
  expect(fleet.status()).toBe(200);
  expect(await fleet.json()).toEqual({ data: [], count: 0, tenant_id });

  expect(await runCli(["key:revoke", "--key-id", key_id!])).toEqual({ revoked: true });
  const revokedAt = Date.now();
  let status = 200;
  while (status !== 401 && Date.now() - revokedAt < REVOCATION_DEADLINE_MS) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await request.get("/api/v1/fleet", { headers: { authorization: `Bearer ${key}` } })).status();
  }
  expect(status).toBe(401);
});
