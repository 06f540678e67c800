import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sql } from "drizzle-orm";
import { env } from "@/lib/env";
import type { Db } from "@/lib/db/client";
import { preparedRows } from "@/lib/db/prepared";
import { DATABASE_FAILURE_MESSAGES, DATABASE_RETRY_AFTER_SECONDS } from "@/lib/db/sql-values";
import { ServiceUnavailableError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { getDbHandle } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";

/**
 * Where the counters live, so that several app instances share one budget:
 * - REDIS_URL set → Redis (atomic Lua increment), with an in-process fallback while Redis is down;
 * - else DATABASE_URL set → the `rate_limits` table in Postgres (atomic upsert);
 * - else (embedded PGlite, which one process alone can open) → in-process memory.
 */
type StoreKind = "redis" | "postgres" | "memory";

type LimiterFactory = (points: number, keyPrefix: string) => RateLimiterAbstract;

const WINDOW_SECONDS = 60;
/** How long a new instance waits for Redis before counting in process memory. */
const REDIS_READY_TIMEOUT_MS = 3000;

type Global = typeof globalThis & {
  __fdpLimiterFactory?: Promise<{ kind: StoreKind; make: LimiterFactory }>;
  __fdpLimiters?: Map<string, RateLimiterAbstract>;
};
const g = globalThis as Global;

async function createFactory(): Promise<{ kind: StoreKind; make: LimiterFactory }> {
  const { REDIS_URL, DATABASE_URL } = env();
  const memory = (points: number, keyPrefix: string) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix });
  if (REDIS_URL) {
    const { Redis } = await import("ioredis");
    const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    // Fail open, per instance (docs/scaling.md "Failure semantics"): while Redis is unreachable each
    // instance counts in its own memory (the insurance limiter below), so a lost Redis never fails a
    // request, and a client cannot go unlimited either; ioredis reconnects by itself. Logged once each
    // way, not at every reconnection attempt.
    let unreachable = false;
    client.on("error", (err) => {
      if (unreachable) return;
      unreachable = true;
      rootLogger().warn({ err, operation: "rate-limit" }, "redis unreachable: rate limits are counted in this instance's memory until it answers again");
    });
    client.on("ready", () => {
      if (!unreachable) return;
      unreachable = false;
      rootLogger().info({ operation: "rate-limit" }, "redis answers again: rate limits are shared again");
    });
    // Until the connection is ready every count would go to the in-process fallback, so the first
    // requests of a new instance would escape the shared budget: wait for it (briefly).
    await new Promise<void>((resolve) => {
      if (client.status === "ready") return resolve();
      client.once("ready", () => resolve());
      setTimeout(resolve, REDIS_READY_TIMEOUT_MS).unref();
    });
    return {
      kind: "redis",
      make: (points, keyPrefix) =>
        new RateLimiterRedis({
          storeClient: client,
          points,
          duration: WINDOW_SECONDS,
          keyPrefix,
          rejectIfRedisNotReady: true,
          // While Redis is unreachable each instance limits on its own rather than failing every request.
          insuranceLimiter: memory(points, keyPrefix),
        }),
    };
  }
  if (DATABASE_URL) {
    const { db } = await getDbHandle();
    return {
      kind: "postgres",
      make: (points, keyPrefix) => new RateLimiterPostgres({ storeClient: db, schema: rateLimits, points, duration: WINDOW_SECONDS, keyPrefix }),
    };
  }
  return { kind: "memory", make: memory };
}

interface CounterRow extends Record<string, unknown> {
  points: number | string;
  expire_ms: number | string | null;
}

/**
 * RateLimiterDrizzle with its count (the upsert every request makes) sent as one named prepared
 * statement of fixed text (lib/db/prepared.ts): parsed once per connection and sent in one round
 * trip, where drizzle's query builder sent it unnamed (a Parse/Describe round trip first, at every
 * call) after building it anew. The statement is the library's own (rate-limiter-flexible 11,
 * RateLimiterDrizzle `_upsert`): a new window when the stored one has expired, else add the points.
 * Everything else (reads, deletes, blocks, the clean-up of expired rows) is the library's.
 */
export class RateLimiterPostgres extends RateLimiterDrizzle {
  private readonly db: Db;

  constructor(opts: Omit<ConstructorParameters<typeof RateLimiterDrizzle>[0], "storeClient"> & { storeClient: Db }) {
    super(opts);
    this.db = opts.storeClient;
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<{ points: number; expire: Date | null }> {
    // `set`/`block` overwrite the window: rare, and the library's statement.
    if (forceExpire) return (RateLimiterDrizzle.prototype as unknown as { _upsert: RateLimiterPostgres["_upsert"] })._upsert.call(this, key, points, msDuration, true);
    const now = new Date();
    const expire = msDuration > 0 ? new Date(now.getTime() + msDuration).toISOString() : null;
    const [row] = await preparedRows<CounterRow>(
      this.db,
      sql`insert into rate_limits (key, points, expire) values (${key}, ${points}::int, ${expire}::timestamptz)
          on conflict (key) do update set
            points = case when rate_limits.expire <= ${now.toISOString()}::timestamptz then excluded.points else rate_limits.points + excluded.points end,
            expire = case when rate_limits.expire <= ${now.toISOString()}::timestamptz then excluded.expire else rate_limits.expire end
          returning points, (extract(epoch from expire) * 1000)::float8 as expire_ms`,
    );
    // An upsert with RETURNING always yields its row; none means the connection died while the
    // statement was answered (seen when the server is restarted under load, tests/db/database-faults):
    // a lost connection, answered 503 like any other, not a 500.
    if (!row) throw new ServiceUnavailableError(DATABASE_FAILURE_MESSAGES.connection_lost, DATABASE_RETRY_AFTER_SECONDS);
    return { points: Number(row.points), expire: row.expire_ms === null ? null : new Date(Number(row.expire_ms)) };
  }
}

/**
 * On globalThis like the factory: server.ts (the verify page's limit) and the route handlers Next.js
 * bundles separately are different module instances in one process, and in-process counters must be
 * one budget (CONTRACT: the verify page and its JSON twin share one per-IP budget).
 */
const limiters = (g.__fdpLimiters ??= new Map<string, RateLimiterAbstract>());

/**
 * One limiter object per (bucket, points). Objects with different `points` share the same counters
 * (the key prefix depends on the bucket only), so a tenant's new custom limit applies to its running
 * window at once.
 */
export async function limiterFor(bucket: string, points: number): Promise<RateLimiterAbstract> {
  g.__fdpLimiterFactory ??= createFactory();
  const factory = await g.__fdpLimiterFactory;
  const id = `${bucket}:${points}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = factory.make(points, `fdp_rl_${bucket}`);
    limiters.set(id, limiter);
  }
  return limiter;
}

export async function limiterStoreKind(): Promise<StoreKind> {
  g.__fdpLimiterFactory ??= createFactory();
  return (await g.__fdpLimiterFactory).kind;
}

/** Forgets the store choice and the limiter objects (tests switch stores between files). */
export function resetRateLimiters(): void {
  g.__fdpLimiterFactory = undefined;
  limiters.clear();
}
