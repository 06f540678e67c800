import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDbHandle, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { resetEnvCache } from "@/lib/env";
import { setEnv } from "../helpers/test-env";
import { createTenantWithKey, OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";
import { parkedBevRecords } from "../helpers/ingest-api";
import { startPrivateCluster, type PrivateCluster } from "../helpers/private-postgres";
import { startRouteServer, type RouteServer } from "../helpers/route-server";
import { connectMcpClient } from "../helpers/mcp-client";

/**
 * CONTRACT "Reliability": database faults during concurrent ingest and reads, on a Postgres cluster of
 * this file's own (tests/helpers/private-postgres.ts), behind the app's real route binding.
 * - every answer is 200 or a 503 `service_unavailable` envelope with Retry-After (no 500, no hang);
 * - a batch is all or nothing, and every acknowledged batch is stored (counted in the database);
 * - the app recovers by itself (no restart), /api/health says 503 while the database is down;
 * - no statement runs past STATEMENT_TIMEOUT_MS (the lock test fails without the timeout).
 * The figures are printed (`[faults] …`) for docs/scaling.md "Failure semantics".
 */

const STATEMENT_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_SECONDS = 2;
/** Records per batch: VINs, each with two readings (so a batch is 2 × this many telemetry rows). */
const VINS_PER_BATCH = 4;
/** No answer may take longer than this, whatever the fault (connect timeout + statement timeout + margin). */
const MAX_ANSWER_MS = 8_000;
const CHECK_APP = "fdp-test-check";

let cluster: PrivateCluster | undefined;
let handle: DbHandle | undefined;
let app: RouteServer | undefined;
let check: postgres.Sql;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;
const saved: Record<string, string | undefined> = {};

const record = parkedBevRecords(Date.now() - 6 * 3_600_000);
/** A batch's VINs carry its number, so its rows can be counted: `FLT` + 9 digits of batch + 5 of vehicle. */
const vinOf = (batch: number, v: number) => `FLT${String(batch).padStart(9, "0")}${String(v).padStart(5, "0")}`;
const batchBody = (batch: number) =>
  JSON.stringify({
    vehicles: Array.from({ length: VINS_PER_BATCH }, (_, v) => [record(vinOf(batch, v), 0, { odometer_km: 1000 }), record(vinOf(batch, v), 1, { odometer_km: 1010 })]).flat(),
  });

interface Outcome {
  kind: "ingest" | "read" | "health";
  status: number;
  ms: number;
  /** For a non-200: what the answer was (code, Retry-After), to count failures by kind. */
  failure?: string;
}

async function call(kind: Outcome["kind"], path: string, init: RequestInit & { key?: string }): Promise<Outcome> {
  const started = performance.now();
  let res: Response;
  try {
    res = await app!.fetch(path, init);
  } catch (err) {
    return { kind, status: 0, ms: performance.now() - started, failure: `network error: ${(err as Error).message}` };
  }
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status === 200) return { kind, status: 200, ms };
  let code = "not JSON";
  try {
    code = String((JSON.parse(text) as { error?: unknown }).error);
  } catch {
    // keeps "not JSON"
  }
  const retryAfter = res.headers.get("retry-after");
  return {
    kind,
    status: res.status,
    ms,
    failure: `${res.status} ${code}${retryAfter ? " Retry-After" : " (no Retry-After)"}${res.headers.get("x-request-id") ? "" : " (no X-Request-Id)"}`,
  };
}

const ingest = (batch: number) =>
  call("ingest", "/api/v1/oem/ingest", { key: tenant.key, method: "POST", headers: { "content-type": "application/json" }, body: batchBody(batch) });
const read = () => call("read", "/api/v1/fleet?limit=20", { key: tenant.key });
const health = () => call("health", "/api/health", {});

/** Rows stored per batch number (devices and telemetry), read from the database itself. */
async function storedByBatch(): Promise<Map<number, { devices: number; rows: number }>> {
  const found = await check<{ batch: string; devices: string; rows: string }[]>`
    select substr(t.device_id, 8, 9) as batch, count(distinct t.device_id) as devices, count(*) as rows
    from telemetry t where t.tenant_id = ${tenant.tenantId} and t.device_id like 'oem-FLT%' group by 1`;
  return new Map(found.map((r) => [Number(r.batch), { devices: Number(r.devices), rows: Number(r.rows) }]));
}

