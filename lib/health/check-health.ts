import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { UpstreamUnavailableError } from "@/lib/errors";
import type { Logger } from "@/lib/log/logger";

/** Liveness/readiness (CONTRACT): `{"status":"ok"}` when the database answers, else 503. */
export async function checkHealth({ log }: { log: Logger }): Promise<{ status: "ok" }> {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (err) {
    log.error({ err }, "database check failed");
    throw new UpstreamUnavailableError("The database does not answer.");
  }
  return { status: "ok" };
}
