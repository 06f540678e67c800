import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { describeUpstreamFailure, readConfig } from "@/lib/mcp/stdio-proxy";
import { TOOL_CATALOGUE, type ToolEntry } from "@/lib/mcp/tool-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices, issueCertificate } from "../helpers/fixtures";
import { connectMcpClient, toolArgsFor } from "../helpers/mcp-client";
import { exampleParts, type RequestParts } from "../helpers/operation-requests";
import { startRouteServer, type RouteServer, unlimitedEdgeEnv } from "../helpers/route-server";

/**
 * `npx fdp-mcp` (bin/fdp-mcp.mjs → lib/mcp/stdio-proxy.ts): the real proxy process, started by the SDK's
 * real Client over stdio, against the real route server and database. Every answer through the proxy
 * is compared with the same request's answer over Streamable HTTP: the desktop client must see FDP's
 * own server, unchanged. Plus what only the proxy does: FDP's refusals of the key as plain JSON-RPC
 * errors (not a hang), and its configuration errors as a non-zero exit.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/fdp-mcp.mjs");
const OWN = "dev-a";
const FOREIGN = "dev-b";
const SANDBOX_DEVICE = "sbx-001";
/** Old enough that "N h old" stays put between the two calls compared. */
const DATA_TS = new Date(Date.now() - 10 * 3_600_000);

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let mcpOnly: Awaited<ReturnType<typeof createTenantWithKey>>;
let noMcp: Awaited<ReturnType<typeof createTenantWithKey>>;
let certificate: string;
let http: Client;
let stdio: Proxied;

interface Proxied {
  client: Client;
  /** Everything the proxy wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The environment of a proxy process: the test's own, as strings, with the given keys set or removed. */
function proxyEnv(over: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string | undefined> = { ...process.env, ...over };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** `node bin/fdp-mcp.mjs` with plain pipes, for what the SDK's client does not show (exit codes, raw stdout). */
function spawnProxy(env: Record<string, string>) {
  return spawn(process.execPath, [BIN], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: "pipe" });
}

/** Starts `node bin/fdp-mcp.mjs` under the SDK's stdio client and connects (initialize) through it. */
async function connectStdio(key: string, baseUrl = app.url): Promise<Proxied> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], cwd: ROOT, env: proxyEnv({ FDP_API_KEY: key, FDP_BASE_URL: baseUrl }), stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const client = new Client({ name: "fdp-stdio-tests", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (e) {
    await transport.close().catch(() => {});
    throw Object.assign(e as Error, { stderr: err });
  }
  return { client, stderr: () => err, close: () => client.close() };
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  a = await createTenantWithKey(db);
  const b = await createTenantWithKey(db);
  mcpOnly = await createTenantWithKey(db, { scopes: ["mcp"] });
  noMcp = await createTenantWithKey(db, { scopes: ["fleet:read", "scores:read", "predictions:read", "certificates:write", "reports:read"] });
  await insertDevices(db, a.tenantId, [{ deviceId: OWN, odometerKm: 12_345, socPct: 55, powertrain: "BEV", batteryKwh: 64, ts: DATA_TS }]);
  await insertDevices(db, b.tenantId, [{ deviceId: FOREIGN, odometerKm: 5_000, socPct: 40, powertrain: "BEV", batteryKwh: 50, ts: DATA_TS }]);
  await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
  await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: SANDBOX_DEVICE, odometerKm: 23_456, socPct: 60, powertrain: "BEV", batteryKwh: 72, ts: DATA_TS }]);
  certificate = await issueCertificate(db, a.tenantId, OWN);
  app = await startRouteServer({
    db: tdb.handle,
    env: unlimitedEdgeEnv(tdb.url),
  });
  http = await connectMcpClient(app.url, a.key);
  stdio = await connectStdio(a.key);
});

afterAll(async () => {
  await stdio?.close();
  await http?.close();
  await app?.close();
  await tdb?.dispose();
});

/** The example request of the tool's operation, aimed at `device` (and the own certificate). */
function partsFor(entry: ToolEntry, device = OWN): RequestParts {
  const op = entry.operation;
  const parts = exampleParts(op, {
    path: { ...(op.pathParams.includes("device_id") ? { device_id: device } : {}), ...(op.pathParams.includes("certificate_number") ? { certificate_number: certificate } : {}) },
  });
  const body = parts.body as Record<string, unknown> | undefined;
  if (body && Array.isArray(body.device_ids)) parts.body = { ...body, device_ids: [device, FOREIGN] };
  return parts;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

/** What legitimately differs between two calls a moment apart: when each answer was made, the data's age, the request id. */
const VOLATILE = new Set(["generated_at", "fetched_at", "data_age_seconds", "request_id"]);
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, stable(v)]),
  );
}

