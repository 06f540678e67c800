/**
 * `npm run db:migrate`: applies drizzle/ migrations to DATABASE_URL, or to the embedded database
 * under FDP_DATA_DIR when it is unset. The server also migrates at start-up (server.ts, FDP_AUTO_SETUP=1).
 */
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";

const handle = await openDatabase();
try {
  // With the telemetry partitions of last month, this one and the next two (also checked hourly by the ingest).
  const partitionsCreated = await migrateWithPartitions(handle);
  process.stdout.write(JSON.stringify({ migrated: true, database: handle.kind, telemetry_partitions_created: partitionsCreated }) + "\n");
} catch (err) {
  console.error("[db:migrate] failed", err);
  process.stdout.write(JSON.stringify({ error: "internal_error", message: "Migration failed; details on stderr." }) + "\n");
  process.exitCode = 1;
} finally {
  await handle.close();
}
