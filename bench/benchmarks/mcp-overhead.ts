import { FleetSimulator } from "../lib/fleet";
import { combine, measure, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * What the MCP surface costs on top of REST for the same answer: `tools/call` at `POST /api/mcp`
 * (stateless: a server and a transport per request, the tool's input parsing, the same verb, the
 * answer twice, as structured content and as text, plus a summary) side by side with the REST twin,
 * one request at a time, alternating. The tenant is seeded through the app's own ingest.
 */

const VEHICLES = 200;
const READINGS = 10;
const WARMUPS = Math.max(0, Number(process.env.BENCH_MCP_WARMUPS ?? 20));
const REQUESTS = Math.max(1, Number(process.env.BENCH_MCP_REQUESTS ?? 200));
const REQUEST_TIMEOUT_MS = 60_000;
/** Informational: the MCP answer's median within this many ms of REST's. */
const GOAL_OVERHEAD_MS = 5;

interface Case {
  label: string;
  rest: (deviceId: string) => { method: "GET"; path: string };
  tool: string;
  args: (deviceId: string) => Record<string, unknown>;
}

const CASES: Case[] = [
  { label: "TAS of one vehicle", rest: (id) => ({ method: "GET", path: `/api/v1/tas/${id}` }), tool: "get_tas_score", args: (id) => ({ device_id: id }) },
  { label: "fleet snapshot, 200 vehicles", rest: () => ({ method: "GET", path: "/api/v1/fleet?limit=200" }), tool: "list_fleet", args: () => ({ limit: 200 }) },
];

async function text(res: Response, what: string): Promise<string> {
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${body.slice(0, 300)}`);
  return body;
}

const one = (m: Measurement): Measurement => ({ ...m, batches: 1, concurrency: 1 });

export const mcpOverhead: Benchmark = {
  id: "mcp",
  title: "MCP tools/call at /api/mcp vs the same operation over REST (one request at a time)",
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const tenant = await ctx.newTenant("Bench MCP");
    const stepMs = 5 * 60_000;
    const fleet = new FleetSimulator({ seed: 1212, vehicles: VEHICLES, recordsPerVehicle: READINGS, vinTag: "MCPBEN", startMs: Date.now() - READINGS * stepMs, stepMs });
    await text(
      await fetch(`${ctx.appUrl}/api/v1/oem/ingest`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
        body: JSON.stringify({ source: "fdp-bench", vehicles: fleet.nextBatch() }),
      }),
      "seed ingest",
    );
    const [first] = await ctx.rawClient()<{ device_id: string }[]>`select device_id from devices where tenant_id = ${tenant.tenantId} order by device_id limit 1`;
    const deviceId = first!.device_id;

    const rows: ComparisonRow[] = [];
    const details: Record<string, unknown> = {};
    for (const c of CASES) {
      const { path } = c.rest(deviceId);
      const restCall = () =>
        withTimeout(`${c.label} (REST)`, REQUEST_TIMEOUT_MS, () =>
          measure({
            batches: 1,
            concurrency: 1,
            unitsPerBatch: 1,
            job: async () => void (await text(await fetch(`${ctx.appUrl}${path}`, { headers: { authorization: `Bearer ${tenant.key}` } }), path)),
          }),
        );
      let mcpBytes = 0;
      const mcpCall = () =>
        withTimeout(`${c.label} (MCP)`, REQUEST_TIMEOUT_MS, () =>
          measure({
            batches: 1,
            concurrency: 1,
            unitsPerBatch: 1,
            job: async () => {
              const body = await text(
                await fetch(`${ctx.appUrl}/api/mcp`, {
                  method: "POST",
                  headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
                  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: c.tool, arguments: c.args(deviceId) } }),
                }),
                c.tool,
              );
              mcpBytes = Buffer.byteLength(body);
            },
          }),
        );
      // The two surfaces must give the same answer before their speed is compared.
      const restAnswer = JSON.parse(await text(await fetch(`${ctx.appUrl}${path}`, { headers: { authorization: `Bearer ${tenant.key}` } }), path)) as Record<string, unknown>;
      const restBytes = Buffer.byteLength(JSON.stringify(restAnswer));
      for (let i = 0; i < WARMUPS; i++) {
        await restCall();
        await mcpCall();
      }
      const mcpRuns: Measurement[] = [];
      const restRuns: Measurement[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        if (i % 2 === 0) {
          mcpRuns.push(one(await mcpCall()));
          restRuns.push(one(await restCall()));
        } else {
          restRuns.push(one(await restCall()));
          mcpRuns.push(one(await mcpCall()));
        }
      }
      const mcp = combine(mcpRuns);
      const rest = combine(restRuns);
      const overhead = mcp.p50Ms - rest.p50Ms;
      rows.push({
        label: c.label,
        fdp: mcp,
        baseline: rest,
        goal: { pass: overhead <= GOAL_OVERHEAD_MS, reason: overhead <= GOAL_OVERHEAD_MS ? "" : `median overhead ${overhead.toFixed(1)} ms` },
      });
      details[c.label] = {
        p50OverheadMs: Number(overhead.toFixed(2)),
        p50Ratio: Number((mcp.p50Ms / rest.p50Ms).toFixed(2)),
        restAnswerBytes: restBytes,
        mcpAnswerBytes: mcpBytes,
      };
      ctx.log(`  ${c.label}: MCP p50 ${mcp.p50Ms.toFixed(1)} ms vs REST ${rest.p50Ms.toFixed(1)} ms (+${overhead.toFixed(1)} ms; ${mcpBytes} vs ${restBytes} bytes)`);
    }
    return {
      id: "mcp",
      title: this.title,
      unit: "req",
      goal: `informational: MCP median within ${GOAL_OVERHEAD_MS} ms of REST's (${REQUESTS} requests each, alternating, after ${WARMUPS} warm-ups)`,
      sides: { fdp: "MCP tools/call", baseline: "REST" },
      rows,
      details,
    };
  },
};
