import type { Db } from "@/lib/db/client";
import { auditEvents } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

/** Every change the audit log knows; the dashboard labels them in components/dashboard/audit-log.tsx. */
export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.revoked",
  "ingest_secret.revealed",
  "ingest_secret.rotated",
  "signed_ingest.required_changed",
  "alert.acknowledged",
  "alert.dismissed",
  "webhook.created",
  "webhook.deleted",
  "webhook.replayed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who did it: the signed-in dashboard user (lib/dashboard/session.ts). */
export interface AuditActor {
  userId: string;
  email: string;
}

interface AuditEventInput {
  action: AuditAction;
  targetId?: string | null;
  /** Ids, names, scopes, switch positions: never a key, a secret or a password. */
  details?: Record<string, unknown>;
}

/**
 * Records one change in the tenant's audit log. Pass the transaction that made the change as `db`,
 * so the change and its record commit together or not at all.
 */
export async function recordAuditEvent({ ctx, input }: { ctx: { db: Db; tenantId: string; actor: AuditActor }; input: AuditEventInput }): Promise<{ id: string }> {
  const id = newId("aud");
  await ctx.db.insert(auditEvents).values({
    id,
    tenantId: ctx.tenantId,
    actorUserId: ctx.actor.userId,
    actorEmail: ctx.actor.email,
    action: input.action,
    targetId: input.targetId ?? null,
    details: input.details ?? {},
  });
  return { id };
}
