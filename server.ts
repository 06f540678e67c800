/**
 * The FDP server: Next.js behind a thin Node HTTP server. CONTRACT's
 * client IP is the socket's peer address (or, with TRUST_PROXY=1, the right-most X-Forwarded-For entry: lib/http/client-ip.ts),
 * and Next.js does not expose the socket to route handlers. So every request gets the peer address
 * in `x-fdp-client-ip`, overwriting whatever a client sent under that name. It also answers the /api
 * requests Next.js would answer outside the CONTRACT's envelope (malformed percent-encoding, methods
 * no route handler can serve, trailing or doubled slashes): lib/http/edge-guard.ts. And it serves the
 * API itself, in development as in production, with the handlers its route files export, routed by one
 * matcher derived from the operation registry (lib/http/api-request-handler.ts, lib/http/api-routes.ts;
 * why: docs/performance.md "One route matcher"). Next.js serves the pages and next-auth's /api/auth/*. What it does
 * with connections (timeouts, the connection cap, clients that go away, the graceful shutdown on
 * SIGTERM) is lib/http/connections.ts, described in docs/connections.md.
 *
 *   npm run dev    → tsx server.ts            (development: hot reload of pages; API code needs a restart)
 *   npm start      → NODE_ENV=production exec node scripts/start-production.mjs   (after `npm run build`, which compiles
 *                    this file into .next/fdp-bundles/fdp-server.mjs; exec: docs/connections.md)
 */
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import next from "next";
import { CLIENT_IP_HEADER, clientIpFrom } from "@/lib/http/client-ip";
import { applyConnectionSettings, ConnectionKeeper, connectionSettings, endAfterInFlight, serverOptions } from "@/lib/http/connections";
import { connectAnswer, expectationFailedResponse, isApiTarget, malformedHttpAnswer, requestTimeoutAnswer, upgradeRefusedAnswer } from "@/lib/http/edge-guard";
import { closeCertificatePdfWorkers } from "@/lib/certificates/pdf/render-certificate-pdf-in-worker";
import { closeOperationPools } from "@/lib/db/operation-pools";
import { getDbHandle } from "@/lib/db/client";
import { closeReadReplica } from "@/lib/db/replica";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { handleApiRequest } from "@/lib/http/api-request-handler";
import { sendAnswer } from "@/lib/http/write-answer";
import { applySecurityHeaders } from "@/lib/http/security-headers";
import { createDatabaseGate, databaseUnavailableAnswer, pageNeedsDatabase } from "@/lib/http/database-gate";
import { isLimitedPublicPage, limitPublicPage } from "@/lib/http/public-page-limit";
import { env, envSchema } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { startProcessStats } from "@/lib/log/process-stats";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
import { startWebhookWorker, webhookWorkerSettings } from "@/lib/webhooks/deliver-webhooks";
import { mqttBridgeSettings, runMqttBridges } from "@/lib/ingest/mqtt/run-mqtt-bridges";
import { authSecret } from "@/lib/dashboard/auth-secret";
import { SIGN_IN_LIMITED_PATH } from "@/lib/dashboard/sign-in-limit";
import { tooManySignInAttemptsAnswer } from "@/lib/dashboard/too-many-attempts-page";
import { DEFAULT_DEMO_PASSWORD, DEMO_USER_EMAIL, ensureDemoUser } from "@/lib/users/ensure-demo-user";
const dev = process.env.NODE_ENV !== "production";
// The same rule as lib/env.ts's PORT (which PUBLIC_BASE_URL defaults to), read without caching the
// settings before Next has loaded any .env file.
const port = envSchema.shape.PORT.parse(process.env.PORT);
const hostname = process.env.HOST ?? "0.0.0.0";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const log = rootLogger().child({ operation: "server" });
/**
 * Next.js attaches its WebSocket (`upgrade`) handler to the server on the first request; once any
 * `upgrade` listener exists, Node hands every request with an Upgrade header (a `curl --http2` h2c
 * offer, a WebSocket handshake) to it instead of the request handler, and FDP's API would answer
 * nothing. Next.js gets this stand-in instead; only development's hot reload needs it (see below).
 */
