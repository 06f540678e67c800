import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/lib/db/sql-values";
import { ServiceUnavailableError } from "@/lib/errors";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import type { Logger } from "@/lib/log/logger";
import type { MqttBridgeState } from "@/lib/vocabulary/feeds";

/**
 * How long the readiness probe waits for the database. A load balancer's health check must get an
 * answer even when the database hangs (a server that accepts connections but never answers, a
 * connect timeout of several seconds): past this the answer is 503, and the probe's own statement is
 * left to finish or fail on its connection in the background.
 */
const HEALTH_PROBE_TIMEOUT_MS = 1_500;

type Bounded<T> = { outcome: "ok"; value: T } | { outcome: "timeout" } | { outcome: "failed"; err: unknown };

/**
 * `work` bounded by HEALTH_PROBE_TIMEOUT_MS: its value, "timeout" or its error. After a timeout nobody
 * awaits it: it finishes or fails on its connection in the background, its failure not unhandled.
 */
export async function withinProbeTimeout<T>(work: () => Promise<T>): Promise<Bounded<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<{ outcome: "timeout" }>((resolve) => {
    timer = setTimeout(() => resolve({ outcome: "timeout" }), HEALTH_PROBE_TIMEOUT_MS);
  });
  const running = work().then((value) => ({ outcome: "ok" as const, value }));
  running.catch(() => undefined);
  try {
    return await Promise.race([running, timedOut]);
  } catch (err) {
    return { outcome: "failed", err };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the database answers `select 1` within HEALTH_PROBE_TIMEOUT_MS: "ok", "timeout" or the
 * error. Used by readiness (below) and by the pages' database gate (lib/http/database-gate.ts).
 */
export async function probeDatabase(): Promise<{ outcome: "ok" } | { outcome: "timeout" } | { outcome: "failed"; err: unknown }> {
  const probe = await withinProbeTimeout(async () => (await getDb()).execute(sql`select 1`));
  return probe.outcome === "ok" ? { outcome: "ok" } : probe;
}

/** What readiness says of each MQTT bridge: no tenant, broker or topic (the answer is public). */
interface BridgeHealth {
  id: string;
  state: MqttBridgeState;
  since: string;
  last_message_at: string | null;
}

/**
 * Readiness (CONTRACT "Names and addresses", "Reliability"): `{"status":"ok", "details": …}` when the
 * database answers `select 1` within HEALTH_PROBE_TIMEOUT_MS, else 503 `service_unavailable` with
 * Retry-After. Nothing is cached: the first probe after the database is back answers 200 (the pool
 * reconnects by itself). `details.mqtt_bridges` is each MQTT bridge's state (docs/feeds.md): a bridge
 * that is disconnected does not make the service unready, since the broker is the customer's, and
 * taking the instances out of a load balancer would cure nothing.
 */
export async function checkHealth({ log }: { log: Logger }): Promise<{ status: "ok"; details: { mqtt_bridges: BridgeHealth[] } }> {
  const probe = await probeDatabase();
  if (probe.outcome === "timeout") {
    log.warn({ timeout_ms: HEALTH_PROBE_TIMEOUT_MS }, "database check timed out");
    throw new ServiceUnavailableError(`The database did not answer within ${HEALTH_PROBE_TIMEOUT_MS} ms.`, DATABASE_RETRY_AFTER_SECONDS);
  }
  if (probe.outcome === "failed") {
    log.warn({ err: probe.err }, "database check failed");
    throw new ServiceUnavailableError("The database does not answer.", DATABASE_RETRY_AFTER_SECONDS);
  }
  // Bounded like the probe: readiness never hangs on a database that stops answering in between.
  const listing = await withinProbeTimeout(async () => listMqttBridges({ ctx: { db: await getDb() }, input: {} }));
  if (listing.outcome !== "ok") {
    log.warn(listing.outcome === "timeout" ? { timeout_ms: HEALTH_PROBE_TIMEOUT_MS } : { err: listing.err }, "MQTT bridge states not read");
    throw new ServiceUnavailableError("The database does not answer.", DATABASE_RETRY_AFTER_SECONDS);
  }
  const mqtt_bridges = listing.value.map((b) => ({ id: b.id, state: b.state, since: b.stateSince.toISOString(), last_message_at: b.lastMessageAt?.toISOString() ?? null }));
  return { status: "ok", details: { mqtt_bridges } };
}

/**
 * Liveness: the process serves HTTP. No database: an orchestrator that restarts instances failing
 * this would otherwise restart every instance while the database is down, which cures nothing.
 */
export async function checkLiveness(): Promise<{ status: "ok" }> {
  return { status: "ok" };
}
