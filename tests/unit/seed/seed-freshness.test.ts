import { describe, expect, it } from "vitest";
import { SEED_VERSION, seedIsFresh } from "@/lib/seed/seed-sandbox";

/**
 * When the sandbox is seeded again (lib/seed/seed-sandbox.ts): the rule every start applies to the seed
 * it finds. The reseed itself runs on a database in tests/db/seed-sandbox.test.ts.
 */
describe("seedIsFresh", () => {
  const stored = { version: SEED_VERSION, anchor: "2025-03-14T10:00:00.000Z" };
  const at = (iso: string) => new Date(iso);

  it("keeps a seed of this generator younger than 6 hours", () => {
    expect(seedIsFresh(stored, at("2025-03-14T10:00:00.000Z"), false)).toBe(true);
    expect(seedIsFresh(stored, at("2025-03-14T15:59:59.999Z"), false)).toBe(true);
  });

  it("reseeds from 6 hours on", () => {
    expect(seedIsFresh(stored, at("2025-03-14T16:00:00.000Z"), false)).toBe(false);
    expect(seedIsFresh(stored, at("2025-04-01T00:00:00.000Z"), false)).toBe(false);
  });

  it("reseeds when forced, whatever the age", () => {
    expect(seedIsFresh(stored, at("2025-03-14T10:00:00.000Z"), true)).toBe(false);
  });

  it("reseeds a seed of another generator, even a fresh one, and when none is stored", () => {
    expect(seedIsFresh({ ...stored, version: SEED_VERSION - 1 }, at("2025-03-14T10:00:00.000Z"), false)).toBe(false);
    expect(seedIsFresh({ ...stored, version: SEED_VERSION + 1 }, at("2025-03-14T10:00:00.000Z"), false)).toBe(false);
    expect(seedIsFresh(undefined, at("2025-03-14T10:00:00.000Z"), false)).toBe(false);
  });
});
