import type { NextRequest } from "next/server";
import { NotFoundError, RateLimitedError, ValidationError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { errorResponse } from "@/lib/http/respond";
import type { Logger } from "@/lib/log/logger";
import { rateLimitHeaders } from "@/lib/rate-limit/consume-limit";
import { handlers } from "./auth";
import { countSignInAttempt } from "./sign-in-limit";

/**
 * `/api/auth/*`: next-auth's own endpoints (session, csrf, providers, sign-out, and the credentials
 * callback a client could post to directly instead of using the /login form). Successful answers are
 * next-auth's, as it gives them; bindServiceRoute adds X-Request-Id. A 4xx/5xx of next-auth (an
 * unknown action, a missing CSRF token: text or HTML from next-auth) becomes the CONTRACT's JSON
 * envelope instead, with no stack trace. A credentials post counts against the sign-in limit like
 * the form does.
 */
export async function serveAuth({ req, log, requestId }: { req: Request; log: Logger; requestId: string }): Promise<Response> {
  const { pathname } = new URL(req.url);
  if (req.method === "POST" && pathname === "/api/auth/callback/credentials") {
    const state = await countSignInAttempt(clientIp(req));
    if (!state.allowed) {
      return errorResponse(new RateLimitedError(`Too many sign-in attempts: the limit is ${state.limit} per minute. Retry in ${state.resetSeconds} s.`), {
        requestId,
        isSandbox: false,
        log,
        headers: rateLimitHeaders(state),
      });
    }
  }
  const handler = req.method === "POST" ? handlers.POST : handlers.GET;
  const answer = await handler(req as NextRequest);
  if (answer.status < 400) return new Response(answer.body, answer); // a copy: next-auth's headers may be immutable
  await answer.body?.cancel();
  log.warn({ status: answer.status, path: pathname }, "next-auth refused a request");
  const err =
    answer.status === 404
      ? new NotFoundError(`No endpoint ${req.method} ${pathname}. The dashboard signs in at /login.`)
      : answer.status < 500
        ? new ValidationError(`next-auth refused ${req.method} ${pathname} (HTTP ${answer.status}). The dashboard signs in at /login.`)
        : new Error(`next-auth answered ${answer.status}`);
  return errorResponse(err, { requestId, isSandbox: false, log });
}