/** The same call through the proxy and over HTTP: both results, the proxy's first. */
async function both(name: string, args: Record<string, unknown>, clients: [Client, Client] = [stdio.client, http]): Promise<[CallToolResult, CallToolResult]> {
  return [await call(clients[0], name, args), await call(clients[1], name, args)];
}

function expectSameToolError(viaStdio: CallToolResult, viaHttp: CallToolResult, code: string): Record<string, unknown> {
  expect(viaStdio.isError, JSON.stringify(viaStdio.structuredContent)).toBe(true);
  const body = viaStdio.structuredContent as Record<string, unknown>;
  expect(body.error).toBe(code);
  expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(stable(body)).toEqual(stable(viaHttp.structuredContent));
  expect(viaStdio.content).toEqual(viaHttp.content);
  return body;
}

describe("initialize and tools/list through the proxy", () => {
  it("is FDP's own server: fdp 1.3.2, the same capabilities and instructions", () => {
    expect(stdio.client.getServerVersion()).toMatchObject({ name: "fdp", version: "1.3.2" });
    expect(stdio.client.getServerVersion()).toEqual(http.getServerVersion());
    expect(stdio.client.getServerCapabilities()).toEqual(http.getServerCapabilities());
    expect(stdio.client.getInstructions()).toBe(http.getInstructions());
  });

  it("lists the same tools: names, descriptions, input and output schemas, annotations", async () => {
    const [viaStdio, viaHttp] = [(await stdio.client.listTools()).tools, (await http.listTools()).tools];
    expect(viaStdio.map((t) => t.name)).toEqual(TOOL_CATALOGUE.map((t) => t.name));
    expect(viaStdio).toHaveLength(viaHttp.length);
    for (const [i, tool] of viaStdio.entries()) {
      const twin = viaHttp[i]!;
      expect(tool.name).toBe(twin.name);
      expect(tool.description, tool.name).toBe(twin.description);
      expect(tool.inputSchema, tool.name).toEqual(twin.inputSchema);
      expect(tool.outputSchema, tool.name).toEqual(twin.outputSchema);
      expect(tool.annotations, tool.name).toEqual(twin.annotations);
    }
  });
});

describe.each(TOOL_CATALOGUE.map((entry) => [entry.name, entry] as const))("tool %s through the proxy", (_, entry) => {
  it("answers what the same call over HTTP answers", async () => {
    const [viaStdio, viaHttp] = await both(entry.name, toolArgsFor(entry, partsFor(entry)));
    expect(viaStdio.isError ?? false, JSON.stringify(viaStdio.structuredContent)).toBe(false);
    expect(viaHttp.isError ?? false, JSON.stringify(viaHttp.structuredContent)).toBe(false);
    const structured = viaStdio.structuredContent as Record<string, unknown>;
    if (entry.name === "generate_certificate") {
      // Each call issues a new certificate: the same shape, a different number.
      expect(Object.keys(structured).sort()).toEqual(Object.keys(viaHttp.structuredContent!).sort());
      expect(structured.certificate_number).not.toBe(viaHttp.structuredContent!.certificate_number);
    } else {
      expect(stable(structured)).toEqual(stable(viaHttp.structuredContent));
      expect(viaStdio.content).toHaveLength(viaHttp.content.length);
      expect(JSON.parse((viaStdio.content[1] as { text: string }).text)).toEqual(structured);
    }
  });
});

describe("tool errors come through unchanged", () => {
  it("invalid input is invalid_request naming the field, as over HTTP", async () => {
    for (const [tool, args, field] of [
      ["get_tas_score", { device_id: "a/b" }, "device_id"],
      ["list_fleet", { limit: 0 }, "limit"],
      ["get_tas_score", { deviceId: OWN }, "deviceId"],
    ] as const) {
      const [viaStdio, viaHttp] = await both(tool, args);
      const body = expectSameToolError(viaStdio, viaHttp, "invalid_request");
      expect((body.details as { field: string }[]).map((d) => d.field)).toContain(field);
    }
  });

  it("another tenant's device is not_found, worded as over HTTP", async () => {
    const entry = TOOL_CATALOGUE.find((t) => t.name === "get_tas_score")!;
    const [viaStdio, viaHttp] = await both(entry.name, toolArgsFor(entry, partsFor(entry, FOREIGN)));
    expectSameToolError(viaStdio, viaHttp, "not_found");
  });

  it("a key with only the `mcp` scope gets forbidden from a scoped tool, naming the scope", async () => {
    const limited = await connectStdio(mcpOnly.key);
    const limitedHttp = await connectMcpClient(app.url, mcpOnly.key);
    try {
      const [viaStdio, viaHttp] = await both("get_tas_score", { device_id: OWN }, [limited.client, limitedHttp]);
      const body = expectSameToolError(viaStdio, viaHttp, "forbidden");
      expect(body.message).toContain("scores:read");
    } finally {
      await limited.close();
      await limitedHttp.close();
    }
  });

  it("the sandbox key's answers carry _sandbox: true", async () => {
    const sandbox = await connectStdio(SANDBOX_KEY);
    const sandboxHttp = await connectMcpClient(app.url, SANDBOX_KEY);
    try {
      const [viaStdio, viaHttp] = await both("get_tas_score", { device_id: SANDBOX_DEVICE }, [sandbox.client, sandboxHttp]);
      expect(viaStdio.isError ?? false).toBe(false);
      expect((viaStdio.structuredContent as Record<string, unknown>)._sandbox).toBe(true);
      expect(stable(viaStdio.structuredContent)).toEqual(stable(viaHttp.structuredContent));
    } finally {
      await sandbox.close();
      await sandboxHttp.close();
    }
  });
});

