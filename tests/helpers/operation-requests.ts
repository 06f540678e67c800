import { type Operation, wireBody } from "@/lib/operations/define-operation";
import type { RouteServer } from "./route-server";

/**
 * Requests built from an operation's definition (lib/operations/registry.ts): its path template,
 * its example request, and whatever a test overrides. The shared security and fuzz tests loop over
 * the registry with these, so a new operation is covered without a new test.
 */

export interface RequestParts {
  path?: Record<string, string>;
  /** Query string parameters; a string[] repeats the parameter. */
  query?: Record<string, string | string[]>;
  /** The body's members as the input sees them (sent as `wireBody` makes them), or the exact bytes/text to send. */
  body?: unknown;
  /** Raw text appended after `?` instead of `query` (for malformed encodings). */
  rawQuery?: string;
}

/** `/api/v1/tas/{device_id}` with `{device_id}` percent-encoded from `path`. */
function pathFor(op: Operation, path: Record<string, string> = {}): string {
  return `/api/v1${op.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""))}`;
}

export function urlFor(op: Operation, parts: RequestParts = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(parts.query ?? {})) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  const q = parts.rawQuery ?? search.toString();
  return pathFor(op, parts.path) + (q ? `?${q}` : "");
}

/** The operation's example request with `overrides` laid over it (path and query merged, body replaced). */
export function exampleParts(op: Operation, overrides: RequestParts = {}): RequestParts {
  const ex = op.requestExample as RequestParts;
  return {
    path: { ...ex.path, ...overrides.path },
    query: { ...(ex.query as Record<string, string> | undefined), ...overrides.query },
    body: "body" in overrides ? overrides.body : ex.body,
    rawQuery: overrides.rawQuery,
  };
}

export function send(
  app: RouteServer,
  op: Operation,
  parts: RequestParts,
  init: { key?: string | null; method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  let body: BodyInit | undefined;
  if (parts.body !== undefined && (init.method ?? op.method) !== "GET") {
    body = typeof parts.body === "string" || parts.body instanceof Uint8Array ? (parts.body as BodyInit) : JSON.stringify(wireBody(op, parts.body));
    headers["content-type"] ??= "application/json";
  }
  return app.fetch(urlFor(op, parts), { key: init.key, method: init.method ?? op.method, headers, body });
}
