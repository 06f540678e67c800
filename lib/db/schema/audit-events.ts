import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tenantId } from "./columns";
import { tenants } from "./tenants";

/**
 * What a dashboard user changed, when, and to what (issue 11: key created or revoked, ingest secret
 * revealed or rotated, signed ingest switched, alerts acknowledged or dismissed). Never a secret:
 * `details` holds ids, names, scopes and switch positions only. Rows are written in the same
 * transaction as the change they record (lib/audit/record-audit-event.ts).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    /** The user's id and e-mail at the time (kept as text: the log outlives a deleted user). */
    actorUserId: text("actor_user_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    /** A dotted verb from AUDIT_ACTIONS, e.g. `api_key.created`. */
    action: text("action").notNull(),
    /** The id of what was changed (a key id, the tenant id, an alert id). */
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_tenant_created_idx").on(t.tenantId, t.createdAt)],
);
