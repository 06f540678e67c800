import { z } from "zod";

/**
 * All configuration comes from the environment, parsed once. `.env.example` lists the same names.
 * Empty strings count as unset, so `FOO=` in a .env file falls back to the default.
 */
const emptyToUndefined = (v: unknown) => (v === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const positiveInt = (fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));

/** pino's level names; `silent` writes nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const envSchema = z.object({
  DATABASE_URL: optionalString,
  /**
   * A streaming read replica of DATABASE_URL (docs/scaling.md). Set (with DATABASE_URL), the
   * operations flagged `reads: "replica"` read from it unless the tenant's last write has not been
   * replayed there yet; everything else stays on DATABASE_URL. Ignored without DATABASE_URL.
   */
  DATABASE_REPLICA_URL: optionalString,
  /**
   * Connections of the app's main Postgres pool per instance (the generic-plan pool adds half as many,
   * the replica's pool its own): bounded, so that N instances stay under the server's max_connections.
   */
  DATABASE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  /**
   * Seconds a new Postgres connection may take before the request fails with 503 (postgres.js waits
   * 30 s by default: a request would hang that long while the server is down or unreachable).
   */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(60).default(5)),
  /** Seconds an unused pooled connection stays open (0: forever); closed ones reopen on demand. */
  DATABASE_IDLE_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(86_400).default(60)),
  /** Seconds a pooled connection lives at most before it is replaced (recycles connections a failover or a proxy left stale). */
  DATABASE_MAX_LIFETIME_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(60).max(86_400).default(1800)),
  /**
   * Milliseconds any one statement may run (Postgres `statement_timeout`, set on every connection of
   * every pool); a request cut by it answers 503 `service_unavailable` (CONTRACT "Reliability", default 30 s).
   */
  STATEMENT_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3_600_000).default(30_000)),
  /** Folder of the embedded PGlite database, used when DATABASE_URL is unset. */
  FDP_DATA_DIR: z.preprocess(emptyToUndefined, z.string().default(".data/pglite")),
  REDIS_URL: optionalString,
  /** Port `npm run dev` / `npm start` listen on (server.ts), and the port of the default PUBLIC_BASE_URL. */
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  /**
   * Public origin: verify URLs, the OpenAPI `servers`, the browser Origin /api/mcp accepts. Unset:
   * `http://localhost:<PORT>` (CONTRACT "Evidence and trust": verify links follow the port), see parseEnv.
   */
  PUBLIC_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(["0", "1", "true", "false"]).default("0")).transform((v) => v === "1" || v === "true"),
  /**
   * With TRUST_PROXY=1: how many proxies in front of the app append to X-Forwarded-For; the client IP is
   * the entry that many places from the right (1 = right-most, a single load balancer). lib/http/client-ip.ts.
   */
  TRUST_PROXY_HOPS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10).default(1)),
  RATE_LIMIT_API_PER_MIN: positiveInt(60),
  RATE_LIMIT_AUTH_PER_MIN: positiveInt(30),
  RATE_LIMIT_PUBLIC_PER_MIN: positiveInt(60),
  /** Seconds a looked-up API key (or its absence) is cached in-process; CONTRACT wants revocation within 5 s. */
  AUTH_CACHE_TTL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(5).default(2)),
  /** `0` skips the automatic migrate + sandbox seed at start (for operators who run them as a separate step). */
  FDP_AUTO_SETUP: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /**
   * Ed25519 private key (PKCS#8 PEM, newlines may be written as `\n`) to adopt as the first certificate
   * signing key of a database that has none usable yet; afterwards the keys live encrypted in the
   * database and `signing-key:rotate` makes new ones (lib/certificates/signing/signing-keys.ts).
   */
  FDP_CERT_SIGNING_KEY: optionalString,
  /** The key file of FDP versions before the key lifecycle; adopted like FDP_CERT_SIGNING_KEY when it exists. */
  FDP_CERT_SIGNING_KEY_FILE: optionalString,
  /**
   * Secret the stored signing keys are encrypted under (HKDF → AES-256-GCM); unset: AUTH_SECRET's value.
   * Every instance of a deployment needs the same one.
   */
  FDP_CERT_KEY_SECRET: optionalString,
  /**
   * Modulus of the RSA key that signs certificate PDFs, made with each new signing key (docs/certificates.md).
   * 3072 is rated at 128-bit security, the JWS key's level (NIST SP 800-57 Part 1 Rev. 5, Table 2); 4096 for a
   * policy that asks for it; 2048 (112-bit, which NIST SP 800-57 Part 1 accepts only through 2030) only
   * where keys are thrown away: the test suite, which makes over a hundred keys a run (0.3 s of CPU each
   * against 0.7 s for 3072 on the CI machine).
   */
  FDP_PDF_SIGNING_RSA_BITS: z.preprocess(emptyToUndefined, z.enum(["2048", "3072", "4096"]).default("3072")).transform((v) => Number(v) as 2048 | 3072 | 4096),
  /** Days a certificate stays valid (CONTRACT default 180). */
  FDP_CERT_VALIDITY_DAYS: positiveInt(180),
  /**
   * Worker threads that render certificate PDFs off the request thread (1–16); 0 renders in the
   * request's own thread (the benchmark's comparison: it stalls every other request meanwhile).
   */
  FDP_PDF_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(16).default(1)),
  /**
   * Large per-device score loads (the TAS batch of up to TAS_BATCH_MAX devices, the scores batch) are split into
   * this many statements run at once on the pool, so Postgres works on them with as many cores
   * (lib/devices/device-query.ts). 1 sends one statement.
   */
  FDP_QUERY_PARALLELISM: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).default(2)),
  /**
   * At most one background refresh of a tenant's daily telemetry rollups per this many seconds after
   * its ingests, the last ingest of a burst included (lib/telemetry/rollups/refresh-telemetry-rollups.ts).
   */
  ROLLUP_REFRESH_INTERVAL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(60)),
  /**
   * The dashboard's maintained scores (lib/dashboard/score-snapshots/): a page that finds them older than this
   * shows them with their "as of" time and starts a background refresh; the ingest refreshes them with
   * the rollups. 0 refreshes on every page view (still shown from the snapshot).
   */
  SCORE_SNAPSHOT_MAX_AGE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(86_400).default(300)),
  /** Live spot-price source (docs/spot-prices.md): `porssisahko` (porssisahko.net's v2 JSON API) or `entsoe` (A44 XML). */
  SPOT_PRICE_SOURCE: z.preprocess(emptyToUndefined, z.enum(["porssisahko", "entsoe"]).default("porssisahko")),
  /** ENTSO-E Transparency Platform security token (only for SPOT_PRICE_SOURCE=entsoe). */
  SPOT_PRICE_ENTSOE_TOKEN: optionalString,
  /** Base URL of that source; unset: the source's public one (lib/energy/sources/index.ts). Tests point it at a fixture server. */
  SPOT_PRICE_BASE_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  /** Milliseconds one fetch from the source may take before it counts as down. */
  SPOT_PRICE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(60_000).default(5_000)),
  /** Seconds the source is left alone after a failed fetch (stale/recorded answers meanwhile); 0 asks on every miss. */
  SPOT_PRICE_RETRY_AFTER_FAILURE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3600).default(60)),
  /** `0` turns off the recorded offline series: with the source down and nothing cached for 24 h, 503. */
  SPOT_PRICE_OFFLINE_FALLBACK: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /**
   * Secret that signs and encrypts the dashboard's session cookies (next-auth). Unset: generated once
   * into AUTH_SECRET_FILE (lib/dashboard/auth-secret.ts); with DATABASE_URL in production it must be
   * set, because every instance behind one address needs the same secret.
   */
  AUTH_SECRET: optionalString,
  /** Where the generated session secret lives when AUTH_SECRET is unset; default beside the embedded database. */
  AUTH_SECRET_FILE: optionalString,
  /**
   * next-auth builds its own URLs from the request's Host header only when told to trust it; FDP is
   * reached under whatever address it is deployed at (and on a random port in tests), so default yes.
   * `0` makes next-auth require AUTH_URL instead.
   */
  AUTH_TRUST_HOST: z.preprocess(emptyToUndefined, z.enum(["0", "1", "true", "false"]).default("1")).transform((v) => v === "1" || v === "true"),
  /** `1` creates the dashboard demo user (CONTRACT "Dashboard") on a DATABASE_URL start too; the embedded default always has it. */
  FDP_DEMO_USER: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).optional()).transform((v) => (v === undefined ? undefined : v === "1")),
  /** The demo user's password (CONTRACT default `sandbox-demo-2026`). */
  FDP_DEMO_PASSWORD: z.preprocess(emptyToUndefined, z.string().default("sandbox-demo-2026")),
  /**
   * Milliseconds a client has to send a request's headers and body (CONTRACT "Reliability and
   * hardening": 30 s); later, it is answered 408 `request_timeout` and its connection closed
   * (docs/connections.md). Node checks at most every second, so a request is cut within 1 s after it.
   */
  REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(30_000)),
  /** Milliseconds a client has to send a request's headers (never more than REQUEST_TIMEOUT_MS). */
  HEADERS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(10_000)),
  /** Milliseconds an idle keep-alive connection stays open: longer than clients and load balancers keep theirs (60 s). */
  KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(600_000).default(65_000)),
  /**
   * Open client connections at most; beyond it a new connection is closed at once. Unset: the
   * process's open-file limit less 256 descriptors kept for the database, Redis, PDF workers and files.
   */
  MAX_CONNECTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).optional()),
  /** Milliseconds requests in flight get to finish after SIGTERM before they are cut (CONTRACT: 25 s). */
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(25_000)),
  /**
   * Bearer token of `GET /api/metrics` (CONTRACT "Operations", docs/metrics.md): unset, the endpoint answers
   * 404 as an unknown path does. At least 16 characters without spaces (`openssl rand -hex 24` makes one).
   */
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{16,256}$/, { message: "must be 16–256 printable ASCII characters without spaces" })
      .optional(),
  ),
  /** Lowest level written to stderr (JSON lines); case-insensitive. */
  LOG_LEVEL: z.preprocess((v) => (typeof v === "string" ? emptyToUndefined(v.trim().toLowerCase()) : v), z.enum(LOG_LEVELS).default("info")),
  /** Interval of the "process stats" log line (memory, event-loop delay: lib/log/process-stats.ts); `0` turns it off. */
  FDP_PROCESS_STATS_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(86_400_000).default(60_000)),
  // Budgets, so that no tenant stalls another (docs/scaling.md "Budgets: heavy and interactive operations").
  // STATEMENT_TIMEOUT_MS (above) is the heavy operations' pool's limit too.
  /** The same for the interactive reads' pool (the fleet, alerts, single-vehicle scores): lower, since none should take seconds. */
  INTERACTIVE_STATEMENT_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(10_000)),
  /** Heavy operations one tenant may have in flight on one instance; the next one answers 429 with Retry-After. */
  HEAVY_CONCURRENCY_PER_TENANT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(2)),
  /**
   * Connections of the heavy operations' own pool (Postgres only). It also sets how many heavy
   * operations an instance runs at once: HEAVY_POOL_MAX / FDP_QUERY_PARALLELISM (at least 1).
   */
  HEAVY_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(6)),
  /** Connections of the interactive reads' own pool (Postgres only). */
  INTERACTIVE_POOL_MAX: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(10)),
  /** Longest a heavy operation waits for one of the instance's slots before it answers 503 with Retry-After, in ms. */
  HEAVY_QUEUE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(5_000)),
  // Webhooks (docs/webhooks.md, CONTRACT "Webhooks and the changes feed").
  /**
   * `1` lets webhooks target loopback (127.0.0.0/8, ::1, localhost) over http, for tests and local
   * development; every other private, link-local, multicast or reserved address stays refused.
   */
  WEBHOOK_ALLOW_LOOPBACK: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("0")).transform((v) => v === "1"),
  /** `0` keeps this instance from delivering webhooks (another instance does; events are still written). */
  WEBHOOK_WORKER: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /** Milliseconds one delivery attempt may take, connection to status line (CONTRACT: a 2xx within 15 s). */
  WEBHOOK_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(60_000).default(15_000)),
  /** Deliveries in flight at once per instance (at most one per endpoint). */
  WEBHOOK_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(8)),
  /** Deliveries of one tenant in flight at once across all instances: endpoints that hang hold at most this many slots. */
  WEBHOOK_CONCURRENCY_PER_TENANT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  /** Milliseconds between an idle worker's looks for due deliveries. */
  WEBHOOK_POLL_INTERVAL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(60_000).default(1_000)),
  /**
   * The waits after each failed attempt, in milliseconds, comma-separated; after the last the delivery is
   * `failed`. Default the CONTRACT's: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Tests shorten it.
   */
  WEBHOOK_RETRY_SCHEDULE_MS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{1,9}(,\d{1,9}){0,19}$/, { message: "must be 1–20 comma-separated millisecond counts" })
      .default("5000,300000,1800000,7200000,18000000,36000000,36000000")
      .transform((v) => v.split(",").map(Number)),
  ),
  // MQTT bridges (docs/feeds.md "MQTT bridge").
  /** `0` keeps this instance from running MQTT bridges (another instance runs them). */
  MQTT_BRIDGE: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).default("1")).transform((v) => v === "1"),
  /** Milliseconds an instance holds a bridge between renewals (renewed every third): a crashed instance's bridges move within this. */
  MQTT_BRIDGE_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(600_000).default(30_000)),
  /** First wait before connecting again after a broker connection ends, in ms; doubled each time up to MQTT_BRIDGE_RECONNECT_MAX_MS. */
  MQTT_BRIDGE_RECONNECT_MIN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(60_000).default(1_000)),
  MQTT_BRIDGE_RECONNECT_MAX_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(600_000).default(30_000)),
});

export type Env = Omit<z.infer<typeof envSchema>, "PUBLIC_BASE_URL"> & { PUBLIC_BASE_URL: string };

/** The settings from `source` (process.env in the app), with the defaults that depend on other settings. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.parse(source);
  return { ...parsed, PUBLIC_BASE_URL: parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}` };
}

let cached: Env | undefined;

export function env(): Env {
  if (!cached) cached = parseEnv(process.env);
  return cached;
}

/** Tests change process.env between cases; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
