import { sql } from "drizzle-orm";
import type { PublicCtx, TenantCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { rootLogger, type Logger } from "@/lib/log/logger";
import { getDbHandle, openPostgresDatabase, type Db, type DbHandle } from "./client";
import { rows } from "./sql-values";

/**
 * Read-replica routing with read-your-writes (docs/scaling.md "Read replica").
 *
 * With DATABASE_URL and DATABASE_REPLICA_URL set, an operation flagged `reads: "replica"`
 * (lib/operations/define-operation.ts) runs its verb on the replica's pool, unless the replica may not
 * have replayed a write that this tenant's client has already seen acknowledged; every other
 * operation, and everything outside the operations (authentication, rate limits, the dashboard, the
 * CLI), stays on the primary.
 *
 * Read-your-writes, across any number of app instances, with no per-tenant state in process:
 * - REDIS_URL set: after a keyed operation that ran on the primary (a write, or a read that might
 *   have written) the binding records the primary's `pg_current_wal_lsn()` for the tenant in a Redis
 *   sorted set (`ZADD … GT`: the mark only moves forward) *before* the answer leaves. A replica read
 *   looks up the tenant's mark and compares it with the replica's `pg_last_wal_replay_lsn()`.
 * - no Redis: a replica read compares the replica's replay position with the primary's current WAL
 *   position instead, which is past every write committed before the read arrived, whoever made it.
 *   Correct without any shared store, but stricter: any write of any tenant not yet replayed sends the
 *   read to the primary.
 * Either way the two look-ups are sent together, so a routed read costs one extra round trip of
 * latency (two tiny queries in parallel) before its own statements. A replica behind the mark → the
 * primary serves the read. Replica unreachable → the primary serves everything (logged once), and a
 * background probe every RETRY_MS brings it back (logged once).
 */

type ReadsFrom = "replica";

const APPLICATION_NAME = "fdp-read-replica";
const MARKS_KEY = "fdp:ryw:lsn";
const RETRY_MS = 5_000;
const REPLICA_POOL_SIZE = 10;
const CONNECT_TIMEOUT_SECONDS = 3;

/** `16/B374D848` → a number of bytes (exact below 2^53 bytes of WAL: 8 PiB). */
function lsnToNumber(lsn: string): number {
  const [hi, lo] = lsn.split("/");
  if (hi === undefined || lo === undefined) throw new Error(`not an LSN: ${lsn}`);
  return Number((BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`));
}

interface MarkStore {
  kind: "redis" | "primary-lsn";
  /** What a replica must have replayed before it may serve this tenant's read (null: anything). */
  required(tenantId: string): Promise<number | null>;
  /** After a primary-side operation of this tenant returned (nothing to do without Redis). */
  record(tenantId: string): Promise<void>;
}

type RedisClient = import("ioredis").Redis;

interface State {
  /** The URL the replica pool and the mark store were made for (tests change the env between files). */
  key: string;
  replica?: Promise<DbHandle>;
  marks?: Promise<MarkStore>;
  redis?: RedisClient;
  down: boolean;
  retry?: ReturnType<typeof setInterval>;
  /** Routing counts since start (for the docs' figures and for logs); not used for decisions. */
  counts: { replica: number; primaryBehind: number; primaryDown: number; fallbacks: number };
}

const g = globalThis as typeof globalThis & { __fdpReplica?: State };

function configKey(): string | null {
  const { DATABASE_URL, DATABASE_REPLICA_URL, REDIS_URL } = env();
  if (!DATABASE_URL || !DATABASE_REPLICA_URL) return null;
  return `${DATABASE_REPLICA_URL}|${REDIS_URL ?? ""}`;
}

/** The routing state for the current settings; null when no replica is configured. */
function state(): State | null {
  const key = configKey();
  if (!key) return null;
  if (g.__fdpReplica?.key !== key) {
    if (g.__fdpReplica) void disposeState(g.__fdpReplica);
    g.__fdpReplica = { key, down: false, counts: { replica: 0, primaryBehind: 0, primaryDown: 0, fallbacks: 0 } };
  }
  return g.__fdpReplica;
}

/** True when DATABASE_URL and DATABASE_REPLICA_URL are both set. */
function replicaConfigured(): boolean {
  return configKey() !== null;
}

function replicaHandle(s: State): Promise<DbHandle> {
  if (!s.replica) {
    s.replica = openPostgresDatabase(env().DATABASE_REPLICA_URL as string, {
      max: REPLICA_POOL_SIZE,
      applicationName: APPLICATION_NAME,
      connectTimeoutSeconds: CONNECT_TIMEOUT_SECONDS,
    });
    s.replica.catch(() => {
      s.replica = undefined;
    });
  }
  return s.replica;
}

async function primaryLsn(): Promise<number> {
  const { db } = await getDbHandle();
  const [row] = await rows<{ lsn: string }>(db, sql`select pg_current_wal_lsn()::text as lsn`);
  return lsnToNumber(String(row?.lsn));
}

function marksFor(s: State): Promise<MarkStore> {
  if (!s.marks) {
    s.marks = (async (): Promise<MarkStore> => {
      const url = env().REDIS_URL;
      if (!url) {
        return { kind: "primary-lsn", required: () => primaryLsn(), record: async () => {} };
      }
      const { Redis } = await import("ioredis");
      const redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, lazyConnect: false });
      redis.on("error", () => {}); // failures surface on the commands below, which fall back to the primary
      s.redis = redis;
      return {
        kind: "redis",
        async required(tenantId) {
          const score = await redis.zscore(MARKS_KEY, tenantId);
          return score === null ? null : Number(score);
        },
        async record(tenantId) {
          const lsn = await primaryLsn();
          await redis.zadd(MARKS_KEY, "GT", lsn, tenantId);
        },
      };
    })();
  }
  return s.marks;
}

/** How the marks are kept under the current settings (null: no replica configured). */
export async function readYourWritesStore(): Promise<MarkStore["kind"] | null> {
  const s = state();
  return s ? (await marksFor(s)).kind : null;
}

/** What the replica has replayed; null when it is not a standby (a promoted or misconfigured URL). */
async function replayLsn(db: Db): Promise<number | null> {
  const [row] = await rows<{ lsn: string | null }>(db, sql`select pg_last_wal_replay_lsn()::text as lsn`);
  return row?.lsn ? lsnToNumber(row.lsn) : null;
}

function markDown(s: State, reason: string, err?: unknown): void {
  if (s.down) return;
  s.down = true;
  rootLogger().warn({ err, reason, operation: "read-replica" }, "read replica unavailable: every read goes to the primary until it answers again");
  s.retry = setInterval(() => {
    void (async () => {
      try {
        const lsn = await replayLsn((await replicaHandle(s)).db);
        if (lsn === null) return; // still not a standby
        if (g.__fdpReplica !== s) return;
        s.down = false;
        if (s.retry) clearInterval(s.retry);
        s.retry = undefined;
        rootLogger().info({ operation: "read-replica" }, "read replica answers again: routed reads use it");
      } catch {
        // still down: stay quiet, the first failure was logged
      }
    })();
  }, RETRY_MS);
  s.retry.unref?.();
}

type ReadRoute = { db: Db; on: "replica" } | { db: null; on: "primary"; reason: "not-configured" | "behind" | "down" };

/**
 * Where this tenant's read may run: the replica's db when it has replayed the tenant's last
 * acknowledged write (see the module comment), else the primary (db null: keep the caller's).
 */
export async function routeRead(tenantId: string): Promise<ReadRoute> {
  const s = state();
  if (!s) return { db: null, on: "primary", reason: "not-configured" };
  if (s.down) {
    s.counts.primaryDown++;
    return { db: null, on: "primary", reason: "down" };
  }
  let replica: DbHandle;
  try {
    replica = await replicaHandle(s);
  } catch (err) {
    markDown(s, "cannot open the replica's pool", err);
    return { db: null, on: "primary", reason: "down" };
  }
  let marks: MarkStore;
  try {
    marks = await marksFor(s);
  } catch {
    s.marks = undefined; // retried on the next read; meanwhile only the primary is sure to be current
    s.counts.primaryBehind++;
    return { db: null, on: "primary", reason: "behind" };
  }
  // Both look-ups at once: one round trip of latency.
  const [required, replayed] = await Promise.allSettled([marks.required(tenantId), replayLsn(replica.db)]);
  if (replayed.status === "rejected") {
    markDown(s, "the replica does not answer", replayed.reason);
    s.counts.primaryDown++;
    return { db: null, on: "primary", reason: "down" };
  }
  if (replayed.value === null) {
    markDown(s, "DATABASE_REPLICA_URL is not a standby (pg_last_wal_replay_lsn() is null)");
    s.counts.primaryDown++;
    return { db: null, on: "primary", reason: "down" };
  }
  if (required.status === "rejected") {
    // The mark is unknown (Redis down): only the primary is sure to hold the tenant's writes.
    s.counts.primaryBehind++;
    return { db: null, on: "primary", reason: "behind" };
  }
  if (required.value !== null && replayed.value < required.value) {
    s.counts.primaryBehind++;
    return { db: null, on: "primary", reason: "behind" };
  }
  s.counts.replica++;
  return { db: replica.db, on: "replica" };
}

/** Connection-level failures and recovery conflicts: the replica could not serve, the primary can. */
const REPLICA_FAILURE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "40001", // canceling statement due to conflict with recovery
  "57P01", // admin shutdown
  "57P02", // crash shutdown
  "57P03", // cannot connect now (starting up, or recovering)
  "25006", // read-only transaction: an operation flagged `reads: "replica"` wrote (a bug; logged)
]);

function failureCode(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && REPLICA_FAILURE_CODES.has(code)) return code;
  }
  return null;
}

type AnyCtx = TenantCtx | PublicCtx;

/**
 * Runs an operation's verb where it belongs. `reads: "replica"` and a tenant: on the replica when
 * `routeRead` allows (a replica-side failure re-runs it once on the primary: the verb only reads).
 * Otherwise on the primary, after which (REDIS_URL set) the tenant's write mark is recorded before the
 * answer leaves, whether the verb succeeded or not (a failed request may still have committed).
 */
export async function runRouted<T>({ reads, ctx, log, run }: { reads?: ReadsFrom; ctx: AnyCtx; log: Logger; run: (ctx: AnyCtx) => Promise<T> }): Promise<T> {
  if (!("tenantId" in ctx) || !replicaConfigured()) return run(ctx);
  if (reads === "replica") {
    const route = await routeRead(ctx.tenantId);
    if (route.on === "primary") return run(ctx);
    try {
      return await run({ ...ctx, db: route.db });
    } catch (err) {
      const code = failureCode(err);
      if (!code) throw err;
      const s = state();
      if (s) s.counts.fallbacks++;
      if (code === "25006") log.error({ err }, "an operation flagged reads: replica wrote: answered from the primary; remove the flag");
      else if (/^[A-Z]/.test(code) && s) markDown(s, "the replica failed during a read", err);
      return run(ctx);
    }
  }
  try {
    return await run(ctx);
  } finally {
    await recordWrite(ctx.tenantId, log);
  }
}

/** Records the tenant's write mark (REDIS_URL set); a failure is logged, never the request's failure. */
async function recordWrite(tenantId: string, log: Logger): Promise<void> {
  const s = state();
  if (!s) return;
  try {
    await (await marksFor(s)).record(tenantId);
  } catch (err) {
    log.warn({ err }, "read-your-writes mark not recorded: this tenant's next reads may reach a lagging replica");
  }
}

async function disposeState(s: State): Promise<void> {
  if (s.retry) clearInterval(s.retry);
  s.redis?.disconnect();
  const replica = s.replica;
  s.replica = undefined;
  if (replica) await (await replica.catch(() => null))?.close().catch(() => {});
}

/** Closes the replica's pool and the marks' Redis connection (tests, shutdown); the next read reopens. */
export async function closeReadReplica(): Promise<void> {
  const s = g.__fdpReplica;
  g.__fdpReplica = undefined;
  if (s) await disposeState(s);
}
