import { and, desc, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { auditEvents } from "@/lib/db/schema";
import type { AuditAction } from "./record-audit-event";

export type { AuditAction };

export interface AuditEventRow {
  id: string;
  action: AuditAction;
  actorEmail: string;
  actorUserId: string;
  targetId: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** The tenant's latest audit events, newest first (one query; the index covers tenant + time). */
export async function listAuditEvents({
  ctx,
  input = {},
}: {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  input?: { limit?: number; action?: AuditAction };
}): Promise<AuditEventRow[]> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 500);
  const rows = await ctx.db
    .select({
      id: auditEvents.id,
      action: auditEvents.action,
      actorEmail: auditEvents.actorEmail,
      actorUserId: auditEvents.actorUserId,
      targetId: auditEvents.targetId,
      details: auditEvents.details,
      createdAt: auditEvents.createdAt,
    })
    .from(auditEvents)
    .where(input.action ? and(eq(auditEvents.tenantId, ctx.tenantId), eq(auditEvents.action, input.action)) : eq(auditEvents.tenantId, ctx.tenantId))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, action: r.action as AuditAction }));
}
