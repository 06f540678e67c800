import { readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setDbHandle, type DbHandle } from "@/lib/db/client";
import { clearKeyCache } from "@/lib/auth/authenticate-api-key";
import { resetEnvCache } from "@/lib/env";
import { resetRateLimiters } from "@/lib/rate-limit/limiter-store";
import { CLIENT_IP_HEADER } from "@/lib/http/client-ip";
import { guardApiRequest } from "@/lib/http/edge-guard";

/**
 * Serves the app's real route handlers (app/api/**\/route.ts) over a real HTTP server on an
 * ephemeral port, the way Next.js calls them: a Web Request in, a Web Response out, `params` as a
 * promise. It sets the client-IP header from the socket and asks lib/http/edge-guard.ts first, exactly
 * as server.ts does, and answers HEAD with the GET handler without its body, as Next.js does.
 */
type RouteModule = Record<string, unknown>;
interface Route {
  pattern: RegExp;
  paramNames: string[];
  catchAll: boolean;
  depth: number;
  load: () => Promise<RouteModule>;
}

const APP_DIR = path.resolve(import.meta.dirname, "../../app");

function discoverRoutes(): Route[] {
  const files = readdirSync(APP_DIR, { recursive: true, encoding: "utf8" }).filter((f) => /(^|\/)route\.ts$/.test(f));
  return files
    .map((file) => {
      const segments = path.dirname(file).split(path.sep).filter((s) => !/^\(.*\)$/.test(s));
      const paramNames: string[] = [];
      const regex = segments
        .map((seg) => {
          const catchAll = seg.match(/^\[\.\.\.(.+)\]$/);
          if (catchAll?.[1]) {
            paramNames.push(catchAll[1]);
            return "(.+)";
          }
          const m = seg.match(/^\[(.+)\]$/);
          if (m?.[1]) {
            paramNames.push(m[1]);
            return "([^/]+)";
          }
          return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("/");
      return {
        pattern: new RegExp(`^/${regex}$`),
        paramNames,
        catchAll: file.includes("[..."),
        depth: segments.length,
        load: () => import(path.join(APP_DIR, file)) as Promise<RouteModule>,
      };
    })
    // Static segments win over [params], and [...catch-all] routes come last (as in Next.js), the
    // deeper one first (/api/auth/[...nextauth] before /api/[...path]).
    .sort((a, b) => Number(a.catchAll) - Number(b.catchAll) || a.paramNames.length - b.paramNames.length || b.depth - a.depth);
}

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

export interface RouteServer {
  url: string;
  fetch(pathAndQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function startRouteServer({ db, env = {} }: { db: DbHandle; env?: Record<string, string | undefined> }): Promise<RouteServer> {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  resetRateLimiters();
  clearKeyCache();
  setDbHandle(db);
  const routes = discoverRoutes();
  let origin = "";

  const server: Server = createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
    void (async () => {
      const url = new URL(req.url ?? "/", origin);
      let response = guardApiRequest({
        method: req.method ?? "GET",
        url: req.url ?? "/",
        requestIdHeader: req.headers["x-request-id"] as string | undefined,
        authorization: req.headers.authorization,
      });
      if (!response) {
        const route = routes.find((r) => r.pattern.test(url.pathname));
        const mod = route ? await route.load() : undefined;
        const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
        const handler = mod?.[method];
        if (!route || typeof handler !== "function") {
          response = new Response("harness: no such route or method", { status: 599 });
        } else {
          const match = url.pathname.match(route.pattern);
          const params = Object.fromEntries(
            route.paramNames.map((n, i) => {
              const raw = match?.[i + 1] ?? "";
              return [n, route.catchAll && i === route.paramNames.length - 1 ? raw.split("/").map(decodeURIComponent) : decodeURIComponent(raw)];
            }),
          );
          response = await (handler as (r: Request, c: { params: Promise<unknown> }) => Promise<Response>)(
            await toWebRequest(req, origin),
            { params: Promise.resolve(params) },
          );
        }
      }
      res.statusCode = response.status;
      // Set-Cookie is the one header that comes as several lines (next-auth sets several cookies).
      response.headers.forEach((value, name) => name !== "set-cookie" && res.setHeader(name, value));
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader("set-cookie", cookies);
      res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
    })().catch((err: unknown) => {
      console.error(err);
      res.statusCode = 599; // harness failure, distinct from anything the app answers
      res.end();
    });
  });
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
