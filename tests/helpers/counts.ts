import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";

/** Row counts of the tables ingest writes, for one tenant: "nothing stored" is checked with these. */
export async function tenantRowCounts(db: Db, tenantId: string) {
  const [r] = await rows<{ devices: number; snapshots: number; telemetry: number; alerts: number }>(
    db,
    sql`select (select count(*)::int from devices where tenant_id = ${tenantId}) as devices,
               (select count(*)::int from fleet_snapshot where tenant_id = ${tenantId}) as snapshots,
               (select count(*)::int from telemetry where tenant_id = ${tenantId}) as telemetry,
               (select count(*)::int from alerts where tenant_id = ${tenantId}) as alerts`,
  );
  return r!;
}
