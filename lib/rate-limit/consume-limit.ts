import { RateLimiterRes } from "rate-limiter-flexible";
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
export type LimitBucket = "api" | "auth" | "public";

function toState(res: RateLimiterRes, limit: number, allowed: boolean): LimitState {
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export async function consumeLimit(bucket: LimitBucket, key: string, limit: number): Promise<LimitState> {
  const limiter = await limiterFor(bucket, limit);
  try {
    return toState(await limiter.consume(key, 1), limit, true);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return toState(rejection, limit, false);
    throw rejection; // a store failure with no fallback: let the error mapping answer 500
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
