import { createApiKey } from "@/lib/api-keys/create-api-key";
import { displayPrefix } from "@/lib/auth/key-format";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";

/**
 * The dashboard's "create key": the CLI's key:create verb for the session's tenant, and its audit
 * record, in one transaction. Returns the full key for the one-time display; the log holds its id,
 * name, scopes and display prefix only.
 */
export async function issueApiKey({ ctx, input }: { ctx: AuditedCtx; input: { name?: string; scopes?: string[] } }): Promise<{ key: string; keyId: string }> {
  return ctx.db.transaction(async (tx) => {
    const created = await createApiKey({ ctx: { db: tx }, input: { tenantId: ctx.tenantId, name: input.name, scopes: input.scopes } });
    await recordAuditEvent({
      ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
      input: {
        action: "api_key.created",
        targetId: created.keyId,
        details: { name: input.name?.trim() || null, scopes: input.scopes ?? "all", display_prefix: displayPrefix(created.key) },
      },
    });
    return { key: created.key, keyId: created.keyId };
  });
}
