import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parseProcessStats, type ProcessStats } from "@/lib/log/process-stats";
import { createRng } from "@/lib/seed/prng";

/**
 * Mixed traffic against a running FDP for a fixed time at a fixed arrival rate (open loop: a request
 * is started on schedule whether or not earlier ones have answered, as independent clients do), used
 * by `npm run soak` (bench/soak.ts) and, for a short run, by tests/integration/soak.test.ts.
 *
 * What counts as an error: any answer other than the operation's success status, except a 429 with
 * `Retry-After` from the per-tenant budgets (counted apart as "refused by budget": a client told to
 * come back later), and any network failure or request that outlives `requestTimeoutMs`.
 */

interface SoakTarget {
  appUrl: string;
  /** A key with every scope of a tenant whose rate limit is far above the soak's rate. */
  key: string;
}

interface SoakOptions {
  seconds: number;
  /** Requests started per second (all operations together). */
  ratePerSecond: number;
  /** Vehicles the tenant gets at the start (through the ingest endpoint, as a customer's would). */
  vehicles?: number;
  /** Device ids are `<prefix>-001`…, VINs derived from it (default `soak`): two runs on one tenant use two prefixes. */
  devicePrefix?: string;
  /** A request still unanswered after this is counted as a timeout (default 30 s). */
  requestTimeoutMs?: number;
  log?: (message: string) => void;
  /** Called after the fleet is seeded and before the traffic starts (e.g. to take a heap snapshot). */
  beforeTraffic?: () => Promise<void>;
}

type OperationName =
  "fleet" | "alerts" | "vehicle_health" | "battery_snapshot" | "tas" | "fleet_risk_30d" | "scores_batch" | "ingest" | "certificate_pdf" | "emissions_report" | "mcp_vehicle_health";

/** Share of the traffic per operation: mostly interactive reads and ingest, some heavy work. */
const MIX: [OperationName, number][] = [
  ["fleet", 12],
  ["alerts", 5],
  ["vehicle_health", 12],
  ["battery_snapshot", 6],
  ["tas", 6],
  ["fleet_risk_30d", 3],
  ["scores_batch", 3],
  ["ingest", 40],
  ["certificate_pdf", 1],
  ["emissions_report", 2],
  ["mcp_vehicle_health", 10],
];

