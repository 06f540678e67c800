import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolEntry } from "./tool-catalogue";
import { TOOL_CATALOGUE } from "./tool-catalogue";
import { toolInputJsonSchema, toolOutputJsonSchema } from "./tool-json-schema";
import { methodologyUriOf } from "./methodology-resources";

/** How a tool's REST twin is reached and what it needs, for the tool's description. */
function accessNote(entry: ToolEntry): string {
  const op = entry.operation;
  const twin = `REST twin: ${op.method} /api/v1${op.path}`;
  if ("scope" in op.access) return `Needs the key scope \`${op.access.scope}\` (${twin}).`;
  return `Needs no scope besides \`mcp\` (${twin}, public on REST).`;
}

/** Method pages are served as MCP resources: `docs/methodology/tas.md` reads `fdp://methodology/tas`. */
function withResourceLinks(text: string): string {
  return text.replace(/docs\/methodology\/([a-z0-9-]+)\.md/g, (_m, stem: string) => methodologyUriOf(stem));
}

function description(entry: ToolEntry): string {
  const op = entry.operation;
  const fixedNote = entry.fixed
    ? ` This tool always answers JSON (${Object.entries(entry.fixed)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}); the other formats are on the REST endpoint.`
    : "";
  return withResourceLinks(`${op.summary}. ${op.description ?? ""}`.trim()) + fixedNote + " " + accessNote(entry);
}

/**
 * Annotations (MCP 2025-06-18 "Tool annotations"): every tool reads, except `generate_certificate`,
 * which issues a new certificate on each call (not idempotent, but destroys nothing). No tool reaches
 * outside FDP's own data on the caller's behalf (`openWorldHint: false`).
 */
function annotations(entry: ToolEntry): NonNullable<Tool["annotations"]> {
  const writes = entry.writes === true;
  return {
    title: entry.title,
    readOnlyHint: !writes,
    ...(writes ? { destructiveHint: false } : {}),
    idempotentHint: false,
    openWorldHint: false,
  };
}

let cached: Tool[] | undefined;

/** The `tools/list` answer: one tool per catalogue entry, every schema derived from its operation. */
export function toolDefinitions(): Tool[] {
  cached ??= TOOL_CATALOGUE.map((entry) => ({
    name: entry.name,
    title: entry.title,
    description: description(entry),
    inputSchema: toolInputJsonSchema(entry.operation, entry.fixed) as Tool["inputSchema"],
    outputSchema: toolOutputJsonSchema(entry.operation) as Tool["outputSchema"],
    annotations: annotations(entry),
  }));
  return cached;
}
