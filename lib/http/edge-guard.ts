import { NotFoundError, ValidationError } from "@/lib/errors";
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

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

export function guardApiRequest({ method, url, requestIdHeader }: { method: string; url: string; requestIdHeader?: string | null }): Response | null {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const collapsed = path.replace(/\/{2,}/g, "/");
  if (collapsed !== "/api" && !collapsed.startsWith("/api/")) return null;
  const requestId = requestIdFrom(requestIdHeader);
  const decor = { requestId, isSandbox: false };

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
    return methodNotAllowedResponse(method, methods, requestId);
  }
  return null;
}

/**
 * The raw HTTP answer to a request Node's parser refused (a malformed request line or header, headers
 * too large): still the envelope, still with X-Request-Id, then the connection closes.
 */
export function malformedHttpAnswer(err: { code?: string }): string {
  const requestId = requestIdFrom(null);
  const message =
    err.code === "HPE_HEADER_OVERFLOW"
      ? "The request headers are too large."
      : "The request is not well-formed HTTP/1.1 (request line, header or body framing).";
  const body = JSON.stringify({ error: "invalid_request", message, request_id: requestId });
  return [
    "HTTP/1.1 400 Bad Request",
    "Content-Type: application/json",
    `X-Request-Id: ${requestId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}
