import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { openDatabase, setDbHandle, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { closeReadReplica, readYourWritesStore, routeRead } from "@/lib/db/replica";
import { resetEnvCache } from "@/lib/env";
import { rootLogger, setRootLogger } from "@/lib/log/logger";
import { OPERATIONS } from "@/lib/operations/registry";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
import { createTenantWithKey, issueCertificate, OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";
import { parkedBevRecords, vinSequence } from "../helpers/ingest-api";
import { captureLog } from "../helpers/log-capture";
import { connectMcpClient } from "../helpers/mcp-client";
import { freePort } from "../helpers/app-process";
import { asPostgres } from "../helpers/private-postgres";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * A real streaming replica (issue 13 point 6, docs/scaling.md "Read replica"): this file initdb's a
 * primary cluster in a temp dir, `pg_basebackup -R`'s a standby from it on another port, migrates the
 * primary with the app's migrations, and drives the app's real route binding (and MCP endpoint) with
 * DATABASE_URL = primary and DATABASE_REPLICA_URL = standby. Which cluster served a read is read
 * from the clusters' own statement logs (`log_statement = all`, the connection's application_name in
 * every line), not from the app. The routing keeps no per-tenant state in process (marks live in
 * Redis or come from the primary), so one process here stands for any instance behind the same
 * database.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const REPLICA_APP = "fdp-read-replica";

interface Cluster {
  dir: string;
  port: number;
  log: string;
  running: boolean;
}

let root = "";
const clusters: Cluster[] = [];
let primary: Cluster;
let replica: Cluster;
let primaryUrl = "";
let replicaUrl = "";
let handle: DbHandle | undefined;
let app: RouteServer | undefined;
let checkPrimary: postgres.Sql;
let checkReplica: postgres.Sql;

function start(c: Cluster): void {
  asPostgres("pg_ctl", ["-D", c.dir, "-l", c.log, "-w", "-t", "60", "start"]);
  c.running = true;
}

function stop(c: Cluster): void {
  if (!c.running) return;
  try {
    asPostgres("pg_ctl", ["-D", c.dir, "-m", "immediate", "-w", "stop"]);
  } catch {
    // already gone
  }
  c.running = false;
}

async function cleanUp(): Promise<void> {
  await app?.close().catch(() => {});
  app = undefined;
  await closeReadReplica();
  setDbHandle(undefined);
  await handle?.close().catch(() => {});
  handle = undefined;
  await checkPrimary?.end({ timeout: 1 }).catch(() => {});
  await checkReplica?.end({ timeout: 1 }).catch(() => {});
  for (const c of [...clusters].reverse()) stop(c);
  if (root) rmSync(root, { recursive: true, force: true });
  root = "";
}

const SETTINGS = (port: number, socketDir: string) => `
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${socketDir}'
max_connections = 60
shared_buffers = 32MB
fsync = off
full_page_writes = off
wal_level = replica
hot_standby = on
log_statement = 'all'
log_line_prefix = '%m app=%a '
log_min_messages = warning
`;

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Until the standby has replayed everything the primary has written so far. */
async function replicaCaughtUp(): Promise<void> {
  const [row] = await checkPrimary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
  await waitFor("the replica to replay the primary's WAL", async () => {
    const [r] = await checkReplica<{ ok: boolean }[]>`select pg_last_wal_replay_lsn() >= ${row!.lsn}::pg_lsn as ok`;
    return r!.ok;
  });
}

async function pauseReplay(): Promise<void> {
  await checkReplica`select pg_wal_replay_pause()`;
  await waitFor("replay to pause", async () => (await checkReplica<{ s: string }[]>`select pg_get_wal_replay_pause_state() as s`)[0]!.s === "paused");
}

async function resumeReplay(): Promise<void> {
  await checkReplica`select pg_wal_replay_resume()`;
  await replicaCaughtUp();
}

/** Where the clusters' statement logs end now; `since(mark)` is what each logged after that. */
function logMark(): { primary: number; replica: number } {
  return { primary: statSync(primary.log).size, replica: statSync(replica.log).size };
}
function since(mark: { primary: number; replica: number }): { primary: string; replica: string } {
  return { primary: readFileSync(primary.log, "utf8").slice(mark.primary), replica: readFileSync(replica.log, "utf8").slice(mark.replica) };
}
/** Statement lines of the app's replica pool that read the fleet snapshot (the listFleet statement). */
const fleetReadsOnReplica = (text: string) => text.split("\n").filter((l) => l.includes(`app=${REPLICA_APP} `) && l.includes("fleet_snapshot")).length;
const fleetReads = (text: string) => text.split("\n").filter((l) => /(statement|execute [^:]*):/.test(l) && l.includes("fleet_snapshot")).length;

type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;
const vin = vinSequence("RPLCA");
/** Tenant A's first vehicle: the lag measurement sends it new readings (A keeps its two vehicles). */
let firstVin = "";
/** The device id the ingest gives a VIN-only record. */
const dev = (v: string) => `oem-${v}`;
const record = parkedBevRecords(Date.now() - 6 * 3_600_000);

async function ingest(t: Tenant, vins: string[], minutes = 0): Promise<void> {
  const res = await app!.fetch("/api/v1/oem/ingest", {
    key: t.key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ vehicles: vins.map((v) => record(v, 1, { odometer_km: 1234 }, minutes)) }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function fleetIds(t: Tenant): Promise<string[]> {
  const res = await app!.fetch("/api/v1/fleet?limit=500", { key: t.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: { device_id: string }[] }).data.map((d) => d.device_id);
}

function setRedis(url: string): void {
  process.env.REDIS_URL = url;
  resetEnvCache();
}

let a: Tenant;
let b: Tenant;
let c: Tenant;

beforeAll(async () => {
  try {
    root = mkdtempSync("/tmp/fdp-replica-test-");
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
      chownSync(root, uid, gid);
    }
    const [p1, p2] = [await freePort(), await freePort()];
    primary = { dir: path.join(root, "primary"), port: p1, log: path.join(root, "primary.log"), running: false };
    replica = { dir: path.join(root, "replica"), port: p2, log: path.join(root, "replica.log"), running: false };

    asPostgres("initdb", ["-D", primary.dir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    // The config is written by the cluster's owner (runuser), appended here as root: keep it readable.
    appendFileSync(path.join(primary.dir, "postgresql.conf"), SETTINGS(p1, root));
    clusters.push(primary);
    start(primary);

    asPostgres("pg_basebackup", ["-h", "127.0.0.1", "-p", String(p1), "-U", "postgres", "-D", replica.dir, "-R", "-X", "stream", "-c", "fast", "--no-sync"]);
    appendFileSync(path.join(replica.dir, "postgresql.auto.conf"), `port = ${p2}\n`);
    writeFileSync(replica.log, "");
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres:", replica.log]);
    clusters.push(replica);
    start(replica);

    const admin = postgres(`postgres://postgres@127.0.0.1:${p1}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe("create database fdp");
    await admin.end();
    primaryUrl = `postgres://postgres@127.0.0.1:${p1}/fdp`;
    replicaUrl = `postgres://postgres@127.0.0.1:${p2}/fdp`;
    handle = await openDatabase({ url: primaryUrl });
    await migrateWithPartitions(handle);
    checkPrimary = postgres(primaryUrl, { max: 1, onnotice: () => {}, connection: { application_name: "fdp-test-check" } });
    checkReplica = postgres(replicaUrl, { max: 1, onnotice: () => {}, connection: { application_name: "fdp-test-check" } });

    a = await createTenantWithKey(handle.db, { name: "Replica A", rateLimitPerMin: 10_000 });
    b = await createTenantWithKey(handle.db, { name: "Replica B", rateLimitPerMin: 10_000 });
    c = await createTenantWithKey(handle.db, { name: "Replica C", rateLimitPerMin: 10_000 });
    app = await startRouteServer({
      db: handle,
      env: { DATABASE_URL: primaryUrl, DATABASE_REPLICA_URL: replicaUrl, REDIS_URL: "", SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL },
    });
    await replicaCaughtUp();
  } catch (err) {
    await cleanUp();
    throw err;
  }
}, 120_000);

afterAll(async () => {
  await cleanUp();
  delete process.env.DATABASE_REPLICA_URL;
  process.env.REDIS_URL = "";
  resetEnvCache();
});

describe("a streaming read replica", () => {
  it("serves a routed read once it has replayed the tenant's writes (no Redis: compared with the primary's WAL position)", async () => {
    expect(await readYourWritesStore()).toBe("primary-lsn");
    const v1 = vin();
    firstVin = v1;
    await ingest(a, [v1]);
    await replicaCaughtUp();
    // Background work after an ingest (rollups, statistics) may still write: try a few reads.
    let served: { primary: string; replica: string } | undefined;
    for (let i = 0; i < 40 && !served; i++) {
      const mark = logMark();
      expect(await fleetIds(a)).toEqual([dev(v1)]);
      const logged = since(mark);
      if (fleetReadsOnReplica(logged.replica) > 0) served = logged;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(served, "no /fleet read reached the replica").toBeDefined();
    expect(fleetReads(served!.primary)).toBe(0);
  });

  it("measures the routing's cost and the replication lag on this machine (printed for docs/scaling.md)", async () => {
    const timings: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await routeRead(a.tenantId);
      timings.push(performance.now() - t0);
    }
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      await ingest(a, [firstVin], i + 1);
      const [w] = await checkPrimary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
      const t0 = performance.now();
      await waitFor("replay", async () => (await checkReplica<{ ok: boolean }[]>`select pg_last_wal_replay_lsn() >= ${w!.lsn}::pg_lsn as ok`)[0]!.ok, 5_000);
      lags.push(performance.now() - t0);
    }
    const p = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(2);
    console.info(`[read-replica] routeRead (mark + replay position, in parallel): p50 ${p(timings, 0.5)} ms, p95 ${p(timings, 0.95)} ms over 200 calls`);
    console.info(`[read-replica] replay lag after an ingest (1 vehicle, polled every 50 ms): p50 ${p(lags, 0.5)} ms, max ${p(lags, 1)} ms over 20 ingests`);
    expect(timings.length).toBe(200);
  });

  it("read-your-writes: with replay paused, an ingest is seen by the next read (REST and MCP), which the primary serves", async () => {
    await pauseReplay();
    try {
      const v2 = vin();
      await ingest(a, [v2]);
      // The standby really is behind: it does not have the vehicle (checked outside the app).
      const [onReplica] = await checkReplica<{ n: number }[]>`select count(*)::int as n from devices where device_id = ${dev(v2)}`;
      expect(onReplica!.n).toBe(0);

      const mark = logMark();
      expect(await fleetIds(a)).toContain(dev(v2));
      const logged = since(mark);
      expect(fleetReads(logged.primary)).toBe(1);
      expect(fleetReadsOnReplica(logged.replica)).toBe(0);
      // A score of the new vehicle: found (the replica would answer 404).
      const tas = await app!.fetch(`/api/v1/tas/${dev(v2)}`, { key: a.key });
      expect(tas.status, await tas.clone().text()).toBe(200);

      const mcp = await connectMcpClient(app!.url, a.key);
      try {
        const result = await mcp.callTool({ name: "list_fleet", arguments: { limit: 500 } });
        expect(result.isError ?? false).toBe(false);
        expect(((result.structuredContent as { data: { device_id: string }[] }).data ?? []).map((d) => d.device_id)).toContain(dev(v2));
      } finally {
        await mcp.close();
      }
    } finally {
      await resumeReplay();
    }
  });

  it("with Redis the marks are per tenant: a paused replica still serves a tenant it has caught up with, not the one that just wrote", async () => {
    setRedis(REDIS_URL);
    try {
      expect(await readYourWritesStore()).toBe("redis");
      const vb = vin();
      await ingest(b, [vb]);
      await replicaCaughtUp();
      await pauseReplay();
      try {
        const vc = vin();
        await ingest(c, [vc]);
        const { Redis } = await import("ioredis");
        const r = new Redis(REDIS_URL);
        try {
          // The writer's mark is shared state (any instance reads it), past what the replica replayed.
          const markC = Number(await r.zscore("fdp:ryw:lsn", c.tenantId));
          const [replayed] = await checkReplica<{ lsn: string }[]>`select (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::text as lsn`;
          expect(markC).toBeGreaterThan(Number(replayed!.lsn));
        } finally {
          r.disconnect();
        }

        let mark = logMark();
        expect(await fleetIds(c)).toEqual([dev(vc)]);
        let logged = since(mark);
        expect(fleetReads(logged.primary)).toBe(1);
        expect(fleetReadsOnReplica(logged.replica)).toBe(0);

        mark = logMark();
        expect(await fleetIds(b)).toEqual([dev(vb)]);
        logged = since(mark);
        expect(fleetReadsOnReplica(logged.replica)).toBe(1);
        expect(fleetReads(logged.primary)).toBe(0);
      } finally {
        await resumeReplay();
      }
    } finally {
      setRedis("");
    }
  });

  it("every operation flagged reads: replica answers from the read-only standby (none of them writes)", async () => {
    const db = handle!.db;
    await seedSandbox({ db });
    const certificate = await issueCertificate(db, SANDBOX_TENANT_ID, "sbx-001");
    await replicaCaughtUp();
    const replicaHandle = await openDatabase({ url: replicaUrl });
    try {
      const ctx = { db: replicaHandle.db, tenantId: SANDBOX_TENANT_ID, isSandbox: true, log: rootLogger() };
      const flagged = OPERATIONS.filter((op) => op.reads === "replica");
      expect(flagged.map((op) => op.id)).toEqual(expect.arrayContaining(["listFleet", "getTotalAssetScore", "getTotalAssetScoreBatch", "scoreDevicesBatch", "getEmissionsReport"]));
      for (const op of flagged) {
        const ex = op.requestExample as { path?: Record<string, string>; query?: object; body?: object };
        const pathParams = op.pathParams.includes("certificate_number") ? { ...ex.path, certificate_number: certificate } : ex.path;
        const input = op.inputSchema.parse({ ...ex.body, ...ex.query, ...pathParams });
        await expect(op.verb({ ctx: ctx, input: input }), op.id).resolves.toBeDefined();
      }
      // And through HTTP with the sandbox key: the replica serves it.
      const mark = logMark();
      const res = await app!.fetch("/api/v1/fleet", { key: SANDBOX_KEY });
      expect(res.status).toBe(200);
      expect(fleetReadsOnReplica(since(mark).replica)).toBe(1);
    } finally {
      await replicaHandle.close();
    }
  });

  it("replica down: reads go to the primary, and that is logged once, not per request", async () => {
    const captured = captureLog("info");
    const before = rootLogger();
    setRootLogger(captured.logger);
    try {
      stop(replica);
      const ids = await fleetIds(a);
      expect(ids).toHaveLength(2);
      for (let i = 0; i < 4; i++) expect(await fleetIds(a)).toEqual(ids);
      const warnings = captured.records().filter((r) => r.msg === "read replica unavailable: every read goes to the primary until it answers again");
      expect(warnings).toHaveLength(1);
    } finally {
      setRootLogger(before);
    }
  });
});
