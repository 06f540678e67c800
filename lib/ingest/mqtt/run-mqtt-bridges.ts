import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { textArray } from "@/lib/db/pg-array";
import { rows } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import type { Logger } from "@/lib/log/logger";
import type { MqttBridgeState } from "@/lib/vocabulary/feeds";
import { bridgeConfigOf, MQTT_BRIDGE_CONFIG_COLUMNS, type MqttBridgeConfig } from "./mqtt-bridge-config";
import { type MqttBridgeTiming, runMqttBridge } from "./run-mqtt-bridge";

export interface MqttBridgeSettings extends MqttBridgeTiming {
  /**
   * How long an instance holds a bridge without renewing (renewed every third of it). After a crash the
   * bridges it ran are taken over by another instance within this time.
   */
  leaseMs: number;
}

export function mqttBridgeSettings(): MqttBridgeSettings {
  const e = env();
  return { leaseMs: e.MQTT_BRIDGE_LEASE_MS, reconnectInitialMs: e.MQTT_BRIDGE_RECONNECT_MIN_MS, reconnectMaxMs: e.MQTT_BRIDGE_RECONNECT_MAX_MS };
}

/** A bridge this instance runs. */
interface Running {
  config: MqttBridgeConfig;
  stop(options?: { endSessions?: boolean }): Promise<void>;
}

/**
 * The MQTT bridges of the service (docs/feeds.md "MQTT bridge"): every instance runs this (unless
 * MQTT_BRIDGE=0), and each bridge runs on one instance at a time. Every `leaseMs / 3` one statement
 * renews this instance's leases and takes the bridges whose lease is free or has lapsed (a crashed
 * instance's, after `leaseMs`); bridges removed meanwhile, or whose lease was lost, are stopped. When the
 * leases cannot be renewed (the database is down) past their end, this instance stops its bridges, since
 * another may take them over; the messages in hand stay unacknowledged with the broker.
 *
 * `stop()` (graceful shutdown) finishes each bridge's message in hand, disconnects keeping the broker
 * sessions, and gives the leases back at once so the next instance takes over without waiting.
 */
