import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { MCP_SERVER_VERSION } from "@/lib/mcp/create-mcp-server";
import { TOOL_CATALOGUE, TOOL_NAMES, type ToolEntry } from "@/lib/mcp/tool-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertAlert, insertDevices, issueCertificate } from "../helpers/fixtures";
import { connectMcpClient, restPartsFor, toolArgsFor } from "../helpers/mcp-client";
import { LEAKED_VALUE } from "../helpers/leaked-values";
import { exampleParts, send, type RequestParts } from "../helpers/operation-requests";
import { startRouteServer, type RouteServer, unlimitedEdgeEnv } from "../helpers/route-server";

/**
 * The MCP server at /api/mcp through the SDK's real Client over Streamable HTTP, against the real
 * route handler and database: every tool once, compared with its REST twin's answer to the same
 * request; validation, isolation, scopes, keys, the sandbox marker, the shared rate limit, and the
 * CONTRACT envelope on the HTTP edge.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SPEC_TOOLS = [
  "get_tas_score",
  "get_battery_health",
  "get_fleet_risk",
  "predict_mileage",
  "predict_residual_value",
  "generate_certificate",
  "get_emissions_report",
  "get_charging_recommendation",
];

let tdb: TestDatabase;
let app: RouteServer;
let a: Awaited<ReturnType<typeof createTenantWithKey>>;
let b: Awaited<ReturnType<typeof createTenantWithKey>>;
let mcpOnly: Awaited<ReturnType<typeof createTenantWithKey>>;
let noMcp: Awaited<ReturnType<typeof createTenantWithKey>>;
let client: Client;
const OWN = "dev-a";
/** The devices' latest data: old enough that "N h old" stays put while the suite runs. */
const DATA_TS = new Date(Date.now() - 10 * 3_600_000);
const FOREIGN = "dev-b";
let certificates: { own: string; foreign: string; sandbox: string };

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  a = await createTenantWithKey(db);
  b = await createTenantWithKey(db);
  mcpOnly = await createTenantWithKey(db, { scopes: ["mcp"] });
  noMcp = await createTenantWithKey(db, { scopes: ["fleet:read", "scores:read", "predictions:read", "certificates:write", "reports:read"] });
  await insertDevices(db, a.tenantId, [
    { deviceId: OWN, odometerKm: 12_345, socPct: 55, powertrain: "BEV", batteryKwh: 64, ts: DATA_TS },
    { deviceId: "dev-a2", odometerKm: 80_100, powertrain: "ICE", ts: DATA_TS },
  ]);
  await insertAlert(db, a.tenantId, { deviceId: OWN, severity: "WARNING" });
  await insertDevices(db, b.tenantId, [{ deviceId: FOREIGN, odometerKm: 5_000, socPct: 40, powertrain: "BEV", batteryKwh: 50, ts: DATA_TS }]);
  await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
  await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: "sbx-001", odometerKm: 23_456, socPct: 60, powertrain: "BEV", batteryKwh: 72, ts: DATA_TS }]);
  certificates = {
    own: await issueCertificate(db, a.tenantId, OWN),
    foreign: await issueCertificate(db, b.tenantId, FOREIGN),
    sandbox: await issueCertificate(db, SANDBOX_TENANT_ID, "sbx-001"),
  };
  app = await startRouteServer({
    db: tdb.handle,
    env: { ...unlimitedEdgeEnv(tdb.url), PUBLIC_BASE_URL: "https://fdp.example.com" },
  });
  client = await connectMcpClient(app.url, a.key);
});

afterAll(async () => {
  await client?.close();
  await app?.close();
  await tdb?.dispose();
});

/** The example request of the tool's operation, aimed at the caller's own device and certificate. */
function ownParts(entry: ToolEntry, who: { device: string; certificate: string } = { device: OWN, certificate: certificates.own }): RequestParts {
  const op = entry.operation;
  const parts = exampleParts(op, {
    path: {
      ...(op.pathParams.includes("device_id") ? { device_id: who.device } : {}),
      ...(op.pathParams.includes("certificate_number") ? { certificate_number: who.certificate } : {}),
    },
  });
  const body = parts.body as Record<string, unknown> | undefined;
  if (body && Array.isArray(body.device_ids)) parts.body = { ...body, device_ids: [who.device, "dev-a2", FOREIGN] };
  return parts;
}

