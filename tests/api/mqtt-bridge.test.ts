import { sql } from "drizzle-orm";
import { connect, connectAsync, type IConnackPacket, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import { DomainError } from "@/lib/errors";
import { createMqttBridge } from "@/lib/ingest/mqtt/create-mqtt-bridge";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import { removeMqttBridge } from "@/lib/ingest/mqtt/remove-mqtt-bridge";
import { runMqttBridges, type MqttBridgeSettings } from "@/lib/ingest/mqtt/run-mqtt-bridges";
import { rootLogger } from "@/lib/log/logger";
import { captureLog } from "../helpers/log-capture";
import { createTenantWithKey } from "../helpers/fixtures";
import { useIngestServer } from "../helpers/ingest-api";
import { waitFor } from "../helpers/wait-for";

/**
 * The MQTT bridge in this process, on both drivers, against the machine's Mosquitto (127.0.0.1:1883):
 * both feed formats, refusals, credentials, removal, the lease between instances, and what
 * `/api/health` and `admin mqtt:list` say. (The crash and broker-restart test with the built app:
 * tests/integration/mqtt-bridge.test.ts.)
 */

const BROKER = "mqtt://127.0.0.1:1883";
const server = useIngestServer();
const SETTINGS: MqttBridgeSettings = { leaseMs: 1_500, reconnectInitialMs: 50, reconnectMaxMs: 500 };
const run = `${process.pid}-${Date.now().toString(36)}`;
let publisher: MqttClient;
const supervisors: { stop(): Promise<void> }[] = [];
const log = rootLogger().child({ test: "mqtt-bridge" });

beforeAll(async () => {
  publisher = await connectAsync(BROKER, { clientId: `fdp-test-pub-${run}`, clean: true });
});

afterAll(async () => {
  await Promise.all(supervisors.map((s) => s.stop()));
  await publisher?.endAsync();
  // The bridges' sessions, kept a week for their return, are ended on the machine's broker.
  for (const b of await listMqttBridges({ ctx: { db: server.tdb.handle.db }, input: {} }).catch(() => [])) {
    for (let k = 0; k < b.connections; k++) {
      const clientId = b.connections > 1 ? `${b.clientId}-${k}` : b.clientId;
      await (await connectAsync(BROKER, { clientId, protocolVersion: 5, clean: true })).endAsync();
    }
  }
});

function start(owner: string) {
  const supervisor = runMqttBridges({ db: async () => server.tdb.handle.db, log, settings: SETTINGS, owner });
  supervisors.push(supervisor);
  return supervisor;
}

async function bridge(id: string) {
  const found = (await listMqttBridges({ ctx: { db: server.tdb.handle.db }, input: {} })).find((b) => b.id === id);
  if (!found) throw new Error(`no bridge ${id}`);
  return found;
}

const readings = async (tenantId: string) => sqlNumber((await rows(server.tdb.handle.db, sql`select count(*) as n from telemetry where tenant_id = ${tenantId}`))[0]?.n) ?? 0;

const publish = (topic: string, payload: string | Buffer) => publisher.publishAsync(topic, payload, { qos: 1 });

/** Whether the broker kept a session under `clientId` (and ends it: this connection asks for no expiry). */
async function sessionKept(clientId: string): Promise<boolean> {
  const client = connect(BROKER, { clientId, protocolVersion: 5, clean: false, reconnectPeriod: 0, properties: { sessionExpiryInterval: 0 } });
  const connack = await new Promise<IConnackPacket>((resolve, reject) => {
    client.once("connect", resolve);
    client.once("error", reject);
  });
  await client.endAsync();
  return connack.sessionPresent;
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("adding a bridge", () => {
  it("refuses credentials in the URL, malformed topic filters, the sandbox, an unknown tenant and a client id in use", async () => {
    const db = server.tdb.handle.db;
    const { tenantId } = await createTenantWithKey(db);
    const add = (input: Partial<Parameters<typeof createMqttBridge>[0]["input"]>) =>
      createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: "fleet/#", format: "traccar", ...input } });
    expect(await refusal(add({ brokerUrl: "mqtt://fleet:s3cret@broker.example.com:1883" }))).toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("must not hold credentials"),
    });
    expect((await refusal(add({ brokerUrl: "mqtt://fleet:s3cret@broker.example.com:1883" }))).message).not.toContain("s3cret");
    expect((await refusal(add({ brokerUrl: "http://broker.example.com" }))).message).toContain("scheme");
    expect((await refusal(add({ topicFilter: "fleet/#/position" }))).message).toContain("`#` must be a whole level and the last one");
    expect((await refusal(add({ topicFilter: "fleet/a+/position" }))).message).toContain("`+` must be a whole level");
    expect((await refusal(add({ topicFilter: "$SYS/#" }))).message).toContain("broker's own");
    expect((await refusal(add({ topicFilter: "fleet/\u0000" }))).message).toContain("without NUL");
    expect((await refusal(add({ format: "teltonika" as "traccar" }))).message).toContain("traccar, tesla");
    expect((await refusal(add({ passwordEnv: "FDP_MQTT_PASSWORD" }))).message).toContain("needs a user name");
    // Only a variable meant for it: a typo must not send the database URL or the session secret to a broker.
    for (const passwordEnv of ["DATABASE_URL", "AUTH_SECRET", "fdp_mqtt_password"]) {
      expect((await refusal(add({ username: "fdp", passwordEnv }))).message).toContain("begins with FDP_MQTT_");
    }
    expect((await refusal(add({ connections: 33 }))).message).toContain("from 1 to 32");
    expect(await refusal(add({ tenantId: SANDBOX_TENANT_ID }))).toMatchObject({ code: "invalid_request", message: expect.stringContaining("sandbox") });
    expect(await refusal(add({ tenantId: "tn_nobody" }))).toMatchObject({ code: "not_found" });
    await add({ clientId: `taken-${run}` });
    expect((await refusal(add({ clientId: `taken-${run}` }))).message).toContain("is taken");
    expect(await listMqttBridges({ ctx: { db }, input: { tenantId } })).toHaveLength(1);
  });
});

