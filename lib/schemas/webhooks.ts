import { z } from "zod";
import { ALERT_AGENTS, SEVERITIES } from "@/lib/vocabulary/alerts";
import { ALERT_CHANGES, DELIVERY_STATUSES, EVENT_TYPES } from "@/lib/vocabulary/events";
import { dateTime, intQueryParam, listEnvelope, text } from "./common";

/** CONTRACT "Webhooks and the changes feed": the feed's `limit`. */
const EVENTS_LIMIT = { min: 1, max: 500, fallback: 100 } as const;
/** Longest webhook URL accepted (browsers' and proxies' common limit). */
const URL_MAX_LENGTH = 2048;

const eventType = () => z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(", ")}` });

// ---- Event payloads (the `data` of each type; docs/webhooks.md "Events") ----

const deviceIdField = z.string().meta({ description: "The vehicle the event is about." });
const alertFields = {
  device_id: deviceIdField,
  alert_id: z.string().meta({ description: "The alert's `id` in GET /alerts." }),
  agent: z.enum(ALERT_AGENTS).meta({ description: "The detector that raised it." }),
  severity: z.enum(SEVERITIES),
};

const EVENT_DATA_SCHEMAS = {
  "alert.created": z.object(alertFields).meta({ id: "AlertCreatedData" }),
  "alert.updated": z
    .object({
      ...alertFields,
      change: z.enum(ALERT_CHANGES).meta({
        description:
          "`occurred_again`: the problem was seen again and folded into this open alert; `escalated`: it was seen again more severely, raised as the new alert `escalated_to` (its own `alert.created`); `resolved`: a later reading contradicted it and FDP closed it; `acknowledged` or `dismissed` (as a false alarm) by a person in the dashboard.",
      }),
      escalated_to: z.string().optional().meta({ description: "With `escalated`: the new, more severe alert's id." }),
    })
    .meta({ id: "AlertUpdatedData" }),
  "certificate.generated": z
    .object({
      device_id: deviceIdField,
      certificate_number: z.string(),
      grade: z.string(),
      generated_at: dateTime(),
      expires_at: dateTime(),
    })
    .meta({ id: "CertificateGeneratedData" }),
  "certificate.revoked": z.object({ device_id: deviceIdField, certificate_number: z.string(), revoked_at: dateTime() }).meta({ id: "CertificateRevokedData" }),
  "device.created": z.object({ device_id: deviceIdField }).meta({ id: "DeviceCreatedData" }),
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodObject>;

/** The fields of one event of `type`, as a webhook's body and the feed both carry them. */
const eventFields = (type: (typeof EVENT_TYPES)[number]) => ({
  type: z.literal(type),
  timestamp: dateTime().meta({ description: "When FDP committed the change." }),
  data: EVENT_DATA_SCHEMAS[type],
});

/** The body FDP POSTs for one event of `type` (CONTRACT: `{type, timestamp, data}`; the id travels as `webhook-id`). */
export function webhookPayloadSchema(type: (typeof EVENT_TYPES)[number]) {
  return z.object(eventFields(type)).meta({ id: `${type.replace(/(^|\.)([a-z])/g, (_, _dot: string, c: string) => c.toUpperCase())}Payload` });
}

/** One event as the feed lists it and as a webhook's body carries it (the feed adds its `id`). */
const eventSchema = z
  .discriminatedUnion(
    "type",
    EVENT_TYPES.map((type) =>
      z.object({
        id: z.string().meta({ description: "`evt_…`: the `webhook-id` of every delivery of this event (dedupe on it)." }),
        ...eventFields(type),
      }),
    ) as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: "Event" });

export const eventsQuerySchema = z.object({
  after: z.string().max(200).optional().meta({ description: "The `next_cursor` of the previous page; absent: from the oldest event kept (at least 30 days)." }),
  limit: intQueryParam(EVENTS_LIMIT).meta({
    description: `Most events to return, ${EVENTS_LIMIT.min}–${EVENTS_LIMIT.max} (default ${EVENTS_LIMIT.fallback}).`,
  }),
  type: eventType().optional().meta({ description: "Only events of this type." }),
});

export const eventsPageSchema = z
  .object({
    data: z.array(eventSchema),
    next_cursor: z.string().meta({ description: "Pass as `after` for the events after this page (also when it is empty: poll with it)." }),
    has_more: z.boolean().meta({ description: "More events follow now; false once the page reaches the newest." }),
  })
  .meta({ id: "EventsPage" });

// ---- Webhook endpoints ----

export const webhookIdPath = () =>
  z.object({
    webhook_id: z
      .string()
      .regex(/^wh_[0-9A-Za-z]{20}$/, { message: "must be a webhook id (wh_ and 20 letters or digits)" })
      .meta({ description: "The webhook's id (`wh_…`).", example: "wh_3kT9xQ2mVb7LpR4sW8nZ" }),
  });

export const createWebhookBodySchema = z.object({
  url: z
    .string({ message: "url is required" })
    .max(URL_MAX_LENGTH, { message: `must be at most ${URL_MAX_LENGTH} characters` })
    .meta({
      description:
        "Where FDP POSTs each event: https (http only outside production, or to loopback with WEBHOOK_ALLOW_LOOPBACK=1); never a private, link-local, multicast or reserved address.",
      example: "https://partner.example/fdp-webhooks",
    }),
  events: z
    .array(eventType(), { message: "events must be a list of event types" })
    .min(1, { message: "name at least one event type" })
    .max(EVENT_TYPES.length)
    .refine((list) => new Set(list).size === list.length, { message: "must not name an event type twice" })
    .meta({ description: `The event types to send: ${EVENT_TYPES.join(", ")}.` }),
  description: text({ max: 200 }).optional().meta({ description: "Your own note, e.g. what receives it." }),
});

const lastDeliverySchema = z
  .object({
    event_id: z.string(),
    status: z.enum(DELIVERY_STATUSES).meta({ description: "`pending` while being sent or retried, then `delivered` or `failed`." }),
    attempts: z.number().int(),
    last_attempt_at: dateTime().nullable(),
    last_status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when it gave none (timeout, refused connection)." }),
    last_error: z.string().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(eventType()),
    description: z.string().nullable(),
    created_at: dateTime(),
    last_delivery: lastDeliverySchema.nullable().meta({ description: "The newest event's delivery to this endpoint; null before the first." }),
  })
  .meta({ id: "Webhook" });

export const createdWebhookSchema = webhookSchema
  .omit({ last_delivery: true })
  .extend({
    secret: z.string().meta({ description: "`whsec_…`: verifies `webhook-signature` (Standard Webhooks). Shown only in this answer: store it now." }),
  })
  .meta({ id: "CreatedWebhook" });

export const webhookListSchema = listEnvelope(webhookSchema, "WebhookList");

export const replayBodySchema = z.object({
  since: dateTime()
    .refine((v) => Date.parse(v) >= 0, { message: "must be 1970 or later" })
    .meta({ description: "Re-send this endpoint's subscribed events committed at or after this time.", example: "2026-11-24T00:00:00Z" }),
});

export const replayAnswerSchema = z
  .object({
    webhook_id: z.string(),
    since: dateTime(),
    events: z.number().int().meta({
      description: "Events queued again for delivery (their `webhook-id`s unchanged), at most 10,000 per call; one already waiting for this endpoint is not queued twice.",
    }),
  })
  .meta({ id: "WebhookReplay" });
