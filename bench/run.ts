/**
 * `npm run bench`: builds the app, starts it with `npm start` against a fresh Postgres database,
 * runs the registered benchmarks, prints their tables, writes the raw figures to
 * bench/results/<timestamp>.json, then stops the app and drops the database.
 *
 * Env: BENCH_SKIP_BUILD=1 (reuse the existing .next build), BENCH_PG_ADMIN_URL (server for the
 * throw-away database; default postgres://postgres@127.0.0.1:5432/postgres), DATABASE_URL (use this
 * database instead; it is migrated, written to and kept), BENCH_ONLY=<id,id> (run only these
 * benchmarks), BENCH_HISTORY=0 (do not append this run to bench/history.jsonl). Each run appends one
 * summary line per benchmark row to bench/history.jsonl (committed) and redraws bench/plots/*.svg
 * (bench/plot.ts). See docs/benchmarks.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createTenant } from "@/lib/tenants/create-tenant";
import { certificates } from "./benchmarks/certificates";
import { feedIngest } from "./benchmarks/feed-ingest";
import { fleetScores } from "./benchmarks/fleet-scores";
import { ingestThroughput } from "./benchmarks/ingest-throughput";
import { mcpOverhead } from "./benchmarks/mcp-overhead";
import { readFloor } from "./benchmarks/read-floor";
import { scoresBatch } from "./benchmarks/scores-batch";
import { webhookDelivery } from "./benchmarks/webhook-delivery";
import { buildApp, ROOT, startBuiltApp, type AppProcess } from "./lib/app";
import { prepareDatabase, redactUrl, serverVersion, type BenchDatabase } from "./lib/database";
import { appendHistory, gitState, summaryLines } from "./lib/history";
import { runMain } from "./lib/run-main";
import { renderComparison } from "./lib/table";
import { HISTORY_FILE, writePlots } from "./plot";
import type { Benchmark, BenchContext, BenchmarkResult } from "./lib/types";

/**
 * Registered benchmarks, in run order. Add one file in bench/benchmarks/ and list it here.
 * fleet-scores comes last: it seeds a large tenant, which would change the database (and its cache)
 * under the others.
 */
const BENCHMARKS: Benchmark[] = [ingestThroughput, feedIngest, scoresBatch, certificates, mcpOverhead, readFloor, webhookDelivery, fleetScores];

/** The highest per-minute limit a tenant may carry (lib/tenants/entitlements.ts): far above what the bench sends. */
const BENCH_RATE_LIMIT_PER_MIN = 100_000;
/**
 * The whole run (after the build) is bounded: a hang anywhere ends it with an error. 15 min, plus what
 * a selected benchmark declares it needs beyond that (`extraRunMs`: fleet-scores seeds 10,000 devices
 * and waits on 365-day fleet scores by design).
 */
const BASE_RUN_TIMEOUT_MS = 15 * 60_000;

const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

