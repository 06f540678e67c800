import { beforeEach, describe, expect, it } from "vitest";
import { authenticateApiKey, clearKeyCache } from "@/lib/auth/authenticate-api-key";
import { generateLiveKey } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";

/**
 * authenticateApiKey (lib/auth/authenticate-api-key.ts): concurrent requests of a key whose cache entry
 * is missing or expired wait for one lookup instead of sending one each; the cache's bound on
 * revocation is unchanged, and clearKeyCache is never undone by a lookup that was already under way.
 */
function fakeDb(answer: () => Record<string, unknown>[]) {
  let lookups = 0;
  const release: (() => void)[] = [];
  const db = {
    select: () => ({
      from: () => ({
        innerJoin: () => ({
          where: () => ({
            limit: () => {
              lookups++;
              const rows = answer(); // what the database holds when the lookup reads it
              return new Promise((resolve) => release.push(() => resolve(rows)));
            },
          }),
        }),
      }),
    }),
    update: () => ({ set: () => ({ where: () => Promise.resolve() }) }),
  };
  return { db: db as unknown as Db, lookups: () => lookups, releaseAll: () => release.splice(0).forEach((r) => r()) };
}

const row = { keyId: "key-1", scopes: ["fleet:read"], lastUsedAt: new Date(), tenantId: "t-1", rateLimitPerMin: null, entitlements: [] };
const tick = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => clearKeyCache());

describe("API key lookups", () => {
  it("16 concurrent requests of an uncached key send one lookup and all get its principal", async () => {
    const { key } = generateLiveKey();
    const f = fakeDb(() => [row]);
    const pending = Array.from({ length: 16 }, () => authenticateApiKey({ db: f.db, token: key }));
    await tick();
    expect(f.lookups()).toBe(1);
    f.releaseAll();
    const principals = await Promise.all(pending);
    expect(principals.every((p) => p?.keyId === "key-1" && p.tenantId === "t-1")).toBe(true);
    // Cached now: no further lookup.
    await authenticateApiKey({ db: f.db, token: key });
    expect(f.lookups()).toBe(1);
  });

  it("a revoked key (no row) is refused to every waiter and not cached", async () => {
    const { key } = generateLiveKey();
    const f = fakeDb(() => []);
    const pending = [authenticateApiKey({ db: f.db, token: key }), authenticateApiKey({ db: f.db, token: key })];
    await tick();
    f.releaseAll();
    expect(await Promise.all(pending)).toEqual([null, null]);
    const again = authenticateApiKey({ db: f.db, token: key });
    await tick();
    expect(f.lookups()).toBe(2);
    f.releaseAll();
    expect(await again).toBeNull();
  });

  it("clearKeyCache starts a fresh lookup, and a lookup under way before it does not fill the cache", async () => {
    const { key } = generateLiveKey();
    let answer: Record<string, unknown>[] = [row];
    const f = fakeDb(() => answer);
    const before = authenticateApiKey({ db: f.db, token: key });
    await tick();
    clearKeyCache(); // e.g. right after a revocation
    answer = [];
    const after = authenticateApiKey({ db: f.db, token: key });
    await tick();
    expect(f.lookups()).toBe(2);
    f.releaseAll();
    expect((await before)?.keyId).toBe("key-1");
    expect(await after).toBeNull();
    // The earlier lookup's principal was not cached: the next request looks the key up again.
    const next = authenticateApiKey({ db: f.db, token: key });
    await tick();
    expect(f.lookups()).toBe(3);
    f.releaseAll();
    expect(await next).toBeNull();
  });
});
