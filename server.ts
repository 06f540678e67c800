/**
 * The FDP server: Next.js behind a thin Node HTTP server. It exists for one reason: CONTRACT's
 * client IP is the socket's peer address (or, with TRUST_PROXY=1, the first X-Forwarded-For hop),
 * and Next.js does not expose the socket to route handlers. So every request gets the peer address
 * in `x-fdp-client-ip`, overwriting whatever a client sent under that name. It also answers the /api
 * requests Next.js would answer outside the CONTRACT's envelope (malformed percent-encoding, methods
 * no route handler can serve, trailing or doubled slashes): lib/http/edge-guard.ts.
 *
 *   npm run dev    → tsx server.ts            (development, hot reload)
 *   npm start      → NODE_ENV=production tsx server.ts   (after `npm run build`)
 */
import { createServer, type ServerResponse } from "node:http";
import next from "next";
import { CLIENT_IP_HEADER } from "@/lib/http/client-ip";
import { connectAnswer, guardApiRequest, malformedHttpAnswer, originForm } from "@/lib/http/edge-guard";
import { getDbHandle, migrateDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
const dev = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const log = rootLogger().child({ operation: "server" });
const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();

/**
 * The database is opened, migrated and the sandbox seeded here, at start-up, before the first request
 * is served (FDP_AUTO_SETUP=0 leaves that to `npm run db:migrate` / `npm run db:seed`).
 */
async function prepareDatabase(): Promise<void> {
  const handle = await getDbHandle();
  if (!env().FDP_AUTO_SETUP) return;
  const started = Date.now();
  await migrateDatabase(handle);
  const seed = await seedSandbox({ db: handle.db });
  log.info({ database: handle.kind, seeded: seed.seeded, anchor: seed.anchor, ms: Date.now() - started }, "database migrated, sandbox ready");
}

await Promise.all([app.prepare(), prepareDatabase()]);

async function send(res: ServerResponse, answer: Response): Promise<void> {
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await answer.arrayBuffer()));
}

const server = createServer((req, res) => {
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  const early = guardApiRequest({
    method: req.method ?? "GET",
    url: req.url ?? "/",
    requestIdHeader: req.headers["x-request-id"] as string | undefined,
    authorization: req.headers.authorization,
  });
  if (early) {
    void send(res, early);
    return;
  }
  // An absolute-form target (`GET http://host/api/…`) reaches Next.js as the path it names.
  req.url = originForm(req.url ?? "/");
  void handle(req, res);
});

// A request Node cannot parse never reaches Next.js; answer it in the envelope too (see edge-guard.ts).
server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(malformedHttpAnswer(err));
});

server.on("connect", (_req, socket) => {
  socket.end(connectAnswer());
});

server.listen(port, hostname, () => {
  log.info({ port, mode: dev ? "development" : "production" }, `FDP listening on http://localhost:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
