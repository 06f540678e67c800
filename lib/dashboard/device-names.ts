import { and, eq, inArray } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { devices } from "@/lib/db/schema";

/**
 * The names of the tenant's devices among `device_ids`, in one query: the alerts page names each
 * vehicle (issue 30: alerts listed bare device ids). An id of another tenant is simply absent.
 */
export async function deviceNames({ ctx, input }: { ctx: Pick<TenantCtx, "db" | "tenantId">; input: { device_ids: readonly string[] } }): Promise<Map<string, string>> {
  const ids = [...new Set(input.device_ids)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: devices.deviceId, name: devices.name })
    .from(devices)
    .where(and(eq(devices.tenantId, ctx.tenantId), inArray(devices.deviceId, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
