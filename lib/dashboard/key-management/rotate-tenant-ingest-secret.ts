import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { UnprocessableError } from "@/lib/errors";
import { rotateIngestSecret } from "@/lib/tenants/rotate-ingest-secret";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";

export const SANDBOX_INGEST_MESSAGE =
  "The sandbox's ingest secret is public and documented, and the sandbox stores nothing it receives: it cannot be rotated or made mandatory. Use your own tenant.";

/** Rotates the session tenant's ingest secret and records it, in one transaction; returns the new secret once. */
export async function rotateTenantIngestSecret({ ctx }: { ctx: AuditedCtx }): Promise<{ ingestSecret: string }> {
  if (ctx.isSandbox) throw new UnprocessableError(SANDBOX_INGEST_MESSAGE);
  return ctx.db.transaction(async (tx) => {
    const { ingestSecret } = await rotateIngestSecret({ ctx: { db: tx }, input: { tenantId: ctx.tenantId } });
    await recordAuditEvent({ ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor }, input: { action: "ingest_secret.rotated", targetId: ctx.tenantId } });
    return { ingestSecret };
  });
}
