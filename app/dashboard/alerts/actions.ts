"use server";

import { revalidatePath } from "next/cache";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { NotFoundError } from "@/lib/errors";

/**
 * Acknowledge one alert as the signed-in user. Server actions are protected against cross-site posts by
 * Next.js (Origin must match Host, docs/dashboard.md); the tenant comes from the session, so another
 * tenant's alert id is simply not found.
 */
export async function acknowledgeAlertAction(form: FormData): Promise<void> {
  const { ctx, email, userId } = await requireDashboardSession();
  const alertId = String(form.get("alert_id") ?? "").slice(0, 200);
  try {
    const done = await acknowledgeAlert({ ctx: { ...ctx, actor: { userId, email } }, input: { alert_id: alertId } });
    ctx.log.info({ alert_id: done.id, changed: done.changed }, "alert acknowledged from the dashboard");
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    ctx.log.warn({ alert_id: alertId }, "acknowledge: no such alert for this tenant");
  }
  revalidatePath("/dashboard/alerts");
  revalidatePath("/dashboard");
}
