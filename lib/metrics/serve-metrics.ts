import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { bearerToken } from "@/lib/auth/authenticate-api-key";
import { getDbHandle, MAIN_POOL_NAME } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import { NotFoundError, RateLimitedError, UnauthorizedError } from "@/lib/errors";
import { withinProbeTimeout } from "@/lib/health/check-health";
import { clientIp } from "@/lib/http/client-ip";
import { errorResponse } from "@/lib/http/respond";
import type { Logger } from "@/lib/log/logger";
import { consumeLimit, rateLimitHeaders } from "@/lib/rate-limit/consume-limit";
import { metrics } from "./metrics";

/**
 * `GET /api/metrics` (CONTRACT "Operations"; docs/metrics.md): the Prometheus text exposition of this
 * instance's metrics (lib/metrics/metrics.ts).
 *
 * - METRICS_TOKEN unset: the endpoint does not exist, answered exactly as any unknown path under /api.
 * - Set: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time (both sides hashed first, so
 *   neither the length nor a prefix shows in the timing). A wrong or missing token is a 401, and counts
 *   against the client IP's budget of failed authentications (RATE_LIMIT_AUTH_PER_MIN, shared with API
 *   keys): past it, 429 with Retry-After, so the token cannot be guessed faster than an API key.
 *
 * The scrape reads the database once, bounded like the health probe (1.5 s): the connections of FDP's
 * pools in pg_stat_activity, and whether the database answered at all (`fdp_database_up`). A database
 * that does not answer still gets its scrape, with `fdp_database_up 0`.
 */
export async function serveMetrics({ req, log, requestId }: { req: Request; log: Logger; requestId: string }): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) throw new NotFoundError("No endpoint GET /api/metrics. See /api/v1/openapi.json for the endpoints.");
  const presented = bearerToken(req.headers.get("authorization"));
  if (presented === null || !sameSecret(presented, token)) {
    const state = await consumeLimit("auth", clientIp(req), env().RATE_LIMIT_AUTH_PER_MIN);
    const headers = rateLimitHeaders(state);
    if (!state.allowed) {
      return errorResponse(new RateLimitedError(`Too many failed authentications: the limit is ${state.limit} per minute. Retry in ${state.resetSeconds} s.`), {
        requestId,
        isSandbox: false,
        headers,
        log,
      });
    }
    return errorResponse(new UnauthorizedError("The metrics token is required: send it as `Authorization: Bearer <METRICS_TOKEN>`."), {
      requestId,
      isSandbox: false,
      headers: { ...headers, "WWW-Authenticate": 'Bearer realm="metrics"' },
      log,
    });
  }
  await readDatabaseGauges(log);
  const { registry } = metrics();
  return new Response(await registry.metrics(), { status: 200, headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** Constant time whatever the two strings: digests of equal length are compared, never the strings. */
function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(sha256(presented), sha256(expected));
}

type ConnectionRow = { pool: string; state: string; n: number };

async function readDatabaseGauges(log: Logger): Promise<void> {
  const m = metrics();
  const read = await withinProbeTimeout(async (): Promise<ConnectionRow[]> => {
    const handle = await getDbHandle();
    // The embedded database has no pool and no other sessions: answering is all there is to say.
    if (handle.kind !== "postgres" || handle.viaEmbeddedSocket) {
      await handle.db.execute(sql`select 1`);
      return [];
    }
    return rows<ConnectionRow>(
      handle.db,
      sql`select application_name as pool, coalesce(state, 'unknown') as state, count(*)::int as n
            from pg_stat_activity
           where datname = current_database() and backend_type = 'client backend' and application_name like ${`${MAIN_POOL_NAME}%`}
           group by 1, 2`,
    );
  });
  m.dbConnections.reset();
  if (read.outcome !== "ok") {
    m.databaseUp.set(0);
    log.warn(read.outcome === "timeout" ? { outcome: "timeout" } : { err: read.err }, "metrics: the database did not answer the scrape's query");
    return;
  }
  m.databaseUp.set(1);
  for (const r of read.value) m.dbConnections.set({ pool: r.pool, state: r.state }, Number(r.n));
}
