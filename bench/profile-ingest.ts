/**
 * Where does an ingest batch spend its time? Runs the stages of lib/ingest/ingest-telemetry.ts one
 * by one, in process (no HTTP), on the same payloads as the ingest benchmark, and prints the median
 * wall time of each stage (and the app process's CPU time during the SQL stages, to tell driver/ORM
 * work from waiting on Postgres). Then times the whole verb `ingestTelemetry()` in process.
 *
 *   npx tsx bench/profile-ingest.ts            (fresh database on BENCH_PG_ADMIN_URL, dropped after)
 *
 * The orchestration below mirrors ingestTelemetry() step for step, one stage after the other (the verb
 * builds the record columns while the context read is in flight, and runs the detectors while the store
 * statement is); if that verb changes, update it.
 *
 * PROFILE_SERVER=1: instead, a CPU profile of the BUILT server (the method of bench/profile-read.ts):
 * starts it with `--cpu-prof` on a fresh database, posts PROFILE_BATCHES (default 12) batches of
 * 10,000 records (2,000 vehicles × 5, the benchmark's case) one at a time after 2 warm-ups, stops it, and
 * prints the app process's self time per 10,000-record request by where the code lives and by function.
 *
 *   BENCH_SKIP_BUILD=1 PROFILE_SERVER=1 npx tsx bench/profile-ingest.ts   (writes bench/results/profile-ingest-*.json)
 *
 * PROFILE_VEHICLES and PROFILE_PER_VEHICLE choose another case of the benchmark (1000 × 1: the
 * 1,000-record case where the fixed and per-device costs weigh most).
 */
import { rootLogger } from "@/lib/log/logger";
import { performance } from "node:perf_hooks";
import { createTenant } from "@/lib/tenants/create-tenant";
import { runDetectors } from "@/lib/detectors";
import { parseIJsonObject } from "@/lib/json/parse-i-json";
import { detectorContext } from "@/lib/ingest/device-context";
import { batchDeviceUpdates, ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { groupByDevice, toTelemetryRecords } from "@/lib/ingest/normalize-records";
import { insertAlerts, readDeviceContexts, recordColumns, storeBatch } from "@/lib/ingest/store-batch";
import { ingestOperation } from "@/lib/operations/ingest";
import { parseInput } from "@/lib/validation";
import type { Db } from "@/lib/db/client";
import { FleetSimulator } from "./lib/fleet";
import { prepareDatabase } from "./lib/database";
import { median } from "./lib/timing";
import { renderTable, fmtMs } from "./lib/table";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { buildApp } from "./lib/app";
import { analyseProfile, serverProfile, startProfiledApp, type CpuProfile, type ProfileBreakdown } from "./lib/cpu-profile";
import { writeResultsFile } from "./lib/results-file";
import { runMain } from "./lib/run-main";

const log = (m: string) => process.stderr.write(`[profile] ${m}\n`);

const CASES = [
  { tag: "A", label: "1,000 (1000 veh × 1)", vehicles: 1000, perVehicle: 1, batches: 10 },
  { tag: "B", label: "1,000 (100 veh × 10)", vehicles: 100, perVehicle: 10, batches: 10 },
  { tag: "C", label: "10,000 (2000 veh × 5)", vehicles: 2000, perVehicle: 5, batches: 6 },
];
const WARMUP = 2;

type Stage =
  | "I-JSON parse"
  | "validate"
  | "map + group"
  | "SQL read contexts"
  | "record columns"
  | "master data + driving events"
  | "SQL store batch (devices + history + snapshot + events)"
  | "detectors"
  | "SQL insert alerts"
  | "commit"
  | "stages total"
  | "ingestTelemetry() in process";

async function profileBatch(db: Db, tenantId: string, rawBody: Uint8Array, t: Map<Stage, number[]>, cpu: Map<Stage, number[]>): Promise<void> {
  const now = new Date();
  const rec = (stage: Stage, ms: number, cpuMs?: number) => {
    (t.get(stage) ?? t.set(stage, []).get(stage)!).push(ms);
    if (cpuMs !== undefined) (cpu.get(stage) ?? cpu.set(stage, []).get(stage)!).push(cpuMs);
  };
  const timed = async <T>(stage: Stage, fn: () => T | Promise<T>): Promise<T> => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await fn();
    const c = process.cpuUsage(c0);
    rec(stage, performance.now() - t0, (c.user + c.system) / 1000);
    return out;
  };
  const start = performance.now();
  const body = await timed("I-JSON parse", () => parseIJsonObject(rawBody));
  const parsed = await timed("validate", () => parseInput(ingestOperation.inputSchema, body));
  const { byDevice, deviceIds, unique } = await timed("map + group", () => {
    const records = toTelemetryRecords(parsed, now);
    const byDevice = groupByDevice(records);
    return { byDevice, deviceIds: [...byDevice.keys()], unique: [...byDevice.values()].flat() };
  });
  let commitStart = 0;
  await db.transaction(async (tx) => {
    const known = await timed("SQL read contexts", () => readDeviceContexts(tx, tenantId, deviceIds));
    const columns = await timed("record columns", () => recordColumns(unique));
    const { updates, events } = await timed("master data + driving events", () => batchDeviceUpdates(byDevice, known));
    const stored = await timed("SQL store batch (devices + history + snapshot + events)", () =>
      storeBatch(tx, tenantId, { updates, records: unique, columns, events, receivedAt: now }),
    );
    const drafts = await timed("detectors", () => {
      const contexts = deviceIds.map((id) => detectorContext(id, known.get(id), stored.get(id) ?? { powertrain: null, batteryKwh: null }));
      return runDetectors({ devices: contexts, recordsByDevice: byDevice });
    });
    await timed("SQL insert alerts", () => insertAlerts(tx, tenantId, drafts, now));
    commitStart = performance.now();
  });
  rec("commit", performance.now() - commitStart);
  rec("stages total", performance.now() - start);
}

