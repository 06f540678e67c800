import { RateLimiterRes } from "rate-limiter-flexible";
import { recordRateLimitRefusal } from "@/lib/metrics/metrics";
import { limiterFor } from "./limiter-store";

/** The state of one limit after a request was counted against it. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window frees a request. */
  resetSeconds: number;
}

/**
 * Buckets of CONTRACT "Rate limits": `api` per key (sandbox: per key and IP), `auth` per client IP
 * for failed key authentications and sign-in attempts, `public` per client IP for public endpoints.
 */
type LimitBucket = "api" | "auth" | "public";

function toState(consumedPoints: number, msBeforeNext: number, limit: number, allowed: boolean): LimitState {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

/** One request waiting for its count: its own limit decides whether it is allowed. */
interface Waiter {
  limit: number;
  resolve: (state: LimitState) => void;
  reject: (err: unknown) => void;
}

/**
 * Counts in flight, per bucket and key, in this module instance: while one count of a key is on its way
 * to the store, the requests of the same key that arrive wait, and are then counted together, as one
 * increment of n points (one round trip, one row lock instead of n queued on the same row).
 */
const queues = new Map<string, Waiter[]>();

/**
 * Counts one request against `key`'s budget in the shared store and tells whether it is allowed.
 *
 * Every request is counted in the shared store before it is answered, so the budget holds across
 * instances exactly as with one increment per request. Concurrent requests of one key in this process
 * are coalesced: while an increment of the key is in flight, the next ones queue and go as one increment
 * of n points once it is back. The store answers the total after the increment, T, and the i-th of
 * the n requests (i = 1..n, in arrival order) gets T − n + i, exactly what n increments in a row would
 * have answered it; it is allowed when that is at most its limit. Under 16 concurrent requests of one
 * key this is one upsert in flight per key instead of 16 waiting on each other's row lock while
 * holding pool connections (docs/performance.md, "The read path against its floor").
 */
export function consumeLimit(bucket: LimitBucket, key: string, limit: number): Promise<LimitState> {
  return new Promise<LimitState>((resolve, reject) => {
    const id = `${bucket}\u0000${key}`;
    const waiting = queues.get(id);
    if (waiting) {
      waiting.push({ limit, resolve, reject });
      return;
    }
    queues.set(id, []);
    void countBatch(bucket, key, id, [{ limit, resolve, reject }]);
  });
}

async function countBatch(bucket: LimitBucket, key: string, id: string, batch: Waiter[]): Promise<void> {
  try {
    // The limiter's own `points` only decides its reject flag; each waiter is judged on its own limit.
    const limiter = await limiterFor(bucket, batch[0]!.limit);
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(key, batch.length);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection; // a store failure: 500 for each
      res = rejection;
    }
    const first = res.consumedPoints - batch.length;
    batch.forEach((w, i) => {
      const consumed = first + i + 1;
      const allowed = consumed <= w.limit;
      // Every caller refuses the request it counted when it is not allowed (a 429).
      if (!allowed) recordRateLimitRefusal(bucket);
      w.resolve(toState(consumed, res.msBeforeNext, w.limit, allowed));
    });
  } catch (err) {
    for (const w of batch) w.reject(err);
  } finally {
    const next = queues.get(id) ?? [];
    if (next.length === 0) queues.delete(id);
    else {
      queues.set(id, []);
      void countBatch(bucket, key, id, next);
    }
  }
}

/** Headers of CONTRACT "Rate limits" for the given state (a 429 adds Retry-After). */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
  };
  if (!state.allowed) headers["Retry-After"] = String(state.resetSeconds);
  return headers;
}
