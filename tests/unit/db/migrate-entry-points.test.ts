import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** Where the schema is made whole: the migrations, then the telemetry partitions of the months around now. */
const HOME = "lib/db/telemetry-partitions.ts";
const SOURCES = ["lib", "app", "components", "scripts", "tests", "e2e", "bench"];

/**
 * A process that migrates without the partitions leaves this month's readings in the default
 * partition until something else creates the month (found in review: `npm run db:seed`, the admin CLI
 * and two scripts did so). So every caller migrates through `migrateWithPartitions`, and the migrator
 * alone is called in one place.
 */
describe("migrating the database", () => {
  it("goes through migrateWithPartitions everywhere: migrateDatabase is called by lib/db/telemetry-partitions.ts alone", () => {
    const files = SOURCES.flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes("node_modules"))
        .map((f) => path.posix.join(dir, f.split(path.sep).join("/"))),
    ).concat(["server.ts"]);
    expect(files.length).toBeGreaterThan(300);
    const callsMigrator = (f: string) => /\bmigrateDatabase\s*\(/.test(readFileSync(path.join(ROOT, f), "utf8"));
    expect(files.filter((f) => f !== HOME && f !== "lib/db/client.ts" && callsMigrator(f))).toEqual([]);
    expect(callsMigrator(HOME)).toBe(true);
    // Nor is drizzle's migrator used around it: lib/db/client.ts alone imports it.
    const importsDrizzleMigrator = (f: string) => /drizzle-orm\/[a-z-]+\/migrator/.test(readFileSync(path.join(ROOT, f), "utf8"));
    expect(files.filter((f) => f !== "lib/db/client.ts" && importsDrizzleMigrator(f))).toEqual([]);
    expect(importsDrizzleMigrator("lib/db/client.ts")).toBe(true);
  });
});
