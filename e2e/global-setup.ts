import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runAdminInProcess } from "../tests/helpers/admin-in-process";
import { startApp, ROOT } from "../tests/helpers/app-process";
import { quarterHourPrices, startSpotPriceFixtureServer } from "../tests/helpers/spot-price-fixture-server";

/** The limit the e2e server runs with, low enough for a test to cross it (e2e/auth.spec.ts). */
export const E2E_SIGN_IN_LIMIT = 5;
/** The other tenant's dashboard user (created below). */
export const E2E_OTHER_USER = { email: "manager@e2e-other.example", password: "e2e-other-fleet-2026" };

/**
 * One command of the admin CLI, run in this process as `npm run --silent admin` runs it in its own
 * (tests/helpers/admin-in-process.ts), on the server's embedded database: another process than the
 * server's, it reaches that database through the server's socket. Its JSON answer; an error on exit 1.
 * The CLI as a process of its own (stdout, exit code) is tests/integration/admin-cli.test.ts's one spawn.
 */
export async function runCli(args: string[], dataDir = process.env.FDP_E2E_DATA_DIR): Promise<Record<string, string>> {
  const run = await runAdminInProcess(args, { FDP_DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: "silent" });
  if (run.code !== 0) throw new Error(`admin ${args.join(" ")}: exit ${run.code}: ${JSON.stringify(run.json)}\n${run.stderr}`);
  return run.json as Record<string, string>;
}

/**
 * Builds (unless FDP_SKIP_BUILD=1 and .next holds a build, as the integration tests do), starts the
 * app on a fresh embedded database, and adds a second tenant with one vehicle (the "foreign vehicle"
 * of the 404 test). Tests read the address and that vehicle from the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // FDP_E2E_DEV=1: against `npm run dev` instead (no build; slower pages, for iterating on the UI).
  const dev = process.env.FDP_E2E_DEV === "1";
  if (!dev && !(process.env.FDP_SKIP_BUILD === "1" && existsSync(path.join(ROOT, ".next", "BUILD_ID")))) {
    execFileSync("npm", ["run", "--silent", "build"], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    });
  }
  // Live spot prices from a local stand-in for the price source (its documented format), from an hour
  // ago for two days: the vehicle page draws today's curve. With no source at all the app would serve
  // the shipped recorded day, which it rightly never draws as today's market.
  const hour = 3_600_000;
  const spotPrices = await startSpotPriceFixtureServer(quarterHourPrices(Math.floor(Date.now() / hour) * hour - hour, 4 * 48));
  const dir = mkdtempSync(path.join(tmpdir(), "fdp-e2e-"));
  const dataDir = path.join(dir, "pglite");
  const env = {
    FDP_DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    AUTH_SECRET: undefined,
    AUTH_SECRET_FILE: undefined,
    FDP_DEMO_USER: undefined,
    FDP_DEMO_PASSWORD: undefined,
    FDP_CERT_SIGNING_KEY: undefined,
    FDP_CERT_SIGNING_KEY_FILE: undefined,
    // Each test presents its own client address (e2e/fixtures.ts), so the low sign-in limit below
    // binds only the test that means to cross it.
    TRUST_PROXY: "1",
    RATE_LIMIT_AUTH_PER_MIN: String(E2E_SIGN_IN_LIMIT),
    SPOT_PRICE_SOURCE: "porssisahko",
    SPOT_PRICE_BASE_URL: spotPrices.url,
    LOG_LEVEL: "info",
    // The maintained scores are not refreshed for their age during the run (only after changes), so a test
    // can tell an answer kept from before its request from one computed for it (e2e/fleet-scores.spec.ts).
    SCORE_SNAPSHOT_MAX_AGE_SECONDS: "86400",
    // e2e/keys.spec.ts registers a webhook to a receiver of its own on 127.0.0.1.
    WEBHOOK_ALLOW_LOOPBACK: "1",
    // e2e/mqtt-feed.spec.ts adds an MQTT bridge while the server runs: renewals every second take it up.
    MQTT_BRIDGE_LEASE_MS: "3000",
    // Throwaway PDF signing keys: RSA-2048 makes one in 0.3 s of CPU, the production 3072 in 0.7 s (vitest.config.ts TEST_ENV).
    FDP_PDF_SIGNING_RSA_BITS: "2048",
  };
  const app = await startApp({ mode: dev ? "dev" : "start", env });

  // Another tenant with one vehicle, through the CLI and the ingest API as an operator would.
  const { tenant_id } = await runCli(["tenant:create", "--name", "E2E Other Fleet"], dataDir);
  const { key } = await runCli(["key:create", "--tenant", tenant_id!], dataDir);
  // A dashboard user of that tenant: what the sandbox's demo user may not do (rotate the public
  // sandbox ingest secret, require signatures) is tried there (e2e/keys.spec.ts).
  await runCli(["user:create", "--tenant", tenant_id!, "--email", E2E_OTHER_USER.email, "--password", E2E_OTHER_USER.password], dataDir);
  const record = {
    vin: "WE2EOTHER00000001",
    timestamp: new Date(Date.now() - 60_000).toISOString(),
    speed_kmh: 0,
    soc_percent: 64,
    raw_data: { ignition: false, vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } },
  };
  const ingest = await fetch(`${app.url}/api/v1/oem/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ vehicles: [record] }),
  });
  if (ingest.status !== 200) throw new Error(`e2e setup: ingest answered ${ingest.status}: ${await ingest.text()}`);
  const fleet = (await (await fetch(`${app.url}/api/v1/fleet`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { device_id: string }[] };
  const foreign = fleet.data[0]?.device_id;
  if (!foreign) throw new Error("e2e setup: the other tenant's vehicle is missing from its fleet");

  process.env.FDP_E2E_BASE_URL = app.url;
  // The server's embedded database, for tests that run the admin CLI beside it (e2e/embedded-start.spec.ts).
  process.env.FDP_E2E_DATA_DIR = dataDir;
  process.env.FDP_E2E_FOREIGN_DEVICE = foreign;
  // The other tenant's key, for tests that make it own something (a certificate) the demo user must not reach.
  process.env.FDP_E2E_FOREIGN_KEY = key;
  process.env.FDP_E2E_SIGN_IN_LIMIT = String(E2E_SIGN_IN_LIMIT);
  process.env.FDP_E2E_OTHER_EMAIL = E2E_OTHER_USER.email;
  process.env.FDP_E2E_OTHER_PASSWORD = E2E_OTHER_USER.password;

  return async () => {
    await app.stop();
    await spotPrices.close();
    mkdirSync(path.join(ROOT, "test-results"), { recursive: true });
    writeFileSync(path.join(ROOT, "test-results", "e2e-server.log"), app.output());
    rmSync(dir, { recursive: true, force: true });
  };
}
