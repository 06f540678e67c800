import { authenticateApiKey, bearerToken, type Principal } from "@/lib/auth/authenticate-api-key";
import type { PublicCtx, TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Logger } from "@/lib/log/logger";
import { ForbiddenError, RateLimitedError, UnauthorizedError } from "@/lib/errors";
import type { Access } from "@/lib/operations/define-operation";
import { consumeLimit, rateLimitHeaders, type LimitState } from "@/lib/rate-limit/consume-limit";
import { clientIp } from "./client-ip";
import type { ResponseDecor } from "./respond";

const UNAUTHORIZED_MESSAGE = "A valid API key is required: send it as `Authorization: Bearer <API_KEY>`.";

function tooMany(state: LimitState): RateLimitedError {
  return new RateLimitedError(`Too many requests: the limit is ${state.limit} per minute. Retry in ${state.resetSeconds} s.`);
}

/**
 * The caller's context for an operation, or a thrown DomainError, in CONTRACT order:
 * key authentication (failures count against the per-IP auth budget) → the key's rate limit →
 * scope (none for `anyKey` operations). Public operations are limited per client IP instead. `decor` collects the rate-limit headers
 * and the sandbox flag, so that errors thrown later carry them too.
 */
export async function authorize(access: Access, req: Request, decor: ResponseDecor & { log: Logger }): Promise<TenantCtx | PublicCtx> {
  if ("public" in access) return authorizePublic(req, decor);
  return (await authorizeKey(access, req, decor)).ctx;
}

async function authorizePublic(req: Request, decor: ResponseDecor & { log: Logger }): Promise<PublicCtx> {
  const ip = clientIp(req);
  const db = await getDb();
  const log = decor.log;
  const state = await consumeLimit("public", ip, env().RATE_LIMIT_PUBLIC_PER_MIN);
  decor.headers = { ...decor.headers, ...rateLimitHeaders(state) };
  if (!state.allowed) throw tooMany(state);
  return { db, log };
}

/**
 * A keyed request's context and the key behind it (the MCP endpoint checks each tool's own scope
 * against `principal.scopes` after the endpoint's `mcp` scope passed here).
 */
export async function authorizeKey(
  access: Exclude<Access, { public: true }>,
  req: Request,
  decor: ResponseDecor & { log: Logger },
): Promise<{ ctx: TenantCtx; principal: Principal }> {
  const ip = clientIp(req);
  const db = await getDb();
  const log = decor.log;
  const token = bearerToken(req.headers.get("authorization"));
  const principal = token ? await authenticateApiKey({ db, token }) : null;
  if (!principal) {
    const state = await consumeLimit("auth", ip, env().RATE_LIMIT_AUTH_PER_MIN);
    decor.headers = { ...decor.headers, ...rateLimitHeaders(state) };
    if (!state.allowed) throw tooMany(state);
    throw new UnauthorizedError(UNAUTHORIZED_MESSAGE);
  }
  decor.isSandbox = principal.isSandbox;

  // The shared sandbox key is limited per key *and* client IP, so one user cannot starve the rest.
  const limitKey = principal.isSandbox ? `${principal.keyId}:${ip}` : principal.keyId;
  const state = await consumeLimit("api", limitKey, principal.rateLimitPerMin ?? env().RATE_LIMIT_API_PER_MIN);
  decor.headers = { ...decor.headers, ...rateLimitHeaders(state) };
  if (!state.allowed) throw tooMany(state);

  // `anyKey` operations (CONTRACT: the pricing endpoints need any valid key) stop after the key's rate limit.
  if ("scope" in access && !principal.scopes.has(access.scope)) {
    throw new ForbiddenError(`This API key lacks the scope ${access.scope} needed for this endpoint.`);
  }
  // From here on every line of this request, errors included, names the tenant.
  decor.log = log.child({ tenant_id: principal.tenantId });
  return { ctx: { db, tenantId: principal.tenantId, isSandbox: principal.isSandbox, log: decor.log }, principal };
}
