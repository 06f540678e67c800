import type { Logger } from "@/lib/log/logger";
import { errorBodyFor } from "./error-response";

export interface ResponseDecor {
  requestId: string;
  isSandbox: boolean;
  headers?: Record<string, string>;
  /** Where an unexpected error is logged (with the request id and operation); default the root logger. */
  log?: Logger;
}

/**
 * Finishes every /api answer the same way: X-Request-Id, rate-limit headers, and the sandbox
 * marker (`_sandbox: true` in JSON bodies, `X-Sandbox: true` on CSV/PDF).
 */
export function jsonResponse(body: unknown, status: number, decor: ResponseDecor): Response {
  const payload = decor.isSandbox && body !== null && typeof body === "object" && !Array.isArray(body) ? { ...body, _sandbox: true } : body;
  // As `Response.json` (the same JSON.stringify, the same Content-Type, a TypeError for what has no
  // JSON text), serialised once and kept for the direct routes (jsonBodyOf). A string body is encoded
  // by the Response only if its stream is read (Next.js's routes), where bytes would be copied at once.
  const text = JSON.stringify(payload) as string | undefined;
  if (text === undefined) throw new TypeError("Value is not JSON serializable");
  const res = new Response(text, { status, headers: { "content-type": "application/json" } });
  jsonBodies.set(res, text);
  return decorate(res, decor);
}

/**
 * The JSON text of a Response made by jsonResponse, so that lib/http/write-answer.ts writes it as it is
 * instead of encoding it into the Response's stream and reading that back into a Buffer (about 0.3 ms
 * and 256 KB of garbage per 128 KB answer; docs/performance.md "The read path against its floor").
 * Keyed by the Response object itself: a Response rebuilt from another's body (a 405) is not in it,
 * and is read back.
 */
const jsonBodies = new WeakMap<Response, string>();

/** The JSON text of `res`'s body when jsonResponse made it and nothing has read its stream yet; else null. */
export function jsonBodyOf(res: Response): string | null {
  if (res.bodyUsed) return null;
  return jsonBodies.get(res) ?? null;
}

export function decorate(res: Response, decor: ResponseDecor): Response {
  res.headers.set("X-Request-Id", decor.requestId);
  for (const [name, value] of Object.entries(decor.headers ?? {})) res.headers.set(name, value);
  if (decor.isSandbox && !(res.headers.get("content-type") ?? "").includes("json")) res.headers.set("X-Sandbox", "true");
  return res;
}

export function errorResponse(err: unknown, decor: ResponseDecor): Response {
  const { status, body, headers } = errorBodyFor(err, decor.requestId, decor.log);
  return jsonResponse(body, status, { ...decor, headers: { ...decor.headers, ...headers } });
}