const nextUpgrades = new EventEmitter();
const app = next({ dev, hostname, port, httpServer: nextUpgrades as never });
const handle = app.getRequestHandler();

/**
 * The database is opened, migrated and the sandbox seeded here, at start-up, before the first request
 * is served (FDP_AUTO_SETUP=0 leaves that to `npm run db:migrate` / `npm run db:seed`).
 */
async function prepareDatabase(): Promise<void> {
  const handle = await getDbHandle();
  if (!env().FDP_AUTO_SETUP) return;
  const started = Date.now();
  await migrateWithPartitions(handle);
  const seed = await seedSandbox({ db: handle.db });
  log.info({ database: handle.kind, seeded: seed.seeded, anchor: seed.anchor, ms: Date.now() - started }, "database migrated, sandbox ready");
  // CONTRACT "Dashboard": the demo user exists on the embedded default, and on Postgres only when asked.
  if (env().FDP_DEMO_USER ?? handle.kind === "pglite") {
    const outcome = await ensureDemoUser({ ctx: { db: handle.db }, input: { password: env().FDP_DEMO_PASSWORD } });
    if (outcome === "email_taken") log.error({ email: DEMO_USER_EMAIL }, "demo user not created: the address belongs to a user of another tenant");
    else
      log.info(
        { email: DEMO_USER_EMAIL, tenant: "sandbox", outcome },
        // The default password is public (README); a configured one is named, never written to the log.
        `dashboard demo user: sign in at /login as ${DEMO_USER_EMAIL}, password ${process.env.FDP_DEMO_PASSWORD ? "the value of FDP_DEMO_PASSWORD" : `${DEFAULT_DEMO_PASSWORD} (default; set FDP_DEMO_PASSWORD to change it)`}`,
      );
  }
}

// Fail at start-up, not on the first sign-in, when the session secret is missing (or generate it now).
authSecret();
// 2048-bit PDF signing keys are for databases thrown away (lib/env.ts): an operator who set it learns what it means.
if (env().FDP_PDF_SIGNING_RSA_BITS === 2048) {
  log.warn(
    { FDP_PDF_SIGNING_RSA_BITS: 2048 },
    "FDP_PDF_SIGNING_RSA_BITS=2048: new PDF signing keys get 112-bit security, which NIST SP 800-57 accepts only through 2030; unset it (3072) outside tests",
  );
}

await Promise.all([app.prepare(), prepareDatabase()]);

const connections = connectionSettings(env());
// requireHostHeader: false lets the guard answer a Host-less HTTP/1.1 request in the envelope.
const server = createServer({ requireHostHeader: false, ...serverOptions(connections) }, (req, res) => {
  // `keeper` (below: it needs the server) exists before the server listens, so before any request.
  keeper.track(req, res);
  // The API, in development as in production (lib/http/api-request-handler.ts); the rest is Next.js's.
  if (handleApiRequest(req, res)) return;
  req.url ??= "/";
  if (req.method === "GET" && req.url.split("?")[0] === SIGN_IN_LIMITED_PATH) {
    const answer = tooManySignInAttemptsAnswer(req.url.split("?")[1] ?? "", env().RATE_LIMIT_AUTH_PER_MIN);
    res.writeHead(answer.status, { ...answer.headers, "Content-Type": "text/html; charset=utf-8" });
    res.end(answer.html);
    return;
  }
  if (pageNeedsDatabase(req.url.split("?")[0]!)) {
    void servePageThatReadsDatabase(req, res);
    return;
  }
  void handle(req, res);
});
const keeper = new ConnectionKeeper(server, connections, log);
applyConnectionSettings(server, connections);

const databaseGate = createDatabaseGate();

/**
 * A page that reads the database: the 503 page while the database does not answer
 * (lib/http/database-gate.ts), then the per-IP limit of public pages, then Next.js.
 */
async function servePageThatReadsDatabase(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!(await databaseGate.available())) {
    const answer = databaseUnavailableAnswer();
    res.writeHead(answer.status, { ...answer.headers, "Content-Type": "text/html; charset=utf-8" });
    res.end(answer.html);
    return;
  }
  if (isLimitedPublicPage(req.url ?? "/")) await servePublicPage(req, res);
  else void handle(req, res);
}

