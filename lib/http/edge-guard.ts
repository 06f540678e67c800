import { NotFoundError, ValidationError } from "@/lib/errors";
import { presentsSandboxKey } from "@/lib/auth/authenticate-api-key";
import { methodsServedAt } from "@/lib/operations/registry";
import { methodNotAllowedResponse } from "./bind-route";
import { requestIdFrom } from "./request-id";
import { errorResponse } from "./respond";

/**
 * Answers for /api requests that Next.js would otherwise answer itself, outside the CONTRACT's
 * envelope and without X-Request-Id (a text/plain 500 for `%FF`, an empty 400 for TRACE, a 308 for a
 * trailing slash). server.ts (and the tests' route server) ask this first; null means "let Next.js
 * route it".
 */

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

export interface EdgeRequest {
  method: string;
  /** The request target as received: origin-form (`/api/v1/…`) or absolute-form (`http://host/api/v1/…`). */
  url: string;
  requestIdHeader?: string | null;
  authorization?: string | null;
}

export function guardApiRequest({ method, url: target, requestIdHeader, authorization }: EdgeRequest): Response | null {
  const url = originForm(target);
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const collapsed = path.replace(/\/{2,}/g, "/");
  if (collapsed !== "/api" && !collapsed.startsWith("/api/")) return null;
  const requestId = requestIdFrom(requestIdHeader);
  const decor = { requestId, isSandbox: presentsSandboxKey(authorization ?? null) };

  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  if (!decodes(path) || !query.split(/[&=]/).every((part) => decodes(part.replaceAll("+", " ")))) {
    return errorResponse(
      new ValidationError("The URL has malformed percent-encoding (each % must start a UTF-8 byte sequence such as %20).", [{ field: "(url)", message: "malformed percent-encoding" }]),
      decor,
    );
  }
  if (path === "/api") return errorResponse(new NotFoundError("No endpoint at /api. The API is under /api/v1; see /api/v1/openapi.json."), decor);
  if (path.endsWith("/") || path.includes("//")) {
    const canonical = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    return errorResponse(new NotFoundError(`No endpoint at ${path}: paths have no trailing or doubled slashes (did you mean ${canonical}?).`), decor);
  }
  // `.` and `..` segments (also as %2e) would be resolved away by URL parsing, so `/tas/%2e%2e/fleet`
  // would answer as `/fleet`: a path means what it says or nothing.
  if (decodeURIComponent(path).split("/").some((segment) => segment === "." || segment === "..")) {
    return errorResponse(new NotFoundError(`No endpoint at ${path}: paths have no '.' or '..' segments.`), decor);
  }
  if (!ROUTABLE_METHODS.has(method)) {
    const methods = methodsServedAt(decodeURIComponent(path));
    if (!methods) return errorResponse(new NotFoundError(`No endpoint ${method} ${path}. See /api/v1/openapi.json for the endpoints.`), decor);
    return methodNotAllowedResponse(method, methods, decor);
  }
  return null;
}

/** A complete raw HTTP/1.1 answer in the envelope, for the connection-level cases Next.js never sees. */
function rawAnswer(status: number, reason: string, body: Record<string, unknown>, headers: Record<string, string> = {}): string {
  const requestId = requestIdFrom(null);
  const json = JSON.stringify({ ...body, request_id: requestId });
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    "Content-Type: application/json",
    `X-Request-Id: ${requestId}`,
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
  const message =
    err.code === "HPE_HEADER_OVERFLOW"
      ? "The request headers are too large."
      : "The request is not well-formed HTTP/1.1 (request line, header or body framing).";
  return rawAnswer(400, "Bad Request", { error: "invalid_request", message });
}

/** The raw answer to CONNECT (Node hands it to a `connect` listener, never to a request handler): FDP is no proxy. */
export function connectAnswer(): string {
  return rawAnswer(405, "Method Not Allowed", { error: "invalid_request", message: "CONNECT is not supported: FDP is not a proxy." }, { Allow: "GET, HEAD, POST, OPTIONS" });
}
