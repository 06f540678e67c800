import { eq } from "drizzle-orm";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { apiKeys } from "@/lib/db/schema";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";

/**
 * The dashboard's "revoke": the CLI's key:revoke verb restricted to the session's tenant (another
 * tenant's key id is NotFoundError, like an unknown one, and changes nothing), and its audit record,
 * in one transaction. The API refuses the key within 5 s (the verb's key-cache guarantee).
 */
export async function revokeTenantApiKey({ ctx, input }: { ctx: AuditedCtx; input: { keyId: string } }): Promise<{ revoked: true }> {
  return ctx.db.transaction(async (tx) => {
    const result = await revokeApiKey({ ctx: { db: tx }, input: { keyId: input.keyId, tenantId: ctx.tenantId } });
    const [key] = await tx.select({ name: apiKeys.name, displayPrefix: apiKeys.displayPrefix }).from(apiKeys).where(eq(apiKeys.id, input.keyId));
    await recordAuditEvent({
      ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
      input: { action: "api_key.revoked", targetId: input.keyId, details: { name: key?.name ?? null, display_prefix: key?.displayPrefix ?? null } },
    });
    return result;
  });
}
