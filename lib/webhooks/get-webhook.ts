import type { z } from "zod";
import type { TenantCtx } from "@/lib/context";
import { NotFoundError } from "@/lib/errors";
import type { webhookSchema } from "@/lib/schemas/webhooks";
import { readWebhooks } from "./webhook-rows";

/** `GET /webhooks/{webhook_id}`: one endpoint with its newest delivery; another tenant's id is a 404. */
export async function getWebhook({ ctx, input }: { ctx: TenantCtx; input: { webhook_id: string } }): Promise<z.input<typeof webhookSchema>> {
  const [found] = await readWebhooks(ctx.db, ctx.tenantId, input.webhook_id);
  if (!found) throw new NotFoundError(`No webhook ${input.webhook_id}.`);
  return found;
}
