import { RateLimiterRes } from "rate-limiter-flexible";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * consumeLimit coalesces the concurrent counts of one key in a process into one increment of n points
 * (lib/rate-limit/consume-limit.ts). The store here is a stand-in for the shared one (Postgres, Redis):
 * one counter per key that other instances may bump too, an answer after a delay, the increment
 * applied whole. What each request is told must be what n increments in a row would have told it.
 */
const store = vi.hoisted(() => ({
  counters: new Map<string, number>(),
  calls: [] as { key: string; points: number }[],
  failNext: false,
  delayMs: 5,
}));

vi.mock("@/lib/rate-limit/limiter-store", () => ({
  limiterFor: async (_bucket: string, limit: number) => ({
    async consume(key: string, points: number) {
      store.calls.push({ key, points });
      await new Promise((r) => setTimeout(r, store.delayMs));
      if (store.failNext) {
        store.failNext = false;
        throw new Error("store down");
      }
      const total = (store.counters.get(key) ?? 0) + points;
      store.counters.set(key, total);
      const res = new RateLimiterRes(Math.max(0, limit - total), 42_500, total, false);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rate-limiter-flexible rejects with the state
      if (total > limit) throw res;
      return res;
    },
  }),
}));

// Files of a worker share its modules (vitest.config.ts): another file may have loaded consume-limit with the
// real store already, and the files after this one must not get it with the stand-in.
vi.resetModules();
const { consumeLimit } = await import("@/lib/rate-limit/consume-limit");
afterAll(() => {
  vi.doUnmock("@/lib/rate-limit/limiter-store");
  vi.resetModules();
});

beforeEach(() => {
  store.counters.clear();
  store.calls.length = 0;
  store.failNext = false;
});

describe("consumeLimit", () => {
  it("counts 12 concurrent requests of one key as 12, in arrival order, in fewer increments", async () => {
    const states = await Promise.all(Array.from({ length: 12 }, () => consumeLimit("api", "k1", 10)));
    expect(states.map((s) => s.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(states.map((s) => s.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    expect(states.every((s) => s.limit === 10 && s.resetSeconds === 43)).toBe(true);
    expect(store.counters.get("k1")).toBe(12);
    // The first goes alone; the 11 that arrived while it was in flight go as one increment.
    expect(store.calls).toEqual([
      { key: "k1", points: 1 },
      { key: "k1", points: 11 },
    ]);
    // The next request is counted after them.
    expect((await consumeLimit("api", "k1", 10)).remaining).toBe(0);
    expect(store.counters.get("k1")).toBe(13);
  });

  it("reads what other instances counted in between from the store's total", async () => {
    store.counters.set("k2", 5); // another instance's requests
    const states = await Promise.all([consumeLimit("api", "k2", 8), consumeLimit("api", "k2", 8), consumeLimit("api", "k2", 8), consumeLimit("api", "k2", 8)]);
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0]);
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, false]);
  });

  it("never merges two keys or two buckets", async () => {
    await Promise.all([consumeLimit("api", "a", 5), consumeLimit("api", "b", 5), consumeLimit("auth", "a", 5)]);
    expect(store.calls).toHaveLength(3);
    expect(store.counters.get("a")).toBe(2); // the stand-in keeps one map; the real key prefixes differ by bucket
    expect(store.counters.get("b")).toBe(1);
  });

  it("judges each request of a batch on its own limit (a tenant's limit changed meanwhile)", async () => {
    const states = await Promise.all([consumeLimit("api", "k3", 10), consumeLimit("api", "k3", 2), consumeLimit("api", "k3", 10), consumeLimit("api", "k3", 2)]);
    expect(states.map((s) => [s.allowed, s.remaining, s.limit])).toEqual([
      [true, 9, 10],
      [true, 0, 2],
      [true, 7, 10],
      [false, 0, 2],
    ]);
  });

  it("fails every request of a batch whose increment failed, and counts the next batch", async () => {
    store.failNext = true;
    const outcomes = await Promise.allSettled([consumeLimit("api", "k4", 10), consumeLimit("api", "k4", 10)]);
    expect(outcomes[0].status).toBe("rejected");
    // The second went with the next increment, which succeeded.
    expect(outcomes[1]).toMatchObject({ status: "fulfilled", value: { allowed: true, remaining: 9 } });
    expect((await consumeLimit("api", "k4", 10)).remaining).toBe(8);
  });
});