describe("resources and prompts through the proxy", () => {
  it("lists and reads the methodology resources, and lists and gets the prompts, as over HTTP", async () => {
    expect(await stdio.client.listResources()).toEqual(await http.listResources());
    const tas = await stdio.client.readResource({ uri: "fdp://methodology/tas" });
    expect(tas.contents[0]).toMatchObject({ uri: "fdp://methodology/tas", mimeType: "text/markdown" });
    expect(tas).toEqual(await http.readResource({ uri: "fdp://methodology/tas" }));
    await expect(stdio.client.readResource({ uri: "fdp://methodology/nope" })).rejects.toThrow(/No resource/);
    const { prompts } = await stdio.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["assess_vehicle_for_lease_return", "fleet_csrd_summary"]);
    expect(prompts).toEqual((await http.listPrompts()).prompts);
    const args = { name: "assess_vehicle_for_lease_return", arguments: { device_id: OWN, contract_km: "60000" } };
    expect(await stdio.client.getPrompt(args)).toEqual(await http.getPrompt(args));
  });
});

describe("what only the proxy does", () => {
  it("answers a request FDP refuses with a JSON-RPC error in plain words: an unknown key fails connect with 401, not a hang", async () => {
    const badKey = "fdp_live_" + "x".repeat(40);
    const failure = connectStdio(badKey);
    await expect(failure).rejects.toThrow(/401 unauthorized: .{10,}/);
    await expect(failure).rejects.toThrow(new URL("/api/mcp", app.url).href);
    const stderr = ((await failure.catch((e: unknown) => e)) as { stderr: string }).stderr;
    expect(stderr).toMatch(/401/);
    expect(stderr).not.toContain(badKey);
  });

  it("a key without the `mcp` scope fails connect with 403 naming the scope", async () => {
    await expect(connectStdio(noMcp.key)).rejects.toThrow(/403 forbidden: .*mcp/);
  });

  it("a request over the key's rate limit is answered 429 rate_limited with FDP's message, and the proxy carries on", async () => {
    const limitedTenant = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 2 });
    // initialize and notifications/initialized spend the budget of 2. The client does not wait for the
    // notification's POST, so the first listTools may reach FDP before it and be served (the notification
    // is then the one refused): from the second call on, every call is refused, and the proxy still answers.
    const limited = await connectStdio(limitedTenant.key);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++)
        outcomes.push(
          await limited.client.listTools().then(
            () => "served",
            (err: unknown) => String(err),
          ),
        );
      for (const outcome of outcomes.slice(1)) expect(outcome).toMatch(/429 rate_limited: .{10,}/);
    } finally {
      await limited.close();
    }
  });

  it("FDP not running fails connect saying it is not reachable", async () => {
    // Port 1 on loopback: nothing listens there (and it is not one fetch blocks).
    await expect(connectStdio(a.key, "http://127.0.0.1:1")).rejects.toThrow(/not reachable/);
  });

  it("never writes the key to stderr, and says where it proxies to", () => {
    expect(stdio.stderr()).toContain(`proxying stdio to ${new URL("/api/mcp", app.url).href}`);
    expect(stdio.stderr()).not.toContain(a.key);
  });

  it("exits non-zero with one clear stderr line when FDP_API_KEY is missing or FDP_BASE_URL is not http(s)", async () => {
    for (const [env, pattern] of [
      [{ FDP_API_KEY: undefined, FDP_BASE_URL: app.url }, /FDP_API_KEY is not set/],
      [{ FDP_API_KEY: a.key, FDP_BASE_URL: "ftp://example.com" }, /FDP_BASE_URL must be an http/],
      [{ FDP_API_KEY: a.key, FDP_BASE_URL: "localhost:3000/" }, /FDP_BASE_URL/],
    ] as const) {
      const child = spawnProxy(proxyEnv(env));
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
      child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect(code, err).not.toBe(0);
      expect(err).toMatch(pattern);
      expect(err.trim().split("\n")).toHaveLength(1);
      expect(out).toBe("");
      expect(err).not.toContain(a.key);
    }
  });

  it("exits 0 when stdin ends, after answering what was in flight", async () => {
    const child = spawnProxy(proxyEnv({ FDP_API_KEY: a.key, FDP_BASE_URL: app.url }));
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } };
    child.stdin.end(JSON.stringify(init) + "\n");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "fdp", version: "1.3.2" } } });
  });
});

