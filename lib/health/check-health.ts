import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { UpstreamUnavailableError } from "@/lib/errors";

/** Liveness/readiness (CONTRACT): `{"status":"ok"}` when the database answers, else 503. */
export async function checkHealth(): Promise<{ status: "ok" }> {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (err) {
    console.error("[health] database check failed", err);
    throw new UpstreamUnavailableError("The database does not answer.");
  }
  return { status: "ok" };
}
