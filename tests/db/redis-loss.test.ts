import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetRateLimiters } from "@/lib/rate-limit/limiter-store";
import { createTenantWithKey } from "../helpers/fixtures";
import { createPostgresDatabase } from "../helpers/databases";
import { openDatabase, setDbHandle, type DbHandle } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { setEnv } from "../helpers/test-env";
import { freePort } from "../helpers/app-process";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * Redis, the shared rate-limit store (REDIS_URL), stopped and restarted under load (CONTRACT
 * "Reliability"; docs/scaling.md "Failure semantics": the limiter fails open to an in-process limiter
 * of the same size while Redis is unreachable, and goes back to Redis by itself). A private
 * `redis-server` on its own port, never the machine's shared one. Every answer during the outage is
 * 200 (or 429 from the in-process limiter), never a 5xx, and the limits still hold per instance.
 */

let redisPort = 0;
let redis: ChildProcess | undefined;
let probe: Redis | undefined;
let database: { url: string; drop(): Promise<void> } | undefined;
let handle: DbHandle | undefined;
let app: RouteServer | undefined;
let busy: Awaited<ReturnType<typeof createTenantWithKey>>;
const saved: Record<string, string | undefined> = {};

async function startRedis(): Promise<void> {
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  // Ready when it says so on stdout.
  await new Promise<void>((resolve, reject) => {
    let out = "";
    redis!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("Ready to accept connections")) resolve();
    });
    redis!.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
}

async function stopRedis(): Promise<void> {
  if (!redis || redis.exitCode !== null) return;
  const exited = once(redis, "exit");
  redis.kill("SIGKILL"); // as a crash or a lost network would: no goodbye to the clients
  await exited;
}

interface Tally {
  byStatus: Record<number, number>;
  slowestMs: number;
}

/** `clients` loops of GET /fleet with the busy tenant's key until `until` resolves. */
async function load(until: Promise<unknown>, clients = 4): Promise<Tally> {
  let done = false;
  void until.finally(() => (done = true));
  const tally: Tally = { byStatus: {}, slowestMs: 0 };
  const loop = async () => {
    while (!done) {
      const started = performance.now();
      const res = await app!.fetch("/api/v1/fleet?limit=5", { key: busy.key });
      await res.arrayBuffer();
      tally.byStatus[res.status] = (tally.byStatus[res.status] ?? 0) + 1;
      tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started);
    }
  };
  await Promise.all([...Array.from({ length: clients }, loop), until]);
  return tally;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const apiKeysInRedis = async () => (await probe!.keys("fdp_rl_api:*")).length;

beforeAll(async () => {
  for (const k of ["REDIS_URL", "DATABASE_URL"]) saved[k] = process.env[k];
  redisPort = await freePort();
  await startRedis();
  probe = new Redis(`redis://127.0.0.1:${redisPort}`, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  probe.on("error", () => {});
  await probe.connect();
  database = await createPostgresDatabase("fdp_redisloss", "migrated");
  process.env.DATABASE_URL = database.url;
  resetEnvCache();
  handle = await openDatabase({ url: database.url });
  busy = await createTenantWithKey(handle.db, { name: "Busy", rateLimitPerMin: 100_000 });
  app = await startRouteServer({ db: handle, env: { DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${redisPort}` } });
}, 120_000);

afterAll(async () => {
  await app?.close().catch(() => {});
  resetRateLimiters();
  setDbHandle(undefined);
  await handle?.close().catch(() => {});
  await database?.drop().catch(() => {});
  probe?.disconnect();
  await stopRedis();
  setEnv(saved);
});

describe("Redis lost and back under load (the rate limiter's store)", () => {
  it("fails open to an in-process limiter of the same size: no 5xx, limits still hold, back on Redis after the restart", async () => {
    // Before: counted in Redis.
    const before = await load(pause(1_000));
    expect(Object.keys(before.byStatus)).toEqual(["200"]);
    expect(await apiKeysInRedis()).toBeGreaterThan(0);

    // Redis gone (killed, as a crash would), load going on.
    await stopRedis();
    const lost = (async () => {
      await pause(2_000);
    })();
    const [during] = await Promise.all([load(lost), lost]);

    // A tenant with a small limit meanwhile is still limited, by the in-process fallback.
    const strict = await createTenantWithKey(handle!.db, { name: "Strict", rateLimitPerMin: 5 });
    const strictStatuses: number[] = [];
    for (let i = 0; i < 8; i++) strictStatuses.push((await app!.fetch("/api/v1/fleet?limit=1", { key: strict.key })).status);
    expect(strictStatuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    // Redis back on the same port, empty: the app counts there again once its client has reconnected.
    const restartedAt = performance.now();
    await startRedis();
    let backOnRedisMs = 0;
    const after = await load(
      (async () => {
        while ((await apiKeysInRedis().catch(() => 0)) === 0) await pause(20);
        backOnRedisMs = performance.now() - restartedAt;
        await pause(1_000);
      })(),
    );
    console.log(
      `[redis-loss] before ${JSON.stringify(before.byStatus)}; Redis killed 2 s: ${JSON.stringify(during.byStatus)}, slowest ${Math.round(during.slowestMs)} ms; ` +
        `limit 5 meanwhile: ${strictStatuses.join(",")}; counting in Redis again ${Math.round(backOnRedisMs)} ms after its restart; after ${JSON.stringify(after.byStatus)}`,
    );
    expect(Object.keys(during.byStatus)).toEqual(["200"]);
    expect(during.byStatus[200]).toBeGreaterThan(10);
    expect(during.slowestMs).toBeLessThan(2_000); // no request waits on the lost Redis (the machine is shared: a margin)
    expect(Object.keys(after.byStatus)).toEqual(["200"]);
    expect(backOnRedisMs).toBeLessThan(5_000);
  });
});
