/**
 * Seeds the sandbox tenant's synthetic fleet into the database named by DATABASE_URL (the
 * embedded PGlite under FDP_DATA_DIR when unset), migrating it first.
 *
 *   npx tsx scripts/db-seed.ts            # reseed only when the stored anchor is 6 h old or more
 *   npx tsx scripts/db-seed.ts --force    # reseed now, anchored at the current hour
 *
 * Prints one JSON line: {"seeded","anchor","devices","telemetry","alerts"}; logs go to stderr.
 */
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { countSandboxRows, seedSandbox } from "@/lib/seed/seed-sandbox";

async function main(): Promise<void> {
  const force = process.argv.slice(2).includes("--force");
  const handle = await openDatabase();
  try {
    await migrateWithPartitions(handle);
    const started = Date.now();
    const result = await seedSandbox({ db: handle.db, force });
    console.error(`[db-seed] ${handle.kind}: ${result.seeded ? "seeded" : "already fresh"} in ${Date.now() - started} ms`);
    const counts = await countSandboxRows(handle.db);
    console.log(JSON.stringify({ seeded: result.seeded, anchor: result.anchor, devices: counts.devices, telemetry: counts.telemetry, alerts: counts.alerts }));
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
