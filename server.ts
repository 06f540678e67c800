/**
 * The FDP server: Next.js behind a thin Node HTTP server. It exists for one reason: CONTRACT's
 * client IP is the socket's peer address (or, with TRUST_PROXY=1, the first X-Forwarded-For hop),
 * and Next.js does not expose the socket to route handlers. So every request gets the peer address
 * in `x-fdp-client-ip`, overwriting whatever a client sent under that name.
 *
 *   npm run dev    → tsx server.ts            (development, hot reload)
 *   npm start      → NODE_ENV=production tsx server.ts   (after `npm run build`)
 */
import { createServer } from "node:http";
import next from "next";

const CLIENT_IP_HEADER = "x-fdp-client-ip";
const dev = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();

await app.prepare();

const server = createServer((req, res) => {
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  void handle(req, res);
});

server.listen(port, hostname, () => {
  console.error(`FDP listening on http://localhost:${port} (${dev ? "development" : "production"})`);
  // Open the database now (migrations + sandbox seed) rather than on the first user request.
  fetch(`http://127.0.0.1:${port}/api/health`)
    .then(async (r) => console.error(`FDP ready: /api/health ${r.status} ${await r.text()}`))
    .catch((err: unknown) => console.error("FDP warm-up failed", err));
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
