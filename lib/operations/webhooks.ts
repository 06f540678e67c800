import { z } from "zod";
import { listEvents } from "@/lib/events/list-events";
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  eventsPageSchema,
  eventsQuerySchema,
  replayAnswerSchema,
  replayBodySchema,
  webhookIdPath,
  webhookListSchema,
  webhookSchema,
} from "@/lib/schemas/webhooks";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { getWebhook } from "@/lib/webhooks/get-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { replayWebhook } from "@/lib/webhooks/replay-webhook";
import { defineOperation } from "./define-operation";

const webhooksWrite = { scope: "webhooks:write" } as const;
const unknownWebhook = { 404: "Unknown webhook id, or one of another tenant (the two look the same)." };
/** An id the examples stand for; the examples script replaces it with the one it has just registered (scripts/lib/sandbox-examples.ts). */
const EXAMPLE_WEBHOOK_ID = "wh_3kT9xQ2mVb7LpR4sW8nZ";

export const createWebhookOperation = defineOperation({
  id: "createWebhook",
  method: "POST",
  path: "/webhooks",
  access: webhooksWrite,
  success: 201,
  tag: "Webhooks",
  summary: "Register a webhook endpoint (Standard Webhooks), its secret shown once",
  description:
    "FDP POSTs each subscribed event to `url`, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried on failure (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). The target is checked now and at every delivery: no private, link-local, multicast or reserved address; https in production. Not with the sandbox key. Guide: docs/webhooks.md.",
  input: { body: createWebhookBodySchema },
  output: createdWebhookSchema,
  // An address literal: the examples are answered offline, and a name would have to resolve (the target check).
  requestExample: { body: { url: "https://93.184.215.14/fdp-webhooks", events: ["alert.created", "alert.updated", "certificate.generated"], description: "Claims system" } },
  verb: createWebhook,
});

export const listWebhooksOperation = defineOperation({
  id: "listWebhooks",
  method: "GET",
  path: "/webhooks",
  access: webhooksWrite,
  tag: "Webhooks",
  summary: "The tenant's webhook endpoints, each with its newest delivery",
  description: "Never the secrets.",
  input: {},
  output: webhookListSchema,
  requestExample: {},
  verb: listWebhooks,
});

export const getWebhookOperation = defineOperation({
  id: "getWebhook",
  method: "GET",
  path: "/webhooks/{webhook_id}",
  access: webhooksWrite,
  tag: "Webhooks",
  summary: "One webhook endpoint with its newest delivery",
  input: { path: webhookIdPath() },
  output: webhookSchema,
  errors: unknownWebhook,
  requestExample: { path: { webhook_id: EXAMPLE_WEBHOOK_ID } },
  verb: getWebhook,
});

export const deleteWebhookOperation = defineOperation({
  id: "deleteWebhook",
  method: "DELETE",
  path: "/webhooks/{webhook_id}",
  access: webhooksWrite,
  success: 204,
  tag: "Webhooks",
  summary: "Delete a webhook endpoint and its pending deliveries",
  description: "The events stay in the changes feed (GET /events).",
  input: { path: webhookIdPath() },
  output: z.null(),
  errors: unknownWebhook,
  requestExample: { path: { webhook_id: EXAMPLE_WEBHOOK_ID } },
  verb: deleteWebhook,
});

export const replayWebhookOperation = defineOperation({
  id: "replayWebhook",
  method: "POST",
  path: "/webhooks/{webhook_id}/replay",
  access: webhooksWrite,
  success: 202,
  tag: "Webhooks",
  summary: "Send an endpoint's events again since a time",
  description: "Queues every subscribed event committed at or after `since` again, in commit order, with the same `webhook-id`s (dedupe on them).",
  input: { path: webhookIdPath(), body: replayBodySchema },
  output: replayAnswerSchema,
  errors: unknownWebhook,
  requestExample: { path: { webhook_id: EXAMPLE_WEBHOOK_ID }, body: { since: "2026-11-24T00:00:00Z" } },
  verb: replayWebhook,
});

export const listEventsOperation = defineOperation({
  id: "listEvents",
  method: "GET",
  path: "/events",
  access: { scope: "events:read" },
  reads: "replica",
  tag: "Webhooks",
  summary: "The changes feed: the events webhooks carry, in commit order",
  description:
    "Page with `after` = the previous page's `next_cursor`; an event's `id` is the `webhook-id` of its deliveries. Kept at least 30 days. Poll with the last `next_cursor` instead of registering a webhook, or to catch up after one was down.",
  input: { query: eventsQuerySchema },
  output: eventsPageSchema,
  requestExample: { query: { limit: "3" } },
  verb: listEvents,
});
