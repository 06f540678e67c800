import { createHash } from "node:crypto";
import { randomBase62 } from "@/lib/ids";

/** CONTRACT: live keys are `fdp_live_` + at least 32 base62 characters. We issue 40. */
const LIVE_KEY_PREFIX = "fdp_live_";
const LIVE_KEY_SECRET_LENGTH = 40;
/** CONTRACT: the public sandbox key of tenant `sandbox`. */
export const SANDBOX_KEY = "fdp_sandbox_3f6c0a1e9b7d4c25";
export const SANDBOX_TENANT_ID = "sandbox";

export const SCOPES = ["fleet:read", "scores:read", "predictions:read", "certificates:write", "reports:read", "ingest:write", "mcp", "webhooks:write", "events:read"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The sandbox key's scopes: every scope but `webhooks:write` (CONTRACT "Webhooks and the changes feed": the
 * public sandbox key cannot register webhooks, which would send to any address anyone typed). It reads the
 * sandbox's changes feed.
 */
export const SANDBOX_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== "webhooks:write");

const LIVE_KEY_RE = /^fdp_live_[0-9A-Za-z]{32,128}$/;

/** Cheap shape check done before any lookup, so garbage tokens never reach the database. */
export function isWellFormedKey(token: string): boolean {
  return token === SANDBOX_KEY || LIVE_KEY_RE.test(token);
}

export function hashKey(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Shown in listings to tell keys apart: the prefix and the first 4 secret characters. */
export function displayPrefix(token: string): string {
  return token.slice(0, LIVE_KEY_PREFIX.length + 4);
}

export function generateLiveKey(): { key: string; hash: string; prefix: string } {
  const key = LIVE_KEY_PREFIX + randomBase62(LIVE_KEY_SECRET_LENGTH);
  return { key, hash: hashKey(key), prefix: displayPrefix(key) };
}
