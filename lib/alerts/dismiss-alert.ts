import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { alerts } from "@/lib/db/schema";
import { emitEvents } from "@/lib/events/emit-events";
import { NotFoundError } from "@/lib/errors";
import { invalidateDeviceSnapshots, refreshDeviceAfterChange } from "@/lib/dashboard/score-snapshots/refresh-score-snapshots";
import { text } from "@/lib/schemas/common";
import { parseInput } from "@/lib/validation";

/** Bounds of a dismissal's reason: long enough to say something, short enough to show beside the alert. */
export const DISMISSAL_REASON_MIN = 3;
export const DISMISSAL_REASON_MAX = 500;

const dismissAlertInput = z.object({
  alert_id: z.string().min(1).max(200),
  // `text()` trims, and refuses NUL and lone surrogates (lib/schemas/common.ts).
  reason: text({ min: DISMISSAL_REASON_MIN, max: DISMISSAL_REASON_MAX }),
});
type DismissAlertInput = z.input<typeof dismissAlertInput>;

interface DismissedAlert {
  id: string;
  dismissed_by: string;
  dismissed_at: string;
  dismissal_reason: string;
  /** False when it was already dismissed: the first dismissal (reviewer, time, reason) is kept. */
  changed: boolean;
}

/**
 * A reviewer dismisses an alert as a false alarm (the dashboard's action; the API has none), with a
 * reason: `dismissed_by/at`, `dismissal_reason`, and the alert counts as acknowledged (the first
 * acknowledgement, if any, is kept), plus an `alert.dismissed` audit record carrying the reason, in one
 * transaction. A dismissed odometer rollback or low state-of-health alert's readings are then set aside
 * by the knockout rule of the TAS and EOL answers, which say so (lib/scores/knockout-evidence.ts).
 * Tenant-scoped: another tenant's alert id is not found and nothing is written.
 */
export async function dismissAlert({ ctx, input, now = new Date() }: { ctx: AuditedCtx; input: DismissAlertInput; now?: Date }): Promise<DismissedAlert> {
  const { alert_id, reason } = parseInput(dismissAlertInput, input);
  let changedDevice: string | null = null;
  const result = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(alerts)
      .set({
        dismissedAt: now,
        dismissedBy: ctx.actor.email,
        dismissalReason: reason,
        acknowledged: true,
        acknowledgedBy: sql`coalesce(${alerts.acknowledgedBy}, ${ctx.actor.email})`,
        acknowledgedAt: sql`coalesce(${alerts.acknowledgedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, alert_id), isNull(alerts.dismissedAt)))
      .returning({ id: alerts.id, deviceId: alerts.deviceId, agent: alerts.agent, severity: alerts.severity, dedupeKey: alerts.dedupeKey });
    if (updated) {
      // The device's maintained answers read this alert (knockouts, odometer evidence): not shown again until recomputed.
      if (await invalidateDeviceSnapshots(tx, ctx.tenantId, updated.deviceId)) changedDevice = updated.deviceId;
      await recordAuditEvent({
        ctx: { db: tx, tenantId: ctx.tenantId, actor: ctx.actor },
        input: {
          action: "alert.dismissed",
          targetId: updated.id,
          details: { device_id: updated.deviceId, severity: updated.severity, dedupe_key: updated.dedupeKey, reason },
        },
      });
      // Last in the transaction (it takes the tenant's event lock): the partners' `alert.updated`.
      await emitEvents(tx, ctx.tenantId, [
        { type: "alert.updated", data: { device_id: updated.deviceId, alert_id: updated.id, agent: updated.agent, severity: updated.severity, change: "dismissed" } },
      ]);
      return { id: updated.id, dismissed_by: ctx.actor.email, dismissed_at: now.toISOString(), dismissal_reason: reason, changed: true };
    }
    const [existing] = await tx
      .select({ id: alerts.id, by: alerts.dismissedBy, at: alerts.dismissedAt, reason: alerts.dismissalReason })
      .from(alerts)
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.id, alert_id)));
    if (!existing) throw new NotFoundError(`No alert ${alert_id}.`);
    return {
      id: existing.id,
      dismissed_by: existing.by ?? "",
      dismissed_at: existing.at?.toISOString() ?? now.toISOString(),
      dismissal_reason: existing.reason ?? "",
      changed: false,
    };
  });
  if (changedDevice !== null) refreshDeviceAfterChange({ db: ctx.db, log: ctx.log, tenantId: ctx.tenantId, deviceId: changedDevice });
  return result;
}
