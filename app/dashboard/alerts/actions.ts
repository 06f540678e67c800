"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import { dismissAlert } from "@/lib/alerts/dismiss-alert";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { NotFoundError, ValidationError } from "@/lib/errors";

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

/**
 * Dismiss one alert as a false alarm, with the reviewer's reason, as the signed-in user (session
 * re-checked here, tenant from the session). A reason the verb refuses (under 3 or over 500 characters
 * after trimming, control characters) comes back as `?dismiss_error=<alert id>` so the page says so.
 */
export async function dismissAlertAction(form: FormData): Promise<void> {
  const { ctx, email, userId } = await requireDashboardSession();
  const alertId = String(form.get("alert_id") ?? "").slice(0, 200);
  const reason = String(form.get("reason") ?? "");
  try {
    const done = await dismissAlert({ ctx: { ...ctx, actor: { userId, email } }, input: { alert_id: alertId, reason } });
    ctx.log.info({ alert_id: done.id, changed: done.changed }, "alert dismissed as a false alarm from the dashboard");
  } catch (err) {
    if (err instanceof ValidationError) redirect(`/dashboard/alerts?acknowledged=&dismiss_error=${encodeURIComponent(alertId)}`);
    if (!(err instanceof NotFoundError)) throw err;
    ctx.log.warn({ alert_id: alertId }, "dismiss: no such alert for this tenant");
  }
  revalidatePath("/dashboard/alerts");
  revalidatePath("/dashboard");
  revalidatePath("/dashboard/vehicles/[device_id]", "page");
}
