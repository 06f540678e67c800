import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createInterface } from "node:readline";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * `npx fdp-mcp` (bin/fdp-mcp.mjs): FDP's MCP server for desktop AI clients, which start MCP servers as
 * a local process over stdio. A transport-level pipe, not a second server: every JSON-RPC message read
 * on stdin is POSTed to a running FDP's `/api/mcp` with the key as `Authorization: Bearer`, and every
 * answer goes back on stdout unchanged, so the client sees FDP's own server (its serverInfo, tools,
 * resources and prompts) and nothing here restates them.
 *
 * Configured by the environment: `FDP_API_KEY` (required; never logged) and `FDP_BASE_URL` (default
 * `http://localhost:3000`). When FDP cannot answer a request (not running, a bad key, the rate limit,
 * a key without the `mcp` scope), that request is answered on stdout with a JSON-RPC error saying what
 * happened in plain words, with FDP's CONTRACT error message when it sent one; a notification that
 * fails is only logged. stdout carries JSON-RPC only: every log line goes to stderr.
 *
 * Imports only the SDK and Node built-ins (no `@/` alias): the bin shim runs this file through tsx
 * from wherever the client starts it, outside the repository's tsconfig.
 */

export const DEFAULT_BASE_URL = "http://localhost:3000";
/** JSON-RPC "server error" range: FDP (the upstream) could not answer the request. */
export const UPSTREAM_ERROR_CODE = -32000;
/** How long answers still in flight when stdin ends are waited for. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface ProxyConfig {
  apiKey: string;
  /** `<FDP_BASE_URL>/api/mcp`. */
  endpoint: URL;
}

export class ConfigError extends Error {}

/** The proxy's configuration from the environment, or a ConfigError saying what to set. */
export function readConfig(env: Record<string, string | undefined>): ProxyConfig {
  const apiKey = env.FDP_API_KEY?.trim();
  if (!apiKey) {
    throw new ConfigError("FDP_API_KEY is not set: set it to an FDP API key with the `mcp` scope (create one in the FDP dashboard under API keys).");
  }
  const raw = env.FDP_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let base: URL;
  try {
    base = new URL(raw);
  } catch {
    throw new ConfigError(`FDP_BASE_URL is not a URL (${JSON.stringify(raw)}): set it to the address FDP serves, e.g. ${DEFAULT_BASE_URL}.`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new ConfigError(`FDP_BASE_URL must be an http:// or https:// URL, not ${JSON.stringify(raw)}.`);
  }
  // FDP authenticates with the key, never with URL credentials; and a password in the URL would be
  // echoed in every error message. Refused without repeating it.
  if (base.username !== "" || base.password !== "") {
    throw new ConfigError("FDP_BASE_URL must not carry a user name or password (user:pass@host): FDP takes the key from FDP_API_KEY.");
  }
  // Relative to the base's own path: FDP behind a proxy at https://host/fdp is https://host/fdp/api/mcp.
  base.pathname = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
  return { apiKey, endpoint: new URL("api/mcp", base) };
}

export interface UpstreamFailure {
  /** One plain sentence (or two) for the person reading the client's error. */
  message: string;
  /** `data` of the JSON-RPC error: the HTTP status and FDP's CONTRACT body fields, when there were any. */
  data: { http_status?: number; error?: string; request_id?: string };
}

const STATUS_WORDS: Record<number, string> = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  405: "method not allowed",
  406: "not acceptable",
  413: "payload too large",
  415: "unsupported media type",
  429: "rate limited",
  500: "internal error",
  502: "bad gateway",
  503: "unavailable",
  504: "gateway timeout",
};

const HINTS: Record<number, string> = {
  401: "Check FDP_API_KEY.",
  403: "The key needs the `mcp` scope.",
  404: "Is FDP_BASE_URL the address of FDP?",
  429: "The key's rate limit is shared with its REST calls; wait a moment and try again.",
};

const POST_PREFIX = "Error POSTing to endpoint: ";