describe("a running bridge", () => {
  it("ingests Traccar and Tesla messages with the feeds' mapping, refuses what it cannot store and goes on", async () => {
    const db = server.tdb.handle.db;
    const { tenantId } = await createTenantWithKey(db);
    const topic = `fdp-test/${run}/${server.tdb.kind}`;
    const traccar = await createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: `${topic}/traccar/+`, format: "traccar", connections: 1 } });
    const tesla = await createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: `${topic}/tesla`, format: "tesla", connections: 3 } });
    start(`owner-a-${run}`);
    expect(await waitFor(async () => (await bridge(traccar.bridgeId)).state === "connected" && (await bridge(tesla.bridgeId)).state === "connected", 10_000)).toBe(true);

    const fixTime = minutesAgo(10);
    await publish(
      `${topic}/traccar/356307042441013`,
      JSON.stringify({
        position: { fixTime, valid: true, latitude: 60.1699, longitude: 24.9384, speed: 27, attributes: { ignition: true, odometer: 18250400 } },
        device: { uniqueId: "356307042441013", model: "Transit Custom", category: "van" },
      }),
    );
    await publish(`${topic}/traccar/x`, "not json {");
    await publish(`${topic}/traccar/x`, JSON.stringify({ position: { fixTime, speed: "fast" }, device: { uniqueId: "x1" } }));
    const createdAt = minutesAgo(5);
    await publish(
      `${topic}/tesla`,
      JSON.stringify({
        vin: "5YJ3E7EB2KF123456",
        createdAt,
        data: [
          { key: "VehicleSpeed", value: { stringValue: "40.0" } },
          { key: "Odometer", value: { stringValue: "11340.25" } },
          { key: "Soc", value: { stringValue: "71.3" } },
          { key: "Location", value: { locationValue: { latitude: 59.3293, longitude: 18.0686 } } },
        ],
      }),
    );

    expect(await waitFor(async () => (await bridge(traccar.bridgeId)).messagesRefused === 2 && (await readings(tenantId)) === 2, 10_000)).toBe(true);
    const stored = await rows(db, sql`select device_id, ts, speed_kmh, odometer_km, soc_pct, lat, lon from telemetry where tenant_id = ${tenantId} order by device_id`);
    const numbers = (r: Record<string, unknown>) => ({
      device_id: r.device_id,
      ts: new Date(String(r.ts)).toISOString(),
      ...Object.fromEntries(["speed_kmh", "odometer_km", "soc_pct", "lat", "lon"].map((k) => [k, sqlNumber(r[k])])),
    });
    // Converted values keep 9 significant digits (docs/feeds.md "Units").
    const sig9 = (x: number) => Number(x.toPrecision(9));
    expect(stored.map(numbers)).toEqual([
      { device_id: "oem-5YJ3E7EB2KF123456", ts: createdAt, speed_kmh: sig9(40 * 1.609344), odometer_km: sig9(11340.25 * 1.609344), soc_pct: 71.3, lat: 59.3293, lon: 18.0686 },
      { device_id: "traccar-356307042441013", ts: fixTime, speed_kmh: sig9(27 * 1.852), odometer_km: 18250.4, soc_pct: null, lat: 60.1699, lon: 24.9384 },
    ]);
    const t = await bridge(traccar.bridgeId);
    expect(t).toMatchObject({ messagesIngested: 1, messagesRefused: 2 });
    // The reason names the field and the rule, never the value sent.
    expect(t.lastRefusal).toContain("position.speed");
    expect(t.lastRefusal).not.toContain("fast");
    expect(await bridge(tesla.bridgeId)).toMatchObject({ messagesIngested: 1, messagesRefused: 0 });

    // A message after the refusals is taken as before; one published at QoS 0 (delivered at QoS 0, nothing to acknowledge) too.
    await publish(`${topic}/traccar/356307042441013`, JSON.stringify({ position: { fixTime: minutesAgo(1), speed: 0 }, device: { uniqueId: "356307042441013" } }));
    expect(await waitFor(async () => (await readings(tenantId)) === 3, 10_000)).toBe(true);
    await publisher.publishAsync(
      `${topic}/traccar/356307042441013`,
      JSON.stringify({ position: { fixTime: minutesAgo(0.8), speed: 0 }, device: { uniqueId: "356307042441013" } }),
      { qos: 0 },
    );
    expect(await waitFor(async () => (await readings(tenantId)) === 4, 10_000)).toBe(true);

    // Readiness names each bridge's state, and nothing of its tenant, broker or topic.
    const health = await (await server.app.fetch("/api/health", { key: null })).text();
    expect(JSON.parse(health).details.mqtt_bridges).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: traccar.bridgeId, state: "connected" }), expect.objectContaining({ id: tesla.bridgeId, state: "connected" })]),
    );
    expect(health).not.toContain(topic);
    expect(health).not.toContain(tenantId);

    // Removed, the bridge stops at the next lease renewal and asks the broker to forget its session:
    // what is published afterwards is not ingested, nor kept for it.
    await removeMqttBridge({ ctx: { db }, input: { bridgeId: traccar.bridgeId } });
    await new Promise((resolve) => setTimeout(resolve, SETTINGS.leaseMs)); // renewals come every third of it
    await publish(`${topic}/traccar/356307042441013`, JSON.stringify({ position: { fixTime: minutesAgo(0.5), speed: 0 }, device: { uniqueId: "356307042441013" } }));
    await publish(`${topic}/tesla`, JSON.stringify({ vin: "5YJ3E7EB2KF123456", createdAt: minutesAgo(0.5), data: [{ key: "Soc", value: { stringValue: "70" } }] }));
    expect(await waitFor(async () => (await readings(tenantId)) === 5, 10_000)).toBe(true);
    expect(await sessionKept(traccar.clientId)).toBe(false);
    expect(await readings(tenantId)).toBe(5); // the Tesla one; the Traccar one had no bridge
  });

  it("removed while it waits to reconnect, it still asks the broker to forget its session", async () => {
    const db = server.tdb.handle.db;
    // This test's instance alone runs the bridge, and waits at least 30 s before reconnecting.
    await Promise.all(supervisors.splice(0).map((s) => s.stop()));
    const { tenantId } = await createTenantWithKey(db);
    const topic = `fdp-test/${run}/${server.tdb.kind}/forget`;
    const { bridgeId, clientId } = await createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: topic, format: "tesla", connections: 1 } });
    const captured = captureLog("info");
    supervisors.push(
      runMqttBridges({ db: async () => db, log: captured.logger, settings: { ...SETTINGS, reconnectInitialMs: 60_000, reconnectMaxMs: 60_000 }, owner: `owner-g-${run}` }),
    );
    expect(await waitFor(async () => (await bridge(bridgeId)).state === "connected", 10_000)).toBe(true);
    // Another client takes the session over (the broker ends the bridge's connection) and leaves it kept for 10 minutes.
    const taker = await connectAsync(BROKER, { clientId, protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 600 } });
    await taker.endAsync();
    // Its first retry is at least 30 s away.
    expect(await waitFor(async () => captured.text().includes("MQTT bridge connection down") && (await bridge(bridgeId)).state === "connecting", 10_000)).toBe(true);

    await removeMqttBridge({ ctx: { db }, input: { bridgeId } });
    // Stopped at the next renewal (a third of the lease), with no connection of its own to end: it opens one to end the session.
    expect(await waitFor(async () => captured.text().includes("MQTT bridge removed"), 10_000)).toBe(true);
    expect(captured.text()).not.toContain("not ended");
    expect(await sessionKept(clientId)).toBe(false);
  });

  it("names a missing password variable, never a password, and connects once it is set", async () => {
    const db = server.tdb.handle.db;
    const { tenantId } = await createTenantWithKey(db);
    const variable = `FDP_MQTT_TEST_PASSWORD_${process.pid}_${server.tdb.kind.toUpperCase()}`;
    delete process.env[variable];
    const { bridgeId } = await createMqttBridge({
      ctx: { db },
      input: { tenantId, brokerUrl: BROKER, topicFilter: `fdp-test/${run}/secret`, format: "tesla", username: "fdp", passwordEnv: variable, connections: 1 },
    });
    start(`owner-b-${run}`);
    expect(await waitFor(async () => (await bridge(bridgeId)).state === "disconnected", 10_000)).toBe(true);
    expect((await bridge(bridgeId)).lastError).toBe(`the environment variable ${variable}, which holds the broker password, is not set on this instance`);
    // The machine's broker lets anyone in: with the variable set, the bridge connects at its next attempt.
    process.env[variable] = "correct horse battery staple";
    try {
      expect(await waitFor(async () => (await bridge(bridgeId)).state === "connected", 10_000)).toBe(true);
      const listed = JSON.stringify(await listMqttBridges({ ctx: { db }, input: { tenantId } }));
      expect(listed).not.toContain("correct horse");
    } finally {
      delete process.env[variable];
      await removeMqttBridge({ ctx: { db }, input: { bridgeId } });
    }
  });

  it("runs on one instance at a time, and moves at once when that instance stops", async () => {
    const db = server.tdb.handle.db;
    const { tenantId } = await createTenantWithKey(db);
    const topic = `fdp-test/${run}/${server.tdb.kind}/lease`;
    const { bridgeId } = await createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: topic, format: "tesla", connections: 1 } });
    const owners = async () => (await rows(db, sql`select lease_owner from mqtt_bridges where id = ${bridgeId}`)).map((r) => r.lease_owner);
    const first = start(`owner-c-${run}`);
    const second = start(`owner-d-${run}`);
    expect(await waitFor(async () => (await bridge(bridgeId)).state === "connected", 10_000)).toBe(true);
    const [holder] = await owners();
    expect([`owner-c-${run}`, `owner-d-${run}`]).toContain(holder);
    const message = (i: number) => JSON.stringify({ vin: "5YJ3E7EB2KF000001", createdAt: minutesAgo(60 - i), data: [{ key: "Soc", value: { stringValue: String(50 + i / 10) } }] });
    for (let i = 0; i < 50; i++) await publish(topic, message(i));
    expect(await waitFor(async () => (await readings(tenantId)) === 50, 10_000)).toBe(true);
    expect((await bridge(bridgeId)).messagesIngested).toBe(50); // one instance took each message, once

    await (holder === `owner-c-${run}` ? first : second).stop();
    // Given back on stopping, not left to lapse: the other instance takes it at its next renewal.
    expect(await owners()).toEqual([null]);
    expect(await waitFor(async () => (await owners())[0] !== null && (await bridge(bridgeId)).state === "connected", 10_000)).toBe(true);
    expect((await owners())[0]).not.toBe(holder);
    expect((await bridge(bridgeId)).messagesIngested).toBe(50);
    for (let i = 50; i < 60; i++) await publish(topic, message(i));
    expect(await waitFor(async () => (await readings(tenantId)) === 60, 10_000)).toBe(true);
    expect((await bridge(bridgeId)).messagesIngested).toBe(60);
    await removeMqttBridge({ ctx: { db }, input: { bridgeId } });
  });

  it("stops its bridges when a lease renewal hangs past the lease; the next instance takes over and nothing is lost", async () => {
    const db = server.tdb.handle.db;
    // The instances the earlier tests started are stopped: one of them, not the partitioned one below, could
    // take the new bridge first (a loaded CI run did), and the partitioned instance would have nothing to stop.
    await Promise.all(supervisors.splice(0).map((s) => s.stop()));
    const { tenantId } = await createTenantWithKey(db);
    const topic = `fdp-test/${run}/${server.tdb.kind}/watchdog`;
    const { bridgeId } = await createMqttBridge({ ctx: { db }, input: { tenantId, brokerUrl: BROKER, topicFilter: topic, format: "tesla", connections: 1 } });
    // The first instance's database stops answering (a network partition): its statements hang, not fail.
    let hang = false;
    const release: (() => void)[] = [];
    const partitioned = new Proxy(db, {
      get(target, prop) {
        if (prop === "execute" && hang) return () => new Promise((_, reject) => release.push(() => reject(new Error("partition over"))));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const captured = captureLog("warn");
    const first = runMqttBridges({ db: async () => partitioned, log: captured.logger, settings: SETTINGS, owner: `owner-e-${run}` });
    try {
      expect(await waitFor(async () => (await bridge(bridgeId)).state === "connected", 10_000)).toBe(true);
      expect((await rows(db, sql`select lease_owner from mqtt_bridges where id = ${bridgeId}`))[0]?.lease_owner).toBe(`owner-e-${run}`);
      hang = true;
      expect(await waitFor(async () => captured.text().includes("MQTT bridge leases lapsed"), 10_000)).toBe(true);
      // Published while no instance runs the bridge: the broker keeps it for the session.
      await publish(topic, JSON.stringify({ vin: "5YJ3E7EB2KF000002", createdAt: minutesAgo(3), data: [{ key: "Soc", value: { stringValue: "64" } }] }));
      start(`owner-f-${run}`);
      expect(await waitFor(async () => (await readings(tenantId)) === 1, 10_000)).toBe(true);
      // Taken by the healthy instance, once the partitioned one's lease had lapsed.
      expect((await rows(db, sql`select lease_owner from mqtt_bridges where id = ${bridgeId}`))[0]?.lease_owner).toBe(`owner-f-${run}`);
    } finally {
      hang = false;
      for (const r of release) r();
      await first.stop();
    }
    await removeMqttBridge({ ctx: { db }, input: { bridgeId } });
  });
});