describe("lines the proxy cannot pass on as they are", () => {
  it("answers every line: not JSON (-32700), not one object (-32600), a bad id (-32600), and a malformed request FDP refuses (its id, FDP's words)", async () => {
    const child = spawnProxy(proxyEnv({ FDP_API_KEY: a.key, FDP_BASE_URL: app.url }));
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.stdin.end(
      [
        "this is not json",
        JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]),
        JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" }),
        JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: "x" }),
        JSON.stringify({ jsonrpc: "1.0", id: 9, method: "tools/list" }),
        JSON.stringify({ jsonrpc: "2.0", id: 10, method: "tools/list", params: [] }),
        "",
      ].join("\n"),
    );
    expect(await new Promise<number | null>((resolve) => child.on("exit", resolve))).toBe(0);
    const answers = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string } });
    const nullIds = answers.filter((x) => x.id === null).map((x) => x.error?.code);
    expect(nullIds.sort()).toEqual([-32700, -32600, -32600].sort());
    for (const id of [7, 9, 10]) {
      const answer = answers.find((x) => x.id === id);
      expect(answer?.error?.code, `id ${id}`).toBe(-32000);
      expect(answer?.error?.message).toMatch(/answered 400 invalid_request/);
    }
    expect(answers).toHaveLength(6);
    // One stderr line per problem, never a dump.
    for (const line of err.trim().split("\n")) expect(line).toMatch(/^fdp-mcp: /);
  });
});

describe("the proxy's helpers", () => {
  it("reads the configuration: the key required, the base URL http(s) with a default", () => {
    expect(readConfig({ FDP_API_KEY: "k" }).endpoint.href).toBe("http://localhost:3000/api/mcp");
    expect(readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "https://fdp.example.com/" }).endpoint.href).toBe("https://fdp.example.com/api/mcp");
    // Behind a proxy under a path, the path is kept.
    expect(readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "https://example.com/fdp" }).endpoint.href).toBe("https://example.com/fdp/api/mcp");
    expect(readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "https://example.com/fdp/" }).endpoint.href).toBe("https://example.com/fdp/api/mcp");
    expect(() => readConfig({ FDP_API_KEY: "  " })).toThrow(/FDP_API_KEY/);
    expect(() => readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "file:///etc" })).toThrow(/http/);
    expect(() => readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "not a url" })).toThrow(/not a URL/);
    // Credentials in the URL are refused, and not repeated.
    expect(() => readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "http://user:hunter2@localhost:3000" })).toThrow(/user name or password/);
    expect(() => readConfig({ FDP_API_KEY: "k", FDP_BASE_URL: "http://user:hunter2@localhost:3000" })).not.toThrow(/hunter2/);
  });

  it("words an HTTP refusal with FDP's code and message, and a refused connection as not reachable", () => {
    const endpoint = new URL("http://fdp.test/api/mcp");
    const body = JSON.stringify({ error: "rate_limited", message: "Too many requests: the limit is 4 per minute.", request_id: "req_1" });
    const refused = describeUpstreamFailure(new StreamableHTTPError(429, `Error POSTing to endpoint: ${body}`), endpoint);
    expect(refused.message).toMatch(/^FDP at http:\/\/fdp\.test\/api\/mcp answered 429 rate_limited: Too many requests: the limit is 4 per minute\. /);
    expect(refused.data).toEqual({ http_status: 429, error: "rate_limited", request_id: "req_1" });
    const html = describeUpstreamFailure(new StreamableHTTPError(502, "Error POSTing to endpoint: <html>Bad Gateway</html>"), endpoint);
    expect(html.message).toBe("FDP at http://fdp.test/api/mcp answered 502 bad gateway: <html>Bad Gateway</html>");
    const down = describeUpstreamFailure(
      new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3000"), { code: "ECONNREFUSED" }) }),
      endpoint,
    );
    expect(down.message).toMatch(/not reachable \(connect ECONNREFUSED 127\.0\.0\.1:3000\)/);
  });
});
