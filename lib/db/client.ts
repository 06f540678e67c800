import { mkdirSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env";
import type { Db } from "./db-type";
import * as schema from "./schema";
import { registerGenericPlanPool } from "./prepared";
import { recordPoolSize } from "@/lib/metrics/metrics";

export type { Db } from "./db-type";

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  /** True when this is the embedded database reached through the serving process's socket. */
  viaEmbeddedSocket?: boolean;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

/** Connection settings beyond the pool size, for the read replica's pool (lib/db/replica.ts) and the operation pools. */
interface PostgresExtras {
  /**
   * Shown in pg_stat_activity (and in the server's log with `%a`) for this pool's connections; default
   * MAIN_POOL_NAME. Its generic-plan pool's connections carry it with `-generic` (the metrics' pool label).
   */
  applicationName?: string;
  /** Seconds a connection attempt may take (default DATABASE_CONNECT_TIMEOUT_SECONDS). */
  connectTimeoutSeconds?: number;
  /** Milliseconds a statement may run on this pool (default STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
}

/** The application_name of the app's main pool: `GET /api/metrics` counts connections by it (lib/metrics/). */
export const MAIN_POOL_NAME = "fdp";

/**
 * The postgres.js options of every pool FDP opens on a Postgres server (main, generic-plan, replica, and
 * any pool another module adds: reuse this so that they all keep the same bounds). What each answers:
 * - `max`: a bounded pool (DATABASE_POOL_MAX), so instances × pools stay under max_connections;
 * - `connect_timeout`: a request waits at most DATABASE_CONNECT_TIMEOUT_SECONDS for a connection to a
 *   server that is down or unreachable (postgres.js's default is 30 s), then answers 503;
 * - `idle_timeout` and `max_lifetime`: connections are recycled, so one a failover, a proxy or a
 *   restart left half-open is not kept for hours;
 * - `backoff`: after failed connection attempts postgres.js waits 3^n / 100 s before the next one, up
 *   to 20 s, while requests queue for a connection: after a 2 s restart it answered nothing for 4.7 s
 *   and one request waited 16.7 s (tests/db/database-faults.test.ts). Capped at RECONNECT_BACKOFF_MAX_S;
 * - `statement_timeout` as a startup parameter: the server itself cuts any statement past
 *   STATEMENT_TIMEOUT_MS, on every connection, whatever the statement (CONTRACT "Reliability");
 * - JIT off: FDP's statements are index probes and small aggregates, which LLVM compilation only slows
 *   down (3.8 s of compilation for a 1.2 s fleet statement: docs/performance.md "JIT compilation").
 * postgres.js drops a connection the server closed (57P01 after pg_terminate_backend, a restart) and
 * opens a new one for the next statement: only the statement running on it fails
 * (tests/db/database-faults.test.ts).
 */
function postgresPoolOptions(extras: PostgresExtras & { max?: number } = {}) {
  const e = env();
  return {
    backoff: reconnectBackoffSeconds,
    max: extras.max ?? e.DATABASE_POOL_MAX,
    onnotice: () => {},
    connect_timeout: extras.connectTimeoutSeconds ?? e.DATABASE_CONNECT_TIMEOUT_SECONDS,
    idle_timeout: e.DATABASE_IDLE_TIMEOUT_SECONDS === 0 ? undefined : e.DATABASE_IDLE_TIMEOUT_SECONDS,
    max_lifetime: e.DATABASE_MAX_LIFETIME_SECONDS,
    connection: {
      jit: "off",
      statement_timeout: String(extras.statementTimeoutMs ?? e.STATEMENT_TIMEOUT_MS),
      application_name: extras.applicationName ?? MAIN_POOL_NAME,
    } as Record<string, string>,
  };
}

/** The longest wait between two connection attempts to a server that refused or dropped the last one. */
const RECONNECT_BACKOFF_MAX_S = 0.5;

/** Seconds before reconnection attempt `retries` (1, 2, …): 50 ms doubling, capped, with jitter so that instances do not retry in step. */
function reconnectBackoffSeconds(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, RECONNECT_BACKOFF_MAX_S);
}

async function openPostgres(options: { url: string } | { path: string }, max: number | undefined, extras: PostgresExtras = {}): Promise<{ db: Db; close(): Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // The embedded database reached through its socket (the admin CLI beside a running server) is no
  // Postgres server: one connection, and none of the server settings (no JIT; its statement_timeout
  // is not enforced, docs/scaling.md "Failure semantics").
  const config =
    "url" in options
      ? postgresPoolOptions({ ...extras, max })
      : { max: max ?? 1, onnotice: () => {}, connection: extras.applicationName ? { application_name: extras.applicationName } : {} };
  const client = "url" in options ? postgres(options.url, config) : postgres({ ...config, path: options.path });
  const db = drizzle(client, { schema }) as unknown as Db;
  // The generic-plan pool (lib/db/prepared.ts): same server and settings, half the connections, and
  // plan_cache_mode forced to generic plans; opened on first use. Not for the embedded database
  // reached through its socket, which serves one connection at a time.
  const url = "url" in options ? options.url : null;
  const genericConfig = {
    ...config,
    max: Math.max(2, Math.ceil(config.max / 2)),
    connection: { ...config.connection, plan_cache_mode: "force_generic_plan", application_name: `${config.connection.application_name ?? MAIN_POOL_NAME}-generic` },
  };
  if (url) recordPoolSize(config.connection.application_name ?? MAIN_POOL_NAME, config.max);
  const closeGeneric = url
    ? registerGenericPlanPool(db, () => {
        recordPoolSize(genericConfig.connection.application_name, genericConfig.max);
        const generic = postgres(url, genericConfig);
        drizzle(generic); // the app's date/time handling (drizzle configures the client's parsers)
        return { client: generic, close: () => generic.end({ timeout: 5 }) };
      })
    : async () => {};
  return {
    db,
    async close() {
      await closeGeneric();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * Opens a database without migrating it: a Postgres URL → postgres; otherwise the embedded PGlite
 * in FDP_DATA_DIR. `url` defaults to DATABASE_URL; `url: null` forces the embedded database.
 * An embedded database that a serving process holds is reached through that process's socket
 * (lib/db/embedded-share.ts); `share: true` makes this process the one that serves it.
 */
export async function openDatabase(opts: { url?: string | null; dataDir?: string; share?: boolean } = {}): Promise<DbHandle> {
  const url = opts.url === undefined ? env().DATABASE_URL : opts.url;
  if (url) return { ...(await openPostgres({ url }, undefined)), kind: "postgres" };

  // A folder chosen at run time: keep the bundler from tracing the whole project for it.
  const dataDir = path.resolve(/*turbopackIgnore: true*/ opts.dataDir ?? env().FDP_DATA_DIR);
  const { embeddedSocketPath, isEmbeddedDatabaseShared, shareEmbeddedDatabase } = await import("./embedded-share");
  if (await isEmbeddedDatabaseShared(dataDir)) {
    return { ...(await openPostgres({ path: embeddedSocketPath(dataDir) }, 1)), kind: "postgres", viaEmbeddedSocket: true };
  }
  mkdirSync(dataDir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const client = new PGlite(dataDir);
  await client.waitReady;
  const stopSharing = opts.share ? await shareEmbeddedDatabase(client, dataDir) : undefined;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async close() {
      await stopSharing?.();
      await client.close();
    },
  };
}

/** A Postgres database at `url` with these connection settings, not migrated (the read replica's pool). */
export async function openPostgresDatabase(url: string, opts: { max?: number } & PostgresExtras = {}): Promise<DbHandle> {
  return { ...(await openPostgres({ url }, opts.max, opts)), kind: "postgres" };
}

/**
 * Applies the SQL migrations in drizzle/ with the migrator that matches the driver. Through the
 * embedded socket there is nothing to do: the serving process migrated the database at its start.
 */
export async function migrateDatabase(handle: DbHandle): Promise<void> {
  if (handle.viaEmbeddedSocket) return;
  if (handle.kind === "postgres") {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

// ---------------------------------------------------------------------------------------------
// The app's one database, opened lazily (never at `next build`) and kept on globalThis so that
// dev-mode module reloads do not open a second PGlite on the same folder.

type Global = typeof globalThis & { __fdpDb?: Promise<DbHandle> };
const g = globalThis as Global;

/**
 * The process-wide database, opened on first use. Migrating it and seeding the sandbox belong to the
 * server's start-up (server.ts), not to whoever asks first: this module knows nothing of the seed.
 */
export function getDbHandle(): Promise<DbHandle> {
  if (!g.__fdpDb) {
    g.__fdpDb = openDatabase({ share: true });
    g.__fdpDb.catch(() => {
      g.__fdpDb = undefined; // let the next request retry instead of caching a failure forever
    });
  }
  return g.__fdpDb;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Replaces the process-wide database (tests point the app at their own database). */
export function setDbHandle(handle: DbHandle | undefined): void {
  g.__fdpDb = handle ? Promise.resolve(handle) : undefined;
}
