import { randomUUID } from "node:crypto";

const INCOMING_ID_RE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Keeps a caller's well-formed X-Request-Id (for tracing across services), else makes one. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && INCOMING_ID_RE.test(incoming) ? incoming : `req_${randomUUID().replaceAll("-", "")}`;
}

export function requestIdFor(req: Request): string {
  return requestIdFrom(req.headers.get("x-request-id"));
}
