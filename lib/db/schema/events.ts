import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
// Relative import: drizzle-kit loads this schema without the `@/` path alias.
import { DELIVERY_STATUSES, EVENT_TYPES, type DeliveryStatus, type EventType } from "../../vocabulary/events";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * The outbox (CONTRACT "Webhooks and the changes feed"): one row per event, written in the transaction
 * of the change that causes it (lib/events/emit-events.ts), so a rolled-back change emits nothing and a
 * crash after the commit loses nothing. `GET /events` reads it in `seq` order; webhook deliveries point at it.
 */
export const events = pgTable(
  "events",
  {
    /**
     * Commit order within a tenant: emitEvents draws it under the tenant's event lock, held to the commit,
     * so a tenant's events become visible in `seq` order and a cursor never skips one committed later.
     */
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** `evt_…`: the feed's `id` and every delivery's `webhook-id`. */
    id: text("id").notNull(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    type: text("type").$type<EventType>().notNull(),
    deviceId: text("device_id").notNull(),
    /** The payload's `data` (never the tenant). */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("events_id_idx").on(t.id), index("events_tenant_seq_idx").on(t.tenantId, t.seq), check("events_type_check", sql`${t.type} in (${list(EVENT_TYPES)})`)],
);

/** A partner's webhook endpoint (`POST /webhooks`). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    /** `wh_…`. */
    id: text("id").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().$type<EventType[]>().notNull(),
    description: text("description"),
    /** `whsec_…`: needed in clear to sign each delivery (like the tenant's ingest secret); never answered after creation. */
    secret: text("secret").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_endpoints_tenant_idx").on(t.tenantId, t.createdAt)],
);

/**
 * One event to one endpoint: created with the event (or by a replay), claimed by one worker at a time
 * (`locked_until`), retried on the CONTRACT's schedule, then `delivered` or `failed`.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventSeq: bigint("event_seq", { mode: "number" })
      .notNull()
      .references(() => events.seq, { onDelete: "cascade" }),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    /** Set while a worker sends it; a claim whose worker died expires and the delivery is taken again. */
    lockedUntil: timestamptz("locked_until"),
    lastAttemptAt: timestamptz("last_attempt_at"),
    /** The receiver's HTTP status of the last attempt, null when it gave none (timeout, refused, unsafe address). */
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamptz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.eventSeq),
    check("webhook_deliveries_status_check", sql`${t.status} in (${list(DELIVERY_STATUSES)})`),
  ],
);
