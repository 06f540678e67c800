import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimiterRes } from "rate-limiter-flexible";
import { rateLimits } from "@/lib/db/schema";
import { RateLimiterPostgres } from "@/lib/rate-limit/limiter-store";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The Postgres counter store (lib/rate-limit/limiter-store.ts RateLimiterPostgres): the library's
 * upsert, sent as a named prepared statement. Same answers as rate-limiter-flexible's RateLimiterDrizzle:
 * points add up within a window, a new window starts from the points of the request that opens it,
 * `msBeforeNext` is the window's end.
 */
describe("RateLimiterPostgres", () => {
  let tdb: TestDatabase;
  const sent: { prepare?: boolean }[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
    // Record the options every statement of this pool goes out with (a named statement: prepare true).
    const client = (tdb.handle.db as unknown as { session: { client: { unsafe: (query: unknown, params: unknown, options?: { prepare?: boolean }) => unknown } } }).session.client;
    const unsafe = client.unsafe.bind(client);
    client.unsafe = (query: unknown, params: unknown, options?: { prepare?: boolean }) => {
      if (typeof query === "string" && query.trimStart().startsWith("insert into rate_limits")) sent.push(options ?? {});
      return unsafe(query, params, options);
    };
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  const limiter = (points: number, duration: number) =>
    new RateLimiterPostgres({ storeClient: tdb.handle.db, schema: rateLimits, points, duration, keyPrefix: "t", clearExpiredByTimeout: false });

  it("adds points within a window and rejects past the limit, with the window's end", async () => {
    const rl = limiter(5, 60);
    const before = Date.now();
    const a = await rl.consume("k1", 1);
    expect(a.consumedPoints).toBe(1);
    expect(a.remainingPoints).toBe(4);
    expect(a.msBeforeNext).toBeGreaterThan(58_000);
    expect(a.msBeforeNext).toBeLessThanOrEqual(60_000 + (Date.now() - before));
    expect((await rl.consume("k1", 3)).consumedPoints).toBe(4);
    const over = await rl.consume("k1", 2).catch((r: unknown) => r);
    expect(over).toBeInstanceOf(RateLimiterRes);
    expect((over as RateLimiterRes).consumedPoints).toBe(6);
    // The window's end does not move with later requests.
    expect(Math.abs((over as RateLimiterRes).msBeforeNext - a.msBeforeNext)).toBeLessThan(2_000);
    // Another key has its own counter.
    expect((await rl.consume("k2", 1)).consumedPoints).toBe(1);
    const [row] = await tdb.handle.db
      .select()
      .from(rateLimits)
      .where((await import("drizzle-orm")).eq(rateLimits.key, "t:k1"));
    expect(row?.points).toBe(6);
    expect(sent).toHaveLength(4); // the four counts above, each one statement
    expect(sent.every((o) => o.prepare === true)).toBe(true);
  });

  it("starts a new window once the stored one has expired", async () => {
    // A window of a quarter second (durations are seconds, fractions allowed), waited out to its end.
    const WINDOW_MS = 250;
    const rl = limiter(5, WINDOW_MS / 1000);
    const first = await rl.consume("k3", 4);
    expect(first.consumedPoints).toBe(4);
    const windowEnd = Date.now() + first.msBeforeNext;
    await new Promise((r) => setTimeout(r, windowEnd - Date.now() + 5));
    const res = await rl.consume("k3", 2);
    expect(res.consumedPoints).toBe(2);
    // A window of its own from now: the expired one's end has passed (it would be 0 or less).
    expect(res.msBeforeNext).toBeGreaterThan(0);
    expect(res.msBeforeNext).toBeLessThanOrEqual(WINDOW_MS);
  });
});
