/**
 * `npm run soak`: builds the app (SOAK_SKIP_BUILD=1 reuses .next), starts it with `npm start` on a
 * fresh Postgres database (as `npm run bench` does: bench/lib/database.ts), gives a tenant a fleet
 * through the ingest endpoint, then drives mixed traffic — interactive reads, score batches, ingest,
 * certificate PDFs, reports and MCP tool calls — at SOAK_RATE requests/s for SOAK_SECONDS (default
 * 20/s for 600 s). It prints errors by kind, p50/p99 per operation, the server's RSS and event-loop
 * delay at the start and end (from its "process stats" log lines, lib/log/process-stats.ts), and
 * checks in the database that every acknowledged ingest record is stored. Exit code 1 on any
 * unexpected error or lost record. SOAK_HEAP_SNAPSHOTS=1 also takes a heap snapshot of the server
 * before and after the traffic and prints what grew, by constructor (bench/heap-snapshot.ts).
 * See docs/soak.md.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createTenant } from "@/lib/tenants/create-tenant";
import { diffSnapshots, heapSnapshotNodeOptions, takeHeapSnapshot } from "./heap-snapshot";
import { buildApp, ROOT, startBuiltApp } from "./lib/app";
import { prepareDatabase } from "./lib/database";
import { runMain } from "./lib/run-main";
import { processFigures, renderSoakReport, runSoak } from "./lib/soak";

const log = (m: string) => process.stderr.write(`[soak] ${m}\n`);
const positive = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got ${raw})`);
  return n;
};

async function main(): Promise<number> {
  process.chdir(ROOT);
  const seconds = positive("SOAK_SECONDS", 600);
  const ratePerSecond = positive("SOAK_RATE", 20);
  const vehicles = positive("SOAK_VEHICLES", 20);
  if (process.env.SOAK_SKIP_BUILD !== "1") await buildApp(log);
  const database = await prepareDatabase(log);
  // Rate limits are not under test here: the tenant's own limit is set far above the soak's rate.
  const snapshots = process.env.SOAK_HEAP_SNAPSHOTS === "1" ? mkdtempSync(path.join(tmpdir(), "fdp-soak-heap-")) : undefined;
  const app = await startBuiltApp(database.url, log, {
    FDP_PROCESS_STATS_MS: "5000",
    ...(snapshots ? { NODE_OPTIONS: heapSnapshotNodeOptions(snapshots) } : {}),
  });
  const heapFiles: string[] = [];
  const snapshot = async (when: string) => {
    if (!snapshots) return;
    log(`heap snapshot (${when})…`);
    heapFiles.push(await takeHeapSnapshot(app.serverPid(), snapshots));
  };
  const raw = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const tenant = await createTenant({ ctx: { db: database.handle.db }, input: { name: "Soak", rateLimitPerMin: 100_000 } });
    const { key } = await createApiKey({ ctx: { db: database.handle.db }, input: { tenantId: tenant.tenantId } });
    const report = await runSoak({ appUrl: app.url, key }, { seconds, ratePerSecond, vehicles, log, beforeTraffic: () => snapshot("before the traffic") });
    await snapshot("after the traffic");
    const memory = processFigures(app.output(), new Date(Date.now() - seconds * 1000).toISOString());
    const [stored] = await raw<{ n: number }[]>`select count(*)::int as n from telemetry where tenant_id = ${tenant.tenantId} and device_id like 'soak-%'`;
    const text = renderSoakReport(report, memory);
    process.stdout.write(
      `${text}\nTelemetry rows stored for the soak fleet: ${stored!.n} (seeded ${report.seededRecords} + acknowledged during the soak ${report.ingestRecordsAcknowledged} = ${report.seededRecords + report.ingestRecordsAcknowledged})\n`,
    );
    const dir = path.join(ROOT, "bench", "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ report, memory, storedTelemetryRows: stored!.n }, null, 2) + "\n");
    process.stdout.write(`Raw figures: ${path.relative(ROOT, file)}\n`);
    if (heapFiles.length === 2) process.stdout.write(`\n${diffSnapshots(heapFiles[0]!, heapFiles[1]!)}\n\nSnapshots: ${heapFiles.join(" ")}\n`);
    const lost = report.seededRecords + report.ingestRecordsAcknowledged - stored!.n;
    if (lost > 0) process.stdout.write(`LOST: ${lost} acknowledged records are not in the database\n`);
    return report.unexpectedErrors === 0 && lost <= 0 ? 0 : 1;
  } finally {
    await raw.end({ timeout: 5 });
    await app.stop();
    await database.dispose();
  }
}

runMain(main, log);
