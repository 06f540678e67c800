import { connectAsync, type MqttClient } from "mqtt";
import { KM_PER_MILE, KMH_PER_KNOT } from "@/lib/ingest/adapters/units";
import { createMqttBridge } from "@/lib/ingest/mqtt/create-mqtt-bridge";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import { removeMqttBridge } from "@/lib/ingest/mqtt/remove-mqtt-bridge";
import { FleetSimulator, type OemRecord } from "../lib/fleet";
import { combine, measure, measurementOf, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * The feeds (CONTRACT "Feeds", docs/feeds.md) against endpoint 16: the same vehicle records, once as
 * SPEC 2.17 records to `POST /oem/ingest` (the baseline), once as Traccar position documents to
 * `POST /oem/ingest/traccar`, once as Tesla Fleet Telemetry payloads to `POST /oem/ingest/tesla`.
 * Each side writes to its own tenant; records per second, side by side in alternating rounds, so the
 * ratio is what the adapters (and the larger documents) cost on top of the ingest.
 *
 * Then the MQTT bridge (docs/feeds.md "MQTT bridge"): the same kind of records as Traccar documents,
 * one per message as Traccar's MQTT forwarding publishes them, at QoS 1 on the machine's Mosquitto
 * (BENCH_MQTT_URL), from the first publish until the last record is stored (counted in the database);
 * beside it endpoint 16 given the same records one per request, as many requests in flight as the bridge
 * has connections (what a client posting each position as it comes would do).
 */

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const BATCHES = Number(process.env.BENCH_FEED_BATCHES ?? 4);
const MEASUREMENT_TIMEOUT_MS = 120_000;
const STEP_MS = 60_000;

type Feed = "traccar" | "tesla";
interface Case {
  tag: string;
  vehicles: number;
  recordsPerVehicle: number;
}
const CASES: Case[] = [
  { tag: "F", vehicles: 100, recordsPerVehicle: 10 },
  { tag: "G", vehicles: 2000, recordsPerVehicle: 5 },
];
/**
 * The MQTT case: 100 messages per connection and vehicle step, at most 2,000 per measurement, so that no
 * connection is sent more than Mosquitto keeps queued for one session (max_queued_messages, 1,000 by default).
 */
const mqttCase = (connections: number): Case => ({ tag: "M", vehicles: Math.min(200, 80 * connections), recordsPerVehicle: 10 });
const MQTT_URL = process.env.BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";
/** The bridge's connections (1, the default of `mqtt:add`, and 8), each beside endpoint 16 with as many requests in flight. */
const MQTT_CONNECTIONS = [1, 8] as const;

/** One record as Traccar's JSON forwarding posts it (what a Teltonika behind Traccar sends). */
function traccarDocument(r: OemRecord) {
  return {
    position: {
      protocol: "teltonika",
      fixTime: r.timestamp,
      deviceTime: r.timestamp,
      valid: true,
      outdated: false,
      latitude: r.lat,
      longitude: r.lon,
      speed: r.speed_kmh / KMH_PER_KNOT,
      course: 0,
      attributes: { ignition: r.raw_data.ignition, odometer: r.odometer_km * 1000, power: r.battery_voltage, vin: r.vin, sat: 12, rssi: 4 },
    },
    device: { uniqueId: r.vin, name: r.vin, model: r.raw_data.vehicle?.model ?? null, category: "car" },
  };
}

/** One record as a Fleet Telemetry payload in protobuf JSON (values as strings, as vehicles send most of them). */
function teslaPayload(r: OemRecord) {
  const datum = (key: string, value: Record<string, unknown>) => ({ key, value });
  return {
    vin: r.vin,
    createdAt: r.timestamp,
    data: [
      datum("VehicleSpeed", { stringValue: String(r.speed_kmh / KM_PER_MILE) }),
      datum("Odometer", { stringValue: String(r.odometer_km / KM_PER_MILE) }),
      ...(r.soc_percent !== undefined ? [datum("Soc", { stringValue: String(r.soc_percent) })] : []),
      datum("Location", { locationValue: { latitude: r.lat, longitude: r.lon } }),
      datum("OutsideTemp", { doubleValue: r.raw_data.ambient_temp_c }),
      datum("Gear", { shiftStateValue: r.speed_kmh > 0 ? "ShiftStateD" : "ShiftStateP" }),
    ],
  };
}

async function post(url: string, key: string, path: string, body: string): Promise<void> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(MEASUREMENT_TIMEOUT_MS),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`);
}

export const feedIngest: Benchmark = {
  id: "feeds",
  title: "Feeds (POST /oem/ingest/traccar and /tesla vs endpoint 16, same records)",
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const tenants = {
      endpoint16: await ctx.newTenant("Bench feeds (endpoint 16)"),
      traccar: await ctx.newTenant("Bench feeds (Traccar)"),
      tesla: await ctx.newTenant("Bench feeds (Tesla)"),
    };
    const startMs = Math.floor(Date.now() / 60_000) * 60_000 - 8 * 3_600_000;
    const rows: ComparisonRow[] = [];
    const sent = { endpoint16: 0, traccar: 0, tesla: 0 };
    const payloadBytes: Record<string, number> = {};

    for (const [caseIndex, c] of CASES.entries()) {
      const batchSize = c.vehicles * c.recordsPerVehicle;
      // Identical record streams for the three sides (same seed), each on its own tenant.
      const fleet = () =>
        new FleetSimulator({ seed: 7000 + caseIndex, vehicles: c.vehicles, recordsPerVehicle: c.recordsPerVehicle, vinTag: `${c.tag}00000`, startMs, stepMs: STEP_MS });
      const fleets = { endpoint16: fleet(), traccar: fleet(), tesla: fleet() };
      const bodies: Record<keyof typeof fleets, (records: OemRecord[]) => string> = {
        endpoint16: (records) => JSON.stringify({ source: "fdp-bench", vehicles: records }),
        traccar: (records) => JSON.stringify(records.map(traccarDocument)),
        tesla: (records) => JSON.stringify(records.map(teslaPayload)),
      };
      const paths = { endpoint16: "/oem/ingest", traccar: "/oem/ingest/traccar", tesla: "/oem/ingest/tesla" };
      const run = (side: keyof typeof fleets, label: string): Promise<Measurement> => {
        // Bodies are serialised before the clock starts: the client's JSON work is not measured.
        const batch = Array.from({ length: BATCHES }, () => bodies[side](fleets[side].nextBatch()));
        payloadBytes[`${side}, ${batchSize} per request`] = Buffer.byteLength(batch[0] ?? "");
        sent[side] += BATCHES * batchSize;
        return withTimeout(`${label} ${side}`, MEASUREMENT_TIMEOUT_MS, () =>
          measure({ batches: BATCHES, concurrency: 1, unitsPerBatch: batchSize, job: (i) => post(ctx.appUrl, tenants[side].key, paths[side], batch[i]!) }),
        );
      };

      for (const feed of ["traccar", "tesla"] as Feed[]) {
        const label = `${feed === "traccar" ? "Traccar" : "Tesla"}, ${batchSize.toLocaleString("en-US")} per request`;
        ctx.log(`${label}: warm-up`);
        await run("endpoint16", label);
        await run(feed, label);
        const feedRounds: Measurement[] = [];
        const baseRounds: Measurement[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          // Alternate which side goes first, so neither always runs on the fresher database.
          if (round % 2 === 1) baseRounds.push(await run("endpoint16", label));
          feedRounds.push(await run(feed, label));
          if (round % 2 === 0) baseRounds.push(await run("endpoint16", label));
        }
        const fdp = combine(feedRounds);
        const baseline = combine(baseRounds);
        rows.push({ label, fdp, baseline });
        ctx.log(`  ${feed} ${Math.round(fdp.perSecond)} rec/s, endpoint 16 ${Math.round(baseline.perSecond)} rec/s (${Math.round((fdp.perSecond / baseline.perSecond) * 100)}%)`);
      }
    }

    // The MQTT bridge, beside endpoint 16 one record per request.
    const raw = ctx.rawClient({ max: 1 });
    const mqtt: Record<string, unknown>[] = [];
    for (const connections of MQTT_CONNECTIONS) {
      const measured = await measureMqttBridge(ctx, raw, startMs, connections);
      rows.push(measured.row);
      mqtt.push({ connections, ...measured.details });
    }

    // Every record sent was stored, on every side.
    const counted = await raw<{ tenant_id: string; n: number }[]>`
      select tenant_id, count(*)::int as n from telemetry
       where tenant_id in (${tenants.endpoint16.tenantId}, ${tenants.traccar.tenantId}, ${tenants.tesla.tenantId}) group by tenant_id`;
    const stored = Object.fromEntries(Object.entries(tenants).map(([side, t]) => [side, counted.find((r) => r.tenant_id === t.tenantId)?.n ?? 0]));
    for (const side of Object.keys(sent) as (keyof typeof sent)[]) {
      if (stored[side] !== sent[side]) ctx.log(`WARNING: ${side} stored ${stored[side]} telemetry rows for ${sent[side]} records sent`);
    }

    return {
      id: this.id,
      title: this.title,
      unit: "rec",
      sides: { fdp: "feed endpoint", baseline: "endpoint 16" },
      goal: "No goal set: the ratio is what the feed's adapter and its larger documents cost beside endpoint 16 for the same records.",
      rows,
      details: {
        rounds: ROUNDS,
        batchesPerMeasurement: BATCHES,
        cases: CASES,
        payloadBytesPerBatch: payloadBytes,
        recordsSent: sent,
        telemetryRowsStored: stored,
        mqtt: { broker: MQTT_URL, runs: mqtt },
      },
    };
  },
};

/**
 * The MQTT bridge against endpoint 16 for the same records: per round, the bridge side publishes a batch
 * (serialised before the clock starts) and waits until the database holds it; endpoint 16 gets its own
 * copy one record per request, `connections` in flight. Each side on its own tenant, alternating.
 */
async function measureMqttBridge(
  ctx: BenchContext,
  raw: ReturnType<BenchContext["rawClient"]>,
  startMs: number,
  connections: number,
): Promise<{ row: ComparisonRow; details: Record<string, unknown> }> {
  const MQTT_CASE = mqttCase(connections);
  const tenants = { mqtt: await ctx.newTenant("Bench feeds (MQTT bridge)"), single: await ctx.newTenant("Bench feeds (endpoint 16, one per request)") };
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const topic = `fdp-bench/${run}`;
  const { bridgeId } = await createMqttBridge({
    ctx: { db: ctx.db },
    input: { tenantId: tenants.mqtt.tenantId, brokerUrl: MQTT_URL, topicFilter: `${topic}/+`, format: "traccar", connections },
  });
  let publisher: MqttClient | null = null;
  try {
    const connectedBy = Date.now() + 30_000;
    while ((await listMqttBridges({ ctx: { db: ctx.db }, input: { tenantId: tenants.mqtt.tenantId } }))[0]?.state !== "connected") {
      if (Date.now() > connectedBy) throw new Error(`the MQTT bridge did not connect to ${MQTT_URL} within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    publisher = await connectAsync(MQTT_URL, { clean: true });
    const fleet = () =>
      new FleetSimulator({ seed: 7100, vehicles: MQTT_CASE.vehicles, recordsPerVehicle: MQTT_CASE.recordsPerVehicle, vinTag: `${MQTT_CASE.tag}00000`, startMs, stepMs: STEP_MS });
    const fleets = { mqtt: fleet(), single: fleet() };
    const batchSize = MQTT_CASE.vehicles * MQTT_CASE.recordsPerVehicle;
    const stored = async (tenantId: string) => (await raw<{ n: number }[]>`select count(*)::int as n from telemetry where tenant_id = ${tenantId}`)[0]?.n ?? 0;
    let published = 0;

    const bridgeSide = async (): Promise<Measurement> => {
      const messages = fleets.mqtt.nextBatch().map((r) => ({ topic: `${topic}/${r.vin}`, body: JSON.stringify(traccarDocument(r)) }));
      const target = published + messages.length;
      published = target;
      const started = performance.now();
      await Promise.all(messages.map((m) => publisher!.publishAsync(m.topic, m.body, { qos: 1 })));
      const until = Date.now() + MEASUREMENT_TIMEOUT_MS;
      while ((await stored(tenants.mqtt.tenantId)) < target) {
        if (Date.now() > until) throw new Error(`MQTT bridge: ${await stored(tenants.mqtt.tenantId)} of ${target} records stored after ${MEASUREMENT_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const wallMs = performance.now() - started;
      return measurementOf({ units: messages.length, batches: messages.length, concurrency: connections, wallMs, latenciesMs: [wallMs] });
    };
    const singleSide = (): Promise<Measurement> => {
      const bodies = fleets.single.nextBatch().map((r) => JSON.stringify({ source: "fdp-bench", vehicles: [r] }));
      return withTimeout("endpoint 16 one per request", MEASUREMENT_TIMEOUT_MS, () =>
        measure({ batches: bodies.length, concurrency: connections, unitsPerBatch: 1, job: (i) => post(ctx.appUrl, tenants.single.key, "/oem/ingest", bodies[i]!) }),
      );
    };

    const label = `MQTT bridge, Traccar, 1 per message, ${connections} connections (baseline: endpoint 16, 1 per request, ${connections} in flight)`;
    ctx.log(`${label}: warm-up`);
    await bridgeSide();
    await singleSide();
    const bridgeRounds: Measurement[] = [];
    const singleRounds: Measurement[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (round % 2 === 1) singleRounds.push(await singleSide());
      bridgeRounds.push(await bridgeSide());
      if (round % 2 === 0) singleRounds.push(await singleSide());
    }
    const fdp = combine(bridgeRounds);
    const baseline = combine(singleRounds);
    ctx.log(
      `  MQTT bridge ${Math.round(fdp.perSecond)} rec/s, endpoint 16 one per request ${Math.round(baseline.perSecond)} rec/s (${Math.round((fdp.perSecond / baseline.perSecond) * 100)}%)`,
    );
    const bridge = (await listMqttBridges({ ctx: { db: ctx.db }, input: { tenantId: tenants.mqtt.tenantId } }))[0];
    return {
      row: { label, fdp, baseline },
      details: {
        messagesPublished: published,
        bridgeMessagesIngested: bridge?.messagesIngested ?? null,
        bridgeMessagesRefused: bridge?.messagesRefused ?? null,
        recordsStored: await stored(tenants.mqtt.tenantId),
        endpoint16OnePerRequestStored: await stored(tenants.single.tenantId),
        batchSize,
        case: MQTT_CASE,
      },
    };
  } finally {
    await publisher?.endAsync();
    // Removed, the bridge's sessions are ended on the broker at the server's next lease renewal.
    await removeMqttBridge({ ctx: { db: ctx.db }, input: { bridgeId } });
  }
}
