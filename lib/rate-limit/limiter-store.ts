import {
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { getDbHandle } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";

/**
 * Where the counters live, so that several app instances share one budget:
 * - REDIS_URL set → Redis (atomic Lua increment), with an in-process fallback while Redis is down;
 * - else DATABASE_URL set → the `rate_limits` table in Postgres (atomic upsert);
 * - else (embedded PGlite, which one process alone can open) → in-process memory.
 */
export type StoreKind = "redis" | "postgres" | "memory";

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
  const memory = (points: number, keyPrefix: string) =>
    new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix });
  if (REDIS_URL) {
    const { Redis } = await import("ioredis");
    const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    client.on("error", (err) => rootLogger().error({ err, operation: "rate-limit" }, "redis connection error"));
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
      make: (points, keyPrefix) =>
        new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, points, duration: WINDOW_SECONDS, keyPrefix }),
    };
  }
  return { kind: "memory", make: memory };
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
