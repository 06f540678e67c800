import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ToolEntry } from "@/lib/mcp/tool-catalogue";
import { toolInputJsonSchema } from "@/lib/mcp/tool-json-schema";
import type { RequestParts } from "./operation-requests";

/** The SDK's real Client over Streamable HTTP to `<base>/api/mcp` with a Bearer key (or none). */
export async function connectMcpClient(baseUrl: string, key: string | null): Promise<Client> {
  const client = new Client({ name: "fdp-tests", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", baseUrl), {
    requestInit: key ? { headers: { Authorization: `Bearer ${key}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/**
 * A REST request's parts as the tool's arguments, typed the way the tool's JSON Schema advertises them
 * (a client following the schema sends `2`, not `"2"`, for an integer query parameter). Fields the tool
 * fixes (`format`) are left out.
 */
export function toolArgsFor(entry: ToolEntry, parts: RequestParts): Record<string, unknown> {
  const properties = toolInputJsonSchema(entry.operation, entry.fixed).properties as Record<string, { type?: string }>;
  const flat: Record<string, unknown> = { ...(parts.body as object | undefined), ...parts.query, ...parts.path };
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    if (!(name in properties)) continue;
    const type = properties[name]?.type;
    args[name] = typeof value !== "string" ? value : type === "integer" || type === "number" ? Number(value) : type === "boolean" ? value === "true" : value;
  }
  return args;
}

/** The parts of the REST request a tool call stands for: the arguments plus what the tool fixes. */
export function restPartsFor(entry: ToolEntry, parts: RequestParts): RequestParts {
  return { ...parts, query: { ...parts.query, ...entry.fixed } };
}
