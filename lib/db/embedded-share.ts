import { existsSync, rmSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded PGlite database can be opened by one process only. The process that serves the app
 * therefore shares its open database on a Unix socket next to the data folder, speaking the
 * Postgres wire protocol (@electric-sql/pglite-socket); other local processes (the admin CLI,
 * `db:seed`) connect to it with the ordinary `postgres` driver instead of opening the folder twice.
 * The socket file is created with the process's umask: only local users who may read the data
 * folder can reach it, the same people who could open the folder.
 */
export function embeddedSocketPath(dataDir: string): string {
  return `${dataDir}.sock`;
}

/**
 * Socket statements must never run inside one of the serving process's own transactions (PGlite
 * is one session: a statement slipped between its BEGIN and COMMIT would share its fate). So each
 * socket statement waits for the transaction lock as well as the query lock.
 */
function withTransactionLock(client: PGlite): PGlite {
  const exclusive = <T>(fn: () => Promise<T>) =>
    (client as unknown as { _runExclusiveTransaction<U>(f: () => Promise<U>): Promise<U> })._runExclusiveTransaction(() => client.runExclusive(fn));
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "runExclusive") return exclusive;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Starts sharing `client` on the data folder's socket; returns a function that stops it. */
export async function shareEmbeddedDatabase(client: PGlite, dataDir: string): Promise<() => Promise<void>> {
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const socketPath = embeddedSocketPath(dataDir);
  // A socket file left by a killed process would make listen() fail; we hold the folder, so it is stale.
  rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({ db: withTransactionLock(client), path: socketPath, maxConnections: 8 });
  await server.start();
  return async () => {
    await server.stop();
    rmSync(socketPath, { force: true });
  };
}

/** True when a serving process answers on the data folder's socket. */
export async function isEmbeddedDatabaseShared(dataDir: string): Promise<boolean> {
  const socketPath = embeddedSocketPath(dataDir);
  if (!existsSync(socketPath)) return false;
  const { default: postgres } = await import("postgres");
  const probe = postgres({ path: socketPath, max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await probe`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 }).catch(() => {});
  }
}