/** FDP's CONTRACT error body (`{error, message, request_id}`) in the text the SDK put in its error, if it is one. */
function contractBody(text: string): { error?: string; message?: string; request_id?: string } | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    const { error, message, request_id } = parsed as Record<string, unknown>;
    return {
      ...(typeof error === "string" ? { error } : {}),
      ...(typeof message === "string" ? { message } : {}),
      ...(typeof request_id === "string" ? { request_id } : {}),
    };
  } catch {
    return null;
  }
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return cause.message || (typeof code === "string" ? code : "");
  }
  return err instanceof Error ? err.message : String(err);
}

/** What went wrong talking to FDP, in plain words: the message of the JSON-RPC error the client sees. */
export function describeUpstreamFailure(err: unknown, endpoint: URL): UpstreamFailure {
  const where = `FDP at ${endpoint.href}`;
  if (err instanceof StreamableHTTPError && typeof err.code === "number" && err.code >= 100) {
    const status = err.code;
    const text = err.message.includes(POST_PREFIX) ? err.message.slice(err.message.indexOf(POST_PREFIX) + POST_PREFIX.length) : "";
    const body = contractBody(text);
    const code = body?.error ?? STATUS_WORDS[status] ?? "error";
    const detail = body?.message ?? (text.trim() ? text.trim().slice(0, 300) : "");
    const hint = HINTS[status];
    return {
      message: `${where} answered ${status} ${code}${detail ? `: ${detail}` : "."}${hint && !detail.includes(hint) ? ` ${hint}` : ""}`,
      data: { http_status: status, ...(body?.error ? { error: body.error } : {}), ...(body?.request_id ? { request_id: body.request_id } : {}) },
    };
  }
  if (err instanceof StreamableHTTPError) {
    // The SDK's own refusals of what came back (an unexpected content type).
    return { message: `${where} gave an answer the proxy cannot read (${err.message.replace(/^Streamable HTTP error: /, "")}). Is FDP_BASE_URL the address of FDP?`, data: {} };
  }
  if (err instanceof Error && err.name === "AbortError") {
    return { message: `The request to ${where} was cancelled: the proxy is closing.`, data: {} };
  }
  if (err instanceof TypeError) {
    // fetch's "fetch failed": the connection itself (refused, DNS, TLS).
    return { message: `${where} is not reachable (${causeText(err)}). Is FDP running, and is FDP_BASE_URL right?`, data: {} };
  }
  if (err instanceof SyntaxError) {
    return { message: `${where} answered something that is not JSON-RPC (${err.message}).`, data: {} };
  }
  return { message: `${where} could not answer: ${err instanceof Error ? err.message : String(err)}`, data: {} };
}

/** JSON-RPC 2.0 "Error object": codes for a line the proxy cannot pass on. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type Id = string | number;
const isId = (v: unknown): v is Id => typeof v === "string" || typeof v === "number";

export interface ProxyIo {
  stdin?: NodeJS.ReadableStream & { pause(): unknown };
  stdout?: NodeJS.WritableStream;
  log?: (line: string) => void;
}

export interface RunningProxy {
  /** Resolves when the proxy has closed (stdin ended, or close() was called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Starts the pipe between stdio and FDP's `/api/mcp`. */
