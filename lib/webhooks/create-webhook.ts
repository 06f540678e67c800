import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { TenantCtx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { createdWebhookSchema, createWebhookBodySchema } from "@/lib/schemas/webhooks";
import { checkWebhookTarget } from "./webhook-target";
import { newWebhookSecret } from "./webhook-secret";

/** Endpoints one tenant may register: each event is sent to each, so the fan-out stays bounded. */
const MAX_WEBHOOKS_PER_TENANT = 20;

/**
 * `POST /webhooks`: registers an endpoint after checking where it points (lib/webhooks/webhook-target.ts;
 * a refused target is a 400 and nothing is connected to). The secret is answered here and never again.
 * Events committed from now on are delivered to it; earlier ones only by a replay.
 */
export async function createWebhook({ ctx, input }: { ctx: TenantCtx; input: z.output<typeof createWebhookBodySchema> }): Promise<z.input<typeof createdWebhookSchema>> {
  const url = await checkWebhookTarget(input.url);
  const count = await ctx.db.$count(webhookEndpoints, eq(webhookEndpoints.tenantId, ctx.tenantId));
  if (count >= MAX_WEBHOOKS_PER_TENANT) {
    throw new ValidationError(`A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} webhooks; delete one first (DELETE /webhooks/{webhook_id}).`);
  }
  const secret = newWebhookSecret();
  const [row] = await ctx.db
    .insert(webhookEndpoints)
    .values({ id: newId("wh"), tenantId: ctx.tenantId, url, events: input.events, description: input.description ?? null, secret })
    .returning();
  if (!row) throw new Error("createWebhook: the insert returned no row");
  ctx.log.info({ webhook_id: row.id, events: row.events }, "webhook registered");
  return { id: row.id, url: row.url, events: row.events, description: row.description, created_at: row.createdAt.toISOString(), secret };
}