async function main() {
  if (process.env.PROFILE_SERVER === "1" || process.env.PROFILE_ANALYSE) return profileServer();
  const database = await prepareDatabase(log);
  try {
    const db = database.handle.db;
    const tenant = await createTenant({ ctx: { db }, input: { name: "Profile ingest" } });
    const verbTenant = await createTenant({ ctx: { db }, input: { name: "Profile ingest (verb)" } });
    const startMs = Math.floor(Date.now() / 60_000) * 60_000 - 8 * 3_600_000;
    const out: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const fleet = () => new FleetSimulator({ seed: 1000 * (i + 1), vehicles: c.vehicles, recordsPerVehicle: c.perVehicle, vinTag: `${c.tag}0000P`, startMs, stepMs: 60_000 });
      const staged = fleet();
      const verb = fleet();
      const body = (f: FleetSimulator) => new TextEncoder().encode(JSON.stringify({ source: "fdp-bench", vehicles: f.nextBatch() }));
      const t = new Map<Stage, number[]>();
      const cpu = new Map<Stage, number[]>();
      for (let b = 0; b < WARMUP; b++) await profileBatch(db, tenant.tenantId, body(staged), new Map(), new Map());
      for (let b = 0; b < c.batches; b++) await profileBatch(db, tenant.tenantId, body(staged), t, cpu);

      const ctx = { db, tenantId: verbTenant.tenantId, isSandbox: false, log: rootLogger() };
      // What the route binding does after authentication: I-JSON parse → request checks → validation → verb.
      const ingest = async (rawBody: Uint8Array) => {
        const parsed = parseIJsonObject(rawBody);
        await ingestOperation.verifyRequest?.({ ctx, rawBody, body: parsed, headers: new Headers() });
        await ingestTelemetry({ ctx, input: parseInput(ingestOperation.inputSchema, parsed) });
      };
      for (let b = 0; b < WARMUP; b++) await ingest(body(verb));
      const verbTimes: number[] = [];
      for (let b = 0; b < c.batches; b++) {
        const rawBody = body(verb);
        const t0 = performance.now();
        await ingest(rawBody);
        verbTimes.push(performance.now() - t0);
      }
      t.set("ingestTelemetry() in process", verbTimes);

      const records = c.vehicles * c.perVehicle;
      const total = median(t.get("stages total") ?? []);
      const rows = [...t.entries()].map(([stage, list]) => {
        const m = median(list);
        const cm = cpu.get(stage);
        return [
          stage,
          fmtMs(m),
          stage === "stages total" || stage.startsWith("ingestTelemetry") ? "" : `${Math.round((100 * m) / total)}%`,
          cm ? fmtMs(median(cm)) : "",
          stage === "stages total" || stage.startsWith("ingestTelemetry") ? `${Math.round(records / (m / 1000)).toLocaleString("en-US")} rec/s` : "",
        ];
      });
      out.push(
        `### ingest ${c.label}, median of ${c.batches} batches\n\n${renderTable(["stage", "ms", "share", "app CPU ms", "rate"], rows, ["left", "right", "right", "right", "right"])}`,
      );
      log(`${c.label} done`);
    }
    process.stdout.write(`\n${out.join("\n\n")}\n`);
  } finally {
    await database.dispose();
  }
}

