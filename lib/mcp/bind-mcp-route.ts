import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { env } from "@/lib/env";
import { ForbiddenError, UnsupportedMediaTypeError, type ErrorCode } from "@/lib/errors";
import { authorizeKey } from "@/lib/http/authorize";
import { baseDecor, routeHandlers, type RouteHandlers } from "@/lib/http/bind-route";
import { isJsonContentType, JSON_BODY_MAX_BYTES } from "@/lib/http/read-input";
import { readBodyLimited } from "@/lib/http/read-body";
import { decorate, errorResponse, jsonResponse, type ResponseDecor } from "@/lib/http/respond";
import { inspectJson } from "@/lib/json/inspect-json";
import { bodyProblemError, JSON_BODY_MAX_DEPTH, parseIJsonObject } from "@/lib/json/parse-i-json";
import { requestLogger } from "@/lib/log/logger";
import { heavyCapKey } from "@/lib/operations/budget";
import { SERVICE_ROUTES } from "@/lib/operations/registry";
import { createMcpServer } from "./create-mcp-server";

/**
 * `/api/mcp`: MCP over Streamable HTTP, stateless (a server and a transport per request, JSON answers;
 * STACK.md). The edge is the REST binding's: request id → browser origin (403) → key (401 in the envelope, failures counted
 * per IP) → the key's rate limit, the same budget as its REST calls (every POST here is one request of
 * it) → the `mcp` scope (403) → a JSON body under the I-JSON rules (415/413/400). Then the SDK's
 * transport speaks JSON-RPC; each tool checks its REST twin's scope itself (lib/mcp/call-tool.ts).
 *
 * Only POST is served: with no sessions there is no stream for a GET to open, and nothing for a DELETE
 * to end (MCP "Streamable HTTP": a server without a GET stream answers 405).
 */

const MCP_SCOPE = "mcp";

/** The transport's own refusals (JSON-RPC error bodies) as the CONTRACT's codes, keeping their status. */
const CODE_BY_TRANSPORT_STATUS: Record<number, ErrorCode> = {
  400: "invalid_request",
  404: "not_found",
  405: "invalid_request",
  406: "invalid_request",
  409: "invalid_request",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/**
 * Every answer under /api is in the CONTRACT's envelope: a transport-level refusal (a missing `Accept`,
 * an unsupported protocol version, a body that is not JSON-RPC) keeps its status and its message, in
 * `{error, message, request_id}` instead of a JSON-RPC error object.
 */
async function inEnvelope(res: Response, decor: ResponseDecor): Promise<Response> {
  if (res.status < 400) {
    // The JSON-RPC envelope admits no extra member (the SDK's schemas are strict), so the sandbox
    // marker rides in each tool result's structuredContent and, for the whole answer, in this header.
    if (decor.isSandbox) res.headers.set("X-Sandbox", "true");
    return decorate(res, decor);
  }
  const text = await res.text();
  let message = `The MCP transport refused the request (HTTP ${res.status}).`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") message = parsed.error.message;
  } catch {
    // Not JSON: keep the generic sentence.
  }
  const code = CODE_BY_TRANSPORT_STATUS[res.status] ?? "internal_error";
  const out = jsonResponse({ error: code, message, request_id: decor.requestId }, res.status, decor);
  const allow = res.headers.get("allow");
  if (allow) out.headers.set("Allow", allow);
  return out;
}

/**
 * The message without a `tools/call`'s arguments: everything else in it must be storable I-JSON here,
 * at the edge (a 400). The arguments' strings and numbers are the tool's input, judged by the tool
 * after its name and scope (a NUL in a device id is that tool's `invalid_request`, CONTRACT "Settled
 * details"), in the same order as any other invalid argument.
 */
function withoutToolArguments(message: Record<string, unknown>): Record<string, unknown> {
  const params = message.params;
  if (message.method !== "tools/call" || params === null || typeof params !== "object" || Array.isArray(params)) return message;
  const { arguments: _arguments, ...rest } = params as Record<string, unknown>;
  return { ...message, params: rest };
}

/**
 * MCP "Streamable HTTP / Security": servers must validate `Origin` (a web page must not reach an MCP
 * server through DNS rebinding). A request without one (every non-browser client) passes; a browser's
 * must come from PUBLIC_BASE_URL's origin, the one origin this deployment serves pages from. Not from
 * the request's own Host: under DNS rebinding the attacker's name is the Host. Cross-origin browser
 * clients are not served (they would need CORS, which this API does not offer).
 */
function originAllowed(req: Request): boolean {
  const origin = req.headers.get("origin");
  if (origin === null) return true;
  try {
    return new URL(origin).origin === new URL(env().PUBLIC_BASE_URL).origin;
  } catch {
    return false;
  }
}

async function handleMcpPost(req: Request): Promise<Response> {
  const base = baseDecor(req);
  const decor = { ...base, log: requestLogger({ requestId: base.requestId, operation: "mcp", traceparent: req.headers.get("traceparent") }) } satisfies ResponseDecor;
  try {
    if (!originAllowed(req)) {
      throw new ForbiddenError("This MCP endpoint accepts browser requests only from this deployment's own origin (PUBLIC_BASE_URL); the Origin header names another.");
    }
    const { ctx, principal } = await authorizeKey(req, decor, MCP_SCOPE);
    if (!isJsonContentType(req.headers.get("content-type"))) {
      throw new UnsupportedMediaTypeError("MCP messages are JSON: send `Content-Type: application/json` (UTF-8).");
    }
    // One JSON-RPC message per request (MCP 2025-06-18 removed batches; a batch would also spend one
    // unit of the rate limit on many calls): an array is refused as any non-object body is.
    const body = parseIJsonObject(await readBodyLimited(req, JSON_BODY_MAX_BYTES), { checkValues: false });
    const { problem } = inspectJson(withoutToolArguments(body), JSON_BODY_MAX_DEPTH);
    if (problem) throw bodyProblemError(problem);
    const server = createMcpServer({ ctx, scopes: principal.scopes, requestId: base.requestId, capKey: heavyCapKey(ctx, req) });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await inEnvelope(await transport.handleRequest(req, { parsedBody: body }), decor);
    } finally {
      await server.close();
    }
  } catch (err) {
    return errorResponse(err, decor);
  }
}

export function bindMcpRoute(): RouteHandlers {
  const { methods } = SERVICE_ROUTES.mcp;
  return routeHandlers(methods, (method) => (method === "POST" ? handleMcpPost : undefined));
}
