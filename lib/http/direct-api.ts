import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import { rootLogger } from "@/lib/log/logger";
import { OPERATIONS } from "@/lib/operations/registry";
import { bindRoute, type RouteHandlers } from "./bind-route";
import { acceptsGzip } from "./accept-encoding";
import { jsonBodyOf } from "./respond";

/**
 * The operations' routes served straight from server.ts in production, without Next.js's router: the
 * same handlers the route files export (`bindRoute(path)`, lib/http/bind-route.ts), so every answer is
 * the operation's own, only the request no longer passes through Next.js's routing, request wrapping
 * and compression, which the CPU profile of `GET /fleet?limit=500` showed among the largest costs
 * per request (docs/performance.md "The read path against its floor"). Everything else (pages, the dashboard's
 * auth, service routes such as /api/v1/openapi.json and /api/v1/health, MCP, the /api catch-all)
 * still goes to Next.js, and so do the operations in development (hot reload).
 *
 * What Next.js did for these routes and this does the same way: path parameters decoded
 * (`decodeURIComponent`; edge-guard.ts has refused malformed escapes before), HEAD answered by the
 * GET handler without a body, the body streamed to the handler (lib/http/read-body.ts applies the
 * size limits), gzip for a client that accepts it on JSON and text answers of at least
 * COMPRESS_MIN_BYTES (`Vary: Accept-Encoding` either way; GZIP_LEVEL below).
 */

/** Next.js's compression threshold (the `compression` middleware's default): smaller answers go as they are. */
const COMPRESS_MIN_BYTES = 1024;
const gzipAsync = promisify(gzip);
/**
 * zlib's fastest level, as nginx's default (`gzip_comp_level 1`): the 128 KB /fleet page becomes 18 KB
 * in 0.44 ms instead of 14 KB in 0.91 ms at the default level 6 (measured in process on that page).
 */
const GZIP_LEVEL = 1;
/**
 * Up to this size the answer is compressed on the main thread (`gzipSync`), above it on libuv's thread
 * pool. For the 128 KB /fleet page the synchronous call costs 0.27–0.35 ms of CPU against 0.45–0.63 ms
 * for the asynchronous one (its stream machinery and the hand-off to and from the pool thread; measured
 * with process.cpuUsage on the 2-core bench machine), and on a machine whose cores Postgres and the
 * clients share, CPU is what limits throughput. 256 KB keeps the event loop blocked under a millisecond;
 * larger answers (CSV reports) still go to the pool.
 */
const GZIP_SYNC_MAX_BYTES = 256 * 1024;

interface DirectRoute {
  pattern: RegExp;
  paramNames: string[];
  handlers: RouteHandlers;
}

let routes: DirectRoute[] | null = null;

function directRoutes(): DirectRoute[] {
  if (routes) return routes;
  const paths = [...new Set(OPERATIONS.map((op) => op.path))];
  routes = paths
    .map((p) => {
      const paramNames: string[] = [];
      const source = p
        .split("/")
        .map((seg) => {
          const m = seg.match(/^\{(.+)\}$/);
          if (m?.[1]) {
            paramNames.push(m[1]);
            return "([^/]+)";
          }
          return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("/");
      return { pattern: new RegExp(`^/api/v1${source}$`), paramNames, handlers: bindRoute(p) };
    })
    // A static segment wins over a parameter (as in Next.js): /certificates/verify before /certificates/{number}.
    .sort((a, b) => a.paramNames.length - b.paramNames.length);
  return routes;
}

/** The route and decoded parameters of an operation path, or null (Next.js serves it). */
export function matchDirectRoute(pathname: string): { handlers: RouteHandlers; params: Record<string, string> } | null {
  for (const route of directRoutes()) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      route.paramNames.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] ?? "")));
    } catch {
      return null; // a malformed escape: Next.js (and the edge guard) answer it as before
    }
    return { handlers: route.handlers, params };
  }
  return null;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The Request's origin: the handlers read only the path and the query (and the Host header, as sent). */
const ORIGIN = "http://localhost";

/** Serves `req` when it is an operation's route; returns false (nothing written) when Next.js should. */
export function serveDirect(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "GET";
  if (!METHODS.has(method)) return false;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const matched = matchDirectRoute(q === -1 ? url : url.slice(0, q));
  if (!matched) return false;
  void answer(req, res, method, matched);
  return true;
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  { handlers, params }: { handlers: RouteHandlers; params: Record<string, string> },
): Promise<void> {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const hasBody = method !== "GET" && method !== "HEAD";
    const request = new Request(new URL(req.url ?? "/", ORIGIN), {
      method: method === "HEAD" ? "GET" : method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
    });
    const handler = handlers[(method === "HEAD" ? "GET" : method) as keyof RouteHandlers];
    const response = await handler(request, { params: Promise.resolve(params) });
    await writeAnswer(req, res, response, method === "HEAD");
  } catch (err) {
    // The handlers answer every error in the envelope themselves: what lands here is the connection
    // (the client went away while the body was read or the answer written), or a bug in this file.
    rootLogger().warn({ operation: "server", err, method, path: (req.url ?? "/").split("?")[0] }, "direct route: the answer could not be completed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
}

/** JSON and text answers (CSV) are compressed; PDFs are compressed already. */
const COMPRESSIBLE = /^(application\/json|text\/)/i;


/** Writes a handler's Response on the Node response: headers, `Vary`, gzip when accepted (see above), the body. */
export async function writeAnswer(
  req: Pick<IncomingMessage, "headers">,
  res: Pick<ServerResponse, "statusCode" | "setHeader" | "end">,
  response: Response,
  head: boolean,
): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader("Vary", "Accept-Encoding");
  // A JSON answer made by jsonResponse is written from its text (Node encodes it on the socket, as the
  // bench's floor writes its answer), its stream left unread; anything else is read back.
  let body: string | Buffer | null = jsonBodyOf(response) ?? (response.body ? Buffer.from(await response.arrayBuffer()) : null);
  const bytes = body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (body !== null && bytes >= COMPRESS_MIN_BYTES && COMPRESSIBLE.test(response.headers.get("content-type") ?? "") && !response.headers.has("content-encoding") && acceptsGzip(req.headers["accept-encoding"])) {
    body = bytes <= GZIP_SYNC_MAX_BYTES ? gzipSync(body, { level: GZIP_LEVEL }) : await gzipAsync(body, { level: GZIP_LEVEL });
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", String(body.length));
  } else if (body !== null) res.setHeader("Content-Length", String(bytes));
  res.end(head ? undefined : (body ?? undefined));
}
