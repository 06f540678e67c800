/**
 * Where does a `GET /api/v1/fleet?limit=500` request spend the app's CPU? Starts the built app
 * (`npm start`, as bench/run.ts does) with `--cpu-prof` on a fresh database, seeds a 10,000-vehicle
 * tenant through the ingest, drives /fleet (or PROFILE_PATH) at 16 connections for PROFILE_SECONDS,
 * stops the app so that V8 writes the profile, and prints the self time by where the code lives
 * (Next.js, React, drizzle, postgres.js, zod, pino, rate-limiter-flexible, FDP's lib/, Node's own,
 * GC, idle) and the top functions.
 *
 *   BENCH_SKIP_BUILD=1 npx tsx bench/profile-read.ts          (writes bench/results/profile-read-*.json)
 *
 * PROFILE_ACCEPT_ENCODING sets the client's `Accept-Encoding` (Node's fetch sends `gzip, deflate` by
 * default, so the app compresses every answer): `identity` profiles the app without compression, as
 * the bench's floor answers.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createTenant } from "@/lib/tenants/create-tenant";
import { buildApp } from "./lib/app";
import { analyseProfile, serverProfile, startProfiledApp } from "./lib/cpu-profile";
import { writeResultsFile } from "./lib/results-file";
import { runMain } from "./lib/run-main";
import { prepareDatabase } from "./lib/database";
import { FleetSimulator } from "./lib/fleet";
import { measure, percentile } from "./lib/timing";

const log = (m: string) => process.stderr.write(`[profile-read] ${m}\n`);
const SECONDS = Math.max(5, Number(process.env.PROFILE_SECONDS ?? 20));
const CONCURRENCY = 16;

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== "1") await buildApp(log);
  const profDir = path.join(tmpdir(), `fdp-prof-${process.pid}`);
  const database = await prepareDatabase(log);
  try {
    const app = await startProfiledApp({ databaseUrl: database.url, profDir, log });
    try {
      const tenant = await createTenant({ ctx: { db: database.handle.db }, input: { name: "Profile", rateLimitPerMin: 100_000 } });
      const { key } = await createApiKey({ ctx: { db: database.handle.db }, input: { tenantId: tenant.tenantId } });
      const fleet = new FleetSimulator({ seed: 7070, vehicles: 10_000, recordsPerVehicle: 1, vinTag: "PROF01", startMs: Date.now() - 3 * 600_000, stepMs: 600_000 });
      for (let b = 0; b < 3; b++) {
        const res = await fetch(`${app.url}/api/v1/oem/ingest`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ source: "fdp-bench", vehicles: fleet.nextBatch() }),
        });
        if (res.status !== 200) throw new Error(`seed answered ${res.status}`);
      }
      const target = `${app.url}${process.env.PROFILE_PATH ?? "/api/v1/fleet?limit=500"}`;
      const one = async () => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (process.env.PROFILE_ACCEPT_ENCODING) headers["accept-encoding"] = process.env.PROFILE_ACCEPT_ENCODING;
        const res = await fetch(target, { headers });
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
      log(
        `${latencies.length} requests, ${(latencies.length / wall).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      );
      await app.stop();
      const { file: biggest, profile } = serverProfile(profDir);
      const { buckets, functions, totalMs, busyMs: busy } = analyseProfile(profile);
      const perRequestMs = busy / latencies.length;
      process.stdout.write(
        `\nCPU self time of the app process (${(totalMs / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy; ${perRequestMs.toFixed(2)} ms CPU per request, warm-up and seeding included)\n`,
      );
      for (const [b, ms] of buckets)
        process.stdout.write(
          `${b.padEnd(56)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${((100 * ms) / totalMs).toFixed(1).padStart(5)} %${b === "idle" ? "" : `  (${((100 * ms) / busy).toFixed(1)} % of busy)`}\n`,
        );
      process.stdout.write("\nTop functions by self time\n");
      for (const [fn, ms] of functions) process.stdout.write(`${(ms / 1000).toFixed(2).padStart(7)} s  ${fn}\n`);
      const file = writeResultsFile("profile-read", { target, seconds: SECONDS, requests: latencies.length, totalMs, busyMs: busy, buckets, functions });
      process.stdout.write(`\nRaw figures: ${file} (profile: ${biggest})\n`);
    } finally {
      await app.stop().catch(() => {});
    }
  } finally {
    await database.dispose();
  }
}

runMain(main, log);
