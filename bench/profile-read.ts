/**
 * Where does a `GET /api/v1/fleet?limit=500` request spend the app's CPU? Starts the built app
 * (`npm start`, as bench/run.ts does) with `--cpu-prof` on a fresh database, seeds a 10,000-vehicle
 * tenant through the ingest, drives /fleet (or PROFILE_PATH) at 16 connections for PROFILE_SECONDS,
 * stops the app so that V8 writes the profile, and prints the self time by where the code lives
 * (Next.js, React, drizzle, postgres.js, zod, pino, rate-limiter-flexible, FDP's lib/, Node's own,
 * GC, idle) and the top functions.
 *
 *   BENCH_SKIP_BUILD=1 npx tsx bench/profile-read.ts          (writes bench/results/profile-read-*.json)
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createTenant } from "@/lib/tenants/create-tenant";
import { spawn } from "node:child_process";
import { freePort } from "../tests/helpers/app-process";
import { buildApp, ROOT } from "./lib/app";
import { prepareDatabase } from "./lib/database";
import { FleetSimulator } from "./lib/fleet";
import { measure, percentile } from "./lib/timing";

const log = (m: string) => process.stderr.write(`[profile-read] ${m}\n`);
const SECONDS = Math.max(5, Number(process.env.PROFILE_SECONDS ?? 20));
const CONCURRENCY = 16;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function's code lives, by its script URL. */
function bucketOf(url: string, name: string): string {
  if (name === "(garbage collector)") return "GC";
  if (name === "(idle)") return "idle";
  if (name === "(program)") return "V8/native (program)";
  if (url === "") return "native / builtins";
  if (url.startsWith("node:")) return "Node.js core";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    const pkg = m[1]!;
    if (pkg === "next") return /react|compiled\/react/.test(url) ? "React (in next)" : "Next.js";
    return pkg;
  }
  if (/\.next\/server/.test(url)) {
    // The app's own code, bundled by Next.js: chunk names say little, so the function names are kept below.
    return "app bundle (.next/server: FDP lib/ + bundled deps)";
  }
  if (url.includes("/server.ts")) return "server.ts";
  return url.replace(`file://${ROOT}/`, "");
}

function analyse(profile: CpuProfile): { buckets: [string, number][]; functions: [string, number][]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const bucket = bucketOf(n.callFrame.url, n.callFrame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*node_modules\//, "").replace(`file://${ROOT}/`, "")}:${n.callFrame.lineNumber}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    totalMs += ms;
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { buckets: sorted(buckets), functions: sorted(functions).slice(0, 30), totalMs };
}

/**
 * `npm start` is `NODE_ENV=production tsx server.ts`; Node refuses `--cpu-prof` in NODE_OPTIONS, so the
 * same server is started as `node --cpu-prof --import tsx server.ts` with the environment npm start gives it.
 */
async function startProfiledApp(databaseUrl: string, profDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, "--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, REDIS_URL: "", LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", AUTH_SECRET: "profile-only-session-secret-0123456789abcdef0123" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited early (${child.exitCode})`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("the app did not become healthy in 120 s");
    await new Promise((r) => setTimeout(r, 500));
  }
  log(`app ready at ${url} (profiling)`);
  let stopped: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      })),
  };
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== "1") await buildApp(log);
  const profDir = path.join(tmpdir(), `fdp-prof-${process.pid}`);
  mkdirSync(profDir, { recursive: true });
  const database = await prepareDatabase(log);
  try {
    const app = await startProfiledApp(database.url, profDir);
    try {
      const tenant = await createTenant({ ctx: { db: database.handle.db }, input: { name: "Profile", rateLimitPerMin: 100_000 } });
      const { key } = await createApiKey({ ctx: { db: database.handle.db }, input: { tenantId: tenant.tenantId } });
      const fleet = new FleetSimulator({ seed: 7070, vehicles: 10_000, recordsPerVehicle: 1, vinTag: "PROF01", startMs: Date.now() - 3 * 600_000, stepMs: 600_000 });
      for (let b = 0; b < 3; b++) {
        const res = await fetch(`${app.url}/api/v1/oem/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ source: "fdp-bench", vehicles: fleet.nextBatch() }) });
        if (res.status !== 200) throw new Error(`seed answered ${res.status}`);
      }
      const target = `${app.url}${process.env.PROFILE_PATH ?? "/api/v1/fleet?limit=500"}`;
      const one = async () => {
        const res = await fetch(target, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${target} answered ${res.status}`);
      };
      await measure({ batches: 200, concurrency: CONCURRENCY, unitsPerBatch: 1, job: one });
      log(`driving ${target} for ${SECONDS} s at ${CONCURRENCY} connections`);
      let stop = false;
      setTimeout(() => (stop = true), SECONDS * 1000);
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (!stop) {
            const t = performance.now();
            await one();
            latencies.push(performance.now() - t);
          }
        }),
      );
      const wall = (performance.now() - started) / 1000;
      log(`${latencies.length} requests, ${(latencies.length / wall).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
      await app.stop();
      // The profile of the server process (the largest file: tsx's launcher writes a small one too).
      const files = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(profDir, f));
      if (files.length === 0) throw new Error(`no .cpuprofile in ${profDir} (did the app exit cleanly?)`);
      const biggest = files.map((f) => ({ f, size: readFileSync(f).length })).sort((a, b) => b.size - a.size)[0]!.f;
      const { buckets, functions, totalMs } = analyse(JSON.parse(readFileSync(biggest, "utf8")) as CpuProfile);
      const busy = totalMs - (buckets.find(([b]) => b === "idle")?.[1] ?? 0);
      const perRequestMs = busy / latencies.length;
      process.stdout.write(`\nCPU self time of the app process (${(totalMs / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy; ${perRequestMs.toFixed(2)} ms CPU per request, warm-up and seeding included)\n`);
      for (const [b, ms] of buckets) process.stdout.write(`${b.padEnd(56)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${((100 * ms) / totalMs).toFixed(1).padStart(5)} %${b === "idle" ? "" : `  (${((100 * ms) / busy).toFixed(1)} % of busy)`}\n`);
      process.stdout.write("\nTop functions by self time\n");
      for (const [fn, ms] of functions) process.stdout.write(`${(ms / 1000).toFixed(2).padStart(7)} s  ${fn}\n`);
      const dir = path.join(ROOT, "bench", "results");
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `profile-read-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
      writeFileSync(file, JSON.stringify({ target, seconds: SECONDS, requests: latencies.length, totalMs, busyMs: busy, buckets, functions }, null, 2) + "\n");
      process.stdout.write(`\nRaw figures: ${path.relative(ROOT, file)} (profile: ${biggest})\n`);
    } finally {
      await app.stop().catch(() => {});
    }
  } finally {
    await database.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
