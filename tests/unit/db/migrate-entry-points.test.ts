import { describe, expect, it } from "vitest";
import { CODE_DIRS, readRepositoryFile, repositoryFiles } from "../../helpers/repository-files";

/** Where the schema is made whole: the migrations, then the telemetry partitions of the months around now. */
const HOME = "lib/db/telemetry-partitions.ts";

/**
 * A process that migrates without the partitions leaves this month's readings in the default
 * partition until something else creates the month (found in review: `npm run db:seed`, the admin CLI
 * and two scripts did so). So every caller migrates through `migrateWithPartitions`, and the migrator
 * alone is called in one place.
 */
describe("migrating the database", () => {
  it("goes through migrateWithPartitions everywhere: migrateDatabase is called by lib/db/telemetry-partitions.ts alone", () => {
    const files = [...repositoryFiles(CODE_DIRS, /\.(ts|tsx|mjs)$/), "server.ts"];
    expect(files.length).toBeGreaterThan(300);
    const callsMigrator = (f: string) => /\bmigrateDatabase\s*\(/.test(readRepositoryFile(f));
    expect(files.filter((f) => f !== HOME && f !== "lib/db/client.ts" && callsMigrator(f))).toEqual([]);
    expect(callsMigrator(HOME)).toBe(true);
    // Nor is drizzle's migrator used around it: lib/db/client.ts alone imports it.
    const importsDrizzleMigrator = (f: string) => /drizzle-orm\/[a-z-]+\/migrator/.test(readRepositoryFile(f));
    expect(files.filter((f) => f !== "lib/db/client.ts" && importsDrizzleMigrator(f))).toEqual([]);
    expect(importsDrizzleMigrator("lib/db/client.ts")).toBe(true);
  });
});