interface ErrorContent {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
  request_id?: string;
  _sandbox?: boolean;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function expectToolError(result: CallToolResult, code: string): ErrorContent {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
  const body = result.structuredContent as unknown as ErrorContent;
  expect(body.error).toBe(code);
  expect(body.message.length).toBeGreaterThan(10);
  expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(result.content[0]).toEqual({ type: "text", text: `${code}: ${body.message}` });
  return body;
}

/**
 * Values that legitimately differ between two calls a moment apart: when each answer was made, and the
 * data's age in seconds. (The devices' data is 10 h old, so the age sentences in minutes or hours do not
 * change between the two calls.)
 */
const VOLATILE = new Set(["generated_at", "fetched_at", "data_age_seconds"]);
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, stable(v)]),
  );
}

describe("initialize and tools/list", () => {
  it("is fdp 1.3.2 with tools, resources and prompts, and instructions for the agent", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "fdp", version: MCP_SERVER_VERSION });
    expect(MCP_SERVER_VERSION).toBe("1.3.2");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toContain("fdp://methodology/");
  });

  it("lists the SPEC's eight tools first, then one per remaining partner-safe operation, 21 in all", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(tools.slice(0, 8).map((t) => t.name)).toEqual(SPEC_TOOLS);
    expect(tools).toHaveLength(21);
  });

  it("gives every tool an object input schema with a description per argument, an output schema and annotations", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const entry = TOOL_CATALOGUE.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties).toBe(false);
      const props = Object.entries(tool.inputSchema.properties ?? {}) as [string, { description?: string }][];
      expect(props.map(([k]) => k).sort()).toEqual(
        Object.keys(entry.operation.inputSchema.shape)
          .filter((k) => !(entry.fixed && k in entry.fixed))
          .sort(),
      );
      for (const [name, prop] of props) expect(prop.description, `${tool.name}.${name}`).toMatch(/\w{3,}/);
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description).toContain(entry.operation.summary);
      expect(tool.description).not.toMatch(/docs\/methodology\//);
      const writes = tool.name === "generate_certificate";
      expect(tool.annotations).toMatchObject({ readOnlyHint: !writes, idempotentHint: false, openWorldHint: false, title: entry.title });
      if (writes) expect(tool.annotations?.destructiveHint).toBe(false);
      const scope = "scope" in entry.operation.access ? entry.operation.access.scope : null;
      expect(tool.description).toContain(scope ? `\`${scope}\`` : "public on REST");
    }
  });

  it("accepts each tool's example arguments under its own input schema (checked with Ajv, as a client may)", async () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const { tools } = await client.listTools();
    for (const entry of TOOL_CATALOGUE) {
      const tool = tools.find((t) => t.name === entry.name)!;
      const validate = ajv.compile(tool.inputSchema);
      expect(validate(toolArgsFor(entry, ownParts(entry))), `${entry.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ no_such_argument: 1 })).toBe(false);
    }
  });
});

describe.each(TOOL_CATALOGUE.map((entry) => [entry.name, entry] as const))("tool %s", (_, entry) => {
  it("answers structuredContent equal to its REST twin's answer, with a one-line summary and the JSON as text", async () => {
    const parts = ownParts(entry);
    const result = await call(client, entry.name, toolArgsFor(entry, parts));
    expect(result.isError ?? false, JSON.stringify(result.structuredContent)).toBe(false);
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured._sandbox).toBeUndefined();
    expect(entry.operation.output.safeParse(structured).error).toBeUndefined();

    const rest = await send(app, entry.operation, restPartsFor(entry, parts), { key: a.key });
    expect(rest.status).toBe(200);
    const restBody = (await rest.json()) as Record<string, unknown>;
    if (entry.name === "generate_certificate") {
      // Each call issues a new certificate: compare with the stored one the tool just issued.
      const stored = await send(
        app,
        TOOL_CATALOGUE.find((t) => t.name === "get_certificate")!.operation,
        { path: { certificate_number: structured.certificate_number as string } },
        { key: a.key },
      );
      const storedBody = (await stored.json()) as Record<string, unknown>;
      for (const key of Object.keys(storedBody).filter((k) => k in structured)) expect(structured[key], key).toEqual(storedBody[key]);
      expect(Object.keys(structured).sort()).toEqual(Object.keys(restBody).sort());
    } else {
      expect(stable(structured)).toEqual(stable(restBody));
    }

    const [summary, json] = result.content as { type: string; text: string }[];
    expect(summary?.type).toBe("text");
    expect(summary?.text).not.toContain("\n");
    expect(summary!.text.length).toBeLessThanOrEqual(240);
    expect(summary?.text).not.toMatch(LEAKED_VALUE);
    expect(json?.type).toBe("text");
    const copy = JSON.parse(json!.text) as Record<string, unknown>;
    if (entry.name === "generate_certificate") expect(copy.pdf_base64).toMatch(/characters elided/);
    else expect(copy).toEqual(structured);
  });
});

describe("errors are tool results with the CONTRACT body", () => {
  it("invalid_request naming the field for malformed, out-of-range, non-integer and missing arguments", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["get_tas_score", { device_id: "a/b" }, "device_id"],
      ["get_tas_score", { device_id: "a\u0000b" }, "device_id"],
      ["get_tas_score", {}, "device_id"],
      ["list_fleet", { limit: 0 }, "limit"],
      ["list_fleet", { limit: 501 }, "limit"],
      ["list_fleet", { limit: 1.5 }, "limit"],
      ["list_fleet", { limit: "abc" }, "limit"],
      ["list_alerts", { severity: "LOUD" }, "severity"],
      ["get_fleet_risk", { period: "400d" }, "period"],
      ["get_emissions_report", { start_date: "2026-02-30", end_date: "2026-03-01" }, "start_date"],
      ["get_tas_batch", { device_ids: [] }, "device_ids"],
      ["score_devices_batch", { device_ids: ["dev-a"], scores: ["nope"] }, "scores.0"],
      ["predict_residual_value", { device_id: OWN, battery_soh_pct: 101 }, "battery_soh_pct"],
      ["get_certificate", { certificate_number: "FDP-CERT-1" }, "certificate_number"],
    ];
    for (const [tool, args, field] of cases) {
      const body = expectToolError(await call(client, tool, args), "invalid_request");
      expect(
        body.details?.map((d) => d.field),
        `${tool} ${JSON.stringify(args)}`,
      ).toContain(field);
    }
  });

  it("refuses an argument the tool does not take, by name (a misspelt id must not mean 'no id')", async () => {
    const body = expectToolError(await call(client, "get_tas_score", { deviceId: OWN }), "invalid_request");
    expect(body.details).toEqual([{ field: "deviceId", message: "is not an argument of this tool" }]);
    expect(body.message).toContain("device_id");
    // The fixed format is not an argument either: the tools answer JSON.
    expectToolError(await call(client, "get_emissions_report", { start_date: "2026-01-01", end_date: "2026-01-31", format: "csv" }), "invalid_request");
  });

  it("not_found for another tenant's device and certificate, worded exactly as an unknown one", async () => {
    for (const entry of TOOL_CATALOGUE.filter((t) => t.operation.pathParams.includes("device_id"))) {
      const foreign = expectToolError(await call(client, entry.name, toolArgsFor(entry, ownParts(entry, { device: FOREIGN, certificate: "" }))), "not_found");
      const unknown = expectToolError(await call(client, entry.name, toolArgsFor(entry, ownParts(entry, { device: "no-such", certificate: "" }))), "not_found");
      expect(foreign.message.replace(FOREIGN, "X")).toBe(unknown.message.replace("no-such", "X"));
    }
    const cert = expectToolError(await call(client, "get_certificate", { certificate_number: certificates.foreign }), "not_found");
    expect(cert.message).not.toContain(b.tenantId);
    // Verification is public by design (auditors): another tenant's certificate verifies, without its tenant.
    const verified = await call(client, "verify_certificate", { certificate_number: certificates.foreign });
    expect(verified.isError ?? false).toBe(false);
    expect(JSON.stringify(verified.structuredContent)).not.toContain(b.tenantId);
  });

  it("takes any number its schema allows: 5e-7 is 0.0000005, not an exponent the query parser refuses", async () => {
    const result = await call(client, "predict_residual_value", { device_id: OWN, odometer_km: 5e-7, battery_soh_pct: 92.5 });
    expect(result.isError ?? false, JSON.stringify(result.structuredContent)).toBe(false);
    const big = expectToolError(await call(client, "predict_residual_value", { device_id: OWN, odometer_km: 1e21 }), "invalid_request");
    expect(big.details?.[0]?.message).toMatch(/at most/);
  });

  it("a list that fills its limit says it is a page, not the whole fleet", async () => {
    const page = await call(client, "list_fleet", { limit: 1 });
    expect((page.content[0] as { text: string }).text).toMatch(/^1 vehicle shown \(the limit: more may exist\)/);
    const all = await call(client, "list_fleet", { limit: 500 });
    expect((all.content[0] as { text: string }).text).toMatch(/^2 vehicles:/);
  });

  it("unprocessable when the vehicle cannot answer (charging plan of a combustion car)", async () => {
    expectToolError(await call(client, "get_charging_recommendation", { device_id: "dev-a2" }), "unprocessable");
  });

  it("an unknown tool is a not_found tool error, not a protocol failure", async () => {
    const body = expectToolError(await call(client, "get_everything", {}), "not_found");
    expect(body.message).toContain("get_tas_score");
  });
});

describe("keys and scopes", () => {
  it("a key with only `mcp` lists every tool, and each tool with a scoped REST twin answers forbidden", async () => {
    const limited = await connectMcpClient(app.url, mcpOnly.key);
    try {
      expect((await limited.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      for (const entry of TOOL_CATALOGUE) {
        const result = await call(limited, entry.name, toolArgsFor(entry, ownParts(entry)));
        if ("scope" in entry.operation.access) {
          const body = expectToolError(result, "forbidden");
          expect(body.message).toContain(entry.operation.access.scope);
        } else {
          // Public on REST (spot prices, verification): the `mcp` scope is enough.
          expect(result.isError ?? false, entry.name).toBe(false);
        }
      }
    } finally {
      await limited.close();
    }
  });

  it("no key, an unknown key and a key without `mcp` are refused at the HTTP edge in the CONTRACT envelope", async () => {
    await expect(connectMcpClient(app.url, null)).rejects.toThrow(/401|nauthorized/);
    for (const [key, status, code] of [
      [null, 401, "unauthorized"],
      ["fdp_live_" + "x".repeat(40), 401, "unauthorized"],
      [noMcp.key, 403, "forbidden"],
    ] as const) {
      const res = await app.fetch("/api/mcp", {
        method: "POST",
        key,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status).toBe(status);
      const body = (await res.json()) as ErrorContent;
      expect(body.error).toBe(code);
      expect(body.request_id).toBe(res.headers.get("x-request-id"));
      if (code === "forbidden") expect(body.message).toContain("mcp");
    }
  });
});

describe("the sandbox key", () => {
  it("marks answers and tool errors with _sandbox, and sees only the sandbox tenant", async () => {
    const sandbox = await connectMcpClient(app.url, SANDBOX_KEY);
    try {
      const tas = await call(sandbox, "get_tas_score", { device_id: "sbx-001" });
      expect(tas.isError ?? false).toBe(false);
      expect((tas.structuredContent as Record<string, unknown>)._sandbox).toBe(true);
      const fleet = await call(sandbox, "list_fleet", {});
      const structured = fleet.structuredContent as { data: { device_id: string }[]; tenant_id: string; _sandbox: boolean };
      expect(structured._sandbox).toBe(true);
      expect(structured.tenant_id).toBe(SANDBOX_TENANT_ID);
      expect(structured.data.map((d) => d.device_id)).toEqual(["sbx-001"]);
      const err = expectToolError(await call(sandbox, "get_tas_score", { device_id: OWN }), "not_found");
      expect(err._sandbox).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});

describe("rate limit", () => {
  it("every POST to /api/mcp spends the key's REST budget: REST and MCP share one counter", async () => {
    const limitedTenant = await createTenantWithKey(tdb.handle.db, { rateLimitPerMin: 4 });
    const listFleet = TOOL_CATALOGUE.find((t) => t.name === "list_fleet")!.operation;
    const mcpPost = () =>
      app.fetch("/api/mcp", {
        method: "POST",
        key: limitedTenant.key,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await send(app, listFleet, {}, { key: limitedTenant.key })).status).toBe(200);
    expect((await send(app, listFleet, {}, { key: limitedTenant.key })).status).toBe(200);
    const third = await mcpPost();
    expect(third.status).toBe(200);
    expect(third.headers.get("ratelimit-limit")).toBe("4");
    expect(third.headers.get("ratelimit-remaining")).toBe("1");
    expect((await mcpPost()).status).toBe(200);
    const refused = await mcpPost();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as ErrorContent).error).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await send(app, listFleet, {}, { key: limitedTenant.key })).status).toBe(429);
  });
});

describe("the HTTP edge keeps the CONTRACT envelope", () => {
  const post = (init: { headers?: Record<string, string>; body?: string; key?: string | null } = {}) =>
    app.fetch("/api/mcp", {
      method: "POST",
      key: init.key === undefined ? a.key : init.key,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...init.headers },
      body: init.body ?? JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });

  async function expectEnvelope(res: Response, status: number, code: string): Promise<ErrorContent> {
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as ErrorContent;
    expect(body.error).toBe(code);
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    return body;
  }

  it("answers a JSON-RPC request as JSON with X-Request-Id and the rate-limit headers", async () => {
    const res = await post();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-limit")).toBe("100000");
    const body = (await res.json()) as { id: number; result: { tools: unknown[] } };
    expect(body.id).toBe(7);
    expect(body.result.tools).toHaveLength(21);
  });

  it("GET and DELETE are 405 with Allow (no sessions, no stream); OPTIONS lists POST", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await app.fetch("/api/mcp", { method, key: a.key, headers: { accept: "text/event-stream" } });
      await expectEnvelope(res, 405, "invalid_request");
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    }
    const options = await app.fetch("/api/mcp", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("refuses a missing Accept, a non-JSON media type, invalid or non-I-JSON bodies, and a non-JSON-RPC message", async () => {
    expect((await expectEnvelope(await post({ headers: { accept: "application/json" } }), 406, "invalid_request")).message).toMatch(/text\/event-stream/);
    await expectEnvelope(await post({ headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    await expectEnvelope(await post({ body: "{" }), 400, "invalid_request");
    await expectEnvelope(await post({ body: '{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"tools/list"}' }), 400, "invalid_request");
    await expectEnvelope(await post({ body: "[" + "[".repeat(40) + "]".repeat(40) + "]" }), 400, "invalid_request");
    await expectEnvelope(await post({ body: JSON.stringify({ hello: "world" }) }), 400, "invalid_request");
    // Outside a tool's arguments, a lone surrogate is the edge's I-JSON refusal...
    await expectEnvelope(
      await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_tas_score\ud800", arguments: {} } }) }),
      400,
      "invalid_request",
    );
    await expectEnvelope(await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", pad: "x".repeat(1_100_000) }) }), 413, "payload_too_large");
  });

  const rpc = (params: unknown, id: number | string = 9) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
  async function toolResult(res: Response): Promise<CallToolResult> {
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result?: CallToolResult; error?: unknown };
    expect(body.error, JSON.stringify(body.error)).toBeUndefined();
    return body.result!;
  }

  it("inside a tool's arguments, a NUL, a lone surrogate or 1e400 is that tool's invalid_request, naming the argument", async () => {
    for (const raw of ['"a\\u0000b"', '"\\ud800"', "1e400"]) {
      const res = await post({ body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_tas_score","arguments":{"device_id":${raw}}}}` });
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      const body = expectToolError(await toolResult(res), "invalid_request");
      expect(
        body.details?.map((d) => d.field),
        raw,
      ).toEqual(["device_id"]);
      expect(body.request_id).toBe(res.headers.get("x-request-id"));
    }
  });

  it("...but only there, and only after the transport's checks, the tool's name and its scope", async () => {
    const nul = { device_id: "a\u0000b" };
    // Elsewhere in the message: the edge's 400.
    await expectEnvelope(
      await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_tas_score", arguments: {}, _meta: { progressToken: "x\u0000" } } }) }),
      400,
      "invalid_request",
    );
    await expectEnvelope(
      await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "fleet_csrd_summary", arguments: { start_date: "\u0000" } } }) }),
      400,
      "invalid_request",
    );
    // A duplicate member name is refused whatever else the body holds.
    await expectEnvelope(
      await post({ body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_fleet","arguments":{"limit":"\\u0000"}},"id":8}' }),
      400,
      "invalid_request",
    );
    // The transport's own checks still come first.
    await expectEnvelope(await post({ headers: { accept: "text/plain" }, body: rpc({ name: "get_tas_score", arguments: nul }) }), 406, "invalid_request");
    // Then the tool's name, then its scope.
    expectToolError(await toolResult(await post({ body: rpc({ name: "nope", arguments: nul }) })), "not_found");
    expectToolError(await toolResult(await post({ key: mcpOnly.key, body: rpc({ name: "get_tas_score", arguments: nul }) })), "forbidden");
  });

  it("a tools/call whose params have the wrong shape is still a tool error, invalid_request naming what is wrong", async () => {
    const cases: [unknown, string][] = [
      [{ name: "list_fleet", arguments: [1] }, "arguments"],
      [{ name: "list_fleet", arguments: "limit=1" }, "arguments"],
      [{ name: "list_fleet", arguments: null }, "arguments"],
      [{ name: 5, arguments: {} }, "name"],
      [{ arguments: {} }, "name"],
      [undefined, "name"],
      [{ name: "list_fleet", arguments: JSON.parse('{"__proto__":{"limit":"1"}}') as unknown }, "__proto__"],
    ];
    for (const [params, field] of cases) {
      const body = expectToolError(await toolResult(await post({ body: rpc(params) })), "invalid_request");
      expect(
        body.details?.map((d) => d.field),
        JSON.stringify(params),
      ).toEqual([field]);
    }
  });

  it("a JSON-RPC batch is refused with a sentence (one message per request; batches would also dodge the rate limit)", async () => {
    const res = await post({
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]),
    });
    expect((await expectEnvelope(res, 400, "invalid_request")).message).toMatch(/JSON object/);
  });

  it("refuses a browser origin other than PUBLIC_BASE_URL's, even one matching the Host (DNS rebinding)", async () => {
    // The request's own Host is the attacker's name under DNS rebinding: it proves nothing.
    for (const origin of ["http://evil.example", "null", "not a url", app.url, "https://fdp.example.com.evil.example"]) {
      const body = await expectEnvelope(await post({ headers: { origin } }), 403, "forbidden");
      expect(body.message).toMatch(/origin/i);
    }
    for (const origin of ["https://fdp.example.com", "https://FDP.example.com:443"]) expect((await post({ headers: { origin } })).status, origin).toBe(200);
  });

  it("names at most ten unknown arguments, each at most 100 characters: made-up names do not come back as megabytes", async () => {
    const args = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${"x".repeat(300)}${i}`, 1]));
    const res = await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "y".repeat(5000), arguments: {} } }) });
    expect(expectToolError(await toolResult(res), "not_found").message.length).toBeLessThan(1000);
    const many = await post({ body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_spot_prices", arguments: args } }) });
    const text = await many.clone().text();
    expect(text.length).toBeLessThan(20_000);
    const body = expectToolError(await toolResult(many), "invalid_request");
    expect(body.details).toHaveLength(10);
    expect(body.message).toContain("and 1990 more");
  });

  it("the sandbox key's refusals carry _sandbox and its answers X-Sandbox", async () => {
    const refused = await post({ key: SANDBOX_KEY, headers: { accept: "application/json" } });
    expect(((await refused.json()) as ErrorContent)._sandbox).toBe(true);
    const ok = await post({ key: SANDBOX_KEY });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-sandbox")).toBe("true");
  });
});

describe("resources and prompts", () => {
  it("serves every methodology page as fdp://methodology/<score>, text identical to the repository's", async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const score of [
      "tas",
      "fleet-risk",
      "green-fleet",
      "vehicle-health",
      "battery-snapshot",
      "eol-summary",
      "residual-value",
      "residual-value-model",
      "mileage-forecast",
      "emissions",
      "csrd",
      "charging",
      "alerts",
      "overview",
    ]) {
      expect(uris).toContain(`fdp://methodology/${score}`);
    }
    const tas = await client.readResource({ uri: "fdp://methodology/tas" });
    expect(tas.contents[0]).toMatchObject({ uri: "fdp://methodology/tas", mimeType: "text/markdown" });
    expect((tas.contents[0] as { text: string }).text).toBe(await readFile(path.join(ROOT, "docs/methodology/tas.md"), "utf8"));
    expect(resources.find((r) => r.uri === "fdp://methodology/tas")?.title).toBe("Total Asset Score (TAS)");
    for (const bad of ["fdp://methodology/nope", "fdp://methodology/../README", "fdp://methodology/README", "file:///etc/passwd"]) {
      await expect(client.readResource({ uri: bad })).rejects.toThrow(/No resource/);
    }
  });

  it("every tool description's method link is a resource that exists", async () => {
    const { tools } = await client.listTools();
    const { resources } = await client.listResources();
    const uris = new Set(resources.map((r) => r.uri));
    for (const tool of tools) for (const link of tool.description?.match(/fdp:\/\/methodology\/[a-z0-9-]+/g) ?? []) expect(uris, `${tool.name}: ${link}`).toContain(link);
  });

  it("offers the two prompts, which chain tools that exist, and refuses invalid arguments", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["assess_vehicle_for_lease_return", "fleet_csrd_summary"]);
    const lease = await client.getPrompt({ name: "assess_vehicle_for_lease_return", arguments: { device_id: OWN, contract_km: "60000" } });
    const text = (lease.messages[0]?.content as { text: string }).text;
    expect(text).toContain(OWN);
    expect(text).toContain("contract_km=60000");
    const named = (t: string) => [...t.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).filter((n) => /^(get|predict|list|generate|verify|score)_/.test(n!));
    expect(named(text).length).toBeGreaterThanOrEqual(6);
    for (const tool of named(text)) expect(TOOL_NAMES).toContain(tool);
    const csrd = await client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "2026-01-01", end_date: "2026-03-31" } });
    const csrdText = (csrd.messages[0]?.content as { text: string }).text;
    expect(named(csrdText)).toEqual(expect.arrayContaining(["generate_csrd_report", "get_emissions_report", "get_green_fleet"]));
    await expect(client.getPrompt({ name: "assess_vehicle_for_lease_return", arguments: { device_id: "a/b" } })).rejects.toThrow(/device_id/);
    await expect(client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "Jan", end_date: "2026-01-31" } })).rejects.toThrow(/start_date/);
    await expect(client.getPrompt({ name: "nope", arguments: {} })).rejects.toThrow(/No prompt/);
    // The chained tools' own parsers judge the arguments: nothing a tool would refuse renders.
    await expect(client.getPrompt({ name: "assess_vehicle_for_lease_return", arguments: { device_id: OWN, contract_km: "0" } })).rejects.toThrow(/contract_km/);
    await expect(client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "2026-02-30", end_date: "2026-03-31" } })).rejects.toThrow(/start_date/);
    // ...and the reports' rule across the two dates.
    await expect(client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "2026-03-31", end_date: "2026-01-01" } })).rejects.toThrow(
      /start_date must not be after end_date/,
    );
    await expect(client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "2020-01-01", end_date: "2025-12-31" } })).rejects.toThrow(/end_date at most 366 days/);
    await expect(client.getPrompt({ name: "fleet_csrd_summary", arguments: { start_date: "2026-01-01", end_date: "2099-01-01" } })).rejects.toThrow(/end_date/);
  });

  it("wrongly typed prompt and resource params are invalid-params errors (-32602) with a sentence", async () => {
    const raw = async (method: string, params: unknown) => {
      const res = await app.fetch("/api/mcp", {
        method: "POST",
        key: a.key,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { error: { code: number; message: string } }).error;
    };
    const prompt = await raw("prompts/get", { name: "fleet_csrd_summary", arguments: { start_date: 5, end_date: "2026-01-31" } });
    expect(prompt.code).toBe(-32602);
    expect(prompt.message).toMatch(/start_date/);
    const resource = await raw("resources/read", { uri: 5 });
    expect(resource.code).toBe(-32602);
    expect(resource.message).toMatch(/uri/);
    const name = await raw("prompts/get", { name: ["fleet_csrd_summary"] });
    expect(name.code).toBe(-32602);
    expect(name.message).toMatch(/params.name`, a string/);
    // The lists have one page: a cursor of any type is ignored, never a -32603 dump.
    for (const method of ["tools/list", "resources/list", "prompts/list"]) {
      const res = await app.fetch("/api/mcp", {
        method: "POST",
        key: a.key,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 4, method, params: { cursor: 5 } }),
      });
      const body = (await res.json()) as { result?: Record<string, unknown[]>; error?: unknown };
      expect(body.error, method).toBeUndefined();
      expect(
        Object.values(body.result ?? {}).some((v) => Array.isArray(v) && v.length > 0),
        method,
      ).toBe(true);
    }
  });
});
