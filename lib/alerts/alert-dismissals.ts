import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts } from "@/lib/db/schema";

interface AlertDismissal {
  dismissed_by: string;
  dismissed_at: string;
  reason: string;
}

/**
 * The dismissals of the tenant's alerts among `alert_ids` (the dashboard shows them beside the alerts;
 * the API's alert shape, SPEC 2.2, does not carry them), in one query.
 */
export async function alertDismissals({ ctx, input }: { ctx: Pick<TenantCtx, "db" | "tenantId">; input: { alert_ids: readonly string[] } }): Promise<Map<string, AlertDismissal>> {
  const out = new Map<string, AlertDismissal>();
  if (input.alert_ids.length === 0) return out;
  const found = await ctx.db
    .select({ id: alerts.id, by: alerts.dismissedBy, at: alerts.dismissedAt, reason: alerts.dismissalReason })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), inArray(alerts.id, [...input.alert_ids]), isNotNull(alerts.dismissedAt)));
  for (const r of found) out.set(r.id, { dismissed_by: r.by ?? "unknown", dismissed_at: r.at!.toISOString(), reason: r.reason ?? "" });
  return out;
}
