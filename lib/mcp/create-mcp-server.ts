import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { callTool, type McpCaller } from "./call-tool";
import { listMethodologyResources, readMethodologyResource } from "./methodology-resources";
import { getPrompt, promptDefinitions } from "./prompts";
import { toolDefinitions } from "./tool-definitions";

/**
 * Requests whose params the handlers judge themselves (any JSON), so that a wrong type is a clear
 * invalid-params error (prompts, resources) or a tool error (tools), never the SDK's -32603 with a zod
 * dump.
 */
const RawCallToolRequestSchema = z.object({ method: z.literal("tools/call"), params: z.unknown().optional() });
const RawReadResourceRequestSchema = z.object({ method: z.literal("resources/read"), params: z.unknown().optional() });
const RawGetPromptRequestSchema = z.object({ method: z.literal("prompts/get"), params: z.unknown().optional() });
/** The lists have one page: any `cursor` (of any type) is ignored rather than a zod dump. */
const RawListToolsRequestSchema = z.object({ method: z.literal("tools/list"), params: z.unknown().optional() });
const RawListResourcesRequestSchema = z.object({ method: z.literal("resources/list"), params: z.unknown().optional() });
const RawListPromptsRequestSchema = z.object({ method: z.literal("prompts/list"), params: z.unknown().optional() });

/** CONTRACT "Names and addresses": the MCP surface carries its own version. */
export const MCP_SERVER_VERSION = "1.3.2";
const MCP_SERVER_NAME = "fdp";

const INSTRUCTIONS = [
  "FDP turns vehicle telemetry into data products for leasing companies and insurers. Every tool answers for the",
  "tenant of the API key only; another tenant's vehicle is `not_found`. Device ids look like `sbx-001`: call",
  "`list_fleet` to find them. Scores and predictions carry their method version, confidence and data-quality",
  "caveats: quote them with the figure. The methodology pages are resources (`fdp://methodology/<score>`).",
  "Tool errors are results with `isError` and the error body `{error, message, details?}`: `invalid_request`",
  "(fix the arguments named in `details`), `forbidden` (the key lacks the tool's scope), `not_found`,",
  "`unprocessable` (the vehicle cannot answer this, e.g. no odometer yet), `rate_limited`.",
].join(" ");

/**
 * One MCP server per HTTP request (stateless: STACK.md), bound to the caller the endpoint authorised.
 * The low-level `Server` rather than `McpServer`: tools are listed with JSON Schemas derived from the
 * operation registry and validated by the operations' own zod parsers, so that validation failures are
 * the CONTRACT's error body (`invalid_request` with `details`), which `McpServer.registerTool` cannot give.
 */
export function createMcpServer(caller: McpCaller): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, title: "FDP — Fleet Data Products", version: MCP_SERVER_VERSION },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(RawListToolsRequestSchema, async () => ({ tools: toolDefinitions() }));
  // A tools/call's params reach callTool as sent: `Server.setRequestHandler` would first parse them
  // with the SDK's schema and answer a wrong type (arguments as an array, a numeric name) with a
  // protocol error, and its record parsing drops a `__proto__` argument. CONTRACT: every tool error,
  // input validation included, is an isError result with the error body, so the tool judges them all.
  Protocol.prototype.setRequestHandler.call(server, RawCallToolRequestSchema, async (request: z.output<typeof RawCallToolRequestSchema>) =>
    callTool({ caller, params: request.params }),
  );
  server.setRequestHandler(RawListResourcesRequestSchema, async () => ({ resources: await listMethodologyResources() }));
  server.setRequestHandler(RawReadResourceRequestSchema, async (request) => {
    const uri = (request.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "resources/read needs `params.uri`, a string such as fdp://methodology/tas.");
    const page = await readMethodologyResource(uri);
    // MCP 2025-06-18 "Resources / Error handling": resource not found is -32002.
    if (!page) throw new McpError(-32002, `No resource ${uri.slice(0, 200)}; resources/list lists the methodology pages.`, { uri: uri.slice(0, 200) });
    return { contents: [page] };
  });
  server.setRequestHandler(RawListPromptsRequestSchema, async () => ({ prompts: promptDefinitions() }));
  server.setRequestHandler(RawGetPromptRequestSchema, async (request) => getPrompt(request.params));
  return server;
}
