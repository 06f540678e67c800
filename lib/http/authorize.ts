import { authenticateApiKey, bearerToken, type Principal } from "@/lib/auth/authenticate-api-key";
import type { PublicCtx, TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { Scope } from "@/lib/auth/key-format";
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

/** The REST 403 for a key without the scope an endpoint needs (the operations' is checked by invokeOperation). */
export const lacksEndpointScope = (scope: Scope): string => `This API key lacks the scope ${scope} needed for this endpoint.`;

const NO_SCOPES: ReadonlySet<Scope> = new Set();

/**
 * The caller of an operation, or a thrown DomainError, in CONTRACT order: key authentication
 * (failures count against the per-IP auth budget) → the key's rate limit; the operation's scope comes
 * next, in invokeOperation (lib/operations/invoke-operation.ts), before any input is read. Public
 * operations are limited per client IP instead. `decor` collects the rate-limit headers and the sandbox
 * flag, so that errors thrown later carry them too.
 */
export async function authorize(access: Access, req: Request, decor: ResponseDecor & { log: Logger }): Promise<{ ctx: TenantCtx | PublicCtx; scopes: ReadonlySet<Scope> }> {
  if ("public" in access) return { ctx: await authorizePublic(req, decor), scopes: NO_SCOPES };
  const { ctx, principal } = await authorizeKey(req, decor);
  return { ctx, scopes: principal.scopes };
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
 * A keyed request's context and the key behind it, after its rate limit; with `scope`, a key without
 * it is refused here (the MCP endpoint's `mcp`; each tool then checks its operation's scope against
 * `principal.scopes` in invokeOperation).
 */
export async function authorizeKey(req: Request, decor: ResponseDecor & { log: Logger }, scope?: Scope): Promise<{ ctx: TenantCtx; principal: Principal }> {
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

  if (scope && !principal.scopes.has(scope)) throw new ForbiddenError(lacksEndpointScope(scope));
  // From here on every line of this request, errors included, names the tenant.
  decor.log = log.child({ tenant_id: principal.tenantId });
  return { ctx: { db, tenantId: principal.tenantId, isSandbox: principal.isSandbox, log: decor.log }, principal };
}
