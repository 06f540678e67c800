import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { parseProcessStats } from "@/lib/log/process-stats";
import { createTenant } from "@/lib/tenants/create-tenant";
import { processFigures, renderSoakReport, runSoak } from "../../bench/lib/soak";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * The short version of `npm run soak` (bench/soak.ts): the built app under mixed traffic — reads,
 * score batches, ingest, certificate PDFs, reports, MCP — for 20 s after a 10 s warm-up. It must
 * answer every request as the operation promises (a 429 with Retry-After from a budget is allowed),
 * store every acknowledged ingest record, and not grow: the JavaScript heap and the RSS between the
 * first sample after the warm-up and the last stay within the bounds below. The bounds are what
 * 20 s of this traffic may cost once warm (caches filled, the PDF worker started); a leak of the
 * finding's size (RSS 525 → 847 MB in 60 s) breaks them. docs/soak.md has the 10-minute figures.
 */

const HEAP_GROWTH_MAX_MB = 64;
const RSS_GROWTH_MAX_MB = 160;

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let app: AppProcess;
let handle: DbHandle;
let key: string;
let tenantId: string;

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_soak", "seeded");
  app = await startApp({ mode: "start", env: { DATABASE_URL: pg.url, REDIS_URL: undefined, FDP_PROCESS_STATS_MS: "1000" } });
  handle = await openDatabase({ url: pg.url });
  const tenant = await createTenant({ ctx: { db: handle.db }, input: { name: "Soak", rateLimitPerMin: 100_000 } });
  tenantId = tenant.tenantId;
  key = (await createApiKey({ ctx: { db: handle.db }, input: { tenantId } })).key;
});

afterAll(async () => {
  await app?.stop();
  await handle?.close();
  await pg?.drop();
});

it("answers mixed traffic without an unexpected error, loses no acknowledged record and does not grow", async () => {
  const target = { appUrl: app.url, key };
  // Warm-up: JIT, caches, the PDF worker and the MCP server's first sessions.
  const warm = await runSoak(target, { seconds: 10, ratePerSecond: 8, vehicles: 10, devicePrefix: "warm" });
  expect(warm.errorsByKind).toEqual({});
  // The PDF worker starts with the first certificate: start it before the measured run, whatever the
  // warm-up's random mix drew.
  const cert = await fetch(`${app.url}/api/v1/certificates/generate/warm-001`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
  expect(cert.status, await cert.clone().text()).toBe(200);

  const since = new Date().toISOString();
  const report = await runSoak(target, { seconds: 20, ratePerSecond: 8, vehicles: 10 });
  // One more sample after the last answer, so the end figure covers the whole run.
  const lines = parseProcessStats(app.output()).length;
  await expect.poll(() => parseProcessStats(app.output()).length, { timeout: 5_000 }).toBeGreaterThan(lines);
  const memory = processFigures(app.output(), since);
  console.log(renderSoakReport(report, memory));

  expect(report.errorsByKind).toEqual({});
  expect(report.completed).toBe(report.started);
  // The mix's main kinds ran and answered (the rarer ones may draw no request in 20 s).
  for (const name of ["fleet", "vehicle_health", "ingest", "mcp_vehicle_health"]) {
    expect(report.operations.find((o) => o.operation === name)!.ok, name).toBeGreaterThan(0);
  }

  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from telemetry where tenant_id = ${tenantId}`;
    expect(row!.n).toBe(warm.seededRecords + warm.ingestRecordsAcknowledged + report.seededRecords + report.ingestRecordsAcknowledged);
  } finally {
    await sql.end();
  }

  expect(memory.samples).toBeGreaterThanOrEqual(10);
  const { start, end } = memory;
  expect(end!.heap_used_mb - start!.heap_used_mb).toBeLessThan(HEAP_GROWTH_MAX_MB);
  expect(end!.rss_mb - start!.rss_mb).toBeLessThan(RSS_GROWTH_MAX_MB);
}, 240_000);
