import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { preparedRows } from "@/lib/db/prepared";
import { rows } from "@/lib/db/sql-values";

/** The tables that hold a tenant's fleet data (everything ingest and the detectors write). */
const TENANT_TABLES = { devices: "devices", snapshots: "fleet_snapshot", telemetry: "telemetry", alerts: "alerts", drivingEvents: "driving_events" } as const;
type TableName = keyof typeof TENANT_TABLES;

/** One column per table ingest writes: the tenant's row count in it. */
const countColumns = (tenantId: string) =>
  Object.entries(TENANT_TABLES).map(([name, table]) => sql`(select count(*)::int from ${sql.raw(table)} where tenant_id = ${tenantId}) as ${sql.raw(`"${name}"`)}`);

/** Row counts of the tables ingest writes, for one tenant: "nothing stored" is checked with these. */
export async function tenantRowCounts(db: Db, tenantId: string): Promise<Record<TableName, number>> {
  const [r] = await rows<Record<TableName, number>>(db, sql`select ${sql.join(countColumns(tenantId), sql`, `)}`);
  return r!;
}

/** The fleet data, and the outbox and webhook tables the changes of that data and the webhook operations write. */
const FINGERPRINTED_TABLES = { ...TENANT_TABLES, events: "events", webhooks: "webhook_endpoints", webhookDeliveries: "webhook_deliveries" } as const;

/**
 * Counts and a fingerprint of every row of the tenant's tables (an md5 over the rows' text, in a
 * stable order): equal before and after a request means the request wrote nothing, not even an update.
 */
export async function tenantDataState(db: Db, tenantId: string): Promise<Record<string, string | number>> {
  const digests = Object.entries(FINGERPRINTED_TABLES).map(
    ([name, table]) =>
      sql`(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${sql.raw(table)} x where tenant_id = ${tenantId}) as ${sql.raw(`"${name}_md5"`)}`,
  );
  // One prepared statement: the fuzz test takes a state per request (thousands), and planning these
  // subqueries over every monthly telemetry partition cost ~5 ms each time, most of a state's cost.
  const [r] = await preparedRows<Record<string, string | number>>(db, sql`select ${sql.join([...countColumns(tenantId), ...digests], sql`, `)}`);
  return r ?? {};
}
