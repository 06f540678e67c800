import { and, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";

export interface AcknowledgedAlert {
  id: string;
  acknowledged_by: string;
  acknowledged_at: string;
  /** False when it was already acknowledged (by this or another user): nothing was changed. */
  changed: boolean;
}

/**
 * A reviewer acknowledges an alert (the dashboard's action; the API has none): `acknowledged_by` is
 * the user, `acknowledged_at` now. The alert then no longer counts towards the fleet's `alert_level`,
 * and a new occurrence of its problem raises a new alert (lib/alerts/alert-lifecycle.ts). One
 * statement, tenant-scoped: another tenant's alert id is not found. Acknowledging twice keeps the
 * first reviewer and time.
 */
export async function acknowledgeAlert({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: { alert_id: string; by: string }; now?: Date }): Promise<AcknowledgedAlert> {
  const [updated] = await ctx.db
    .update(alerts)
    .set({ acknowledged: true, acknowledgedBy: input.by, acknowledgedAt: now })
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, input.alert_id), eq(alerts.acknowledged, false)))
    .returning({ id: alerts.id, by: alerts.acknowledgedBy, at: alerts.acknowledgedAt });
  if (updated) return { id: updated.id, acknowledged_by: updated.by!, acknowledged_at: updated.at!.toISOString(), changed: true };
  const [existing] = await ctx.db
    .select({ id: alerts.id, by: alerts.acknowledgedBy, at: alerts.acknowledgedAt })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, input.alert_id)));
  if (!existing) throw new NotFoundError(`No alert ${input.alert_id}.`);
  return { id: existing.id, acknowledged_by: existing.by ?? "", acknowledged_at: existing.at?.toISOString() ?? now.toISOString(), changed: false };
}
