import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
// Relative import: drizzle-kit loads this schema without the `@/` path alias.
import { FEED_FORMATS, MQTT_BRIDGE_STATES, type FeedFormat, type MqttBridgeState } from "../../vocabulary/feeds";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * An MQTT bridge (docs/feeds.md "MQTT bridge"): a subscription to a customer's broker whose messages, in
 * one feed format, are ingested for one tenant. Configured by the operator (`npm run admin -- mqtt:add`);
 * run by one instance of the service at a time (the lease); its state and counters are written by that
 * instance. The broker password is never stored: `password_env` names the environment variable that holds it.
 */
export const mqttBridges = pgTable(
  "mqtt_bridges",
  {
    /** `mqb_…`. */
    id: text("id").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    /** `mqtt://`, `mqtts://`, `ws://` or `wss://` with host and port, never user or password. */
    brokerUrl: text("broker_url").notNull(),
    topicFilter: text("topic_filter").notNull(),
    format: text("format").$type<FeedFormat>().notNull(),
    username: text("username"),
    /** The name of the environment variable that holds the broker password, read by the instance that connects. */
    passwordEnv: text("password_env"),
    /** The MQTT client id: the broker keeps the bridge's session (subscription, unacknowledged messages) under it. */
    clientId: text("client_id").notNull(),
    /**
     * Connections to the broker, sharing the subscription when more than one (`$share/…`): the messages
     * in hand on them are ingested in one transaction, so more connections, more throughput. One (the
     * default) keeps the broker's order, and its subscription survives a Mosquitto restart.
     */
    connections: smallint("connections").notNull().default(1),
    state: text("state").$type<MqttBridgeState>().notNull().default("waiting"),
    stateSince: timestamptz("state_since").notNull().defaultNow(),
    /** Why the last connection failed or ended (the broker's or the network's words; never a credential). */
    lastError: text("last_error"),
    /** Messages whose records were committed (counted in the ingest's own transaction). */
    messagesIngested: bigint("messages_ingested", { mode: "number" }).notNull().default(0),
    /** Messages acknowledged without storing anything: not JSON, not the format, or refused by ingest's validation. */
    messagesRefused: bigint("messages_refused", { mode: "number" }).notNull().default(0),
    lastMessageAt: timestamptz("last_message_at"),
    /** Why the last refused message was refused (field paths and rules, never the message's values). */
    lastRefusal: text("last_refusal"),
    /** The instance that runs the bridge, until `lease_until`; another takes it over once that has passed. */
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamptz("lease_until"),
    createdAt: createdAt(),
  },
  (t) => [
    index("mqtt_bridges_tenant_idx").on(t.tenantId, t.createdAt),
    uniqueIndex("mqtt_bridges_client_id_idx").on(t.clientId),
    check("mqtt_bridges_format_check", sql`${t.format} in (${list(FEED_FORMATS)})`),
    check("mqtt_bridges_connections_check", sql`${t.connections} between 1 and 32`),
    check("mqtt_bridges_state_check", sql`${t.state} in (${list(MQTT_BRIDGE_STATES)})`),
  ],
);
