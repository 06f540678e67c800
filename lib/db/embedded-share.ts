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

/** A ReadyForQuery message ('Z', length 5) saying the session is idle ('I'): no transaction, no statement half-sent. */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** A Sync then a simple-query ROLLBACK: ends whatever a client that went away left open (a Sync first, because after an error the backend skips everything up to one). */
const SYNC_THEN_ROLLBACK = Buffer.concat([Buffer.from([0x53, 0, 0, 0, 4]), Buffer.from([0x51, 0, 0, 0, 13]), Buffer.from("ROLLBACK\0")]);

/**
 * PGlite is one session; the serving process and the socket's clients take turns on it. The socket
 * server (@electric-sql/pglite-socket) takes the session's lock for one protocol message at a time, so
 * on its own it would let the owner's queries run between a client's messages, and a client's between
 * the owner's transaction's statements. Both break (a CI run saw the first: the owner's query replaced
 * the unnamed statement a client had parsed, "bind message supplies 2 parameters, but prepared statement
 * \"\" requires 3"; the second would let the owner read a client's uncommitted rows, or commit them).
 *
 * So a socket client holds the session (the owner's transaction lock and its query lock) from its first
 * message until the session answers ReadyForQuery idle: a whole statement (Parse … Sync) and a whole
 * transaction (BEGIN … COMMIT) run with nothing of the owner's in between, and a socket message waits
 * for the owner's open transaction to end. While a client holds the session, the server sees
 * `isInTransaction()` true, which makes it serve that client's next messages before another client's.
 * A client that goes away while holding it is rolled back and the session released (the server calls
 * `exec("ROLLBACK")` on a disconnect when `isInTransaction()`).
 */
function withSocketSessionLock(client: PGlite): PGlite {
  const internals = client as unknown as { _runExclusiveTransaction<U>(f: () => Promise<U>): Promise<U> };
  let releaseHold: (() => void) | null = null;
  // The tail of the session's latest answer, to find its closing ReadyForQuery.
  let tail = Buffer.alloc(0);
  // The message being answered, which a rollback after a disconnect must wait for.
  let current: Promise<unknown> = Promise.resolve();

  const hold = () =>
    new Promise<() => void>((held) => {
      void internals._runExclusiveTransaction(() => client.runExclusive(() => new Promise<void>((release) => held(release))));
    });
  const letGo = () => {
    const release = releaseHold;
    releaseHold = null;
    release?.();
  };

  const runExclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
    releaseHold ??= await hold();
    tail = Buffer.alloc(0);
    const answer = fn();
    current = answer;
    try {
      return await answer;
    } finally {
      if (tail.equals(READY_IDLE)) letGo();
    }
  };

  // The server streams each answer with execProtocolRawStream, which leaves its socket callback installed
  // in PGlite (0.5.14): the owner's next protocol message then answered into the client's socket, and the
  // owner lost that answer. execProtocolRaw leaves PGlite's own collector in place; the answer is copied
  // before the next message reuses PGlite's buffer.
  const execProtocolRawStream: PGlite["execProtocolRawStream"] = async (message, { onRawData, ...options }) => {
    const answer = Buffer.from(await client.execProtocolRaw(message, options));
    tail = Buffer.concat([tail, answer]).subarray(-READY_IDLE.length);
    onRawData(answer);
  };

  const exec: PGlite["exec"] = async (query, options) => {
    if (!releaseHold) return client.exec(query, options);
    // A client went away mid-statement or mid-transaction: end what it left open, then let go.
    await current.catch(() => {});
    try {
      await client.execProtocolRaw(SYNC_THEN_ROLLBACK);
      return [];
    } finally {
      letGo();
    }
  };

  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "runExclusive") return runExclusive;
      if (prop === "execProtocolRawStream") return execProtocolRawStream;
      if (prop === "exec") return exec;
      if (prop === "isInTransaction") return () => releaseHold !== null || target.isInTransaction();
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A socket client that holds the session (an open transaction) and goes quiet stalls the serving
 * process: after this long without a byte from it, it is disconnected, which rolls it back. The admin
 * CLI and the seed send their next statement within milliseconds.
 */
const SOCKET_IDLE_LIMIT_MS = 60_000;

/** Starts sharing `client` on the data folder's socket; returns a function that stops it. */
export async function shareEmbeddedDatabase(client: PGlite, dataDir: string, opts: { idleLimitMs?: number } = {}): Promise<() => Promise<void>> {
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const socketPath = embeddedSocketPath(dataDir);
  // A socket file left by a killed process would make listen() fail; we hold the folder, so it is stale.
  rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({ db: withSocketSessionLock(client), path: socketPath, maxConnections: 8, idleTimeout: opts.idleLimitMs ?? SOCKET_IDLE_LIMIT_MS });
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
