import { eq } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { tenants } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";

/** Reads the tenant's ingest secret for a one-time display and records who revealed it (not the secret). */
export async function revealIngestSecret({ ctx }: { ctx: AuditedCtx }): Promise<{ ingestSecret: string }> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select({ secret: tenants.ingestSecret }).from(tenants).where(eq(tenants.id, ctx.tenantId));
    if (!row) throw new NotFoundError(`No tenant with id ${ctx.tenantId}.`);
    await recordAuditEvent({ ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor }, input: { action: "ingest_secret.revealed", targetId: ctx.tenantId } });
    return { ingestSecret: row.secret };
  });
}
