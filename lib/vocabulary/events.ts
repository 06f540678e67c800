/**
 * The events FDP emits (CONTRACT "Webhooks and the changes feed"): what webhooks carry and what
 * `GET /events` lists, written to the outbox in the transaction of the change (lib/events/emit-events.ts).
 * Catalogue with example payloads: docs/webhooks.md.
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */
export const EVENT_TYPES = ["alert.created", "alert.updated", "certificate.generated", "certificate.revoked", "device.created"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What changed in an `alert.updated`: a further occurrence folded into the open alert (ingest), a more
 * severe occurrence raised as a new alert beside it (ingest: `escalated`, naming the new one), the alert
 * closed by a reading that contradicts it (ingest), acknowledged or dismissed by a person.
 */
export const ALERT_CHANGES = ["occurred_again", "escalated", "resolved", "acknowledged", "dismissed"] as const;
export type AlertChange = (typeof ALERT_CHANGES)[number];

/** The state of one delivery of one event to one endpoint (lib/webhooks/deliver-webhooks.ts). */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
