import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

/**
 * Projects:
 * - unit: pure functions, no database.
 * - db: the database layer itself (migrations, the embedded database's socket).
 * - api-postgres / api-pglite: the route handlers behind a real HTTP server, the same files run on
 *   a fresh Postgres database and on the embedded PGlite; with them the scenario suite
 *   (tests/scenarios: constructed vehicles with a known truth through ingest → query → score).
 * - integration: real processes (admin CLI, seed, the built app started twice).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 60_000,
    // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses; inlined,
    // Vite resolves it (tests/api/dashboard-auth-route.test.ts serves next-auth's route).
    server: { deps: { inline: ["next-auth"] } },
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      // Database-level behaviour that does not depend on the driver under test (e.g. embedded sharing).
      { extends: true, test: { name: "db", include: ["tests/db/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "api-postgres", include: ["tests/api/**/*.test.ts", "tests/scenarios/**/*.test.ts"], env: { FDP_TEST_DB: "postgres" } },
      },
      {
        extends: true,
        test: {
          name: "api-pglite",
          include: ["tests/api/**/*.test.ts", "tests/scenarios/**/*.test.ts"],
          env: { FDP_TEST_DB: "pglite" },
          // PGlite is a WASM Postgres of ~1 GB per instance: one file at a time keeps memory flat.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          fileParallelism: false,
        },
      },
    ],
  },
});
