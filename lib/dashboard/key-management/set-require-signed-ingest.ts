import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { UnprocessableError } from "@/lib/errors";
import { updateTenant } from "@/lib/tenants/update-tenant";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { SANDBOX_INGEST_MESSAGE } from "./rotate-tenant-ingest-secret";

/**
 * The "require signed ingest" switch: tenant:update's verb for the session's tenant and its audit
 * record, in one transaction. In effect within 5 s (updateTenant's guarantee).
 */
export async function setRequireSignedIngest({ ctx, input }: { ctx: AuditedCtx; input: { required: boolean } }): Promise<{ required: boolean }> {
  if (ctx.isSandbox) throw new UnprocessableError(SANDBOX_INGEST_MESSAGE);
  return ctx.db.transaction(async (tx) => {
    await updateTenant({ ctx: { db: tx }, input: { tenantId: ctx.tenantId, requireSignedIngest: input.required } });
    await recordAuditEvent({
      ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
      input: { action: "signed_ingest.required_changed", targetId: ctx.tenantId, details: { required: input.required } },
    });
    return { required: input.required };
  });
}
