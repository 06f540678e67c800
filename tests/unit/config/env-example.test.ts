import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema } from "@/lib/env";

/** `.env.example` is the checked list of settings: every variable the app reads, and no other. */
describe(".env.example", () => {
  const text = readFileSync(path.resolve(import.meta.dirname, "../../../.env.example"), "utf8");
  const listed = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
  // Read by server.ts (not through lib/env.ts) and by Node/Next themselves.
  const outsideSchema = new Set(["HOST", "NODE_ENV", "NEXT_TELEMETRY_DISABLED"]);

  it("lists every variable of the env schema once", () => {
    const schema = Object.keys(envSchema.shape);
    for (const name of schema) expect(listed, name).toContain(name);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("lists nothing the app does not read", () => {
    const schema = new Set(Object.keys(envSchema.shape));
    expect(listed.filter((n) => !schema.has(n) && !outsideSchema.has(n))).toEqual([]);
  });

  it("parses as given (its defaults are valid settings)", () => {
    const values = Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(envSchema.safeParse(values).error).toBeUndefined();
  });
});
