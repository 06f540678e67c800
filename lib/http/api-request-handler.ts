import type { IncomingMessage, ServerResponse } from "node:http";
import { rootLogger } from "@/lib/log/logger";
import { recordRequest } from "@/lib/metrics/metrics";
import { OPERATIONS } from "@/lib/operations/registry";
import { matchApiRoute, type ApiMatch, type ApiRoute } from "./api-routes";
import { bindRoute, type RouteHandlers } from "./bind-route";
import { CLIENT_IP_HEADER } from "./client-ip";
import { guardApiRequest, isApiTarget, NEXT_ROUTER_HEADERS, originForm } from "./edge-guard";
import { applySecurityHeaders } from "./security-headers";
import { isServedServiceRoute, serviceRouteHandlers } from "./service-routes";
import { sendAnswer, writeAnswer } from "./write-answer";

/**
 * The API's request handler: what server.ts does with every request before Next.js may see it, in
 * development and production alike, and what the API tests' server runs (tests/helpers/route-server.ts).
 * Every request gets the client-IP header (CONTRACT: the socket's peer address; Next.js does not
 * expose the socket to route handlers) and the security headers; the edge guard answers what no
 * route should see (lib/http/edge-guard.ts); then a request under /api is routed by the one matcher
 * (lib/http/api-routes.ts) to the handlers its route file exports, and answered here.
 *
 * Why not through Next.js's router: its routing, request wrapping and compression were among the
 * largest costs per request (docs/performance.md "The read path against its floor"), and serving the
 * API one way in development and another in production left the production path untested by the API
 * tests (docs/performance.md "One route matcher").
 *
 * What Next.js did for these routes and this does the same way: path parameters decoded, HEAD
 * answered by the GET handler without a body, the body streamed to the handler (lib/http/read-body.ts
 * applies the size limits), gzip for a client that accepts it (lib/http/write-answer.ts).
 */

/** The handlers of a route, or null for next-auth's `/api/auth/*`, which Next.js serves. */
export function apiHandlersOf(route: ApiRoute): RouteHandlers | null {
  if (route.kind === "operation") return bindRoute(route.path);
  return isServedServiceRoute(route.name) ? serviceRouteHandlers(route.name) : null;
}

/**
 * Serves `req` when it is the API's: returns true once the answer is under way, false (nothing
 * written but the headers every answer carries) for a request Next.js serves (pages, `/api/auth/*`).
 */
export function handleApiRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const started = performance.now();
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  // CONTRACT "Reliability and hardening": the headers of every answer, whoever writes it (pages: proxy.ts).
  applySecurityHeaders(req, res);
  const early = guardApiRequest({
    method: req.method ?? "GET",
    url: req.url ?? "/",
    requestIdHeader: req.headers["x-request-id"] as string | undefined,
    authorization: req.headers.authorization,
    // requireHostHeader: false (server.ts) lets the guard answer a Host-less HTTP/1.1 request in the envelope.
    missingHost: req.httpVersion === "1.1" && !req.headers.host,
  });
  if (early) {
    observeAnswer(req, res, "refused", started);
    void sendAnswer(res, early);
    return true;
  }
  // An absolute-form target (`GET http://host/api/…`) is routed as the path it names.
  req.url = originForm(req.url ?? "/");
  if (!isApiTarget(req.url)) return false;
  // Instructions for Next.js's page router: on an API request next-auth's answer would become a redirect.
  for (const name of NEXT_ROUTER_HEADERS) delete req.headers[name];
  const queryAt = req.url.indexOf("?");
  const match = matchApiRoute(queryAt === -1 ? req.url : req.url.slice(0, queryAt));
  // No route at all (a path that is under /api only once decoded, `/api%2Fv1`): the JSON 404 too.
  const handlers = match ? apiHandlersOf(match.route) : serviceRouteHandlers("notFound");
  // next-auth's routes, answered by Next.js, are counted all the same.
  observeAnswer(req, res, operationLabel(match?.route, req.method ?? "GET"), started);
  if (!handlers) return false;
  void answer(req, res, handlers, match?.params ?? {});
  return true;
}

/** Methods a label may name; any other is `other`, so that a client cannot add label values. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const operationIds = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op.id]));

/**
 * The metrics' `operation` label of a request (lib/metrics/metrics.ts): the operation's id, the service
 * route's name, or what the answer is when no operation serves the method (`options`, `method_not_allowed`,
 * `not_found`). A closed set: never the path itself.
 */
export function operationLabel(route: ApiRoute | undefined, method: string): string {
  if (!route || (route.kind === "service" && route.name === "notFound")) return "not_found";
  if (route.kind === "service") return route.name;
  if (method === "OPTIONS") return "options";
  return operationIds.get(`${method === "HEAD" ? "GET" : method} ${route.path}`) ?? "method_not_allowed";
}

/** Counts the request and its time once its answer has ended, or its client has gone (`aborted`). */
function observeAnswer(req: IncomingMessage, res: ServerResponse, operation: string, started: number): void {
  const method = METHODS.has(req.method ?? "") ? (req.method as string) : "other";
  res.once("close", () => recordRequest(operation, method, res.writableFinished ? res.statusCode : "aborted", (performance.now() - started) / 1000));
}

/** The Request's origin: the handlers read only the path and the query (and the Host header, as sent). */
const ORIGIN = "http://localhost";

/**
 * The request's body as a Web stream read only when the handler reads it. A body nobody reads (an
 * answer given before it, such as a 401 or a 413 from Content-Length) is then drained by Node once the
 * answer is sent, and the connection kept alive, as for any Node handler; a stream that read ahead
 * would leave it half read, the connection stuck behind it.
 */
function requestBody(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; started: () => boolean } {
  let chunks: AsyncIterator<Buffer> | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Not destroyed on cancel: destroying the request would destroy its socket, and the answer with it.
        chunks ??= req.iterator({ destroyOnReturn: false });
        const { done, value } = (await chunks.next()) as IteratorResult<Buffer, undefined>;
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    // No read ahead: nothing is read before the handler asks.
    { highWaterMark: 0 },
  );
  return { stream, started: () => chunks !== undefined };
}

async function answer(req: IncomingMessage, res: ServerResponse, handlers: RouteHandlers, params: ApiMatch["params"]): Promise<void> {
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const body = method === "GET" ? null : requestBody(req);
    const request = new Request(new URL(req.url ?? "/", ORIGIN), {
      method,
      headers,
      ...(body ? { body: body.stream, duplex: "half" } : {}),
    });
    const response = await handlers[method as keyof RouteHandlers](request, { params: Promise.resolve(params) });
    // A body the handler began and left unfinished (a 413 found while streaming) is still arriving: the
    // answer goes out, then the connection closes instead of waiting for the rest.
    if (body?.started() && !req.complete) res.setHeader("Connection", "close");
    await writeAnswer(req, res, response, req.method === "HEAD");
  } catch (err) {
    // The handlers answer every error in the envelope themselves: what lands here is the connection
    // (the client went away while the body was read or the answer written), or a bug in this file.
    rootLogger().warn({ operation: "server", err, method: req.method, path: (req.url ?? "/").split("?")[0] }, "api request: the answer could not be completed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
}