/** Snapshot rows too: the snapshot is written in the same transaction as the history. */
async function snapshotsByBatch(): Promise<Map<number, number>> {
  const found = await check<{ batch: string; n: string }[]>`
    select substr(device_id, 8, 9) as batch, count(*) as n from fleet_snapshot where tenant_id = ${tenant.tenantId} and device_id like 'oem-FLT%' group by 1`;
  return new Map(found.map((r) => [Number(r.batch), Number(r.n)]));
}

let nextBatch = 0;

/**
 * `writers` loops of ingest batches and `readers` loops of /fleet reads until `until` resolves; each
 * batch is sent once. Returns every outcome and which batches were acknowledged (200).
 */
async function underLoad(until: Promise<unknown>, { writers = 4, readers = 2 } = {}): Promise<{ outcomes: Outcome[]; sent: number[]; acknowledged: Set<number> }> {
  let done = false;
  void until.finally(() => (done = true));
  const outcomes: Outcome[] = [];
  const sent: number[] = [];
  const acknowledged = new Set<number>();
  const writer = async () => {
    while (!done) {
      const b = ++nextBatch;
      sent.push(b);
      const o = await ingest(b);
      outcomes.push(o);
      if (o.status === 200) acknowledged.add(b);
      if (o.status !== 200) await new Promise((r) => setTimeout(r, 20)); // a refused connection answers at once: do not spin
    }
  };
  const reader = async () => {
    while (!done) {
      const o = await read();
      outcomes.push(o);
      if (o.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
  };
  await Promise.all([...Array.from({ length: writers }, writer), ...Array.from({ length: readers }, reader), until]);
  return { outcomes, sent, acknowledged };
}

/** Every batch is whole or absent, every acknowledged one whole; the figures for the closing note. */
async function audit(label: string, run: { outcomes: Outcome[]; sent: number[]; acknowledged: Set<number> }, extra: Record<string, unknown> = {}) {
  const stored = await storedByBatch();
  const snaps = await snapshotsByBatch();
  const whole = (b: number) => stored.get(b)?.devices === VINS_PER_BATCH && stored.get(b)?.rows === 2 * VINS_PER_BATCH && snaps.get(b) === VINS_PER_BATCH;
  const absent = (b: number) => !stored.has(b) && !snaps.has(b);
  const halfWritten = run.sent.filter((b) => !whole(b) && !absent(b));
  const missing = [...run.acknowledged].filter((b) => !whole(b));
  const found = run.sent.filter(whole).length;
  const failures: Record<string, number> = {};
  for (const o of run.outcomes) if (o.failure) failures[`${o.kind}: ${o.failure}`] = (failures[`${o.kind}: ${o.failure}`] ?? 0) + 1;
  const reads = run.outcomes.filter((o) => o.kind === "read");
  const figures = {
    batches_sent: run.sent.length,
    acknowledged: run.acknowledged.size,
    found_whole: found,
    // A batch answered 503 may still have committed (the connection died after COMMIT): found, not acknowledged.
    committed_but_unacknowledged: found - run.acknowledged.size,
    half_written: halfWritten.length,
    acknowledged_missing: missing.length,
    reads: reads.length,
    reads_ok: reads.filter((o) => o.status === 200).length,
    failures_by_kind: failures,
    slowest_answer_ms: Math.round(Math.max(...run.outcomes.map((o) => o.ms))),
    ...extra,
  };
  console.log(`[faults] ${label}: ${JSON.stringify(figures)}`);
  expect(halfWritten, "half-written batches").toEqual([]);
  expect(missing, "acknowledged batches not stored").toEqual([]);
  for (const o of run.outcomes) {
    if (o.status === 200) continue;
    expect(o.failure, `${o.kind} answered`).toBe("503 service_unavailable Retry-After");
  }
  expect(figures.slowest_answer_ms).toBeLessThan(MAX_ANSWER_MS);
  return figures;
}

/** pg_terminate_backend on every connection of the app (every client backend but this file's checker). */
/** Kills the app's backends; returns the pids signalled. */
async function killAppBackendPids(): Promise<number[]> {
  const killed = await check<{ pid: number; ok: boolean }[]>`
    select pid, pg_terminate_backend(pid) as ok from pg_stat_activity
    where datname = 'fdp' and backend_type = 'client backend' and pid <> pg_backend_pid() and application_name <> ${CHECK_APP}`;
  return killed.map((k) => k.pid);
}

/**
 * pg_terminate_backend only signals: waits until the backends just killed have left pg_stat_activity, then
 * a moment more, since a backend leaves the view a little before its process exits and its socket closes
 * (the stale pooled connection failed a request 50 s later).
 */
async function killedBackendsGone(pids: readonly number[]): Promise<void> {
  if (pids.length === 0) return;
  for (;;) {
    const [left] = await check<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where pid = any(${[...pids]}::int[])`;
    if (left!.n === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 250));
}

/**
 * Another connection holds `tables` in access exclusive mode until released, or `maxMs` at most (so
 * that, without a statement timeout, the blocked requests end with 200 after `maxMs` and the test
 * fails on their status instead of hanging).
 */
function holdLock(tables: string, maxMs: number): { taken: Promise<void>; release(): Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let taken!: () => void;
  const isTaken = new Promise<void>((r) => (taken = r));
  const done = check.begin(async (tx) => {
    await tx.unsafe(`lock table ${tables} in access exclusive mode`);
    taken();
    await Promise.race([released, new Promise((r) => setTimeout(r, maxMs))]);
  });
  return {
    taken: isTaken,
    async release() {
      release();
      await done;
    },
  };
}

beforeAll(async () => {
  for (const k of ["STATEMENT_TIMEOUT_MS", "DATABASE_CONNECT_TIMEOUT_SECONDS", "DATABASE_URL", "REDIS_URL"]) saved[k] = process.env[k];
  cluster = await startPrivateCluster("fdp-faults-");
  process.env.STATEMENT_TIMEOUT_MS = String(STATEMENT_TIMEOUT_MS);
  process.env.DATABASE_CONNECT_TIMEOUT_SECONDS = String(CONNECT_TIMEOUT_SECONDS);
  process.env.DATABASE_URL = cluster.url;
  resetEnvCache();
  handle = await openDatabase({ url: cluster.url });
  await migrateWithPartitions(handle);
  tenant = await createTenantWithKey(handle.db, { name: "Faults", rateLimitPerMin: 100_000 });
  check = postgres(cluster.url, { max: 1, onnotice: () => {}, connection: { application_name: CHECK_APP } });
  app = await startRouteServer({ db: handle, env: { DATABASE_URL: cluster.url, REDIS_URL: "", SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL } });
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => {});
  setDbHandle(undefined);
  await handle?.close().catch(() => {});
  await check?.end({ timeout: 1 }).catch(() => {});
  cluster?.dispose();
  setEnv(saved);
});

describe("database faults (a private Postgres cluster)", () => {
  it("sets statement_timeout on the app's connections", async () => {
    expect((await read()).status).toBe(200);
    const [row] = (await handle!.db.execute(sql`select setting from pg_settings where name = 'statement_timeout'`)) as { setting: string }[];
    expect(row!.setting).toBe(String(STATEMENT_TIMEOUT_MS));
  });

  it("cuts a statement at STATEMENT_TIMEOUT_MS: a write blocked by a lock answers 503 with Retry-After and stores nothing", async () => {
    // Another connection holds the tables the ingest reads and writes for 6 s. Without the timeout the
    // request waits for the lock and answers 200 after about 6 s; with it, 503 after about 1 s.
    const HOLD_MS = 6_000;
    const lock = holdLock("devices, fleet_snapshot", HOLD_MS);
    await lock.taken;
    const batch = ++nextBatch;
    const [write, fleet] = await Promise.all([ingest(batch), read()]);
    await lock.release();
    for (const o of [write, fleet]) {
      expect(o.failure, o.kind).toBe("503 service_unavailable Retry-After");
      expect(o.ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 50);
      expect(o.ms).toBeLessThan(HOLD_MS - 1_000);
    }
    expect((await storedByBatch()).has(batch)).toBe(false);
    console.log(
      `[faults] statement timeout ${STATEMENT_TIMEOUT_MS} ms, lock held ${HOLD_MS} ms: ingest answered 503 after ${Math.round(write.ms)} ms, /fleet after ${Math.round(fleet.ms)} ms`,
    );
    // The lock gone, the same batch goes through.
    expect((await ingest(batch)).status).toBe(200);
  });

  it("the MCP edge answers a statement cut by the timeout as a tool error with the same service_unavailable body", async () => {
    const client = await connectMcpClient(app!.url, tenant.key);
    try {
      const lock = holdLock("fleet_snapshot", 6_000);
      await lock.taken;
      const result = await client.callTool({ name: "list_fleet", arguments: { limit: 5 } });
      await lock.release();
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: "service_unavailable", request_id: expect.any(String) });
    } finally {
      await client.close();
    }
  });

  it("a pooled connection the server killed while idle fails no later request", async () => {
    // Fill the pool, then kill every connection of it while idle (the stale pooled connection:
    // 57P01 on the next request that picked it up, 50 s later).
    await Promise.all(Array.from({ length: 8 }, () => read()));
    const killed = await killAppBackendPids();
    expect(killed.length).toBeGreaterThan(0);
    await killedBackendsGone(killed);
    // The next requests find no stale connection: postgres.js dropped each one when the server closed it.
    const after = await Promise.all(Array.from({ length: 8 }, () => read()));
    expect(after.map((o) => o.failure ?? "200")).toEqual(Array(8).fill("200"));
  });

  it("backends killed in a loop during concurrent ingest and reads: no half batch, every acknowledged batch stored, failures 503", async () => {
    const killedPids: number[] = [];
    const killing = (async () => {
      const end = Date.now() + 4_000;
      while (Date.now() < end) {
        killedPids.push(...(await killAppBackendPids()));
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const run = await underLoad(killing);
    // The last kills are only signals: let the backends they hit exit (on a loaded machine that took long
    // enough for the next requests to meet dying connections), then requests succeed again at once.
    await killedBackendsGone(killedPids);
    const afterwards = await Promise.all([ingest(++nextBatch), read()]);
    run.sent.push(nextBatch);
    if (afterwards[0].status === 200) run.acknowledged.add(nextBatch);
    run.outcomes.push(...afterwards);
    expect(afterwards.map((o) => o.status)).toEqual([200, 200]);
    const figures = await audit("backend kills (4 s, every 150 ms)", run, { backends_killed: killedPids.length });
    expect(figures.acknowledged).toBeGreaterThan(0);
    expect(Object.keys(figures.failures_by_kind).length, "the kills failed some requests (else this test tests nothing)").toBeGreaterThan(0);
  });

  it("a full restart of the cluster during load: 503 while it is down (health included), recovery without restarting the app", async () => {
    expect((await health()).status).toBe(200); // ready while the database answers
    expect((await call("health", "/api/health/live", {})).status).toBe(200);
    const healthDuring: Outcome[] = [];
    const liveDuring: Outcome[] = [];
    let stoppedAt = 0;
    let startedAt = 0;
    let recoveredAt = 0;
    const restart = (async () => {
      await new Promise((r) => setTimeout(r, 500));
      stoppedAt = performance.now();
      await cluster!.stop("fast");
      // Down for 2 s: health must say so, quickly.
      const downUntil = performance.now() + 2_000;
      while (performance.now() < downUntil || healthDuring.length < 5) {
        healthDuring.push(await health());
        liveDuring.push(await call("health", "/api/health/live", {}));
        await new Promise((r) => setTimeout(r, 100));
      }
      await cluster!.start();
      startedAt = performance.now();
      // Recovery: the first 200 of /api/health after the server accepts connections again.
      for (;;) {
        const h = await health();
        if (h.status === 200) break;
        healthDuring.push(h);
        await new Promise((r) => setTimeout(r, 20));
      }
      recoveredAt = performance.now();
      await new Promise((r) => setTimeout(r, 1_000)); // load goes on against the recovered server
    })();
    const run = await underLoad(restart);
    expect(healthDuring.length).toBeGreaterThanOrEqual(5);
    // Liveness does not depend on the database: 200 throughout (an orchestrator restarts nothing).
    expect(liveDuring.map((o) => o.status)).toEqual(liveDuring.map(() => 200));
    for (const h of healthDuring) {
      expect(h.failure).toBe("503 service_unavailable Retry-After");
      expect(h.ms).toBeLessThan(2_000);
    }
    await audit("full restart (pg_ctl stop -m fast, 2 s down, start)", run, {
      down_ms: Math.round(startedAt - stoppedAt),
      recovery_ms_after_start: Math.round(recoveredAt - startedAt),
      health_503_answers: healthDuring.length,
      health_slowest_ms: Math.round(Math.max(...healthDuring.map((h) => h.ms))),
    });
    expect(recoveredAt - startedAt).toBeLessThan(2_000);
    // Every batch that failed, sent again now: the ingest is idempotent, so each is stored exactly once.
    const failed = run.sent.filter((b) => !run.acknowledged.has(b));
    for (const b of failed) expect((await ingest(b)).status).toBe(200);
    const stored = await storedByBatch();
    for (const b of run.sent) expect(stored.get(b), `batch ${b}`).toEqual({ devices: VINS_PER_BATCH, rows: 2 * VINS_PER_BATCH });
  });
});
