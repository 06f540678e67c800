import { sql } from "drizzle-orm";
import { sqlNumber, sqlText } from "@/lib/db/sql-values";
import type { FeedFormat } from "@/lib/vocabulary/feeds";

/** What an instance needs to run one bridge (a row of `mqtt_bridges`); the operator's list shows the same. */
export interface MqttBridgeConfig {
  id: string;
  tenantId: string;
  brokerUrl: string;
  topicFilter: string;
  format: FeedFormat;
  username: string | null;
  passwordEnv: string | null;
  clientId: string;
  /** Connections to the broker sharing the subscription (`$share/…`) when more than one. */
  connections: number;
}

/** The columns `bridgeConfigOf` reads, for a statement's select or returning list. */
export const MQTT_BRIDGE_CONFIG_COLUMNS = sql.raw("id, tenant_id, broker_url, topic_filter, format, username, password_env, client_id, connections");

/** A row holding MQTT_BRIDGE_CONFIG_COLUMNS as a bridge's configuration. */
export function bridgeConfigOf(r: Record<string, unknown>): MqttBridgeConfig {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    brokerUrl: String(r.broker_url),
    topicFilter: String(r.topic_filter),
    format: String(r.format) as FeedFormat,
    username: sqlText(r.username),
    passwordEnv: sqlText(r.password_env),
    clientId: String(r.client_id),
    connections: sqlNumber(r.connections) ?? 1,
  };
}
