import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rows, sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import type { MqttBridgeState } from "@/lib/vocabulary/feeds";
import { bridgeConfigOf, MQTT_BRIDGE_CONFIG_COLUMNS, type MqttBridgeConfig } from "./mqtt-bridge-config";

/** One MQTT bridge as the operator's CLI and the tenant's dashboard show it: its configuration and its state. */
interface MqttBridgeView extends MqttBridgeConfig {
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
    sql`select ${MQTT_BRIDGE_CONFIG_COLUMNS},
               case when lease_until is null or lease_until < now() then 'waiting' else state end as state,
               case when lease_until is null or lease_until < now() then coalesce(lease_until, state_since) else state_since end as state_since,
               last_error, messages_ingested, messages_refused, last_message_at, last_refusal, created_at
          from mqtt_bridges
         where ${input.tenantId === undefined ? sql`true` : sql`tenant_id = ${input.tenantId}`}
         order by created_at, id`,
  );
  return found.map((r) => ({
    ...bridgeConfigOf(r),
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
