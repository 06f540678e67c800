import { env } from "@/lib/env";
import { consumeLimit, type LimitState } from "@/lib/rate-limit/consume-limit";

/**
 * CONTRACT "Rate limits": 30 sign-in attempts per minute per client IP (RATE_LIMIT_AUTH_PER_MIN), in
 * the same `auth` budget as failed API-key authentications (both are password guessing). Counted for
 * every attempt, successful or not, before the password is checked, so the bcrypt comparison is not
 * an oracle that can be queried faster than the limit.
 */
export function countSignInAttempt(clientIp: string): Promise<LimitState> {
  return consumeLimit("auth", clientIp, env().RATE_LIMIT_AUTH_PER_MIN);
}

/** The page server.ts answers with status 429 once a client is over the sign-in limit (app/login/actions.ts redirects there). */
export const SIGN_IN_LIMITED_PATH = "/login/too-many-attempts";
