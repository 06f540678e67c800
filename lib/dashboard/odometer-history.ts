import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlNumber, sqlText } from "@/lib/db/sql-values";

/** The mileage chart's history: the same year the forecast's trend reads at most (docs/methodology/mileage-forecast.md). */
const ODOMETER_HISTORY_DAYS = 365;

/**
 * The highest odometer reading of each Helsinki calendar day (the forecast's day) over the last
 * ODOMETER_HISTORY_DAYS before the vehicle's latest reading: at most 366 rows, one round trip. For the
 * chart only: the forecast itself applies the plausibility rules; this line shows what was reported.
 */
export async function getOdometerHistory({ ctx, input }: { ctx: TenantCtx; input: { device_id: string } }): Promise<{ day: string; km: number }[]> {
  const onDevice = sql`t.tenant_id = ${ctx.tenantId} and t.device_id = ${input.device_id} and t.odometer_km > 0`;
  const found = await rows<Record<string, unknown>>(
    ctx.db,
    sql`select to_char((t.ts at time zone 'Europe/Helsinki')::date, 'YYYY-MM-DD') as day, max(t.odometer_km) as km
        from telemetry t
        where ${onDevice} and t.ts >= (select max(t.ts) from telemetry t where ${onDevice}) - make_interval(days => ${ODOMETER_HISTORY_DAYS}::int)
        group by 1 order by 1`,
  );
  return found.flatMap((r) => {
    const day = sqlText(r.day);
    const km = sqlNumber(r.km);
    return day !== null && km !== null ? [{ day, km }] : [];
  });
}
