import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { utcDay } from "@/lib/telemetry/queries/rollup-window";
import { assertTenantExists } from "@/lib/tenants/assert-tenant-exists";
import { parseInput } from "@/lib/validation";
import { refreshTelemetryRollups } from "./refresh-telemetry-rollups";

export const refreshStaleRollupsInput = z.object({
  tenantId: z.string({ message: "The tenant id is a string." }).trim().min(1, { message: "The tenant id must not be empty." }).optional(),
});
type RefreshStaleRollupsInput = z.input<typeof refreshStaleRollupsInput>;

interface RefreshStaleRollupsResult {
  tenants: number;
  devices: number;
  days: number;
}

/**
 * Refreshes the daily rollups of every tenant that has stale ones (or of one tenant), one tenant after
 * another: the operator's step after a migration that empties the rollups (0012 did: until a
 * tenant's next ingest, its scores read raw telemetry, right but slow), and a catch-up for tenants
 * that have not ingested since. The ingest's own background refresh does the same per tenant; both
 * lock the state rows they rebuild (`for update skip locked`), so this may run while the app serves.
 * The admin CLI's `rollups:refresh` (docs/admin-cli.md).
 */
export async function refreshStaleRollups({ ctx, input, now = new Date() }: { ctx: { db: Db }; input: RefreshStaleRollupsInput; now?: Date }): Promise<RefreshStaleRollupsResult> {
  const data = parseInput(refreshStaleRollupsInput, input);
  if (data.tenantId !== undefined) await assertTenantExists(ctx.db, data.tenantId);
  const stale = await rows<{ tenant_id: string }>(
    ctx.db,
    sql`select distinct s.tenant_id from telemetry_rollup_state s
        join devices d on d.tenant_id = s.tenant_id and d.device_id = s.device_id
        where (s.clean_before < ${utcDay(now)}::date or s.rolled_battery_kwh is distinct from d.battery_kwh)
          ${data.tenantId !== undefined ? sql`and s.tenant_id = ${data.tenantId}` : sql``}
        order by s.tenant_id`,
  );
  const result: RefreshStaleRollupsResult = { tenants: 0, devices: 0, days: 0 };
  for (const { tenant_id } of stale) {
    const r = await refreshTelemetryRollups({ db: ctx.db, tenantId: tenant_id, now });
    result.tenants += 1;
    result.devices += r.devices;
    result.days += r.days;
  }
  return result;
}
