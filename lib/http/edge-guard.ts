import { NotFoundError, ValidationError } from "@/lib/errors";
import { presentsSandboxKey } from "@/lib/auth/authenticate-api-key";
import { methodsServedAt } from "./api-routes";
import { allowHeader, methodNotAllowedResponse, optionsResponse } from "./bind-route";
import { requestIdFrom } from "./request-id";
import { errorResponse } from "./respond";
import { rawSecurityHeaderLines } from "./security-headers";

/**
 * Answers for requests that no route should see, given in the CONTRACT's envelope with X-Request-Id
 * (Next.js's own would be a text/plain 500 for `%FF`, an empty 400 for TRACE, a 308 for a trailing
 * slash). The API's request handler (lib/http/api-request-handler.ts, which server.ts and the tests'
 * route server run) asks this first; null means "route it".
 */

/** The methods some FDP route serves (for server-wide answers: `OPTIONS *`, CONNECT). */
const SERVER_METHODS = ["GET", "POST"] as const;

/** The methods Next.js route handlers can serve; any other method never reaches a handler. */
const ROUTABLE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * `http://host/api/v1/fleet?x` → `/api/v1/fleet?x`. HTTP/1.1 allows the absolute form of a request
 * target (proxies send it); the path is what routing and this guard judge, whatever the form.
 */
export function originForm(target: string): string {
  if (target.startsWith("/")) return target;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/i.exec(target);
  if (!match) return target;
  const rest = match[1] ?? "";
  return rest.startsWith("/") ? rest : `/${rest}`;
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

interface EdgeRequest {
  method: string;
  /** The request target as received: origin-form (`/api/v1/…`), absolute-form (`http://host/…`) or `*`. */
  url: string;
  requestIdHeader?: string | null;
  authorization?: string | null;
  /** An HTTP/1.1 request without a Host header (Node's own answer to it would be an empty 400). */
  missingHost?: boolean;
}

/** What a path resolves to once dot segments are removed (`/x/../api` → `/api`), as URL parsing and Next.js do. */
function resolved(path: string): string {
  try {
    return new URL(path, "http://fdp.invalid").pathname;
  } catch {
    return path;
  }
}

function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

const underApi = (p: string) => {
  const collapsed = p.replace(/\/{2,}/g, "/");
  return collapsed === "/api" || collapsed.startsWith("/api/");
};

/**
 * True when Next.js could route the target to an /api route: judged on every reading of the path
 * (as sent, percent-decoded, with dot segments resolved), so `/x/../api/…` or `/%61pi/…` cannot slip
 * past the rules below.
 */
export function isApiTarget(target: string): boolean {
  const url = originForm(target);
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const dec = decoded(path);
  return [path, resolved(path), ...(dec === null ? [] : [dec, resolved(dec)])].some(underApi);
}

export function guardApiRequest({ method, url: target, requestIdHeader, authorization, missingHost }: EdgeRequest): Response | null {
  const url = originForm(target);
  const decor = () => ({ requestId: requestIdFrom(requestIdHeader), isSandbox: presentsSandboxKey(authorization ?? null) });

  // Asterisk-form (`OPTIONS *`, server-wide) and anything else that is not a path.
  if (!url.startsWith("/")) {
    if (method === "OPTIONS" && url === "*") return optionsResponse(SERVER_METHODS, decor());
    return errorResponse(new ValidationError("The request target must be a path such as /api/v1/fleet.", [{ field: "(url)", message: "not a path" }]), decor());
  }
  if (missingHost) {
    return errorResponse(new ValidationError("HTTP/1.1 requests need a Host header.", [{ field: "Host", message: "missing" }]), decor());
  }
  if (!isApiTarget(url)) return null;
  const d = decor();
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  if (!decodes(path) || !query.split(/[&=]/).every((part) => decodes(part.replaceAll("+", " ")))) {
    return errorResponse(
      new ValidationError("The URL has malformed percent-encoding (each % must start a UTF-8 byte sequence such as %20).", [
        { field: "(url)", message: "malformed percent-encoding" },
      ]),
      d,
    );
  }
  // `.` and `..` segments (also as %2e) would be resolved away by URL parsing, so `/tas/%2e%2e/fleet`
  // would answer as `/fleet`, and `/x/../api/…` as an API path: a path means what it says or nothing.
  if (
    decodeURIComponent(path)
      .split("/")
      .some((segment) => segment === "." || segment === "..")
  ) {
    return errorResponse(new NotFoundError(`No endpoint at ${path}: paths have no '.' or '..' segments.`), d);
  }
  if (path === "/api") return errorResponse(new NotFoundError("No endpoint at /api. The API is under /api/v1; see /api/v1/openapi.json."), d);
  if (path.endsWith("/") || path.includes("//")) {
    const canonical = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    return errorResponse(new NotFoundError(`No endpoint at ${path}: paths have no trailing or doubled slashes (did you mean ${canonical}?).`), d);
  }
  if (!ROUTABLE_METHODS.has(method)) {
    const methods = methodsServedAt(path);
    if (!methods) return errorResponse(new NotFoundError(`No endpoint ${method} ${path}. See /api/v1/openapi.json for the endpoints.`), d);
    return methodNotAllowedResponse(method, methods, d);
  }
  return null;
}

/**
 * Request headers Next.js reads as instructions for its own page router (React Server Component
 * fetches, prefetches): on an API request they would turn the answer into a redirect. server.ts drops
 * them before an /api request reaches Next.js.
 */
export const NEXT_ROUTER_HEADERS = ["rsc", "next-router-prefetch", "next-router-state-tree", "next-router-segment-prefetch", "next-url", "next-action"] as const;

/** The answer to an `Expect` other than `100-continue` (Node's own would be an empty 417). */
export function expectationFailedResponse(requestIdHeader: string | null | undefined): Response {
  const res = errorResponse(new ValidationError("Only `Expect: 100-continue` is supported."), { requestId: requestIdFrom(requestIdHeader), isSandbox: false });
  return new Response(res.body, { status: 417, headers: res.headers });
}

/** A complete raw HTTP/1.1 answer in the envelope, for the connection-level cases Next.js never sees. */
function rawAnswer(status: number, reason: string, body: Record<string, unknown>, headers: Record<string, string> = {}): string {
  const requestId = requestIdFrom(null);
  const json = JSON.stringify({ ...body, request_id: requestId });
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: application/json",
    `X-Request-Id: ${requestId}`,
    ...rawSecurityHeaderLines(),
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Connection: close",
  ];
  return `${lines.join("\r\n")}\r\n\r\n${json}`;
}

