import { sql, type SQL } from "drizzle-orm";

/** The same figures from the raw telemetry alone: the reference of `monthlyActivitySql` (tests/db/telemetry-rollups.test.ts). */
export function monthlyActivityRawSql({ tenantId, since, until }: { tenantId: string; since: string; until: string }): SQL {
  return sql`
    select to_char(date_trunc('month', t.ts at time zone 'UTC'), 'YYYY-MM') as month, d.powertrain, count(distinct t.device_id)::int as vehicles
    from telemetry t
    join devices d on d.tenant_id = t.tenant_id and d.device_id = t.device_id
    where t.tenant_id = ${tenantId} and t.ts >= ${since}::timestamptz and t.ts <= ${until}::timestamptz
    group by 1, 2
    order by 1, 2`;
}
