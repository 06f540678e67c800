/**
 * The feeds FDP reads in their own formats (CONTRACT "Feeds", docs/feeds.md), and the states of an MQTT
 * bridge that carries one of them (lib/ingest/mqtt/).
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */
export const FEED_FORMATS = ["traccar", "tesla"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/**
 * Where an MQTT bridge stands, as `/api/health`, the dashboard and `admin mqtt:list` show it:
 * - `waiting`: no instance of the service runs it (none is up, or the one that ran it stopped);
 * - `connecting`: an instance opens its first connection to the broker;
 * - `connected`: subscribed, messages flow;
 * - `disconnected`: the connection is down (broker gone, refused, credentials missing); the instance
 *   tries again with back-off, and `last_error` says why.
 */
export const MQTT_BRIDGE_STATES = ["waiting", "connecting", "connected", "disconnected"] as const;
export type MqttBridgeState = (typeof MQTT_BRIDGE_STATES)[number];
