import type { Scope } from "@/lib/auth/key-format";
import { authenticateApiKey, bearerToken, type Principal } from "@/lib/auth/authenticate-api-key";
import type { TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ForbiddenError, RateLimitedError, UnauthorizedError } from "@/lib/errors";
import { consumeLimit, rateLimitHeaders, type LimitState } from "@/lib/rate-limit/consume-limit";
import { clientIp } from "./client-ip";
import { requestIdFor } from "./request-id";
import { decorate, errorResponse, jsonResponse, type ResponseDecor } from "./respond";

export interface ApiHandlerArgs<P> {
  req: Request;
  ctx: TenantCtx;
  principal: Principal;
  params: P;
  requestId: string;
}

/** A handler returns a JSON-able body (answered 200) or a finished Response (CSV, PDF, other statuses). */
export type ApiHandler<P> = (args: ApiHandlerArgs<P>) => Promise<unknown>;

type RouteContext<P> = { params: Promise<P> };

const UNAUTHORIZED_MESSAGE = "A valid API key is required: send it as `Authorization: Bearer <API_KEY>`.";

/**
 * Wraps a route handler once: request id → key authentication (failures count against the per-IP
 * auth budget) → per-key rate limit → scope check → handler → the CONTRACT's envelope and headers.
 */
export function withApiKey<P = Record<string, never>>(handler: ApiHandler<P>, opts: { scopes: Scope[] }) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> => {
    const requestId = requestIdFor(req);
    const decor: ResponseDecor = { requestId, isSandbox: false };
    try {
      const ip = clientIp(req);
      const token = bearerToken(req.headers.get("authorization"));
      const db = await getDb();
      const principal = token ? await authenticateApiKey({ db, token }) : null;

      if (!principal) {
        const state = await consumeLimit("auth", ip, env().RATE_LIMIT_AUTH_PER_MIN);
        decor.headers = rateLimitHeaders(state);
        if (!state.allowed) throw tooMany(state);
        throw new UnauthorizedError(UNAUTHORIZED_MESSAGE);
      }
      decor.isSandbox = principal.isSandbox;

      // The shared sandbox key is limited per key *and* client IP, so one user cannot starve the rest.
      const limitKey = principal.isSandbox ? `${principal.keyId}:${ip}` : principal.keyId;
      const state = await consumeLimit("api", limitKey, principal.rateLimitPerMin ?? env().RATE_LIMIT_API_PER_MIN);
      decor.headers = rateLimitHeaders(state);
      if (!state.allowed) throw tooMany(state);

      const missing = opts.scopes.filter((s) => !principal.scopes.has(s));
      if (missing.length > 0) {
        throw new ForbiddenError(`This API key lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")} needed for this endpoint.`);
      }

      const ctx: TenantCtx = { db, tenantId: principal.tenantId, isSandbox: principal.isSandbox };
      const params = (await context.params) ?? ({} as P);
      const result = await handler({ req, ctx, principal, params, requestId });
      return result instanceof Response ? decorate(result, decor) : jsonResponse(result, 200, decor);
    } catch (err) {
      return errorResponse(err, decor);
    }
  };
}

function tooMany(state: LimitState): RateLimitedError {
  return new RateLimitedError(`Too many requests: the limit is ${state.limit} per minute. Retry in ${state.resetSeconds} s.`);
}

/** For endpoints that need no key and are not limited (/api/health, the OpenAPI document). */
export function withRequestId<P = Record<string, never>>(handler: (args: { req: Request; params: P; requestId: string }) => Promise<unknown>) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> => {
    const requestId = requestIdFor(req);
    const decor: ResponseDecor = { requestId, isSandbox: false };
    try {
      const params = (await context.params) ?? ({} as P);
      const result = await handler({ req, params, requestId });
      return result instanceof Response ? decorate(result, decor) : jsonResponse(result, 200, decor);
    } catch (err) {
      return errorResponse(err, decor);
    }
  };
}
