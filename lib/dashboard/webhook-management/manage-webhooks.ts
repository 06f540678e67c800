import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { ForbiddenError } from "@/lib/errors";
import { createWebhookBodySchema } from "@/lib/schemas/webhooks";
import { parseInput } from "@/lib/validation";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { replayWebhook } from "@/lib/webhooks/replay-webhook";

/**
 * The keys page's webhook changes: the API's own verbs (POST /webhooks, DELETE, replay) for the session's
 * tenant, each with its audit record in one transaction: where FDP sends a customer's data is a decision
 * the log must show (who, when, which URL). Never the secret. The sandbox tenant cannot register webhooks
 * (CONTRACT: its public key cannot; its public demo user neither).
 */

export const SANDBOX_WEBHOOKS_MESSAGE = "The sandbox cannot register webhooks: its key and demo user are public. Read its changes with GET /api/v1/events.";

function refuseSandbox(ctx: AuditedCtx): void {
  if (ctx.isSandbox) throw new ForbiddenError(SANDBOX_WEBHOOKS_MESSAGE);
}

/** `input` as the form sent it: validated here by the API's own schema. */
export async function registerWebhook({ ctx, input }: { ctx: AuditedCtx; input: { url: string; events: string[]; description?: string } }) {
  refuseSandbox(ctx);
  const body = parseInput(createWebhookBodySchema, input);
  return ctx.db.transaction(async (tx) => {
    const created = await createWebhook({ ctx: { ...ctx, db: tx }, input: body });
    await recordAuditEvent({
      ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
      input: { action: "webhook.created", targetId: created.id, details: { url: created.url, events: created.events } },
    });
    return created;
  });
}

export async function removeWebhook({ ctx, input }: { ctx: AuditedCtx; input: { webhook_id: string } }): Promise<void> {
  refuseSandbox(ctx);
  await ctx.db.transaction(async (tx) => {
    await deleteWebhook({ ctx: { ...ctx, db: tx }, input });
    await recordAuditEvent({ ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor }, input: { action: "webhook.deleted", targetId: input.webhook_id } });
  });
}

export async function replayWebhookSince({ ctx, input }: { ctx: AuditedCtx; input: { webhook_id: string; since: string } }) {
  refuseSandbox(ctx);
  return ctx.db.transaction(async (tx) => {
    const replayed = await replayWebhook({ ctx: { ...ctx, db: tx }, input });
    await recordAuditEvent({
      ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
      input: { action: "webhook.replayed", targetId: input.webhook_id, details: { since: replayed.since, events: replayed.events } },
    });
    return replayed;
  });
}
