import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, tenants } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { SANDBOX_KEY, SANDBOX_SCOPES, SANDBOX_TENANT_ID, SCOPES, hashKey, isWellFormedKey, type Scope } from "./key-format";

/** Who is calling: the key, its tenant, and what the tenant is allowed. */
export interface Principal {
  keyId: string;
  tenantId: string;
  scopes: ReadonlySet<Scope>;
  isSandbox: boolean;
  /** Requests per minute for this key: the tenant's custom limit, else the env default. */
  rateLimitPerMin: number | null;
  entitlements: readonly string[];
}

/** `last_used_at` is written at most this often per key, so reads do not turn into writes. */
const LAST_USED_WRITE_INTERVAL_MS = 5 * 60_000;
const CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  principal: Principal;
  expiresAt: number;
  lastUsedAt: number | null;
}

type Global = typeof globalThis & {
  __fdpKeyCache?: Map<string, CacheEntry>;
  __fdpKeyLookups?: { inflight: Map<string, Promise<Principal | null>>; generation: number };
};
const g = globalThis as Global;
const cache = (g.__fdpKeyCache ??= new Map<string, CacheEntry>());
/**
 * Lookups on their way, per key hash: when a key's entry expires under concurrent requests, they all
 * wait for one lookup instead of sending one each (16 at 16 connections, every AUTH_CACHE_TTL_SECONDS).
 * A request that joins a lookup gets an answer read after that lookup started, so the bound on
 * revocation is unchanged.
 */
const lookups = (g.__fdpKeyLookups ??= { inflight: new Map<string, Promise<Principal | null>>(), generation: 0 });
const inflight = lookups.inflight;

const SANDBOX_HASH = Buffer.from(hashKey(SANDBOX_KEY), "hex");

function isSandboxHash(hash: string): boolean {
  return timingSafeEqual(Buffer.from(hash, "hex"), SANDBOX_HASH);
}

/** Extracts the token of `Authorization: Bearer <token>`; null when the header is missing or of another scheme. */
export function bearerToken(header: string | null): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * The request presents the public sandbox key (compared by hash in constant time, no lookup): answers
 * given before authentication (a 405, a 404) still carry its `_sandbox` marker.
 */
export function presentsSandboxKey(authorization: string | null): boolean {
  const token = bearerToken(authorization);
  return token !== null && isSandboxHash(hashKey(token));
}

/**
 * Resolves a presented token to its principal, or null for a malformed, unknown or revoked key.
 * Lookups are cached for AUTH_CACHE_TTL_SECONDS (≤ 5 s), so a revoked key or a tenant's new limit
 * takes effect within that time on every instance.
 */
export async function authenticateApiKey({ db, token }: { db: Db; token: string }): Promise<Principal | null> {
  if (!isWellFormedKey(token)) return null;
  const hash = hashKey(token);
  const now = Date.now();
  const cached = cache.get(hash);
  if (cached && cached.expiresAt > now) return cached.principal;
  const pending = inflight.get(hash);
  if (pending) return pending;
  const lookup = lookUp(db, hash, now, cached).finally(() => {
    if (inflight.get(hash) === lookup) inflight.delete(hash);
  });
  inflight.set(hash, lookup);
  return lookup;
}

async function lookUp(db: Db, hash: string, now: number, cached: CacheEntry | undefined): Promise<Principal | null> {
  const startedIn = lookups.generation; // bumped by clearKeyCache: a lookup started before does not fill the cache
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      tenantId: tenants.id,
      rateLimitPerMin: tenants.rateLimitPerMin,
      entitlements: tenants.entitlements,
    })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);

  let principal: Principal | null = null;
  let lastUsedAt: number | null = null;
  if (row) {
    principal = {
      keyId: row.keyId,
      tenantId: row.tenantId,
      scopes: new Set(row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))),
      isSandbox: row.tenantId === SANDBOX_TENANT_ID,
      rateLimitPerMin: row.rateLimitPerMin,
      entitlements: row.entitlements,
    };
    lastUsedAt = row.lastUsedAt?.getTime() ?? null;
  } else if (isSandboxHash(hash)) {
    const [tenant] = await db
      .select({ rateLimitPerMin: tenants.rateLimitPerMin, entitlements: tenants.entitlements })
      .from(tenants)
      .where(eq(tenants.id, SANDBOX_TENANT_ID))
      .limit(1);
    if (tenant) {
      principal = {
        keyId: "sandbox",
        tenantId: SANDBOX_TENANT_ID,
        scopes: new Set(SANDBOX_SCOPES),
        isSandbox: true,
        rateLimitPerMin: tenant.rateLimitPerMin,
        entitlements: tenant.entitlements,
      };
    }
  }
  if (!principal) {
    cache.delete(hash);
    return null; // unknown keys are not cached: a key created a moment ago works at once
  }
  if (startedIn !== lookups.generation) return principal; // the cache was cleared meanwhile: answer, do not fill it

  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  const entry: CacheEntry = { principal, expiresAt: now + env().AUTH_CACHE_TTL_SECONDS * 1000, lastUsedAt: cached?.lastUsedAt ?? lastUsedAt };
  cache.set(hash, entry);
  if (principal.keyId !== "sandbox" && (entry.lastUsedAt === null || now - entry.lastUsedAt > LAST_USED_WRITE_INTERVAL_MS)) {
    entry.lastUsedAt = now;
    touchLastUsed(db, principal.keyId, new Date(now));
  }
  return principal;
}

/** Best effort and off the request path: a failed write must not fail the request. */
function touchLastUsed(db: Db, keyId: string, at: Date): void {
  const threshold = new Date(at.getTime() - LAST_USED_WRITE_INTERVAL_MS);
  db.update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, threshold))))
    .catch((err: unknown) => rootLogger().warn({ err, key_id: keyId, operation: "auth" }, "last_used_at update failed"));
}

export function clearKeyCache(): void {
  cache.clear();
  inflight.clear();
  lookups.generation++;
}