export function runMqttBridges({ db, log, settings, owner = randomUUID() }: { db: () => Promise<Db>; log: Logger; settings: MqttBridgeSettings; owner?: string }): {
  stop(): Promise<void>;
} {
  const running = new Map<string, Running>();
  let stopped = false;
  const renewEveryMs = Math.max(100, Math.floor(settings.leaseMs / 3));
  const leaseSeconds = settings.leaseMs / 1000;

  // One bridge's state writes go one after the other, so the last state written is the last one reached.
  let stateWrites: Promise<void> = Promise.resolve();
  const writeState = (id: string, state: Exclude<MqttBridgeState, "waiting">, error: string | null) => {
    stateWrites = stateWrites.then(async () => {
      try {
        await rows(
          await db(),
          sql`update mqtt_bridges set state = ${state}, state_since = now(), last_error = coalesce(${error}::text, last_error)
               where id = ${id} and lease_owner = ${owner} and (state is distinct from ${state} or ${error}::text is not null)`,
        );
      } catch (err) {
        log.warn({ err, bridge_id: id }, "MQTT bridge state not recorded");
      }
    });
  };

  const start = async (config: MqttBridgeConfig) => {
    const database = await db();
    const bridgeLog = log.child({ bridge_id: config.id, tenant_id: config.tenantId });
    const bridge = runMqttBridge({
      config,
      db: database,
      log: bridgeLog,
      timing: settings,
      hooks: {
        onState: (state, error) => writeState(config.id, state, error),
        countIngested: async (tx, messages) => {
          await rows(tx as unknown as Db, sql`update mqtt_bridges set messages_ingested = messages_ingested + ${messages}, last_message_at = now() where id = ${config.id}`);
        },
        onRefused: async (reason) => {
          await rows(database, sql`update mqtt_bridges set messages_refused = messages_refused + 1, last_message_at = now(), last_refusal = ${reason} where id = ${config.id}`);
        },
      },
    });
    running.set(config.id, { config, stop: (options) => bridge.stop(options) });
    bridgeLog.info({ broker: config.brokerUrl, topic_filter: config.topicFilter, format: config.format }, "MQTT bridge started");
  };

  const stopBridge = async (id: string, endSessions = false) => {
    const bridge = running.get(id);
    if (!bridge) return;
    running.delete(id);
    await bridge.stop({ endSessions });
    if (endSessions) log.info({ bridge_id: id }, "MQTT bridge removed: stopped, its broker sessions ended");
  };

  const renew = async () => {
    const asked = Date.now();
    let held: MqttBridgeConfig[];
    try {
      const found = await rows(
        await db(),
        sql`update mqtt_bridges
               set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds}),
                   state = case when lease_owner is distinct from ${owner} then 'connecting' else state end,
                   state_since = case when lease_owner is distinct from ${owner} then now() else state_since end
             where lease_owner = ${owner} or lease_until is null or lease_until < now()
         returning ${MQTT_BRIDGE_CONFIG_COLUMNS}`,
      );
      held = found.map(bridgeConfigOf);
      armWatchdog(asked + settings.leaseMs);
    } catch (err) {
      log.warn({ err, running: running.size }, "MQTT bridge leases not renewed; trying again");
      return;
    }
    if (stopped) return;
    const ids = new Set(held.map((c) => c.id));
    const gone = [...running.keys()].filter((id) => !ids.has(id));
    if (gone.length > 0) {
      // Not held any more: removed (its sessions are ended at the broker), or taken by another instance.
      const left = new Set<string>();
      try {
        const found = await rows(await db(), sql`select id from mqtt_bridges where id = any(${textArray(gone)}::text[])`);
        for (const r of found) left.add(String(r.id));
      } catch {
        for (const id of gone) left.add(id); // unsure: keep the sessions
      }
      await Promise.all(gone.map((id) => stopBridge(id, !left.has(id))));
    }
    for (const config of held) {
      if (running.has(config.id)) continue;
      try {
        await start(config);
      } catch (err) {
        log.error({ err, bridge_id: config.id }, "MQTT bridge not started; trying again at the next renewal");
      }
    }
  };

  /**
   * Stops this instance's bridges when their leases end without a renewal, whether the renewal failed or
   * still hangs (a network partition from the database can hold a statement for minutes): past the lease
   * another instance may take them, and two must not run one bridge. Renewed leases re-arm it.
   */
  let watchdog: ReturnType<typeof setTimeout> | null = null;
  function armWatchdog(leaseEndsAt: number) {
    if (watchdog !== null) clearTimeout(watchdog);
    // A margin of a third of the renewal interval for clocks and the statement's own time.
    watchdog = setTimeout(
      () => {
        watchdog = null;
        if (running.size === 0) return;
        log.warn({ bridges: [...running.keys()] }, "MQTT bridge leases lapsed; stopping the bridges until they are held again");
        void Promise.all([...running.keys()].map((id) => stopBridge(id)));
      },
      Math.max(0, leaseEndsAt - Date.now() - Math.floor(renewEveryMs / 3)),
    );
    watchdog.unref();
  }

  let timer: ReturnType<typeof setTimeout> | null = null;
  let renewing: Promise<void> = Promise.resolve();
  const loop = () => {
    renewing = renew()
      .catch((err: unknown) => log.error({ err }, "MQTT bridge renewal failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, renewEveryMs);
      });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      if (watchdog !== null) clearTimeout(watchdog);
      await renewing;
      await Promise.all([...running.keys()].map((id) => stopBridge(id)));
      await stateWrites;
      try {
        await rows(await db(), sql`update mqtt_bridges set lease_owner = null, lease_until = null, state = 'waiting', state_since = now() where lease_owner = ${owner}`);
      } catch (err) {
        log.warn({ err }, "MQTT bridge leases not given back; they lapse by themselves");
      }
    },
  };
}
