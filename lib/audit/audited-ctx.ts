import type { AuditActor } from "@/lib/audit/record-audit-event";
import type { TenantCtx } from "@/lib/context";

/** What the dashboard's audited mutations take: the session's tenant context and who is signed in. */
export interface AuditedCtx extends TenantCtx {
  actor: AuditActor;
}