/**
 * The raw HTTP answer to a request Node's parser refused (a malformed request line or header, headers
 * too large): still the envelope, still with X-Request-Id, then the connection closes.
 */
export function malformedHttpAnswer(err: { code?: string }): string {
  const message = err.code === "HPE_HEADER_OVERFLOW" ? "The request headers are too large." : "The request is not well-formed HTTP/1.1 (request line, header or body framing).";
  return rawAnswer(400, "Bad Request", { error: "invalid_request", message });
}

/**
 * The raw answer to a request whose headers did not arrive within HEADERS_TIMEOUT_MS or whose headers
 * and body did not within REQUEST_TIMEOUT_MS (CONTRACT "Reliability and hardening"); then the
 * connection closes (lib/http/connections.ts). Node reports both as one error, so it names both.
 */
export function requestTimeoutAnswer(headersTimeoutMs: number, requestTimeoutMs: number): string {
  return rawAnswer(408, "Request Timeout", {
    error: "request_timeout",
    message: `The request did not arrive in time (headers are due within ${headersTimeoutMs / 1000} s, the whole request within ${requestTimeoutMs / 1000} s); send it again.`,
  });
}

/** The raw answer to CONNECT (Node hands it to a `connect` listener, never to a request handler): FDP is no proxy. */
export function connectAnswer(): string {
  return rawAnswer(405, "Method Not Allowed", { error: "invalid_request", message: "CONNECT is not supported: FDP is not a proxy." }, { Allow: allowHeader(SERVER_METHODS) });
}

/** Development only (see server.ts): an /api request asking to switch protocols. */
export function upgradeRefusedAnswer(): string {
  return rawAnswer(400, "Bad Request", { error: "invalid_request", message: "The API does not switch protocols: send the request without an Upgrade header." });
}
