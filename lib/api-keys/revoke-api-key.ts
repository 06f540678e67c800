import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";

export const revokeApiKeyInput = z.object({
  keyId: z.string({ message: "The key id is required." }).trim().min(1, { message: "The key id is required." }),
  /**
   * When given (the dashboard: the session's tenant), only a key of this tenant is revoked; another
   * tenant's key id is "not found", exactly like an unknown one. The operator CLI revokes any key.
   */
  tenantId: z.string().trim().min(1).optional(),
});
type RevokeApiKeyInput = z.input<typeof revokeApiKeyInput>;

/**
 * Revokes a key. Idempotent: a second revocation keeps the first `revoked_at`. The API's key cache
 * lives at most AUTH_CACHE_TTL_SECONDS (≤ 5 s), so the key is refused within 5 seconds.
 */
export async function revokeApiKey({ ctx, input }: { ctx: { db: Db }; input: RevokeApiKeyInput }): Promise<{ revoked: true }> {
  const data = parseInput(revokeApiKeyInput, input);
  const updated = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(data.tenantId === undefined ? eq(apiKeys.id, data.keyId) : and(eq(apiKeys.id, data.keyId), eq(apiKeys.tenantId, data.tenantId)))
    .returning({ id: apiKeys.id });
  if (updated.length === 0) throw new NotFoundError(`No API key with id ${data.keyId}.`);
  return { revoked: true };
}
