import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const alias = { "@": path.resolve(import.meta.dirname) };

/**
 * Projects:
 * - unit: pure functions, no database.
 * - db: the database layer itself (migrations, the embedded database's socket, pools, faults), each
 *   file once, on the driver it is about.
 * - api-postgres / api-pglite: the route handlers behind a real HTTP server, the same files run on
 *   a fresh Postgres database and on the embedded PGlite (what differs between the drivers is SQL);
 *   with them the scenario suite (tests/scenarios: constructed vehicles with a known truth through
 *   ingest → query → score).
 * - transport: the HTTP and MCP edges (shared security checks, fuzz, hostile input, MCP, rate limits,
 *   logging, pricing), which test no SQL: on Postgres only.
 * - integration: real processes (admin CLI, seed, the built app), two files at a time.
 *
 * Each file gets its own database, copied from a template migrated (or seeded) once per run and shared by
 * the projects that ask for it in their global setup (tests/helpers/database-templates.ts); the integration
 * project's app boots start from a seeded copy.
 * Property tests draw from a fixed seed (tests/setup/fast-check-seed.ts; FUZZ_SEED to explore).
 */
/**
 * The files that take longest (CI's Vitest JSON report, 2026-11-29), started first: on a clean clone
 * Vitest has no timings from an earlier run and orders by file size, which started the fuzz test
 * (≈90 s) six minutes in, alone at the end of the run while the other workers had nothing left. A file
 * missing here only loses its head start.
 */
const SLOWEST_FIRST = [
  "tests/transport/operations.fuzz.test.ts",
  "tests/db/seed-sandbox.test.ts",
  "tests/db/distance-rollups.test.ts",
  "tests/db/telemetry-rollups.test.ts",
  "tests/db/admin-cli.test.ts",
  "tests/db/ingest-mirrors.test.ts",
  "tests/unit/seed/generate-sandbox-fleet.test.ts",
  "tests/db/certificate-signing-keys.test.ts",
  "tests/db/calibrate.test.ts",
  "tests/transport/mcp-stdio.test.ts",
  "tests/db/read-replica.test.ts",
  "tests/db/database-faults.test.ts",
  "tests/integration/embedded-app.test.ts",
  "tests/integration/soak.test.ts",
  "tests/integration/database-outage-pages.test.ts",
  "tests/integration/connections.test.ts",
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((suffix) => f.moduleId.endsWith(suffix));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Every project's environment. The app waits DATABASE_CONNECT_TIMEOUT_SECONDS (5 s by default) for a new
 * connection; under CI's full load (three workers, two app boots, Postgres on the same two cores) a
 * connection once took longer and a seed test failed with CONNECT_TIMEOUT (stop 39). No test here is
 * about that bound except tests/db/database-faults.test.ts, which sets its own.
 * The PDF signing keys the tests make (over a hundred a run, in this process, the CLIs and the apps they
 * start) are RSA-2048: 0.3 s of CPU each against 0.7 s for the production default, 3072, which
 * tests/db/certificate-signing-keys.test.ts and tests/unit/certificates/pdf-signing-certificate.test.ts make.
 */
const TEST_ENV = { DATABASE_CONNECT_TIMEOUT_SECONDS: "30", FDP_PDF_SIGNING_RSA_BITS: "2048" };
export default defineConfig({
  resolve: { alias },
  test: {
    // A bound for a hang, not a speed check: the same CI machine runs at half speed on some days, and a
    // loaded run then took over 60 s for the heaviest cases (the sandbox on a streaming replica, the fuzz).
    testTimeout: 180_000,
    env: TEST_ENV,
    // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses; inlined,
    // Vite resolves it (tests/api/dashboard-auth-route.test.ts serves next-auth's route).
    server: { deps: { inline: ["next-auth"] } },
    hookTimeout: 180_000,
    // Vitest's default is one worker less than the CPUs: ONE worker on the 2-core CI machine, so every
    // file ran alone while most of them wait on Postgres or a child process (CI at 0a3597f: 19 min of
    // Vitest at a load average under 2). Two, since in CI the browser and integration tests run beside
    // them: three there cost more CPU for the same work (clean-clone `.ci/run`, a reference of 545 ms: Vitest
    // 500 CPU-seconds and 604 s with three at 560b94d, 439 and 571 s with two at 8b0baa1, whose only
    // change was one sandbox generation of about 2 s fewer; docs/testing.md).
    // VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // Files of one worker share its loaded modules: loading the app's module graph again for every file was
    // a fifth of Vitest's time (api-postgres alone 68 → 40 s, 100 → 50 CPU-seconds). What a file leaves in
    // the process (environment, caches built from it) is undone before the next (tests/setup/file-isolation.ts);
    // a file that mocks a module the others load real resets the modules first (vi.resetModules).
    isolate: false,
    setupFiles: ["tests/setup/file-isolation.ts", "tests/setup/fast-check-seed.ts"],
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "db", include: ["tests/db/**/*.test.ts"], globalSetup: ["tests/setup/database-project-templates.ts"] } },
      {
        extends: true,
        test: {
          name: "api-postgres",
          include: ["tests/api/**/*.test.ts", "tests/scenarios/**/*.test.ts"],
          env: { ...TEST_ENV, FDP_TEST_DB: "postgres" },
          globalSetup: ["tests/setup/api-postgres-templates.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api-pglite",
          include: ["tests/api/**/*.test.ts", "tests/scenarios/**/*.test.ts"],
          env: { ...TEST_ENV, FDP_TEST_DB: "pglite" },
          globalSetup: ["tests/setup/pglite-templates.ts"],
        },
      },
      {
        extends: true,
        test: { name: "transport", include: ["tests/transport/**/*.test.ts"], env: { ...TEST_ENV, FDP_TEST_DB: "postgres" }, globalSetup: ["tests/setup/postgres-templates.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts", "tests/setup/seeded-templates.ts"],
          // Two files at a time: each starts the built app on its own database and port, and most of a
          // file's time is the app starting or a test waiting on it (alone: 200 → 100 s). Each file
          // loads its own modules; that is small beside the processes it starts.
          maxWorkers: 2,
          isolate: true,
        },
      },
    ],
  },
});