export async function startProxy(config: ProxyConfig, io: ProxyIo = {}): Promise<RunningProxy> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const log = io.log ?? ((line: string) => void process.stderr.write(`fdp-mcp: ${line}\n`));

  const http = new StreamableHTTPClientTransport(config.endpoint, {
    requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } },
  });

  /** Ids of the `initialize` requests in flight: their answer sets the protocol version header. */
  const initializeIds = new Set<string | number>();
  let closing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  /** One JSON-RPC message per line on stdout (MCP stdio transport). */
  const toClient = (message: JSONRPCMessage | { jsonrpc: "2.0"; id: null; error: { code: number; message: string } }): void => {
    if (closing) return;
    stdout.write(`${JSON.stringify(message)}\n`);
  };
  const refuseLine = (id: Id | null, code: number, message: string): void => {
    log(message);
    if (id === null) toClient({ jsonrpc: "2.0", id: null, error: { code, message } });
    else toClient({ jsonrpc: "2.0", id, error: { code, message } });
  };

  http.onmessage = (message) => {
    if ("id" in message && message.id !== undefined && initializeIds.delete(message.id) && "result" in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") http.setProtocolVersion(version);
    }
    toClient(message);
  };
  // Every failure talking to FDP is one stderr line (send() also reports its own here, before it throws).
  http.onerror = (err) => {
    if (!closing) log(describeUpstreamFailure(err, config.endpoint).message);
  };

  /** Messages on their way to FDP: when stdin ends, their answers are still written before closing. */
  const inFlight = new Set<Promise<void>>();
  /**
   * Each line read on stdin. The proxy does not judge a message beyond what it needs to answer it:
   * any JSON object goes to FDP, which answers an invalid one (and the proxy passes its refusal on to
   * that request's id), so a malformed request never waits forever. Only what cannot be sent at all
   * (not JSON, not one object) is refused here, with the id when one can be read.
   */
  const onLine = (line: string): void => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      refuseLine(null, PARSE_ERROR, "Parse error: a line on stdin is not JSON (the stdio transport carries one JSON-RPC message per line).");
      return;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      refuseLine(null, INVALID_REQUEST, "Invalid request: each line must be one JSON-RPC message object (batches are not supported).");
      return;
    }
    const { id, method } = parsed as { id?: unknown; method?: unknown };
    if (id !== undefined && id !== null && !isId(id)) {
      refuseLine(null, INVALID_REQUEST, "Invalid request: a JSON-RPC id is a string or a number.");
      return;
    }
    const requestId = isId(id) && method !== undefined ? id : null;
    if (requestId !== null && method === "initialize") initializeIds.add(requestId);
    forward(parsed as JSONRPCMessage, requestId);
  };

  const forward = (message: JSONRPCMessage, requestId: Id | null): void => {
    const request = requestId === null ? null : { id: requestId };
    const sent = http.send(message).catch((err: unknown) => {
      if (request) initializeIds.delete(request.id);
      if (closing) return;
      // Already logged by http.onerror; a request also gets its answer, a notification nothing more.
      const failure = describeUpstreamFailure(err, config.endpoint);
      if (request) toClient({ jsonrpc: "2.0", id: request.id, error: { code: UPSTREAM_ERROR_CODE, message: failure.message, data: failure.data } });
    });
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  lines.on("line", onLine);

  const close = async (): Promise<void> => {
    if (closing) return closed;
    closing = true;
    lines.removeListener("close", onEnd);
    lines.close();
    await http.close().catch(() => {});
    resolveClosed();
    return closed;
  };
  // stdin ended: the client has said all it will. Answer what is in flight (a bounded wait), then close.
  const onEnd = (): void => {
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.allSettled([...inFlight]);
    const capped = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)));
    void Promise.race([drained, capped]).then(() => {
      clearTimeout(timer);
      return close();
    });
  };
  lines.on("close", onEnd);

  await http.start();
  return { closed, close };
}

/** The bin's entry point: exits 2 with one stderr line when the configuration is wrong, 0 when stdin ends. */
export async function main(): Promise<void> {
  let config: ProxyConfig;
  try {
    config = readConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`fdp-mcp: ${err.message}\n`);
    process.exit(2);
  }
  // A client that goes away mid-write closes our stdout: nothing more to say, so end quietly.
  process.stdout.on("error", () => process.exit(0));
  const proxy = await startProxy(config);
  const stop = (): void => void proxy.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.stderr.write(`fdp-mcp: proxying stdio to ${config.endpoint.href}\n`);
  await proxy.closed;
  // Pooled keep-alive sockets to FDP would keep the event loop up: leave once stdout has drained.
  process.stdout.write("", () => process.exit(0));
}
