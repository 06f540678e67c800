import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlCount, sqlNumber } from "@/lib/db/sql-values";
import type { CsrdLeaseInput, CsrdMonthlyActivity } from "../csrd";

export interface CsrdExtraInputs {
  /** The tenant's electricity contract factor, g CO2e/kWh; null = none configured. */
  contractFactorGPerKwh: number | null;
  leases: CsrdLeaseInput[];
  monthlyActivity: CsrdMonthlyActivity[];
}

/**
 * What the CSRD report needs beyond the emissions report and the green fleet score, in two SQL round
 * trips whatever the fleet size: the tenant's contract factor with every device's lease (tenant ⟕
 * devices), and per calendar month (UTC) of `[since, until]` the number of vehicles that reported
 * telemetry, by stored powertrain (grouped in the database; the telemetry_tenant_ts index bounds the scan).
 */
export async function loadCsrdInputs({ ctx, since, until }: { ctx: TenantCtx; since: string; until: string }): Promise<CsrdExtraInputs> {
  const leaseRows = await rows<Record<string, unknown>>(
    ctx.db,
    sql`
      select t.electricity_contract_g_per_kwh as contract, d.device_id, d.lease_start::text as lease_start, d.lease_months
      from tenants t
      left join devices d on d.tenant_id = t.id
      where t.id = ${ctx.tenantId}
      order by d.device_id`,
  );
  const activity = await rows<Record<string, unknown>>(
    ctx.db,
    sql`
      select to_char(date_trunc('month', t.ts at time zone 'UTC'), 'YYYY-MM') as month, d.powertrain, count(distinct t.device_id)::int as vehicles
      from telemetry t
      join devices d on d.tenant_id = t.tenant_id and d.device_id = t.device_id
      where t.tenant_id = ${ctx.tenantId} and t.ts >= ${since}::timestamptz and t.ts <= ${until}::timestamptz
      group by 1, 2
      order by 1, 2`,
  );
  return {
    contractFactorGPerKwh: leaseRows.length > 0 ? sqlNumber(leaseRows[0]!.contract) : null,
    leases: leaseRows
      .filter((r) => r.device_id !== null && r.device_id !== undefined)
      .map((r) => ({
        device_id: String(r.device_id),
        lease_start: typeof r.lease_start === "string" ? r.lease_start : null,
        lease_months: sqlNumber(r.lease_months),
      })),
    monthlyActivity: activity.map((r) => ({
      month: String(r.month),
      powertrain: typeof r.powertrain === "string" ? r.powertrain : null,
      vehicles: sqlCount(r.vehicles),
    })),
  };
}
