import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/** The CONTRACT's error codes: the `error` member of every error answer. */
export type FdpErrorCode = components["schemas"]["Error"]["error"];
/** The CONTRACT's error envelope. */
export type FdpErrorBody = components["schemas"]["Error"];

/** A typed FDP client: openapi-fetch's, with paths relative to `/api/v1` (`client.GET("/fleet")`). */
export type FdpClient = Client<paths>;

export interface FdpClientOptions {
  /** The deployment's origin, e.g. `https://fdp.example.com` (`/api/v1` is added). */
  baseUrl: string;
  /** An API key from the dashboard (`fdp_live_…`), or the public sandbox key. */
  apiKey: string;
  /** Retries of a 429, or of a 503 that says `Retry-After`, after waiting what it says (default 3). */
  maxRetries?: number;
  /** The longest `Retry-After` waited, in seconds (default 60); a longer one is answered at once. */
  maxRetryDelaySeconds?: number;
  /** Told before each retry (logging, tests). */
  onRetry?: (retry: { attempt: number; status: number; retryAfterSeconds: number; url: string }) => void;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A client for one deployment and key. Every call returns openapi-fetch's `{ data, error, response }`:
 * `data` typed by the operation's success answer, `error` by its error answers (the CONTRACT's
 * envelope). `orThrow` turns that into the data or an FdpApiError.
 */
export function createFdpClient(options: FdpClientOptions): FdpClient {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, "")}/api/v1`,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options),
  });
}

/**
 * Sends a request again when FDP says when to: a 429 (a rate limit: nothing was done) or a 503 with
 * `Retry-After` (the database was unreachable: a write is all or nothing, so nothing was stored). It waits
 * the seconds `Retry-After` gives, at most `maxRetryDelaySeconds`; past that, or after `maxRetries`, the
 * answer goes back to the caller as it is.
 */
function retryingFetch({ maxRetries = 3, maxRetryDelaySeconds = 60, onRetry, fetch: send = (r) => globalThis.fetch(r) }: FdpClientOptions) {
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      // A body can be sent once: each attempt sends a copy, the original stays unread for the next.
      const response = await send(request.clone());
      const retryAfterSeconds = retryAfterOf(response);
      const retryable = response.status === 429 || (response.status === 503 && retryAfterSeconds !== null);
      if (!retryable || attempt > maxRetries || retryAfterSeconds === null || retryAfterSeconds > maxRetryDelaySeconds) return response;
      await response.body?.cancel();
      onRetry?.({ attempt, status: response.status, retryAfterSeconds, url: request.url });
      await new Promise((resolve) => setTimeout(resolve, retryAfterSeconds * 1000));
    }
  };
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
function retryAfterOf(response: Response): number | null {
  const value = response.headers.get("retry-after");
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** An error answer of FDP, with the CONTRACT's code, the request id to quote, and when to retry. */
export class FdpApiError extends Error {
  readonly status: number;
  /** The CONTRACT's code, or `unexpected_response` for an answer that is not the envelope (a proxy's page). */
  readonly code: FdpErrorCode | "unexpected_response";
  readonly requestId: string | null;
  readonly details: FdpErrorBody["details"];
  /** From `Retry-After` (429, 503): when the same request may be sent again. */
  readonly retryAfterSeconds: number | null;

  constructor(response: Response, body: unknown) {
    const envelope = isEnvelope(body) ? body : null;
    super(envelope ? `${response.status} ${envelope.error}: ${envelope.message}` : `${response.status}: the answer is not FDP's error envelope`);
    this.name = "FdpApiError";
    this.status = response.status;
    this.code = envelope?.error ?? "unexpected_response";
    this.requestId = envelope?.request_id ?? response.headers.get("x-request-id");
    this.details = envelope?.details;
    this.retryAfterSeconds = retryAfterOf(response);
  }
}

function isEnvelope(body: unknown): body is FdpErrorBody {
  return typeof body === "object" && body !== null && typeof (body as FdpErrorBody).error === "string" && typeof (body as FdpErrorBody).message === "string";
}

/** The data of a call, or an FdpApiError for its error answer: `const fleet = await orThrow(fdp.GET("/fleet"))`. */
export async function orThrow<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new FdpApiError(response, error);
  return data as T;
}

type EventsQuery = NonNullable<paths["/events"]["get"]["parameters"]["query"]>;
type EventsPage = components["schemas"]["EventsPage"];

/**
 * Every event from `query.after` (default: the oldest kept) to the newest, page by page, following
 * `next_cursor` while `has_more` says more follow. Keep the last page's `next_cursor` to poll from later.
 */
export async function* eventPages(client: FdpClient, query: Omit<EventsQuery, "after"> & { after?: string } = {}): AsyncGenerator<EventsPage> {
  let after = query.after;
  for (;;) {
    const page = await orThrow(client.GET("/events", { params: { query: { ...query, ...(after === undefined ? {} : { after }) } } }));
    yield page;
    if (!page.has_more) return;
    after = page.next_cursor;
  }
}

/**
 * Options for `fdp.POST("/oem/ingest", …)` (or a feed's path) that sign the body with the tenant's ingest
 * secret: `X-FDP-Signature: t=<unix seconds>,sha256=<hex>`, an HMAC-SHA256 over `<t>.<the exact bytes sent>`,
 * the contract's recommended form. A signature is accepted once and for 300 s: sign each request when you
 * send it (a retry of a refused request may send the same one).
 *
 *   await orThrow(fdp.POST("/oem/ingest", await signedIngest({ vehicles }, process.env.FDP_INGEST_SECRET!)));
 */
export async function signedIngest<T>(
  body: T,
  ingestSecret: string,
  now: number = Date.now(),
): Promise<{ body: T; bodySerializer: () => string; headers: { "X-FDP-Signature": string } }> {
  const raw = JSON.stringify(body);
  const t = Math.floor(now / 1000);
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(ingestSecret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${t}.${raw}`)));
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  return { body, bodySerializer: () => raw, headers: { "X-FDP-Signature": `t=${t},sha256=${hex}` } };
}
