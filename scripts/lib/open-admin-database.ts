import path from "node:path";
import { inspect } from "node:util";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { isEmbeddedDatabaseShared } from "@/lib/db/embedded-share";
import { env } from "@/lib/env";
import { CliError } from "./cli-error";
import { embeddedDbStatus } from "./embedded-db-lock";

const ONE_PROCESS_RULE =
  "The embedded database allows one process at a time, and the process holding it does not share it (a running FDP server shares it on its socket): stop that process, or set DATABASE_URL to use PostgreSQL.";

const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "28P01", // invalid_password
  "28000", // invalid_authorization_specification
  "3D000", // invalid_catalog_name: the database does not exist
]);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) return code;
  }
  return undefined;
}

function innermostMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Error && e.message) message = e.message;
  }
  return message;
}

/**
 * Opens the database the CLI works on (DATABASE_URL → PostgreSQL, else the embedded PGlite under
 * FDP_DATA_DIR) and applies the migrations, so a fresh database works. An embedded database that a
 * running FDP server holds is reached through the server's socket; one that another process holds
 * without sharing it is refused, instead of being opened twice and corrupted.
 */
export async function openAdminDatabase(log: (line: string) => void): Promise<DbHandle> {
  const { DATABASE_URL, FDP_DATA_DIR } = env();
  const dataDir = path.resolve(FDP_DATA_DIR);

  // A running FDP server shares the embedded database on a socket: openDatabase() goes through it.
  if (!DATABASE_URL && !(await isEmbeddedDatabaseShared(dataDir))) {
    const status = embeddedDbStatus(dataDir);
    if (status.state === "held") {
      throw new CliError("internal_error", `The embedded database at ${dataDir} is in use by another process (pid ${status.pids.join(", ")}). ${ONE_PROCESS_RULE}`);
    }
    if (status.state === "unknown") {
      throw new CliError(
        "internal_error",
        `The embedded database at ${dataDir} appears to be in use by another process (its postmaster.pid exists). ${ONE_PROCESS_RULE} If no process uses it (a previous one was killed), delete ${path.join(dataDir, "postmaster.pid")} and retry.`,
      );
    }
    if (status.stalePidFile) log(`[admin] ${dataDir}: stale postmaster.pid left by a stopped process; opening anyway`);
  }

  let handle: DbHandle;
  try {
    handle = await openDatabase();
  } catch (err) {
    log(`[admin] opening the database failed: ${inspect(err)}`);
    throw new CliError(
      "internal_error",
      DATABASE_URL ? `Could not open the database named by DATABASE_URL: ${innermostMessage(err)}` : `Could not open the embedded database at ${dataDir}. ${ONE_PROCESS_RULE}`,
    );
  }

  try {
    await migrateWithPartitions(handle);
  } catch (err) {
    await handle.close().catch(() => {});
    log(`[admin] migrating the database failed: ${inspect(err)}`);
    if (DATABASE_URL && errorCode(err)) {
      throw new CliError("internal_error", `Could not connect to the database named by DATABASE_URL: ${innermostMessage(err)}`);
    }
    throw new CliError(
      "internal_error",
      DATABASE_URL
        ? "Could not migrate the database named by DATABASE_URL; details on stderr."
        : `Could not open or migrate the embedded database at ${dataDir}; details on stderr. ${ONE_PROCESS_RULE}`,
    );
  }
  return handle;
}