/**
 * Self time by bucket and function, counted from the first sample in lib/json/parse-i-json.ts on (the
 * first request body): the server's start-up (module loading, the sandbox tenant's seed) is left out.
 */
function report(profile: CpuProfile, requests: number, records = "10,000"): ProfileBreakdown {
  const out = analyseProfile(profile, { fromUrl: "/lib/json/parse-i-json", topFunctions: 40 });
  const busy = out.busyMs;
  process.stdout.write(
    `\nCPU self time of the app process: ${(busy / 1000).toFixed(2)} s busy over ${requests} requests of ${records} records (2 warm-ups included, start-up left out): ${(busy / requests).toFixed(0)} ms per request\n`,
  );
  for (const [b, ms] of out.buckets)
    if (b !== "idle" && ms / requests >= 0.5)
      process.stdout.write(`${b.padEnd(60)} ${(ms / requests).toFixed(1).padStart(7)} ms/request  ${((100 * ms) / busy).toFixed(1).padStart(5)} %\n`);
  process.stdout.write("\nTop functions by self time (ms per request)\n");
  for (const [fn, ms] of out.functions) if (!fn.startsWith("(idle)")) process.stdout.write(`${(ms / requests).toFixed(1).padStart(7)}  ${fn}\n`);
  return out;
}

/** A positive integer from the environment variable `name`, else `fallback`; anything else is refused. */
function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return n;
}

async function profileServer(): Promise<void> {
  // PROFILE_ANALYSE=<file.cpuprofile> PROFILE_REQUESTS=<n>: only print the breakdown of an earlier profile.
  if (process.env.PROFILE_ANALYSE) {
    report(JSON.parse(readFileSync(process.env.PROFILE_ANALYSE, "utf8")) as CpuProfile, Number(process.env.PROFILE_REQUESTS ?? 14));
    return;
  }
  if (process.env.BENCH_SKIP_BUILD !== "1") await buildApp(log);
  const batches = Math.max(1, Number(process.env.PROFILE_BATCHES ?? 12));
  const profDir = path.join(tmpdir(), `fdp-prof-ingest-${process.pid}`);
  const database = await prepareDatabase(log);
  let stop: () => Promise<void> = async () => {};
  try {
    const app = await startProfiledApp({ databaseUrl: database.url, profDir, log });
    stop = app.stop;
    const url = app.url;
    const tenant = await createTenant({ ctx: { db: database.handle.db }, input: { name: "Profile ingest (server)", rateLimitPerMin: 100_000 } });
    const { key } = await createApiKey({ ctx: { db: database.handle.db }, input: { tenantId: tenant.tenantId } });
    const startMs = Math.floor(Date.now() / 60_000) * 60_000 - 8 * 3_600_000;
    const vehicles = positiveInteger("PROFILE_VEHICLES", 2000);
    const recordsPerVehicle = positiveInteger("PROFILE_PER_VEHICLE", 5);
    const fleet = new FleetSimulator({ seed: 3000, vehicles, recordsPerVehicle, vinTag: "C0000S", startMs, stepMs: 60_000 });
    const bodies = Array.from({ length: batches + WARMUP }, () => JSON.stringify({ source: "fdp-bench", vehicles: fleet.nextBatch() }));
    const latencies: number[] = [];
    for (const [i, body] of bodies.entries()) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v1/oem/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${text.slice(0, 300)}`);
      if (i >= WARMUP) latencies.push(performance.now() - t0);
    }
    const records = (vehicles * recordsPerVehicle).toLocaleString("en-US");
    log(`${batches} batches of ${records} records: median ${median(latencies).toFixed(0)} ms`);
    await stop();
    const { file: biggest, profile } = serverProfile(profDir);
    const requests = batches + WARMUP;
    process.stdout.write(`\nMedian latency of a ${records}-record request (${vehicles} vehicles × ${recordsPerVehicle}): ${median(latencies).toFixed(0)} ms\n`);
    const { buckets, functions, totalMs, busyMs } = report(profile, requests, records);
    const file = writeResultsFile("profile-ingest", { batches, requests, latencies, totalMs, busyMs, buckets, functions });
    process.stdout.write(`\nRaw figures: ${file} (profile: ${biggest})\n`);
  } finally {
    await stop().catch(() => {});
    await database.dispose();
  }
}

runMain(main, log);
