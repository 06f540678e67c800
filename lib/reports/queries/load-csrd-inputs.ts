import { sql, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { textArray } from "@/lib/db/pg-array";
import { rows, sqlCount, sqlNumber } from "@/lib/db/sql-values";
import { utcDay, wholeDaysEnd, windowBounds } from "@/lib/telemetry/queries/rollup-window";
import { DEFAULT_REPORTING_ROLE, isReportingRole, type ReportingRole } from "@/lib/vocabulary/reporting-role";
import type { CsrdLeaseInput, CsrdMonthlyActivity } from "../csrd";

interface CsrdExtraInputs {
  /** The tenant's electricity contract factor, g CO2e/kWh; null = none configured. */
  contractFactorGPerKwh: number | null;
  /** The tenant's CSRD reporting role (`tenants.reporting_role`). */
  reportingRole: ReportingRole;
  leases: CsrdLeaseInput[];
  monthlyActivity: CsrdMonthlyActivity[];
}

/**
 * What the CSRD report needs beyond the emissions report and the green fleet score, in two SQL round
 * trips whatever the fleet size: the tenant's contract factor and reporting role with every device's lease (tenant ⟕
 * devices), and per calendar month (UTC) of `[since, until]` the number of vehicles that reported
 * telemetry, by stored powertrain (`monthlyActivitySql`).
 */
export async function loadCsrdInputs({ ctx, since, until }: { ctx: TenantCtx; since: string; until: string }): Promise<CsrdExtraInputs> {
  const leaseRows = await rows<Record<string, unknown>>(
    ctx.db,
    sql`
      select t.electricity_contract_g_per_kwh as contract, t.reporting_role, d.device_id, d.lease_start::text as lease_start, d.lease_months
      from tenants t
      left join devices d on d.tenant_id = t.id
      where t.id = ${ctx.tenantId}
      order by d.device_id`,
  );
  const activity = await rows<Record<string, unknown>>(ctx.db, monthlyActivitySql({ tenantId: ctx.tenantId, since, until }));
  const role = leaseRows[0]?.reporting_role;
  return {
    // The column's CHECK allows only the vocabulary's roles; a tenant row that is missing reports as the default.
    reportingRole: isReportingRole(role) ? role : DEFAULT_REPORTING_ROLE,
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

/**
 * Per calendar month (UTC) of `[since, until]` and stored powertrain, the number of the tenant's
 * vehicles with at least one reading in it (`month`, `powertrain`, `vehicles`), read from the daily
 * rollups (lib/db/schema/telemetry-rollups.ts) for the window's whole days where they are valid: a day
 * row with a newest reading (`last_ts`) before the device's `clean_before` says the device reported
 * that day (an ingest into a day lowers `clean_before` to it, in the statement that stores the
 * readings); one probe per device and month finds the month's first such day. The rest is read raw,
 * per device: the readings before the first whole day, and those from the first day the rollups cannot
 * answer for (`clean_before`, or the window's last partial day) to `until`. The same answer as `monthlyActivityRawSql` (tests/db/telemetry-rollups.test.ts), without a
 * pass over a year of readings (10.5 s for 10,000 vehicles and 365 days, docs/performance.md).
 */
export function monthlyActivitySql({ tenantId, since, until }: { tenantId: string; since: string; until: string }): SQL {
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const { headEnd, headDay } = windowBounds(since, until);
  const tail = wholeDaysEnd(until);
  const tailDay = sql`${utcDay(tail)}::date`;
  const hAt = sql`${headEnd}::timestamptz`;
  // The first day of each calendar month the whole days touch: one index probe per device and month
  // (it stops at the month's first day with a reading), not a read of every day row of the period.
  const months: string[] = [];
  for (let m = new Date(`${headDay.slice(0, 7)}-01T00:00:00Z`); m < tail; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) {
    months.push(utcDay(m));
  }
  const month = (ts: string) => sql.raw(`to_char(${ts} at time zone 'UTC', 'YYYY-MM')`);
  const dev = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);
  return sql`
    select m.month, d.powertrain, count(*)::int as vehicles
    from devices d
    left join telemetry_rollup_state s on ${dev("s")}
    cross join lateral (
      select to_char(mo.m, 'YYYY-MM') as month
      from unnest(${textArray(months)}::date[]) as mo(m)
      where exists (
        select 1 from telemetry_daily r
        where ${dev("r")} and r.day >= greatest(mo.m, ${headDay}::date)
          and r.day < least((mo.m + interval '1 month')::date, ${tailDay}, coalesce(s.clean_before, '-infinity'::date))
          and r.last_ts is not null
        limit 1)
      union
      select ${month("t.ts")} from telemetry t where ${dev("t")} and t.ts >= ${from} and t.ts < ${hAt} and t.ts <= ${to}
      union
      select ${month("t.ts")} from telemetry t
      where ${dev("t")} and t.ts <= ${to} and t.ts >= ${from}
        and t.ts >= greatest(${hAt}, least(coalesce(s.clean_before, '-infinity'::date), ${tailDay})::timestamp at time zone 'UTC')
    ) m
    where d.tenant_id = ${tenantId}
    group by 1, 2
    order by 1, 2`;
}
