import type { z } from "zod";
import type { TenantCtx } from "@/lib/context";
import type { webhookListSchema } from "@/lib/schemas/webhooks";
import { readWebhooks } from "./webhook-rows";

/** `GET /webhooks`: the tenant's endpoints, oldest first, each with its newest delivery; never a secret. */
export async function listWebhooks({ ctx }: { ctx: TenantCtx; input: Record<string, never> }): Promise<z.input<typeof webhookListSchema>> {
  const data = await readWebhooks(ctx.db, ctx.tenantId);
  return { data, count: data.length, tenant_id: ctx.tenantId };
}
