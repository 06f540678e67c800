import { connect, type IClientOptions, type MqttClient } from "mqtt";
import type { Db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import type { FeedBody } from "@/lib/ingest/adapters/adapt-feed";
import { type IngestTx, ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import type { Logger } from "@/lib/log/logger";
import { INGEST_MAX_VEHICLES } from "@/lib/schemas/ingest";
import type { MqttBridgeState } from "@/lib/vocabulary/feeds";
import { adaptMqttMessage, MQTT_MAX_MESSAGE_BYTES } from "./adapt-mqtt-message";
import type { MqttBridgeConfig } from "./mqtt-bridge-config";

interface MqttBridgeHooks {
  /** The bridge's state changed (`error`: why it is not connected, in words without credentials). */
  onState(state: Exclude<MqttBridgeState, "waiting">, error: string | null): void;
  /** Runs inside the ingest's transaction: `messages` messages were stored (the bridge's counter). */
  countIngested(tx: IngestTx, messages: number): Promise<void>;
  /** A message was refused (acknowledged, nothing stored). */
  onRefused(reason: string): Promise<void>;
}

export interface MqttBridgeTiming {
  /** First wait before connecting again after a connection ends or fails; doubled each time up to `reconnectMaxMs`. */
  reconnectInitialMs: number;
  reconnectMaxMs: number;
}

/**
 * How long the broker keeps each of the bridge's sessions (its subscription and the QoS 1 messages not yet
 * acknowledged) while the bridge is away: a week covers a long outage or a weekend's maintenance.
 */
const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;

/** PUBACK reason codes (MQTT 5.0 §3.4.2.1): the broker's log tells an ingested message from a refused one. */
const PUBACK_SUCCESS = 0;
const PUBACK_PAYLOAD_FORMAT_INVALID = 153;

/** A message received and not yet acknowledged. */
interface Pending {
  payload: Uint8Array;
  /** The connection it came on: it is acknowledged there, or not at all. */
  client: MqttClient;
  session: Session;
  settle(code: number | null): void;
}

/** One of the bridge's connections: the client of its current attempt, and its back-off. */
interface Session {
  clientId: string;
  current: MqttClient | null;
  connected: boolean;
  failures: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  lastError: string | null;
}

/**
 * One bridge on one instance (docs/feeds.md "MQTT bridge"): `connections` connections to the customer's
 * broker, each subscribed at QoS 1 under a persistent session (clean start off, session expiry a week),
 * so what is published while the bridge is away is kept for it. With more than one connection they share
 * the subscription (`$share/fdp-<bridge id>/<filter>`, MQTT 5.0 §4.8.2): the broker hands each message to
 * one of them.
 *
 * Acknowledged after the commit. mqtt.js hands a connection's messages over one at a time, the next only
 * once the previous is acknowledged (customHandleAcks); so the messages in hand (one per connection) are
 * ingested together in one transaction (a group commit), and each is acknowledged (PUBACK) only after it.
 * A crash or a lost connection before that leaves the message with the broker, which sends it again;
 * sent again, it stores nothing twice (the history keeps one reading per device and time). One
 * connection keeps the broker's order; several may ingest a vehicle's consecutive messages in one batch
 * or one batch apart, which the ingest and its detectors take in any order (each reading is judged
 * against the readings before it in time).
 *
 * A message that can never be stored (not JSON, not the format, refused by validation) is acknowledged
 * with reason code 153 (Payload format invalid) and counted as refused, never retried. A failure that may
 * pass (the database down) is retried with back-off, the messages held unacknowledged, until they are
 * stored or their connection ends (the broker then sends them again on the next one).
 *
 * Every connection attempt is a new mqtt.js client; when one ends, its session waits (back-off from
 * `reconnectInitialMs` to `reconnectMaxMs` with jitter, reset once subscribed) and opens the next.
 */
export function runMqttBridge({ config, db, log, hooks, timing }: { config: MqttBridgeConfig; db: Db; log: Logger; hooks: MqttBridgeHooks; timing: MqttBridgeTiming }): {
  /** Stops the bridge; `endSessions` (a removed bridge) asks the broker to forget its sessions instead of keeping them a week. */
  stop(options?: { endSessions?: boolean }): Promise<void>;
} {
  let stopping = false;
  const ctx = { db, tenantId: config.tenantId, isSandbox: false, log };
  const shared = config.connections > 1;
  const filter = shared ? `$share/fdp-${config.id}/${config.topicFilter}` : config.topicFilter;
  const sessions: Session[] = Array.from({ length: config.connections }, (_, k) => ({
    clientId: shared ? `${config.clientId}-${k}` : config.clientId,
    current: null,
    connected: false,
    failures: 0,
    retryTimer: null,
    lastError: null,
  }));
  const queue: Pending[] = [];
  /** Whether `drain` runs; set and cleared synchronously, so a message queued as it ends is never left behind. */
  let draining = false;
  let drained: Promise<void> = Promise.resolve();

  const waitMs = (failures: number) => Math.round(Math.min(timing.reconnectMaxMs, timing.reconnectInitialMs * 2 ** Math.min(failures, 30)) * (0.5 + Math.random() * 0.5));
  /** Wakes every wait at once when the bridge stops, so a stop never waits out a retry's back-off. */
  let wakeWaits: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (wakeWaits = resolve));
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void stopped.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  const live = (p: Pending) => !stopping && p.session.current === p.client;

  /** The bridge's state, from its connections': connected when all are, connecting before any failed. */
  let reported: string | null = null;
  function report() {
    const down = sessions.filter((s) => !s.connected);
    const state = down.length === 0 ? "connected" : sessions.every((s) => s.failures === 0) ? "connecting" : "disconnected";
    const error = down.find((s) => s.lastError !== null)?.lastError ?? null;
    if (`${state} ${error}` === reported) return;
    reported = `${state} ${error}`;
    hooks.onState(state, state === "disconnected" ? error : null);
  }

  // --- the group commit -------------------------------------------------------------------------------

  function enqueue(p: Pending) {
    queue.push(p);
    if (!draining) drained = drain();
  }

  async function drain() {
    draining = true;
    try {
      await takeBatches();
    } finally {
      draining = false;
    }
  }

  async function takeBatches() {
    while (queue.length > 0) {
      // The messages in hand, up to endpoint 16's bound on records per request.
      const batch: { p: Pending; body: FeedBody }[] = [];
      let records = 0;
      const now = new Date();
      while (queue.length > 0) {
        const p = queue[0]!;
        if (!live(p)) {
          queue.shift();
          p.settle(null);
          continue;
        }
        const adapted = adaptMqttMessage(config.format, p.payload, now);
        if (!adapted.ok) {
          queue.shift();
          await refuse(p, adapted.reason);
          continue;
        }
        if (batch.length > 0 && records + adapted.body.vehicles.length > INGEST_MAX_VEHICLES) break;
        queue.shift();
        batch.push({ p, body: adapted.body });
        records += adapted.body.vehicles.length;
      }
      if (batch.length > 0) await ingestBatch(batch, now);
    }
  }

  async function refuse(p: Pending, reason: string) {
    log.info({ bridge_id: config.id, reason }, "MQTT message refused");
    await hooks.onRefused(reason).catch((err: unknown) => log.warn({ err, bridge_id: config.id }, "MQTT refusal not counted"));
    p.settle(PUBACK_PAYLOAD_FORMAT_INVALID);
  }

  /** Stores the batch in one transaction and acknowledges each message; on a refusal, each message alone to find which. */
  async function ingestBatch(batch: { p: Pending; body: FeedBody }[], now: Date) {
    for (let attempt = 0; ; attempt++) {
      const held = batch.filter((b) => live(b.p));
      for (const b of batch) if (!held.includes(b)) b.p.settle(null); // its connection is gone: the broker sends it again
      batch = held;
      if (batch.length === 0) return;
      try {
        await ingestTelemetry({
          ctx,
          input: { source: config.format, vehicles: batch.flatMap((b) => b.body.vehicles) },
          now,
          alsoInTransaction: (tx) => hooks.countIngested(tx, batch.length),
        });
        for (const b of batch) b.p.settle(PUBACK_SUCCESS);
        return;
      } catch (err) {
        if (err instanceof ValidationError) {
          if (batch.length === 1) return refuse(batch[0]!.p, err.message);
          for (const b of batch) await ingestBatch([b], now);
          return;
        }
        log.warn({ err, bridge_id: config.id, messages: batch.length, attempt }, "MQTT messages not stored yet; trying again");
        await sleep(waitMs(attempt));
      }
    }
  }

  // --- the connections -----------------------------------------------------------------------------

  function options(): IClientOptions | string {
    let password: string | undefined;
    if (config.passwordEnv !== null) {
      password = process.env[config.passwordEnv];
      if (password === undefined || password === "") return `the environment variable ${config.passwordEnv}, which holds the broker password, is not set on this instance`;
    }
    return {
      protocolVersion: 5,
      clean: false,
      username: config.username ?? undefined,
      password,
      // mqtt.js reads a connection's packets one at a time, so a PINGRESP waits behind a message in hand:
      // the keepalive must outlast the longest ingest (STATEMENT_TIMEOUT_MS, 30 s by default), or a slow
      // commit would end the connection and have its messages sent again. 120 s, and the broker allows 1.5×.
      keepalive: 120,
      connectTimeout: 10_000,
      reconnectPeriod: 0, // each session reconnects itself, with back-off
      resubscribe: false,
      // Receive Maximum 4: the broker sends a few ahead, so the next message is in hand as soon as one is acknowledged.
      properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: 4, maximumPacketSize: MQTT_MAX_MESSAGE_BYTES + 64 * 1024 },
    };
  }

  function retry(session: Session, error: string) {
    session.connected = false;
    session.lastError = error;
    report();
    if (stopping || session.retryTimer !== null) return;
    const wait = waitMs(session.failures);
    session.failures++;
    log.info({ bridge_id: config.id, client_id: session.clientId, retry_in_ms: wait, error }, "MQTT bridge connection down");
    session.retryTimer = setTimeout(() => {
      session.retryTimer = null;
      open(session);
    }, wait);
  }

  function open(session: Session) {
    if (stopping) return;
    const opts = options();
    if (typeof opts === "string") return retry(session, opts);
    let lastError: string | null = null;
    const client = connect(config.brokerUrl, {
      ...opts,
      clientId: session.clientId,
      customHandleAcks: (_topic, payload, _packet, done) => {
        enqueue({
          payload,
          client,
          session,
          // Acknowledged on the connection that delivered it, or not at all: on another, the broker sends it again.
          settle: (code) => {
            if (code !== null && session.current === client && client.connected) done(code);
          },
        });
      },
    });
    session.current = client;
    // A message published at QoS 0 is delivered at QoS 0 whatever the subscription asks: mqtt.js hands it
    // to "message" only (QoS 1 and 2 go through customHandleAcks). It is ingested the same way, with
    // nothing to acknowledge; the broker does not keep it for the bridge, so it is lost if FDP is down.
    client.on("message", (_topic, payload, packet) => {
      if (packet.qos === 0 && session.current === client) enqueue({ payload, client, session, settle: () => undefined });
    });
    client.on("connect", (connack) => {
      if (session.current !== client) return;
      // Subscribed on every connection, even to a session the broker kept: Mosquitto 2.0.11 restores a
      // kept shared subscription from its persistence file without delivering to it (docs/feeds.md
      // "Throughput"). Subscribing again to a subscription that exists replaces it, and with Retain
      // Handling 1 does not send the retained messages again.
      client.subscribe(filter, { qos: 1, rh: 1 }, (err, granted) => {
        if (session.current !== client) return;
        const code = granted?.[0]?.qos ?? 128;
        // QoS 1 or nothing: at QoS 0 the broker keeps nothing for the bridge, and nothing waits for the commit.
        if (err || code >= 128 || code < 1) {
          lastError = `the broker refused the subscription to ${filter}${err ? `: ${err.message}` : code < 1 ? " at QoS 1 (it granted QoS 0)" : ` (reason code ${code})`}`;
          client.end(true);
          return;
        }
        session.connected = true;
        session.failures = 0;
        session.lastError = null;
        report();
        log.info({ bridge_id: config.id, client_id: session.clientId, session_present: connack.sessionPresent }, "MQTT bridge connected");
      });
    });
    // mqtt.js's messages name the broker's reason or the socket's error, never the options.
    client.on("error", (err) => (lastError = err.message));
    client.on("close", () => {
      if (session.current !== client) return;
      session.current = null;
      client.end(true);
      retry(session, lastError ?? "the connection closed");
    });
  }

  for (const session of sessions) open(session);
  return {
    async stop({ endSessions = false } = {}) {
      stopping = true;
      wakeWaits();
      for (const s of sessions) if (s.retryTimer !== null) clearTimeout(s.retryTimer);
      // The batch being stored is finished and acknowledged before disconnecting; what waits is left to the broker.
      await drained;
      await Promise.all(
        sessions.map(async (session) => {
          const client = session.current;
          session.current = null;
          if (client !== null && client.connected) {
            // A DISCONNECT keeps the session (its expiry was set at connect): the broker queues for the bridge's
            // return. A removed bridge's sets the expiry to 0 (MQTT 5.0 §3.14.2.2.2): the broker forgets it.
            await endWithin(client, endSessions ? { properties: { sessionExpiryInterval: 0 } } : {});
            return;
          }
          // Not connected (connecting, or waiting to retry): nothing to say to the broker on this connection.
          client?.end(true);
          // A removed bridge's session is ended by a connection of its own that asks the broker to forget it.
          if (endSessions) await forgetSession(session.clientId);
        }),
      );
    },
  };

  /** A DISCONNECT, or the socket closed after 5 s without its answer. */
  function endWithin(client: MqttClient, packet: Parameters<MqttClient["end"]>[1]): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        client.end(true);
        resolve();
      }, 5_000);
      client.end(false, packet as never, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Connects once as `clientId` with a clean start and no session expiry, so the broker drops what it kept (5 s at most, failures logged). */
  async function forgetSession(clientId: string): Promise<void> {
    const opts = options();
    if (typeof opts === "string") {
      log.warn({ bridge_id: config.id, client_id: clientId, error: opts }, "MQTT session of a removed bridge not ended: the broker keeps it until it expires");
      return;
    }
    const client = connect(config.brokerUrl, { ...opts, clientId, clean: true, properties: { sessionExpiryInterval: 0 }, connectTimeout: 5_000 });
    const connected = await new Promise<boolean>((resolve) => {
      client.once("connect", () => resolve(true));
      client.once("error", () => resolve(false));
      client.once("close", () => resolve(false));
    });
    if (connected) await endWithin(client, {});
    else {
      client.end(true);
      log.warn({ bridge_id: config.id, client_id: clientId }, "MQTT session of a removed bridge not ended: the broker keeps it until it expires");
    }
  }
}
