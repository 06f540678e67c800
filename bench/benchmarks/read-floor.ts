import { spawn } from "node:child_process";
import path from "node:path";
import type { TenantCtx } from "@/lib/context";
import { fleetPageQuery } from "@/lib/fleet/list-fleet";
import { rootLogger } from "@/lib/log/logger";
import { getTas } from "@/lib/scores/get-tas";
import { freePort } from "../../tests/helpers/app-process";
import { ROOT } from "../lib/app";
import { FleetSimulator } from "../lib/fleet";
import { recordStatements } from "../lib/statements";
import { combine, measure, percentile, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * The read path against its floor (issue 13): `GET /api/v1/fleet?limit=500` and `GET /api/v1/tas/{id}`
 * through the whole app at 16 concurrent connections, side by side with a bare `node:http` server
 * (bench/lib/floor-server.ts, its own process) running the same SQL with the same driver and pool size
 * and writing the same JSON fields, with nothing else. The SQL is taken from the app's own code (the
 * fleet statement's `toSQL()`, and the statement the TAS verb sends, recorded). A 10,000-vehicle tenant
 * is seeded through the app's ingest and analysed. Rounds alternate app and floor.
 * Goals (issue 13): /fleet ≥ 0.70 of the floor's throughput with p99 ≤ 1.5× the floor's; /tas p99 < 50 ms.
 */

const VEHICLES = 10_000;
const SEED_BATCHES = 3;
const CONCURRENCY = 16;
const ROUNDS = Math.max(1, Number(process.env.BENCH_READ_ROUNDS ?? 2));
const FLEET_REQUESTS = Math.max(CONCURRENCY, Number(process.env.BENCH_READ_FLEET_REQUESTS ?? 400));
const TAS_REQUESTS = Math.max(CONCURRENCY, Number(process.env.BENCH_READ_TAS_REQUESTS ?? 800));
const REQUEST_TIMEOUT_MS = 60_000;
const PAGE = 500;

async function get(url: string, key: string | null): Promise<number> {
  const res = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${new URL(url).pathname} answered ${res.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  return body.byteLength;
}

export const readFloor: Benchmark = {
  id: "read",
  title: `Read path at ${CONCURRENCY} connections: GET /fleet?limit=${PAGE} and GET /tas/{id} vs a bare node:http + postgres.js server running the same SQL`,
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const tenant = await ctx.newTenant("Bench read path");
    const stepMs = 10 * 60_000;
    const fleet = new FleetSimulator({ seed: 7070, vehicles: VEHICLES, recordsPerVehicle: 1, vinTag: "READ01", startMs: Date.now() - SEED_BATCHES * stepMs, stepMs });
    const seedStarted = Date.now();
    for (let b = 0; b < SEED_BATCHES; b++) {
      const res = await fetch(`${ctx.appUrl}/api/v1/oem/ingest`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
        body: JSON.stringify({ source: "fdp-bench", vehicles: fleet.nextBatch() }),
      });
      if (res.status !== 200) throw new Error(`seed ingest ${b + 1} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
    const raw = ctx.rawClient();
    await raw`analyze`;
    const [{ devices, alerts } = { devices: 0, alerts: 0 }] = await raw<{ devices: number; alerts: number }[]>`
      select (select count(*)::int from devices where tenant_id = ${tenant.tenantId}) as devices,
             (select count(*)::int from alerts where tenant_id = ${tenant.tenantId}) as alerts`;
    ctx.log(`seeded ${devices} vehicles (${alerts} alerts) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s, analysed`);
    const [first] = await raw<{ device_id: string }[]>`select device_id from devices where tenant_id = ${tenant.tenantId} order by device_id limit 1`;
    const deviceId = first!.device_id;

    // The floor runs exactly the app's statements.
    const tctx: TenantCtx = { db: ctx.db, tenantId: tenant.tenantId, isSandbox: false, log: rootLogger() };
    const fleetSql = fleetPageQuery({ ctx: tctx, input: { limit: PAGE } }).toSQL();
    // Recorded in the driver (bench/lib/statements.ts), whichever way the verb sends it: the TAS statement
    // goes out as a named statement on the generic-plan pool (lib/db/prepared.ts), and the floor runs it so too.
    const { statements: tasSql } = await recordStatements(ctx.databaseUrl, (db) => getTas({ ctx: { ...tctx, db }, input: { device_id: deviceId } }));
    if (tasSql.length !== 1) throw new Error(`the TAS verb sent ${tasSql.length} statements; the floor expects one`);
    const floorPort = await freePort();
    const floor = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/lib/floor-server.ts")], {
      cwd: ROOT,
      env: {
        ...process.env,
        FLOOR_CONFIG: JSON.stringify({
          databaseUrl: ctx.databaseUrl,
          port: floorPort,
          pool: 10,
          tenantId: tenant.tenantId,
          routes: { "/fleet": { ...fleetSql, shape: "fleet" }, "/tas": { ...tasSql[0]!, shape: "rows", plan: "generic" } },
        }),
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await withTimeout("the floor server's start", 30_000, () => new Promise<void>((resolve) => floor.stdout.once("data", () => resolve())));
      const floorUrl = `http://127.0.0.1:${floorPort}`;
      const cases = [
        { label: `GET /fleet?limit=${PAGE}`, requests: FLEET_REQUESTS, app: `${ctx.appUrl}/api/v1/fleet?limit=${PAGE}`, floor: `${floorUrl}/fleet` },
        { label: "GET /tas/{id}", requests: TAS_REQUESTS, app: `${ctx.appUrl}/api/v1/tas/${deviceId}`, floor: `${floorUrl}/tas` },
      ];
      const rows: ComparisonRow[] = [];
      const details: Record<string, unknown> = { vehicles: devices, alerts, concurrency: CONCURRENCY, rounds: ROUNDS };
      for (const c of cases) {
        const bytes = { app: 0, floor: 0 };
        const side = (url: string, key: string | null, which: "app" | "floor") =>
          measure({ batches: Math.ceil(c.requests / ROUNDS), concurrency: CONCURRENCY, unitsPerBatch: 1, job: async () => void (bytes[which] = await get(url, key)) });
        // Warm-up: JIT, pools, plan caches on both sides.
        await side(c.app, tenant.key, "app");
        await side(c.floor, null, "floor");
        const appRuns: Measurement[] = [];
        const floorRuns: Measurement[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          if (r % 2 === 0) {
            appRuns.push(await side(c.app, tenant.key, "app"));
            floorRuns.push(await side(c.floor, null, "floor"));
          } else {
            floorRuns.push(await side(c.floor, null, "floor"));
            appRuns.push(await side(c.app, tenant.key, "app"));
          }
        }
        const app = combine(appRuns);
        const base = combine(floorRuns);
        const p99 = { app: percentile(app.latenciesMs, 99), floor: percentile(base.latenciesMs, 99) };
        const ratio = app.perSecond / base.perSecond;
        const misses = c.label.startsWith("GET /fleet")
          ? [
              ...(ratio < 0.7 ? [`throughput ${ratio.toFixed(2)} of the floor (< 0.70)`] : []),
              ...(p99.app > 1.5 * p99.floor ? [`p99 ×${(p99.app / p99.floor).toFixed(1)} the floor's (> 1.5)`] : []),
            ]
          : p99.app >= 50
            ? [`p99 ${p99.app.toFixed(1)} ms (≥ 50)`]
            : [];
        rows.push({ label: c.label, fdp: app, baseline: base, goal: { pass: misses.length === 0, reason: misses.join(", ") } });
        details[c.label] = { throughputRatio: Number(ratio.toFixed(3)), p99AppMs: Number(p99.app.toFixed(1)), p99FloorMs: Number(p99.floor.toFixed(1)), answerBytes: bytes };
        ctx.log(
          `  ${c.label}: app ${app.perSecond.toFixed(0)} req/s p50 ${app.p50Ms.toFixed(1)} p99 ${p99.app.toFixed(1)} ms; floor ${base.perSecond.toFixed(0)} req/s p50 ${base.p50Ms.toFixed(1)} p99 ${p99.floor.toFixed(1)} ms; ratio ${ratio.toFixed(2)} (${bytes.app} vs ${bytes.floor} bytes)`,
        );
      }
      return {
        id: "read",
        title: this.title,
        unit: "req",
        goal: `/fleet ≥ 0.70 of the floor's req/s with p99 ≤ 1.5× the floor's; /tas p99 < 50 ms (${CONCURRENCY} connections, ${ROUNDS} alternating rounds)`,
        sides: { fdp: "FDP", baseline: "bare node floor" },
        rows,
        details,
      };
    } finally {
      floor.kill("SIGTERM");
    }
  },
};
