import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rows, sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import type { FeedFormat, MqttBridgeState } from "@/lib/vocabulary/feeds";

/** One MQTT bridge as the operator's CLI and the tenant's dashboard show it. */
interface MqttBridgeView {
  id: string;
  tenantId: string;
  brokerUrl: string;
  topicFilter: string;
  format: FeedFormat;
  username: string | null;
  passwordEnv: string | null;
  clientId: string;
  connections: number;
  /** `waiting` when no instance holds the bridge's lease, whatever the last holder wrote. */
  state: MqttBridgeState;
  stateSince: Date;
  lastError: string | null;
  messagesIngested: number;
  messagesRefused: number;
  lastMessageAt: Date | null;
  lastRefusal: string | null;
  createdAt: Date;
}

/**
 * The bridges of one tenant, or of every tenant (`tenantId` undefined: the operator's view and
 * `/api/health`), oldest first. One statement. A bridge whose lease has lapsed is `waiting` since the
 * lease ended: the instance that wrote its state is gone.
 */
export async function listMqttBridges({ ctx, input }: { ctx: { db: Db }; input: { tenantId?: string } }): Promise<MqttBridgeView[]> {
  const found = await rows(
    ctx.db,
    sql`select id, tenant_id, broker_url, topic_filter, format, username, password_env, client_id, connections,
               case when lease_until is null or lease_until < now() then 'waiting' else state end as state,
               case when lease_until is null or lease_until < now() then coalesce(lease_until, state_since) else state_since end as state_since,
               last_error, messages_ingested, messages_refused, last_message_at, last_refusal, created_at
          from mqtt_bridges
         where ${input.tenantId === undefined ? sql`true` : sql`tenant_id = ${input.tenantId}`}
         order by created_at, id`,
  );
  return found.map((r) => ({
    id: String(r.id),
    tenantId: String(r.tenant_id),
    brokerUrl: String(r.broker_url),
    topicFilter: String(r.topic_filter),
    format: String(r.format) as FeedFormat,
    username: sqlText(r.username),
    passwordEnv: sqlText(r.password_env),
    clientId: String(r.client_id),
    connections: sqlNumber(r.connections) ?? 1,
    state: String(r.state) as MqttBridgeState,
    stateSince: sqlDate(r.state_since) ?? new Date(0),
    lastError: sqlText(r.last_error),
    messagesIngested: sqlNumber(r.messages_ingested) ?? 0,
    messagesRefused: sqlNumber(r.messages_refused) ?? 0,
    lastMessageAt: sqlDate(r.last_message_at),
    lastRefusal: sqlText(r.last_refusal),
    createdAt: sqlDate(r.created_at) ?? new Date(0),
  }));
}
