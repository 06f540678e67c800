import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { UnsupportedMediaTypeError, ValidationError, type ErrorCode } from "@/lib/errors";
import { authorizeKey } from "@/lib/http/authorize";
import { baseDecor, routeHandlers, type RouteHandlers } from "@/lib/http/bind-route";
import { isJsonContentType, JSON_BODY_MAX_BYTES } from "@/lib/http/read-input";
import { readBodyLimited } from "@/lib/http/read-body";
import { decorate, errorResponse, jsonResponse, type ResponseDecor } from "@/lib/http/respond";
import { parseIJsonObject } from "@/lib/json/parse-i-json";
import { requestLogger } from "@/lib/log/logger";
import { SERVICE_ROUTES } from "@/lib/operations/registry";
import { toolErrorResult, type McpCaller } from "./call-tool";
import { createMcpServer } from "./create-mcp-server";

/**
 * `/api/mcp`: MCP over Streamable HTTP, stateless (a server and a transport per request, JSON answers;
 * STACK.md). The edge is the REST binding's: request id → key (401 in the envelope, failures counted
 * per IP) → the key's rate limit, the same budget as its REST calls (every POST here is one request of
 * it) → the `mcp` scope (403) → a JSON body under the I-JSON rules (415/413/400). Then the SDK's
 * transport speaks JSON-RPC; each tool checks its REST twin's scope itself (lib/mcp/call-tool.ts).
 *
 * Only POST is served: with no sessions there is no stream for a GET to open, and nothing for a DELETE
 * to end (MCP "Streamable HTTP": a server without a GET stream answers 405).
 */

const MCP_ACCESS = { scope: "mcp" } as const;

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

const ARGUMENTS_PATH = "params.arguments.";

/**
 * A body that breaks the I-JSON rules only inside a `tools/call`'s arguments (a NUL or a lone surrogate
 * in a device id) is well-formed JSON-RPC with an invalid tool input: CONTRACT "Settled details" makes
 * that a tool error (`invalid_request`, the field named as the tool knows it), not an HTTP refusal of
 * the whole message. Anything else (invalid JSON, duplicate names, nesting, a problem outside the
 * arguments) stays the edge's 400.
 */
function toolArgumentRefusal(bytes: Uint8Array, err: unknown, caller: McpCaller): Response | null {
  if (!(err instanceof ValidationError)) return null;
  const detail = err.details?.[0];
  if (!detail?.field.startsWith(ARGUMENTS_PATH) || /duplicate|nests deeper/.test(detail.message)) return null;
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
  if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number")) return null;
  const field = detail.field.slice(ARGUMENTS_PATH.length);
  const invalid = new ValidationError(`Invalid input (${field}: ${detail.message}).`, [{ field, message: detail.message }]);
  return Response.json({ jsonrpc: "2.0", id, result: toolErrorResult(invalid, caller) });
}

async function handleMcpPost(req: Request): Promise<Response> {
  const base = baseDecor(req);
  const decor = { ...base, log: requestLogger({ requestId: base.requestId, operation: "mcp" }) } satisfies ResponseDecor;
  try {
    const { ctx, principal } = await authorizeKey(MCP_ACCESS, req, decor);
    if (!isJsonContentType(req.headers.get("content-type"))) {
      throw new UnsupportedMediaTypeError("MCP messages are JSON: send `Content-Type: application/json` (UTF-8).");
    }
    const bytes = await readBodyLimited(req, JSON_BODY_MAX_BYTES);
    let body: Record<string, unknown>;
    try {
      body = parseIJsonObject(bytes);
    } catch (err) {
      const toolError = toolArgumentRefusal(bytes, err, { ctx, scopes: principal.scopes, requestId: base.requestId });
      if (toolError) return decorate(toolError, { ...decor, headers: { ...decor.headers, ...(decor.isSandbox ? { "X-Sandbox": "true" } : {}) } });
      throw err;
    }
    const server = createMcpServer({ ctx, scopes: principal.scopes, requestId: base.requestId });
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
