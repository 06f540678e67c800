import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setDbHandle, type DbHandle } from "@/lib/db/client";
import { clearKeyCache } from "@/lib/auth/authenticate-api-key";
import { setEnv } from "./test-env";
import { resetRateLimiters } from "@/lib/rate-limit/limiter-store";
import { handleApiRequest } from "@/lib/http/api-request-handler";
import { matchApiRoute } from "@/lib/http/api-routes";
import { OFFLINE_SPOT_PRICE_URL } from "./fixtures";

/**
 * The app's API over a real HTTP server on an ephemeral port, served by the request handler server.ts
 * runs in production and development (lib/http/api-request-handler.ts): the same edge guard, the same
 * route matcher, the same handlers and answer writing. It has no router of its own. Of what that
 * handler leaves to Next.js, it serves the route handlers API tests call, from their route files, called
 * the way Next.js calls a route handler: next-auth's `/api/auth/*` (found by the same matcher) and the
 * certificate trust documents under /.well-known; anything else (a page) is a harness failure, 599.
 */

type RouteModule = Record<string, unknown>;

const loadAuthRoute = () => import("@/app/api/auth/[...nextauth]/route") as Promise<RouteModule>;
const WELL_KNOWN_ROUTES: Record<string, () => Promise<RouteModule>> = {
  "/.well-known/fdp-certificate-keys.json": () => import("@/app/.well-known/fdp-certificate-keys.json/route"),
  "/.well-known/fdp-certificate-signing.pem": () => import("@/app/.well-known/fdp-certificate-signing.pem/route"),
};

async function toWebRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  const body = chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body });
}

/** What Next.js would serve, for the route handlers above; anything else is not this harness's to answer. */
async function serveAsNext(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const { pathname } = new URL(req.url ?? "/", origin);
  const match = matchApiRoute(pathname);
  const auth = match?.route.kind === "service" && match.route.name === "auth";
  const load = auth ? loadAuthRoute : WELL_KNOWN_ROUTES[pathname];
  const handler = (await load?.())?.[req.method === "HEAD" ? "GET" : (req.method ?? "GET")] as ((r: Request, c: { params: Promise<unknown> }) => Promise<Response>) | undefined;
  const response = handler
    ? await handler(await toWebRequest(req, origin), { params: Promise.resolve(match?.params ?? {}) })
    : new Response("harness: not a route the API tests call (Next.js would serve it)", { status: 599 });
  res.statusCode = response.status;
  // Set-Cookie is the one header that comes as several lines (next-auth sets several cookies).
  response.headers.forEach((value, name) => name !== "set-cookie" && res.setHeader(name, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
}

/**
 * The environment of the edge tests that send many requests from one key (the shared security checks, the
 * MCP tests): every rate limit far above what they send, no Redis, the offline spot-price source, and no key
 * cache (a key revoked in a test is refused at once).
 */
export function unlimitedEdgeEnv(databaseUrl: string | undefined): Record<string, string | undefined> {
  return {
    RATE_LIMIT_API_PER_MIN: "100000",
    RATE_LIMIT_AUTH_PER_MIN: "100000",
    RATE_LIMIT_PUBLIC_PER_MIN: "100000",
    REDIS_URL: undefined,
    DATABASE_URL: databaseUrl,
    SPOT_PRICE_BASE_URL: OFFLINE_SPOT_PRICE_URL,
    AUTH_CACHE_TTL_SECONDS: "0",
  };
}

export interface RouteServer {
  url: string;
  fetch(pathAndQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function startRouteServer({ db, env = {} }: { db: DbHandle; env?: Record<string, string | undefined> }): Promise<RouteServer> {
  setEnv(env);
  resetRateLimiters();
  clearKeyCache();
  setDbHandle(db);
  let origin = "";

  const server: Server = createServer((req, res) => {
    if (handleApiRequest(req, res)) return;
    serveAsNext(req, res, origin).catch((err: unknown) => {
      console.error(err);
      res.statusCode = 599; // harness failure, distinct from anything the app answers
      res.end();
    });
  });
  // fetch keeps connections alive for as long as the server's Keep-Alive header says (5 s by default). On a
  // busy machine its timer fired late and a request went out on a socket the server had just closed:
  // ECONNRESET. A test file's server lives minutes at most, so it keeps idle connections longer.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    fetch(pathAndQuery, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set("authorization", `Bearer ${key}`);
      return fetch(origin + pathAndQuery, { ...rest, headers });
    },
    // The file's tests are done: connections fetch keeps alive (for the 120 s above) or a response body a test
    // left unread would otherwise hold server.close() open, and the worker's next file behind it (80 s seen).
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