interface OperationFigures {
  operation: OperationName;
  requests: number;
  ok: number;
  refusedByBudget: number;
  errors: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface SoakReport {
  seconds: number;
  ratePerSecond: number;
  vehicles: number;
  started: number;
  completed: number;
  unexpectedErrors: number;
  errorsByKind: Record<string, number>;
  operations: OperationFigures[];
  /** Records the seeding stored before the soak (all acknowledged). */
  seededRecords: number;
  /** Records of ingest requests answered 200 during the soak: the caller checks the database holds seeded + these. */
  ingestRecordsAcknowledged: number;
}

const DAY_MS = 86_400_000;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Deterministic pseudo-random numbers (the seed's generator), so two soak runs send the same traffic. */
function rng(seed: number): () => number {
  return createRng(seed).next;
}

/**
 * Device time between two readings of one ingest request. A request moves its vehicle's clock 5 steps
 * ahead, so a vehicle may be picked at most 1,000 / (5 × step) times a second before its readings run
 * ahead of the server's clock and are refused (the first 10-minute soak, with 1 s steps, drifted ahead
 * by 1 s per second at 20 requests/s over 20 vehicles and met that refusal after ~450 s). 200 ms keeps
 * device time behind the clock up to one ingest per vehicle per second.
 */
const INGEST_STEP_MS = 200;

/** Per-vehicle moving state for the ingest traffic: time and odometer only ever advance. */
interface VehicleState {
  deviceId: string;
  vin: string;
  atMs: number;
  odometerKm: number;
  soc: number;
}

function record(v: VehicleState, stepMs: number, random: () => number): Record<string, unknown> {
  const driving = random() < 0.6;
  const speed = driving ? Math.round(30 + random() * 70) : 0;
  v.atMs += stepMs;
  v.odometerKm += (speed * stepMs) / 3_600_000;
  v.soc = Math.max(15, Math.min(95, v.soc + (driving ? -0.4 : 0.8)));
  return {
    vin: v.vin,
    device_id: v.deviceId,
    timestamp: new Date(v.atMs).toISOString(),
    speed_kmh: speed,
    soc_percent: Math.round(v.soc * 10) / 10,
    soh_percent: 94,
    odometer_km: Math.round(v.odometerKm * 10) / 10,
    battery_voltage: 12.6,
    lat: 60.17 + random() * 0.1,
    lon: 24.94 + random() * 0.1,
    raw_data: { ignition: driving, ambient_temp_c: -3, vehicle: { make: "Kia", model: "EV6", powertrain: "BEV", battery_kwh: 77.4 } },
  };
}

async function call(target: SoakTarget, method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Response> {
  return fetch(target.appUrl + path, {
    method,
    headers: { authorization: `Bearer ${target.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/**
 * Gives the tenant `count` vehicles with 3 days of 10-minute telemetry ending now, through
 * POST /oem/ingest (the path a customer's data takes), and returns their moving state.
 */
async function seedSoakFleet(target: SoakTarget, count: number, prefix = "soak"): Promise<{ vehicles: VehicleState[]; records: number }> {
  const random = rng(28);
  const now = Date.now();
  const vehicles: VehicleState[] = Array.from({ length: count }, (_, i) => ({
    deviceId: `${prefix}-${String(i + 1).padStart(3, "0")}`,
    vin: `${prefix.toUpperCase()}${String(i + 1).padStart(17 - prefix.length, "0")}`,
    atMs: now - 3 * DAY_MS,
    odometerKm: 10_000 + i * 1_000,
    soc: 70,
  }));
  const step = 10 * 60_000;
  const records: Record<string, unknown>[] = [];
  for (const v of vehicles) while (v.atMs + step < now - 60_000) records.push(record(v, step, random));
  for (let i = 0; i < records.length; i += 2_000) {
    const res = await call(target, "POST", "/api/v1/oem/ingest", { source: "soak", vehicles: records.slice(i, i + 2_000) }, 120_000);
    if (res.status !== 200) throw new Error(`seeding the soak fleet: ingest answered ${res.status} ${await res.text()}`);
  }
  return { vehicles, records: records.length };
}

/** Runs the soak; the figures per operation and the errors by kind. */
export async function runSoak(target: SoakTarget, opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? (() => {});
  const requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
  const vehicleCount = opts.vehicles ?? 20;
  log(`seeding ${vehicleCount} vehicles through the ingest endpoint…`);
  const { vehicles, records: seededRecords } = await seedSoakFleet(target, vehicleCount, opts.devicePrefix);
  const random = rng(29);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;

  const mcp = new Client({ name: "fdp-soak", version: "0.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", target.appUrl), { requestInit: { headers: { Authorization: `Bearer ${target.key}` } } }));

  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 7 * DAY_MS).toISOString().slice(0, 10);
  let ingestRecordsAcknowledged = 0;
  // Ingest appends records at the vehicle's next time step, one request per vehicle at a time (a
  // device's feed is ordered); a vehicle whose previous batch is still in flight is skipped.
  const ingestBusy = new Set<string>();

  const operations: Record<OperationName, () => Promise<{ ok: boolean; kind: string; budget?: boolean }>> = {
    fleet: () => expect(call(target, "GET", "/api/v1/fleet", undefined, requestTimeoutMs), 200),
    alerts: () => expect(call(target, "GET", "/api/v1/alerts", undefined, requestTimeoutMs), 200),
    vehicle_health: () => expect(call(target, "GET", `/api/v1/scores/vehicle-health/${pick(vehicles).deviceId}`, undefined, requestTimeoutMs), 200),
    battery_snapshot: () => expect(call(target, "GET", `/api/v1/vehicles/${pick(vehicles).deviceId}/battery-health-snapshot`, undefined, requestTimeoutMs), 200),
    tas: () => expect(call(target, "GET", `/api/v1/tas/${pick(vehicles).deviceId}`, undefined, requestTimeoutMs), 200),
    fleet_risk_30d: () => expect(call(target, "GET", "/api/v1/scores/fleet-risk?period=30d", undefined, requestTimeoutMs), 200),
    scores_batch: () =>
      expect(
        call(target, "POST", "/api/v1/scores/batch", { device_ids: vehicles.slice(0, 10).map((v) => v.deviceId), scores: ["vehicle_health", "eol_summary"] }, requestTimeoutMs),
        200,
      ),
    emissions_report: () => expect(call(target, "GET", `/api/v1/reports/emissions?start_date=${weekAgo}&end_date=${today}&format=json`, undefined, requestTimeoutMs), 200),
    ingest: async () => {
      const v = pick(vehicles);
      if (ingestBusy.has(v.deviceId)) return { ok: true, kind: "skipped" };
      ingestBusy.add(v.deviceId);
      try {
        // Device time follows the clock (a record ahead of it is refused as implausible): five readings
        // INGEST_STEP_MS apart, starting after the vehicle's latest.
        v.atMs = Math.max(v.atMs, Date.now() - 10_000);
        const batch = Array.from({ length: 5 }, () => record(v, INGEST_STEP_MS, random));
        const outcome = await expect(call(target, "POST", "/api/v1/oem/ingest", { source: "soak", vehicles: batch }, requestTimeoutMs), 200);
        if (outcome.ok) ingestRecordsAcknowledged += batch.length;
        return outcome;
      } finally {
        ingestBusy.delete(v.deviceId);
      }
    },
    certificate_pdf: async () => {
      const generated = await call(target, "POST", `/api/v1/certificates/generate/${pick(vehicles).deviceId}`, undefined, requestTimeoutMs);
      if (generated.status !== 200 && generated.status !== 201) return outcomeOf(generated);
      const { certificate_number } = (await generated.json()) as { certificate_number: string };
      const pdf = await call(target, "GET", `/api/v1/certificates/${certificate_number}/pdf`, undefined, requestTimeoutMs);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      if (pdf.status !== 200 || bytes.subarray(0, 5).toString() !== "%PDF-") return { ok: false, kind: `${pdf.status} not a PDF` };
      return { ok: true, kind: "ok" };
    },
    mcp_vehicle_health: async () => {
      const result = await mcp.callTool({ name: "get_vehicle_health", arguments: { device_id: pick(vehicles).deviceId } }, undefined, { timeout: requestTimeoutMs });
      if (result.isError) {
        const text = (result.content as { type: string; text?: string }[])[0]?.text ?? "";
        const budget = text.includes("rate_limited");
        return { ok: false, kind: `mcp ${text.slice(0, 60)}`, budget };
      }
      return { ok: true, kind: "ok" };
    },
  };

  async function outcomeOf(res: Response): Promise<{ ok: boolean; kind: string; budget?: boolean }> {
    const text = await res.text();
    let code = "";
    try {
      code = (JSON.parse(text) as { error?: string }).error ?? "";
    } catch {
      code = res.headers.get("content-type")?.includes("html") ? "html page" : "not JSON";
    }
    const budget = res.status === 429 && res.headers.get("retry-after") !== null;
    return { ok: false, kind: `${res.status} ${code}`, budget };
  }

  async function expect(pending: Promise<Response>, status: number) {
    const res = await pending;
    if (res.status === status) {
      await res.arrayBuffer();
      return { ok: true, kind: "ok" };
    }
    return outcomeOf(res);
  }

  const totalWeight = MIX.reduce((s, [, w]) => s + w, 0);
  const choose = (): OperationName => {
    let r = random() * totalWeight;
    for (const [name, w] of MIX) if ((r -= w) < 0) return name;
    return MIX[0]![0];
  };

  const figures = new Map<OperationName, { latencies: number[]; ok: number; refused: number; errors: Record<string, number> }>();
  for (const [name] of MIX) figures.set(name, { latencies: [], ok: 0, refused: 0, errors: {} });
  const errorsByKind: Record<string, number> = {};
  let started = 0;
  let completed = 0;
  const inFlight = new Set<Promise<void>>();

  const fire = (name: OperationName) => {
    started++;
    const t0 = performance.now();
    const f = figures.get(name)!;
    const p = operations[name]()
      .catch((err: unknown) => {
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        const kind = (err as Error).name === "TimeoutError" ? "timeout" : `network ${cause ?? (err as Error).message.slice(0, 60)}`;
        return { ok: false, kind, budget: false };
      })
      .then((outcome) => {
        completed++;
        if (outcome.kind === "skipped") return;
        f.latencies.push(performance.now() - t0);
        if (outcome.ok) f.ok++;
        else if (outcome.budget) f.refused++;
        else {
          f.errors[outcome.kind] = (f.errors[outcome.kind] ?? 0) + 1;
          const key = `${name}: ${outcome.kind}`;
          errorsByKind[key] = (errorsByKind[key] ?? 0) + 1;
        }
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  await opts.beforeTraffic?.();
  log(`soak: ${opts.ratePerSecond} requests/s for ${opts.seconds} s`);
  const t0 = performance.now();
  const intervalMs = 1000 / opts.ratePerSecond;
  let next = 0;
  let lastReport = t0;
  while (performance.now() - t0 < opts.seconds * 1000) {
    const now = performance.now() - t0;
    while (next <= now) {
      fire(choose());
      next += intervalMs;
    }
    if (performance.now() - lastReport > 30_000) {
      lastReport = performance.now();
      log(
        `  ${Math.round((lastReport - t0) / 1000)} s: started ${started}, answered ${completed}, in flight ${inFlight.size}, errors ${Object.values(errorsByKind).reduce((a, b) => a + b, 0)}`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(20, next - (performance.now() - t0)))));
  }
  await Promise.all([...inFlight]);
  await mcp.close();

  const ops: OperationFigures[] = MIX.map(([name]) => {
    const f = figures.get(name)!;
    const sorted = [...f.latencies].sort((a, b) => a - b);
    const errors = Object.values(f.errors).reduce((a, b) => a + b, 0);
    return {
      operation: name,
      requests: f.ok + f.refused + errors,
      ok: f.ok,
      refusedByBudget: f.refused,
      errors: f.errors,
      p50Ms: Math.round(quantile(sorted, 0.5)),
      p99Ms: Math.round(quantile(sorted, 0.99)),
      maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
    };
  });
  return {
    seconds: opts.seconds,
    ratePerSecond: opts.ratePerSecond,
    vehicles: vehicleCount,
    started,
    completed,
    unexpectedErrors: Object.values(errorsByKind).reduce((a, b) => a + b, 0),
    errorsByKind,
    operations: ops,
    seededRecords,
    ingestRecordsAcknowledged,
  };
}

/** The server's "process stats" lines around the soak: the first after warm-up and the last. */
export function processFigures(logText: string, sinceIso: string): { start: ProcessStats | undefined; end: ProcessStats | undefined; samples: number } {
  const lines = parseProcessStats(logText).filter((l) => l.time >= sinceIso);
  return { start: lines[0], end: lines[lines.length - 1], samples: lines.length };
}

export function renderSoakReport(report: SoakReport, memory: ReturnType<typeof processFigures>): string {
  const rows = report.operations.map(
    (o) => `| ${o.operation} | ${o.requests} | ${o.ok} | ${o.refusedByBudget} | ${Object.values(o.errors).reduce((a, b) => a + b, 0)} | ${o.p50Ms} | ${o.p99Ms} | ${o.maxMs} |`,
  );
  const mem = (s: ProcessStats | undefined) =>
    s
      ? `RSS ${s.rss_mb} MB (heap used ${s.heap_used_mb} / total ${s.heap_total_mb} MB, buffers ${s.array_buffers_mb} MB, native ${s.native_mb} MB), event-loop delay p50 ${s.event_loop_delay_p50_ms} ms / p99 ${s.event_loop_delay_p99_ms} ms / max ${s.event_loop_delay_max_ms} ms, utilisation ${s.event_loop_utilization}`
      : "no sample";
  return [
    `Soak: ${report.ratePerSecond} requests/s for ${report.seconds} s over ${report.vehicles} vehicles — started ${report.started}, answered ${report.completed}, unexpected errors ${report.unexpectedErrors}`,
    "",
    "| operation | requests | ok | refused by budget (429) | errors | p50 ms | p99 ms | max ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Errors by kind: ${Object.keys(report.errorsByKind).length === 0 ? "none" : JSON.stringify(report.errorsByKind)}`,
    `Server at start (first sample after seeding): ${mem(memory.start)}`,
    `Server at end: ${mem(memory.end)}`,
  ].join("\n");
}