async function main(): Promise<number> {
  process.chdir(ROOT); // migrations and `npm start` resolve paths from the project root
  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  const selected = process.env.BENCH_ONLY ? BENCHMARKS.filter((b) => process.env.BENCH_ONLY!.split(",").includes(b.id)) : BENCHMARKS;
  if (selected.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} matches no benchmark (known: ${BENCHMARKS.map((b) => b.id).join(", ")})`);
  const RUN_TIMEOUT_MS = BASE_RUN_TIMEOUT_MS + selected.reduce((ms, b) => ms + (b.extraRunMs ?? 0), 0);
  const git = gitState(ROOT);

  if (process.env.BENCH_SKIP_BUILD === "1") log("build skipped (BENCH_SKIP_BUILD=1): using the existing .next build");
  else await buildApp(log);

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch((err: unknown) => log(`cleanup: ${String(err)}`));
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the app and dropping the database…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const watchdog = setTimeout(() => {
    log(`the run exceeded ${RUN_TIMEOUT_MS / 60_000} min: aborting`);
    void cleanup().finally(() => process.exit(1));
  }, RUN_TIMEOUT_MS);
  watchdog.unref();

  try {
    const database: BenchDatabase = await prepareDatabase(log);
    cleanups.push(() => database.dispose());
    const rawClients: postgres.Sql[] = [];
    cleanups.push(async () => {
      await Promise.all(rawClients.map((c) => c.end({ timeout: 5 })));
    });
    // Loopback webhooks allowed: the webhook benchmark's receiver listens on 127.0.0.1. MQTT bridge leases
    // renewed every second: the feeds benchmark's bridge is taken up within one.
    const app: AppProcess = await startBuiltApp(database.url, log, { WEBHOOK_ALLOW_LOOPBACK: "1", MQTT_BRIDGE_LEASE_MS: "3000" });
    cleanups.push(() => app.stop());

    const probe = postgres(database.url, { max: 1, onnotice: () => {} });
    rawClients.push(probe);
    const ctx: BenchContext = {
      appUrl: app.url,
      databaseUrl: database.url,
      db: database.handle.db,
      cpuCount: os.cpus().length,
      rawClient: ({ max = 1 } = {}) => {
        const client = postgres(database.url, { max, onnotice: () => {} });
        rawClients.push(client);
        return client;
      },
      async newTenant(name) {
        const tenant = await createTenant({ ctx: { db: database.handle.db }, input: { name, rateLimitPerMin: BENCH_RATE_LIMIT_PER_MIN } });
        const key = await createApiKey({ ctx: { db: database.handle.db }, input: { tenantId: tenant.tenantId } });
        return { tenantId: tenant.tenantId, key: key.key };
      },
      log,
    };

    const results: BenchmarkResult[] = [];
    for (const bench of selected) {
      log(`── ${bench.title}`);
      const t0 = Date.now();
      results.push(await bench.run(ctx));
      log(`── done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }

    const finishedAt = new Date();
    const wallSeconds = (finishedAt.getTime() - startedAt.getTime()) / 1000;
    const report = {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      wallSeconds,
      command: `npm run bench${process.env.BENCH_SKIP_BUILD === "1" ? " (BENCH_SKIP_BUILD=1)" : ""}`,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        platform: `${os.platform()} ${os.release()}`,
        node: process.version,
        postgres: await serverVersion(probe),
        /** 1/5/15-minute load averages before the run: other processes using the CPU make every figure pessimistic. */
        loadAverageAtStart: loadAtStart.map((x) => Number(x.toFixed(2))),
      },
      /** The commit measured, and whether the working tree had uncommitted changes. */
      git,
      /** False when BENCH_HISTORY=0 kept this run out of bench/history.jsonl (`npm run bench:plot -- --import` skips it too). */
      history: process.env.BENCH_HISTORY !== "0",
      database: { url: redactUrl(database.url), owned: database.owned },
      benchmarks: results,
    };
    const dir = path.join(ROOT, "bench", "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2) + "\n");

    process.stdout.write("\n");
    for (const r of results) process.stdout.write(renderComparison(r) + "\n\n");
    if ((loadAtStart[0] ?? 0) > 0.5) {
      process.stdout.write(
        `Note: the 1-min load average was ${loadAtStart[0]?.toFixed(2)} before the run (${os.cpus().length} CPUs): other processes were busy, figures are pessimistic.\n`,
      );
    }
    process.stdout.write(`Raw figures: ${path.relative(ROOT, file)}  (wall time ${wallSeconds.toFixed(0)} s)\n`);
    if (process.env.BENCH_HISTORY === "0") {
      process.stdout.write("History: not appended (BENCH_HISTORY=0)\n");
    } else {
      const lines = summaryLines(report, git);
      appendHistory(HISTORY_FILE, lines);
      const plots = writePlots();
      process.stdout.write(`History: ${lines.length} line(s) appended to ${path.relative(ROOT, HISTORY_FILE)}; plots: ${plots.map((p) => path.relative(ROOT, p)).join(", ")}\n`);
    }
    return 0;
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

runMain(main, log);
