import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOGUE, type ToolEntry } from "@/lib/mcp/tool-catalogue";

/**
 * docs/mcp.md's tool table, regenerated from the catalogue: a tool added, renamed, retitled or given
 * another scope or REST twin fails here until the committed table says the same (the expected table
 * is printed in the diff: paste it over the old one).
 */
const DOC = path.resolve(import.meta.dirname, "../../../docs/mcp.md");

function row(entry: ToolEntry): string {
  const op = entry.operation;
  const fixed = entry.fixed
    ? ` (${Object.entries(entry.fixed)
        .map(([k, v]) => `\`${k}=${v}\``)
        .join(", ")})`
    : "";
  const scope = "scope" in op.access ? `\`${op.access.scope}\`` : "none (public on REST)";
  return `| \`${entry.name}\` | ${entry.title} | \`${op.method} ${op.path}\`${fixed} | ${scope} |`;
}

function toolTable(): string {
  return ["| Tool | Title | REST twin | Scope |", "|---|---|---|---|", ...TOOL_CATALOGUE.map(row)].join("\n");
}

/** The committed table: from its header row to the first line that is not a table row. */
function committedTable(markdown: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| Tool |"));
  expect(start, "docs/mcp.md has no tool table").toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

describe("docs/mcp.md", () => {
  it("lists the catalogue's tools as the catalogue has them", () => {
    expect(committedTable(readFileSync(DOC, "utf8"))).toBe(toolTable());
  });

  it("gives the tool count of the catalogue in its heading", () => {
    expect(readFileSync(DOC, "utf8")).toContain(`## Tools: ${TOOL_CATALOGUE.length}, generated from the operation registry`);
  });
});
