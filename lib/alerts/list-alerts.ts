import { and, desc, eq, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts } from "@/lib/db/schema";
import type { AlertList, AlertsQuery } from "@/lib/schemas/alerts";
import { lifecycleTechnicalData } from "./alert-lifecycle";

/** The tenant's alerts, newest first, filtered by severity and acknowledgement. */
export async function listAlerts({ ctx, input }: { ctx: TenantCtx; input: AlertsQuery }): Promise<AlertList> {
  const filters: SQL[] = [eq(alerts.tenantId, ctx.tenantId)];
  if (input.severity) filters.push(eq(alerts.severity, input.severity));
  if (input.acknowledged !== undefined) filters.push(eq(alerts.acknowledged, input.acknowledged));

  const found = await ctx.db
    .select()
    .from(alerts)
    .where(and(...filters))
    .orderBy(desc(alerts.createdAt), desc(alerts.id))
    .limit(input.limit);

  const data = found.map((a) => ({
    id: a.id,
    device_id: a.deviceId,
    agent: a.agent,
    severity: a.severity,
    prediction: a.prediction,
    confidence: a.confidence,
    // The detector's evidence of the latest occurrence, with the lifecycle: occurrences, first/last
    // occurrence (device time), worst and latest value of `value_field` (docs/methodology/alerts.md#lifecycle).
    technical_data: { ...a.technicalData, ...lifecycleTechnicalData(a) },
    acknowledged: a.acknowledged,
    acknowledged_by: a.acknowledgedBy,
    acknowledged_at: a.acknowledgedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  }));
  return { data, count: data.length, tenant_id: ctx.tenantId };
}
