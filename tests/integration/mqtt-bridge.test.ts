import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { connect as connectTcp } from "node:net";
import { sql } from "drizzle-orm";
import { connect, connectAsync, type IConnackPacket, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import { createMqttBridge } from "@/lib/ingest/mqtt/create-mqtt-bridge";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import { freePort, startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { waitFor } from "../helpers/wait-for";

/**
 * The MQTT bridge end to end (docs/feeds.md "MQTT bridge"), on a Mosquitto of its own configured as the
 * machine's (persistence on, anonymous on 127.0.0.1) but on a free port with its files in a temp folder, and
 * the built app on Postgres: messages published at QoS 1 arrive in the database once each, across a restart
 * of the broker and a crash of the app, counted at the database. Its own broker, since restarting the
 * machine's (127.0.0.1:1883) cut off the other files using it meanwhile (tests/api/mqtt-bridge.test.ts, in a
 * clean-clone CI run on 2026-11-30).
 */

const brokerDir = mkdtempSync(path.join(tmpdir(), "fdp-mosquitto-"));
const MOSQUITTO_CONF = path.join(brokerDir, "mosquitto.conf");
const MOSQUITTO_PID = path.join(brokerDir, "mosquitto.pid");
let brokerPort = 0;
let BROKER = "";

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let handle: DbHandle;
const apps: AppProcess[] = [];
const clients: MqttClient[] = [];
/** A lease of 3 s: a crashed instance's bridge moves to the next one 3 s after its last renewal. */
const ENV = (url: string) => ({
  DATABASE_URL: url,
  REDIS_URL: undefined,
  WEBHOOK_WORKER: "0",
  MQTT_BRIDGE_LEASE_MS: "3000",
  MQTT_BRIDGE_RECONNECT_MIN_MS: "100",
  MQTT_BRIDGE_RECONNECT_MAX_MS: "1000",
});
const run = `${process.pid}-${Date.now().toString(36)}`;

const brokerAnswers = () =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(brokerPort, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

function startBroker(): void {
  const started = spawnSync("mosquitto", ["-d", "-c", MOSQUITTO_CONF], { stdio: "inherit" });
  if (started.status !== 0) throw new Error(`mosquitto did not start (exit ${started.status})`);
}

/** Stops the test's Mosquitto (SIGTERM: it saves its persistence file) and starts it again with the same configuration. */
async function restartBroker(): Promise<void> {
  const pid = Number(readFileSync(MOSQUITTO_PID, "utf8").trim());
  process.kill(pid, "SIGTERM");
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  expect(await waitFor(async () => !alive(), 10_000)).toBe(true);
  expect(await brokerAnswers()).toBe(false);
  startBroker();
  expect(await waitFor(brokerAnswers, 10_000)).toBe(true);
}

beforeAll(async () => {
  brokerPort = await freePort();
  BROKER = `mqtt://127.0.0.1:${brokerPort}`;
  // As the machine's /etc/mosquitto/mosquitto.conf; `user`: when started as root, Mosquitto would otherwise
  // run as the `mosquitto` user, which cannot write to this folder.
  writeFileSync(
    MOSQUITTO_CONF,
    [
      `pid_file ${MOSQUITTO_PID}`,
      "persistence true",
      `persistence_location ${brokerDir}/`,
      `log_dest file ${path.join(brokerDir, "mosquitto.log")}`,
      `user ${userInfo().username}`,
      `listener ${brokerPort} 127.0.0.1`,
      "allow_anonymous true",
    ].join("\n") + "\n",
  );
  startBroker();
  expect(await waitFor(brokerAnswers, 10_000)).toBe(true);
  pg = await createPostgresDatabase("fdp_it", "seeded");
  handle = await openDatabase({ url: pg.url });
  await migrateWithPartitions(handle);
}, 240_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await Promise.all(apps.map((a) => a.stop()));
  try {
    process.kill(Number(readFileSync(MOSQUITTO_PID, "utf8").trim()), "SIGTERM");
  } catch {
    /* not started, or already gone */
  }
  await handle?.close();
  await pg?.drop();
  rmSync(brokerDir, { recursive: true, force: true });
});

async function bridgeOf(tenantId: string) {
  const [bridge] = await listMqttBridges({ ctx: { db: handle.db }, input: { tenantId } });
  if (!bridge) throw new Error("no bridge");
  return bridge;
}

const countOf = async (query: ReturnType<typeof sql>) => sqlNumber((await rows(handle.db, query))[0]?.n) ?? 0;
const storedReadings = (tenantId: string) => countOf(sql`select count(*) as n from telemetry where tenant_id = ${tenantId}`);

/** The Receive Maximum the bridge asks of the broker (lib/ingest/mqtt/run-mqtt-bridge.ts): its messages in flight. */
const BRIDGE_RECEIVE_MAXIMUM = 4;
/** The Receive Maximum each publisher's broker granted in its first CONNACK (Mosquitto: max_inflight_messages, 20 by default). */
const publisherReceiveMaximum = new Map<MqttClient, number>();

/** A publisher with a persistent session: what it published at QoS 1 and the broker has not acknowledged, it sends again after a reconnect. */
async function publisher(name: string): Promise<MqttClient> {
  // MQTT 5 with a session expiry: the broker forgets the test's session 5 minutes after it ends.
  const client = connect(BROKER, {
    clientId: `fdp-it-${name}-${run}`,
    protocolVersion: 5,
    clean: false,
    reconnectPeriod: 100,
    properties: { sessionExpiryInterval: 300 },
  });
  clients.push(client);
  const connack = await new Promise<IConnackPacket>((resolve, reject) => {
    client.once("connect", resolve);
    client.once("error", reject);
  });
  // Absent, the MQTT 5 default: 65,535.
  publisherReceiveMaximum.set(client, connack.properties?.receiveMaximum ?? 65_535);
  return client;
}

/** Reading `i` of vehicle `v`: a Traccar `{position, device}` document, one minute apart, odometer rising 500 m a reading. */
function traccarDocument(v: number, i: number, start: number) {
  const time = new Date(start + i * 60_000).toISOString();
  return {
    position: {
      deviceId: v,
      fixTime: time,
      deviceTime: time,
      valid: true,
      latitude: 60.17 + v / 1000,
      longitude: 24.94 + i / 10_000,
      speed: 16.2, // knots: 30.0024 km/h
      attributes: { ignition: true, odometer: 1_000_000 + i * 500 },
    },
    device: { id: v, name: `Van ${v}`, uniqueId: `it${v}` },
  };
}

describe("the MQTT bridge", () => {
  it("ingests 10,000 messages once each across a broker restart and an app crash", async () => {
    const { tenantId } = await createTenantWithKey(handle.db, { name: "MQTT tenant" });
    const topic = `fdp-it/${run}/positions`;
    await createMqttBridge({ ctx: { db: handle.db }, input: { tenantId, brokerUrl: BROKER, topicFilter: `${topic}/+`, format: "traccar" } });
    const first = await startApp({ mode: "start", env: ENV(pg.url) });
    apps.push(first);
    expect(await waitFor(async () => (await bridgeOf(tenantId)).state === "connected", 15_000)).toBe(true);
    const health = (await (await fetch(`${first.url}/api/health`)).json()) as { details: { mqtt_bridges: { state: string }[] } };
    expect(health.details.mqtt_bridges).toEqual([expect.objectContaining({ state: "connected" })]);

    // 100 vans × 100 readings in time order across the fleet, published at QoS 1 as fast as the bridge
    // takes them: at most WINDOW ahead of what is stored. (Mosquitto keeps at most max_queued_messages,
    // 1,000 by default, for each session and drops the rest even at QoS 1: docs/feeds.md.)
    const WINDOW = 800;
    const pub = await publisher("fleet");
    const brokerReceiveMaximum = publisherReceiveMaximum.get(pub) ?? 0;
    const start = Date.now() - 3 * 3600_000;
    const published: Promise<unknown>[] = [];
    let stored = 0;
    const events = { restarted: false, crashed: false };
    let second: AppProcess | null = null;
    for (let i = 0; i < 100; i++) {
      for (let v = 0; v < 100; v++) published.push(pub.publishAsync(`${topic}/it${v}`, JSON.stringify(traccarDocument(v, i, start)), { qos: 1 }));
      while (published.length - stored > WINDOW) {
        stored = await storedReadings(tenantId);
        if (stored >= 2_000 && !events.restarted) {
          events.restarted = true;
          await restartBroker();
        } else if (stored >= 5_000 && !events.crashed) {
          events.crashed = true;
          process.kill(first.serverPid(), "SIGKILL");
          await first.exited;
          second = await startApp({ mode: "start", env: ENV(pg.url) });
          apps.push(second);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(events).toEqual({ restarted: true, crashed: true });
    await Promise.all(published); // every message acknowledged by the broker
    const all = await waitFor(async () => (await storedReadings(tenantId)) === 10_000, 60_000);
    expect(all, `${await storedReadings(tenantId)} readings stored; the bridge: ${JSON.stringify(await bridgeOf(tenantId))}`).toBe(true);

    // Each reading once, each with its own time and the CONTRACT's units.
    const readings = await rows(
      handle.db,
      sql`select count(*) as n, count(distinct (device_id, ts)) as distinct_readings, count(distinct device_id) as devices,
                   min(speed_kmh) as min_speed, max(speed_kmh) as max_speed
              from telemetry where tenant_id = ${tenantId}`,
    );
    expect(sqlNumber(readings[0]?.n)).toBe(10_000);
    expect(sqlNumber(readings[0]?.distinct_readings)).toBe(10_000);
    expect(sqlNumber(readings[0]?.devices)).toBe(100);
    expect(sqlNumber(readings[0]?.min_speed)).toBeCloseTo(30.0024, 6);
    expect(sqlNumber(readings[0]?.max_speed)).toBeCloseTo(30.0024, 6);
    // The snapshot holds each van's last reading: 99 readings × 0.5 km past 1,000 km.
    const snapshots = await rows(handle.db, sql`select distinct odometer_km from fleet_snapshot where tenant_id = ${tenantId}`);
    expect(snapshots.map((r) => sqlNumber(r.odometer_km))).toEqual([1049.5]);
    // In order, once: no van's odometer seemed to run backwards.
    expect(await countOf(sql`select count(*) as n from alerts where tenant_id = ${tenantId}`)).toBe(0);
    expect(await countOf(sql`select count(*) as n from events where tenant_id = ${tenantId} and type = 'device.created'`)).toBe(100);

    // The counter commits with each ingest: 10,000, plus each message delivered again after its commit
    // (docs/feeds.md "Sent again, stored once"), which flow control bounds. The bridge's two lost
    // connections (the restart, the crash) each leave at most its Receive Maximum, 4, ingested but not
    // acknowledged. And QoS 1 is at least once from the publisher too: at the restart the broker may have
    // stored up to its own Receive Maximum of the publisher's messages whose PUBACK never left, which the
    // publisher sends again as new ones (seen: 10,012 once ingest got faster).
    const bridge = await bridgeOf(tenantId);
    expect(bridge.messagesIngested).toBeGreaterThanOrEqual(10_000);
    expect(brokerReceiveMaximum).toBeGreaterThan(0);
    expect(bridge.messagesIngested).toBeLessThanOrEqual(10_000 + 2 * BRIDGE_RECEIVE_MAXIMUM + brokerReceiveMaximum);
    expect(bridge.messagesRefused).toBe(0);
    expect(bridge.state).toBe("connected");

    // Stopped gracefully, the instance gives the bridge back at once.
    await second!.stop();
    expect((await bridgeOf(tenantId)).state).toBe("waiting");
    // The bridge's sessions (kept a week for its return) are ended at the broker.
    expect(bridge.connections).toBe(1); // the default: a plain subscription, which survives the broker's restart
    await (await connectAsync(BROKER, { clientId: bridge.clientId, protocolVersion: 5, clean: true })).endAsync();
  }, 600_000);
});
