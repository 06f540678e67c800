import { and, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { webhookEndpoints } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";

/**
 * `DELETE /webhooks/{webhook_id}` (204): the endpoint and its pending deliveries go (a delivery already
 * on its way finishes, and its result is dropped). The events stay in the feed.
 */
export async function deleteWebhook({ ctx, input }: { ctx: TenantCtx; input: { webhook_id: string } }): Promise<null> {
  const deleted = await ctx.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, ctx.tenantId), eq(webhookEndpoints.id, input.webhook_id)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw new NotFoundError(`No webhook ${input.webhook_id}.`);
  ctx.log.info({ webhook_id: input.webhook_id }, "webhook deleted");
  return null;
}
