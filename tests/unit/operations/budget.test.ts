import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { RateLimitedError, ServiceUnavailableError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { CLIENT_IP_HEADER } from "@/lib/http/client-ip";
import { heavyCapKey, runBudgeted, SlotQueue } from "@/lib/operations/budget";
import { OPERATIONS } from "@/lib/operations/registry";
import { admitHeavy, heavyInFlight, resetHeavyConcurrency } from "@/lib/rate-limit/heavy-concurrency";

/**
 * The budget's parts without a database (lib/operations/budget.ts, lib/rate-limit/heavy-concurrency.ts):
 * which operations are heavy, the per-tenant cap and its Retry-After, the instance's slot queue and its
 * timeout. tests/db/noisy-neighbour.test.ts shows the whole over HTTP on Postgres.
 */

const log = rootLogger();
const heavyOp = { id: "test-heavy", cost: "heavy" as const };

/** A verb that runs until `finish()` is called. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish: () => finish() };
}

beforeEach(() => resetHeavyConcurrency());

afterEach(() => {
  vi.useRealTimers();
  for (const k of ["HEAVY_CONCURRENCY_PER_TENANT", "HEAVY_POOL_MAX", "HEAVY_QUEUE_TIMEOUT_MS", "FDP_QUERY_PARALLELISM", "DATABASE_URL"]) delete process.env[k];
  resetEnvCache();
});

describe("classification", () => {
  it("marks the fleet-wide scores, the batches, the reports and certificate generation heavy, and nothing else", () => {
    const heavy = OPERATIONS.filter((op) => op.cost === "heavy")
      .map((op) => op.id)
      .sort();
    expect(heavy).toEqual(
      ["generateCertificate", "generateCsrdReport", "getEmissionsReport", "getFleetRiskScore", "getGreenFleetScore", "getTotalAssetScoreBatch", "scoreDevicesBatch"].sort(),
    );
  });
});

describe("admitHeavy: the per-tenant cap", () => {
  it("admits up to the cap per tenant, refuses the next, and admits again once one is released", () => {
    const a1 = admitHeavy("cap-t1", 2);
    const a2 = admitHeavy("cap-t1", 2);
    expect(a1.admitted && a2.admitted).toBe(true);
    const refused = admitHeavy("cap-t1", 2);
    expect(refused).toMatchObject({ admitted: false, limit: 2 });
    // Another tenant is not affected.
    const other = admitHeavy("cap-t2", 2);
    expect(other.admitted).toBe(true);
    if (a1.admitted) a1.release();
    expect(heavyInFlight("cap-t1")).toBe(1);
    const again = admitHeavy("cap-t1", 2);
    expect(again.admitted).toBe(true);
    for (const a of [a2, other, again]) if (a.admitted) a.release();
    expect(heavyInFlight("cap-t1")).toBe(0);
  });

  it("tells when a slot is expected to free: the mean duration of finished heavy work minus what the oldest has run", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    // Teach the mean: operations of 8 s (the first sets it, the rest keep it).
    for (let i = 0; i < 3; i++) {
      const a = admitHeavy("mean-t", 5, Date.now());
      vi.advanceTimersByTime(8_000);
      if (a.admitted) a.release();
    }
    const running = admitHeavy("retry-t", 1, Date.now());
    vi.advanceTimersByTime(3_000);
    const refused = admitHeavy("retry-t", 1, Date.now());
    expect(refused).toMatchObject({ admitted: false, retryAfterSeconds: 5 });
    // Running past the mean still says at least 1 s, never 0 or negative.
    vi.advanceTimersByTime(20_000);
    expect(admitHeavy("retry-t", 1, Date.now())).toMatchObject({ admitted: false, retryAfterSeconds: 1 });
    if (running.admitted) running.release();
  });

  it("counts a release once, however often it is called", () => {
    const a = admitHeavy("twice-t", 1);
    if (!a.admitted) throw new Error("not admitted");
    const b = admitHeavy("twice-t2", 1); // keeps the map non-trivial
    a.release();
    a.release();
    expect(heavyInFlight("twice-t")).toBe(0);
    if (b.admitted) b.release();
  });
});

describe("SlotQueue: the instance's heavy slots", () => {
  it("grants up to its slots, hands a released slot to the longest waiter, and gives up on a waiter after the timeout", async () => {
    vi.useFakeTimers();
    const q = new SlotQueue(2);
    expect(await q.acquire(1000)).toBe(true);
    expect(await q.acquire(1000)).toBe(true);
    const first = q.acquire(1000);
    const second = q.acquire(5000);
    expect(q.load).toEqual({ active: 2, waiting: 2 });
    q.release();
    expect(await first).toBe(true);
    expect(q.load).toEqual({ active: 2, waiting: 1 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(await second).toBe(false);
    expect(q.load).toEqual({ active: 2, waiting: 0 });
    q.release();
    q.release();
    expect(q.load).toEqual({ active: 0, waiting: 0 });
  });

  it("with a zero timeout refuses at once when full", async () => {
    const q = new SlotQueue(1);
    expect(await q.acquire(0)).toBe(true);
    expect(await q.acquire(0)).toBe(false);
  });
});

describe("runBudgeted", () => {
  const ctxOf = (tenantId: string) => ({ db: {} as never, tenantId, isSandbox: false, log });

  it("refuses a tenant's heavy operation beyond its cap with 429 and its headers, while another tenant's runs", async () => {
    process.env.HEAVY_CONCURRENCY_PER_TENANT = "2";
    process.env.HEAVY_POOL_MAX = "8"; // 4 slots: the cap, not the slots, must refuse here
    resetEnvCache();
    const work = pending();
    const running = [1, 2].map(() => runBudgeted({ op: heavyOp, ctx: ctxOf("rb-a"), log, run: () => work.done }));
    await vi.waitFor(() => expect(heavyInFlight("rb-a")).toBe(2));
    let headers: Record<string, string> = {};
    const refused = runBudgeted({ op: heavyOp, ctx: ctxOf("rb-a"), log, setHeaders: (h) => (headers = h), run: async () => "ran" });
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    expect(headers["Retry-After"]).toMatch(/^[1-9][0-9]*$/);
    expect(headers).toMatchObject({ "RateLimit-Limit": "2", "RateLimit-Remaining": "0", "RateLimit-Reset": headers["Retry-After"] });
    await expect(runBudgeted({ op: heavyOp, ctx: ctxOf("rb-b"), log, run: async () => "ran" })).resolves.toBe("ran");
    // Interactive operations are never counted against the cap.
    await expect(runBudgeted({ op: { id: "light" }, ctx: ctxOf("rb-a"), log, run: async () => "light" })).resolves.toBe("light");
    work.finish();
    await Promise.all(running);
    expect(heavyInFlight("rb-a")).toBe(0);
    await expect(runBudgeted({ op: heavyOp, ctx: ctxOf("rb-a"), log, run: async () => "ran" })).resolves.toBe("ran");
  });

  it("answers 503 with Retry-After when no instance slot comes free within HEAVY_QUEUE_TIMEOUT_MS, and frees the tenant's place", async () => {
    process.env.HEAVY_CONCURRENCY_PER_TENANT = "2";
    process.env.HEAVY_POOL_MAX = "2"; // with FDP_QUERY_PARALLELISM 2: one slot
    process.env.HEAVY_QUEUE_TIMEOUT_MS = "50";
    resetEnvCache();
    const work = pending();
    const holder = runBudgeted({ op: heavyOp, ctx: ctxOf("q-a"), log, run: () => work.done });
    await vi.waitFor(() => expect(heavyInFlight("q-a")).toBe(1));
    let headers: Record<string, string> = {};
    await expect(runBudgeted({ op: heavyOp, ctx: ctxOf("q-b"), log, setHeaders: (h) => (headers = h), run: async () => "ran" })).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(headers["Retry-After"]).toMatch(/^[1-9][0-9]*$/);
    expect(heavyInFlight("q-b")).toBe(0);
    // A waiter within the timeout gets the slot as soon as it frees.
    process.env.HEAVY_QUEUE_TIMEOUT_MS = "10000";
    resetEnvCache();
    const waiter = runBudgeted({ op: heavyOp, ctx: ctxOf("q-b"), log, run: async () => "ran" });
    work.finish();
    await holder;
    await expect(waiter).resolves.toBe("ran");
  });

  it("counts the shared sandbox key's heavy requests per client IP, and any other key's per tenant whatever its IP", async () => {
    process.env.HEAVY_CONCURRENCY_PER_TENANT = "1";
    process.env.HEAVY_POOL_MAX = "8";
    resetEnvCache();
    const from = (ip: string) => new Request("http://localhost/api/v1/scores/fleet-risk", { headers: { [CLIENT_IP_HEADER]: ip } });
    const sandbox = { ...ctxOf("sandbox"), isSandbox: true };
    expect(heavyCapKey(sandbox, from("192.0.2.1"))).not.toBe(heavyCapKey(sandbox, from("192.0.2.2")));
    expect(heavyCapKey(ctxOf("tn-x"), from("192.0.2.1"))).toBe(heavyCapKey(ctxOf("tn-x"), from("192.0.2.2")));
    expect(heavyCapKey({ db: {} as never, log }, from("192.0.2.1"))).toBeUndefined();

    const work = pending();
    const visitor1 = runBudgeted({ op: heavyOp, ctx: sandbox, capKey: heavyCapKey(sandbox, from("192.0.2.1")), log, run: () => work.done });
    await vi.waitFor(() => expect(heavyInFlight(heavyCapKey(sandbox, from("192.0.2.1"))!)).toBe(1));
    // The same visitor is at its cap; another visitor of the sandbox is not.
    await expect(runBudgeted({ op: heavyOp, ctx: sandbox, capKey: heavyCapKey(sandbox, from("192.0.2.1")), log, run: async () => "ran" })).rejects.toBeInstanceOf(RateLimitedError);
    await expect(runBudgeted({ op: heavyOp, ctx: sandbox, capKey: heavyCapKey(sandbox, from("192.0.2.2")), log, run: async () => "ran" })).resolves.toBe("ran");
    work.finish();
    await visitor1;
  });

  it("releases the tenant's place and the slot when the verb throws", async () => {
    process.env.HEAVY_CONCURRENCY_PER_TENANT = "1";
    process.env.HEAVY_POOL_MAX = "2";
    resetEnvCache();
    await expect(runBudgeted({ op: heavyOp, ctx: ctxOf("throw-a"), log, run: async () => Promise.reject(new Error("boom")) })).rejects.toThrow("boom");
    expect(heavyInFlight("throw-a")).toBe(0);
    await expect(runBudgeted({ op: heavyOp, ctx: ctxOf("throw-a"), log, run: async () => "ran" })).resolves.toBe("ran");
  });
});
