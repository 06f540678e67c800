import { and, eq } from "drizzle-orm";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { alerts } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { NotFoundError } from "@/lib/errors";
import { invalidateDeviceSnapshots, refreshDeviceAfterChange } from "@/lib/dashboard/score-snapshots/refresh-score-snapshots";

interface AcknowledgedAlert {
  id: string;
  acknowledged_by: string;
  acknowledged_at: string;
  /** False when it was already acknowledged (by this or another user): nothing was changed. */
  changed: boolean;
}

/**
 * A reviewer acknowledges an alert (the dashboard's action; the API has none): `acknowledged_by` is
 * the signed-in user's e-mail, `acknowledged_at` now, and an `alert.acknowledged` audit record, in one
 * transaction. The alert then no longer counts towards the fleet's `alert_level`,
 * and a new occurrence of its problem raises a new alert (lib/alerts/alert-lifecycle.ts). One
 * statement, tenant-scoped: another tenant's alert id is not found. Acknowledging twice keeps the
 * first reviewer and time.
 */
export async function acknowledgeAlert({ ctx, input, now = new Date() }: { ctx: AuditedCtx; input: { alert_id: string }; now?: Date }): Promise<AcknowledgedAlert> {
  let changedDevice: string | null = null;
  const result = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(alerts)
      .set({ acknowledged: true, acknowledgedBy: ctx.actor.email, acknowledgedAt: now })
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, input.alert_id), eq(alerts.acknowledged, false)))
      .returning({ id: alerts.id, deviceId: alerts.deviceId, agent: alerts.agent, severity: alerts.severity, by: alerts.acknowledgedBy, at: alerts.acknowledgedAt });
    if (updated) {
      // The device's maintained answers read this alert (knockouts, odometer evidence): not shown again until recomputed.
      if (await invalidateDeviceSnapshots(tx, ctx.tenantId, updated.deviceId)) changedDevice = updated.deviceId;
      await recordAuditEvent({
        ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
        input: { action: "alert.acknowledged", targetId: updated.id, details: { device_id: updated.deviceId, severity: updated.severity } },
      });
      // Last in the transaction (it takes the tenant's event lock): the partners' `alert.updated`.
      await emitEvents(tx, ctx.tenantId, [
        { type: "alert.updated", data: { device_id: updated.deviceId, alert_id: updated.id, agent: updated.agent, severity: updated.severity, change: "acknowledged" } },
      ]);
      return { id: updated.id, acknowledged_by: updated.by!, acknowledged_at: updated.at!.toISOString(), changed: true };
    }
    const [existing] = await tx
      .select({ id: alerts.id, by: alerts.acknowledgedBy, at: alerts.acknowledgedAt })
      .from(alerts)
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, input.alert_id)));
    if (!existing) throw new NotFoundError(`No alert ${input.alert_id}.`);
    return { id: existing.id, acknowledged_by: existing.by ?? "", acknowledged_at: existing.at?.toISOString() ?? now.toISOString(), changed: false };
  });
  if (changedDevice !== null) refreshDeviceAfterChange({ db: ctx.db, log: ctx.log, tenantId: ctx.tenantId, deviceId: changedDevice });
  return result;
}