/** A page limited per client IP (lib/http/public-page-limit.ts): counted here, 429 page when over. */
async function servePublicPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const xff = req.headers["x-forwarded-for"];
    const decision = await limitPublicPage(clientIpFrom(Array.isArray(xff) ? xff.join(",") : xff, req.headers[CLIENT_IP_HEADER] as string));
    for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
    if (decision.refusal) {
      res.statusCode = decision.refusal.status;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(decision.refusal.html);
      return;
    }
  } catch (err) {
    // The counter store failed: serve the page rather than refuse every auditor (logged).
    log.error({ err }, "public page rate limit failed");
  }
  void handle(req, res);
}

// Node's own answer to `Expect: <anything but 100-continue>` is an empty 417.
server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
  applySecurityHeaders(req, res);
  void sendAnswer(res, expectationFailedResponse(req.headers["x-request-id"] as string | undefined));
});

// A request Node cannot parse, cut short or too slow never reaches Next.js; answer it in the envelope
// too (see edge-guard.ts) and release its connection (lib/http/connections.ts).
server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
  keeper.clientError(
    err,
    socket,
    err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? requestTimeoutAnswer(connections.headersTimeoutMs, connections.requestTimeoutMs) : malformedHttpAnswer(err),
  );
});

server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
  endAfterInFlight(socket, connectAnswer());
});

// Development only: Next.js's hot reload speaks WebSocket on /_next/. In production no `upgrade`
// listener exists, so a request with an Upgrade header is served as the plain request it also is.
if (dev) {
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isApiTarget(req.url ?? "/")) endAfterInFlight(socket, upgradeRefusedAnswer());
    else nextUpgrades.emit("upgrade", req, socket, head);
  });
}

server.listen(port, hostname, () => {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, maxConnections, shutdownTimeoutMs } = connections;
  log.info(
    {
      port,
      mode: dev ? "development" : "production",
      request_timeout_ms: requestTimeoutMs,
      headers_timeout_ms: headersTimeoutMs,
      keep_alive_timeout_ms: keepAliveTimeoutMs,
      max_connections: maxConnections,
      shutdown_timeout_ms: shutdownTimeoutMs,
    },
    `FDP listening on http://localhost:${port}`,
  );
  startProcessStats(log, env().FDP_PROCESS_STATS_MS);
});

/** Webhook deliveries from the outbox (lib/webhooks/deliver-webhooks.ts), on every instance unless WEBHOOK_WORKER=0. */
const webhookWorker = env().WEBHOOK_WORKER
  ? startWebhookWorker({ db: async () => (await getDbHandle()).db, log: log.child({ component: "webhooks" }), settings: webhookWorkerSettings() })
  : null;

/** The MQTT bridges (lib/ingest/mqtt/run-mqtt-bridges.ts, docs/feeds.md), on every instance unless MQTT_BRIDGE=0; each runs on one. */
const mqttBridges = env().MQTT_BRIDGE
  ? runMqttBridges({ db: async () => (await getDbHandle()).db, log: log.child({ component: "mqtt-bridge" }), settings: mqttBridgeSettings() })
  : null;

/**
 * What a graceful shutdown closes once no request is in flight: the webhook worker (no new claims; the
 * deliveries in flight finish and are recorded), the MQTT bridges (each message in hand is stored and
 * acknowledged, the broker sessions kept, the leases given back), the PDF workers (idle by then: every
 * render belongs to a request), the database pools (the connections end cleanly on the server rather
 * than as broken sockets). Redis and the rest end with the process.
 */
async function closeResources(): Promise<void> {
  // Deliveries in flight finish (each within WEBHOOK_TIMEOUT_MS) and are recorded before the pools close.
  await Promise.all([webhookWorker?.stop(), mqttBridges?.stop()]);
  await Promise.allSettled([closeCertificatePdfWorkers(), closeReadReplica(), closeOperationPools()]);
  await (await getDbHandle()).close();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void keeper.shutdown(signal, closeResources));
}
