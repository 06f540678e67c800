import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The instance's Prometheus metrics (CONTRACT "Operations": `GET /api/metrics`, docs/metrics.md). One
 * registry per process, kept on globalThis: Next.js's development server and the test runner load
 * modules more than once, and a second registration of a name would throw. Everything here counts what
 * this instance did since it started; Prometheus scrapes each instance and sums across them.
 *
 * The labels take values from closed sets only (operation ids, route names, status codes, a handful of
 * outcomes), never a path, a device or a tenant: a label per device would grow without bound.
 */

/**
 * Seconds: from 5 ms (an answer from memory) to 30 s (STATEMENT_TIMEOUT_MS's default, the longest any
 * request may run), dense around the interactive reads' 50–500 ms.
 */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  // Node's own figures: CPU, resident memory, heap, open handles, GC and the event-loop lag
  // (`nodejs_eventloop_lag_seconds` and its percentiles, from perf_hooks.monitorEventLoopDelay).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "fdp_http_requests_total",
      help: "Requests under /api answered, by operation (an operation id, a service route, or not_found, method_not_allowed, options, refused for what no route saw), method and status (aborted: the client left first).",
      labelNames: ["operation", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "fdp_http_request_duration_seconds",
      help: "Time from a request's arrival to the last byte of its answer, by operation and method.",
      labelNames: ["operation", "method"] as const,
      buckets: LATENCY_BUCKETS_S,
      registers,
    }),
    ingestRecords: new Counter({
      name: "fdp_ingest_records_total",
      help: "Telemetry records stored (committed), by source: spec (SPEC records over REST), a feed format (tesla, traccar…) over REST or MQTT.",
      labelNames: ["source"] as const,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "fdp_rate_limit_refusals_total",
      help: "Requests refused with 429 by a rate limit, by budget: api (per key), auth (failed authentications per client IP), public (per client IP).",
      labelNames: ["bucket"] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: "fdp_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts this instance made, by outcome: delivered (a 2xx), retry (failed, due again), failed (failed, no attempt left).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    dbConnections: new Gauge({
      name: "fdp_db_connections",
      help: "Connections to the database by pool (application_name fdp…) and state (active, idle, idle in transaction…), read from pg_stat_activity at each scrape: every instance's together, so every instance reports the same figures (aggregate with max, not sum). Postgres only.",
      labelNames: ["pool", "state"] as const,
      registers,
    }),
    databaseUp: new Gauge({
      name: "fdp_database_up",
      help: "1 when the database answered this scrape's query within 1.5 s, else 0.",
      registers,
    }),
    dbPoolMax: new Gauge({
      name: "fdp_db_pool_max_connections",
      help: "Connections this instance's Postgres pool may open, by pool (the application_name its connections carry).",
      labelNames: ["pool"] as const,
      registers,
    }),
  };
}

type FdpMetrics = ReturnType<typeof createMetrics>;

const g = globalThis as typeof globalThis & { __fdpMetrics?: FdpMetrics };

/** The process's metrics, created on first use (nothing at import or at `next build`). */
export function metrics(): FdpMetrics {
  g.__fdpMetrics ??= createMetrics();
  return g.__fdpMetrics;
}

/** One answered /api request. `status` is the HTTP status, or "aborted" when the client went away before the answer ended. */
export function recordRequest(operation: string, method: string, status: number | "aborted", seconds: number): void {
  const m = metrics();
  m.httpRequests.inc({ operation, method, status: String(status) });
  m.httpDuration.observe({ operation, method }, seconds);
}

export function recordIngestedRecords(source: string, count: number): void {
  if (count > 0) metrics().ingestRecords.inc({ source }, count);
}

export function recordRateLimitRefusal(bucket: "api" | "auth" | "public"): void {
  metrics().rateLimitRefusals.inc({ bucket });
}

export function recordWebhookAttempt(outcome: "delivered" | "retry" | "failed"): void {
  metrics().webhookAttempts.inc({ outcome });
}

/** A Postgres pool this instance opened, with its size (set again when a pool is reopened with other settings). */
export function recordPoolSize(pool: string, max: number): void {
  metrics().dbPoolMax.set({ pool }, max);
}
