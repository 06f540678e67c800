import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { callTool, type McpCaller } from "./call-tool";
import { listMethodologyResources, readMethodologyResource } from "./methodology-resources";
import { getPrompt, promptDefinitions } from "./prompts";
import { toolDefinitions } from "./tool-definitions";

/** CONTRACT "Names and addresses": the MCP surface carries its own version. */
export const MCP_SERVER_VERSION = "1.3.2";
export const MCP_SERVER_NAME = "fdp";

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
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolDefinitions() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool({ caller, name: request.params.name, args: request.params.arguments }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listMethodologyResources() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const page = await readMethodologyResource(request.params.uri);
    // MCP 2025-06-18 "Resources / Error handling": resource not found is -32002.
    if (!page) throw new McpError(-32002, `No resource ${request.params.uri}; resources/list lists the methodology pages.`, { uri: request.params.uri });
    return { contents: [page] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptDefinitions() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
