import { and, desc, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts } from "@/lib/db/schema";
import type { Severity } from "@/lib/vocabulary/alerts";

/** The vehicle page shows the latest alerts only; the alerts page has the rest. */
export const VEHICLE_ALERTS_LIMIT = 10;

interface VehicleAlertRow {
  id: string;
  agent: string;
  severity: Severity;
  prediction: string;
  acknowledged: boolean;
  created_at: string;
}

/** The latest alerts of one vehicle of the tenant, newest first (one round trip, the alerts' tenant index). */
export async function listVehicleAlerts({
  ctx,
  input,
  limit = VEHICLE_ALERTS_LIMIT,
}: {
  ctx: TenantCtx;
  input: { device_id: string };
  limit?: number;
}): Promise<VehicleAlertRow[]> {
  const found = await ctx.db
    .select({ id: alerts.id, agent: alerts.agent, severity: alerts.severity, prediction: alerts.prediction, acknowledged: alerts.acknowledged, createdAt: alerts.createdAt })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.deviceId, input.device_id)))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(limit);
  return found.map((a) => ({ id: a.id, agent: a.agent, severity: a.severity, prediction: a.prediction, acknowledged: a.acknowledged, created_at: a.createdAt.toISOString() }));
}
