import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { UpstreamUnavailableError } from "@/lib/errors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withRequestId } from "@/lib/http/with-api-key";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Liveness/readiness: 200 `{"status":"ok"}` when the database answers. */
export const GET = withRequestId(async () => {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch (err) {
    console.error("[health] database check failed", err);
    throw new UpstreamUnavailableError("The database does not answer.");
  }
  return { status: "ok" };
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
