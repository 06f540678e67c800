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
  const payload =
    decor.isSandbox && body !== null && typeof body === "object" && !Array.isArray(body) ? { ...body, _sandbox: true } : body;
  const res = Response.json(payload, { status });
  return decorate(res, decor);
}

export function decorate(res: Response, decor: ResponseDecor): Response {
  res.headers.set("X-Request-Id", decor.requestId);
  for (const [name, value] of Object.entries(decor.headers ?? {})) res.headers.set(name, value);
  if (decor.isSandbox && !(res.headers.get("content-type") ?? "").includes("json")) res.headers.set("X-Sandbox", "true");
  return res;
}

export function errorResponse(err: unknown, decor: ResponseDecor): Response {
  const { status, body } = errorBodyFor(err, decor.requestId, decor.log);
  return jsonResponse(body, status, decor);
}
