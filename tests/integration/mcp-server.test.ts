import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { TOOL_NAMES } from "@/lib/mcp/tool-catalogue";
import { ROOT, startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { connectMcpClient } from "../helpers/mcp-client";

const run = promisify(execFile);

/**
 * The MCP server in the production build (`npm start` on a Postgres copy of the seeded sandbox; the embedded database is tests/integration/embedded-app.test.ts's),
 * driven by the tools a partner would use: the MCP Inspector's CLI (`npx @modelcontextprotocol/inspector
 * --cli`, as the README says) and the SDK's Client.
 */
describe("MCP on the built app", () => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let app: AppProcess;
  let client: Client;

  /** The Inspector CLI against this server with the sandbox key; stdout parsed as JSON. */
  async function inspector(args: string[]): Promise<{ json: Record<string, unknown>; stderr: string }> {
    const { stdout, stderr } = await run(
      "npx",
      ["--no-install", "@modelcontextprotocol/inspector", "--cli", `${app.url}/api/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${SANDBOX_KEY}`, ...args],
      { cwd: ROOT, timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    return { json: JSON.parse(stdout) as Record<string, unknown>, stderr };
  }

  beforeAll(async () => {
    pg = await createPostgresDatabase("fdp_it_mcp", "seeded");
    app = await startApp({ mode: "start", env: { DATABASE_URL: pg.url, REDIS_URL: undefined } });
    client = await connectMcpClient(app.url, SANDBOX_KEY);
  });

  afterAll(async () => {
    await client?.close();
    await app?.stop();
    await pg?.drop();
  });

  it("the Inspector CLI lists the 20 tools, and its strict schema-portability check finds nothing", async () => {
    const { json, stderr } = await inspector(["--method", "tools/list", "--strict"]);
    const tools = json.tools as { name: string; inputSchema: { type: string }; outputSchema: { type: string } }[];
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema.type).toBe("object");
    }
    expect(stderr).not.toMatch(/Warning: tool|[1-9]\d* (errors|warnings)/);
  });

  it("the Inspector CLI calls a tool on the sandbox fleet: the REST answer, marked _sandbox, with a summary", async () => {
    const { json } = await inspector(["--method", "tools/call", "--tool-name", "get_tas_score", "--tool-arg", "device_id=sbx-004"]);
    const structured = json.structuredContent as Record<string, unknown>;
    expect(structured._sandbox).toBe(true);
    const rest = (await (await fetch(`${app.url}/api/v1/tas/sbx-004`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } })).json()) as Record<string, unknown>;
    const { generated_at: _g1, data_quality: dq1, ...mcpRest } = structured;
    const { generated_at: _g2, data_quality: dq2, ...restRest } = rest;
    expect(mcpRest).toEqual(restRest);
    expect((dq1 as { latest_telemetry_at: string }).latest_telemetry_at).toBe((dq2 as { latest_telemetry_at: string }).latest_telemetry_at);
    const summary = (json.content as { type: string; text: string }[])[0]!.text;
    expect(summary).toContain(`TAS ${String(rest.tas_grade)} (${String(rest.tas_score)}) for sbx-004`);
  });

  it("serves the methodology pages from the checkout it runs in", async () => {
    const page = await client.readResource({ uri: "fdp://methodology/charging" });
    expect((page.contents[0] as { text: string }).text).toBe(readFileSync(path.join(ROOT, "docs/methodology/charging.md"), "utf8"));
  });

  it("the SDK client sees fdp 1.3.2 and the sandbox fleet", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "fdp", version: "1.3.2" });
    const fleet = await client.callTool({ name: "list_fleet", arguments: { limit: 500 } });
    const data = (fleet.structuredContent as { data: { device_id: string }[] }).data;
    expect(data.length).toBeGreaterThanOrEqual(40);
    // The sandbox's ids: sbx-<n>, and its two feed vehicles' (docs/sandbox-data.md "Feeds").
    expect(data.filter((d) => !/^(sbx-\d{3}|oem-[A-HJ-NPR-Z0-9]{17}|traccar-\d{15})$/.test(d.device_id))).toEqual([]);
    expect(data.filter((d) => !d.device_id.startsWith("sbx-"))).toHaveLength(2);
  });

  it("`npx fdp-mcp` (the package's bin, as a desktop client starts it) proxies to this server", async () => {
    const stdio = new Client({ name: "desktop-client", version: "0.0.0" });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"));
    await stdio.connect(
      new StdioClientTransport({
        command: "npx",
        args: ["--prefix", ROOT, "fdp-mcp"],
        cwd: path.parse(ROOT).root,
        env: { ...env, FDP_API_KEY: SANDBOX_KEY, FDP_BASE_URL: app.url },
        stderr: "pipe",
      }),
    );
    try {
      expect(stdio.getServerVersion()).toMatchObject({ name: "fdp", version: "1.3.2" });
      expect((await stdio.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const viaStdio = await stdio.callTool({ name: "get_eol_summary", arguments: { device_id: "sbx-007" } });
      const viaHttp = await client.callTool({ name: "get_eol_summary", arguments: { device_id: "sbx-007" } });
      const { generated_at: _a, ...stdioAnswer } = viaStdio.structuredContent as Record<string, unknown>;
      const { generated_at: _b, ...httpAnswer } = viaHttp.structuredContent as Record<string, unknown>;
      expect(stdioAnswer).toEqual(httpAnswer);
      expect((viaStdio.structuredContent as { _sandbox?: boolean })._sandbox).toBe(true);
    } finally {
      await stdio.close();
    }
  });
});
