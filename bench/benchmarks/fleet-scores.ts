import http from "node:http";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import type { TenantCtx } from "@/lib/context";
import type { Db } from "@/lib/db/client";
import { rootLogger } from "@/lib/log/logger";
import { getEmissionsReport } from "@/lib/reports/get-emissions-report";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { currentUtcHour, seedLargeTenant } from "../seed-large-tenant";
import { redactUrl } from "../lib/database";
import { describeStatements, openReplayer, recordStatements, type RecordedStatement } from "../lib/statements";
import { combine, nowMs, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * Fleet-scale reads (issue 13, benchmark (b)): `GET /api/v1/scores/fleet-risk`, `GET /api/v1/scores/green-fleet`
 * (`period=30d` and `365d`) and `GET /api/v1/reports/emissions` (JSON, the last 30 and 365 days) on the
 * large tenant of bench/seed-large-tenant.ts, through the whole app, side by side with "the SQL alone":
 * the statements the verb sends, recorded at run time (one in-process call of the verb on a driver
 * whose debug hook sees every statement; bench/lib/statements.ts) and replayed with a raw postgres.js
 * client. Nothing here assumes how a verb queries: a verb that reads rollups, runs several statements
 * or a transaction is recorded and replayed as it is. Requests run one at a time, HTTP and SQL
 * alternating (order swapped every pair). Goal (issue 13): 365-day fleet risk < 300 ms on 10,000
 * devices / 10 M telemetry rows.
 *
 * Env: BENCH_LARGE_DEVICES (10000; small values for a quick run), or BENCH_LARGE_TENANT (+ BENCH_LARGE_KEY,
 * optional) with DATABASE_URL to reuse a tenant `npm run bench:seed` left; BENCH_FLEET_SCORES_REQUESTS (5),
 * BENCH_FLEET_SCORES_CASE_BUDGET_S (120). See docs/benchmarks.md.
 */

const GOAL_MS = 300;
const GOAL_DEVICES = 10_000;
const DAYS = 365;
const READINGS_PER_DAY = 3;
const envInt = (name: string, dflt: number, min: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return dflt;
  const x = Number(raw);
  if (!Number.isInteger(x) || x < min) throw new Error(`${name} must be a whole number ≥ ${min} (got ${raw})`);
  return x;
};
const DEVICES = envInt("BENCH_LARGE_DEVICES", GOAL_DEVICES, 1);
/** Measured HTTP/SQL pairs per case, at most… */
const REQUESTS = envInt("BENCH_FLEET_SCORES_REQUESTS", 5, 1);
/** …and no new pair once the case has used this much time (at least one pair is always measured). */
const CASE_BUDGET_MS = envInt("BENCH_FLEET_SCORES_CASE_BUDGET_S", 120, 1) * 1000;
/** A case whose recording call took longer than this gets no warm-up pair: the recording warmed the caches, and a first call's extra cost is noise at that scale. */
const WARMUP_BELOW_MS = 5_000;
/** One request or replay: today's 365-day fleet risk takes ~43 s on 10,000 devices (docs/benchmarks.md); this only guards a hang. */
const REQUEST_TIMEOUT_MS = 15 * 60_000;

interface Case {
  label: string;
  path: string;
  /** The verb the endpoint runs, called in-process for the recording. */
  verb: (ctx: TenantCtx, now: Date) => Promise<unknown>;
  /** Checks an answer of the endpoint (and of the recorded verb call), against the tenant's device count. */
  check: (answer: Record<string, unknown>, devices: number) => string | null;
  /** The answer's headline figures, to compare the app's answer with the in-process verb's. */
  headline: (answer: Record<string, unknown>) => string;
  goalMs?: number;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function cases(devices: number, today: Date): Case[] {
  const out: Case[] = [];
  const size = `${devices.toLocaleString("en-US")} devices`;
  for (const days of [30, DAYS]) {
    out.push({
      label: `fleet risk ${days} d (${size})`,
      path: `/api/v1/scores/fleet-risk?period=${days}d`,
      verb: (ctx, now) => getFleetRisk({ ctx, input: { period: days }, now }),
      check: (a, n) =>
        a.device_count === n && typeof a.fleet_risk_score === "number"
          ? null
          : `device_count ${String(a.device_count)} (expected ${n}), fleet_risk_score ${String(a.fleet_risk_score)}`,
      headline: (a) => `fleet_risk_score ${String(a.fleet_risk_score)}, alerts_period ${String(a.alerts_period)}`,
      goalMs: days === DAYS ? GOAL_MS : undefined,
    });
  }
  for (const days of [30, DAYS]) {
    out.push({
      label: `green fleet ${days} d (${size})`,
      path: `/api/v1/scores/green-fleet?period=${days}d`,
      verb: (ctx, now) => getGreenFleet({ ctx, input: { period: days }, now }),
      check: (a) => (typeof a.green_fleet_score === "number" ? null : `green_fleet_score ${String(a.green_fleet_score)}`),
      headline: (a) => `green_fleet_score ${String(a.green_fleet_score)}`,
    });
  }
  for (const days of [30, DAYS]) {
    // The last `days` calendar days up to today (UTC), both ends counted: today is the latest end the report accepts.
    const input = { start_date: isoDay(new Date(today.getTime() - (days - 1) * 86_400_000)), end_date: isoDay(today), format: "json" as const };
    out.push({
      label: `emissions report ${days} d, JSON (${size})`,
      path: `/api/v1/reports/emissions?start_date=${input.start_date}&end_date=${input.end_date}&format=json`,
      verb: (ctx, now) => getEmissionsReport({ ctx, input, now }),
      check: (a, n) => (a.total_vehicles === n ? null : `total_vehicles ${String(a.total_vehicles)} (expected ${n})`),
      headline: (a) => `total_co2_kg_estimate ${String(a.total_co2_kg_estimate)}`,
    });
  }
  return out;
}

/** GET over a keep-alive agent, timed to the last byte of the answer (node:http: fetch's 300 s header timeout is too short for today's slowest case at full size). */
function getText(agent: http.Agent, url: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${key}` }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.once("error", reject);
    });
    req.once("timeout", () => req.destroy(new Error(`GET ${new URL(url).pathname} timed out`)));
    req.once("error", reject);
  });
}

/** Single-request latencies as one Measurement (units = requests). */
function fromLatencies(ms: readonly number[]): Measurement {
  return combine(ms.map((x) => ({ units: 1, batches: 1, concurrency: 1, wallMs: x, perSecond: 1000 / x, latenciesMs: [x], p50Ms: x, p95Ms: x, maxMs: x })));
}

async function largeTenant(ctx: BenchContext): Promise<{ tenantId: string; key: string; devices: number; telemetry: number; seeded: Record<string, unknown> | null }> {
  const raw = ctx.rawClient();
  const reuse = process.env.BENCH_LARGE_TENANT;
  if (reuse) {
    const key = process.env.BENCH_LARGE_KEY ?? (await createApiKey({ ctx: { db: ctx.db }, input: { tenantId: reuse, name: "bench fleet-scores" } })).key;
    const [c] = await raw<{ devices: number; telemetry: number }[]>`
      select (select count(*)::int from devices where tenant_id = ${reuse}) as devices,
             (select count(*)::int from telemetry where tenant_id = ${reuse}) as telemetry`;
    if (!c || c.devices === 0)
      throw new Error(`BENCH_LARGE_TENANT=${reuse}: no devices for this tenant in ${redactUrl(ctx.databaseUrl)} (set DATABASE_URL to the seeded database)`);
    ctx.log(`reusing tenant ${reuse}: ${c.devices} devices, ${c.telemetry} telemetry rows`);
    return { tenantId: reuse, key, devices: c.devices, telemetry: c.telemetry, seeded: null };
  }
  const tenant = await ctx.newTenant("Bench large tenant");
  ctx.log(`seeding ${DEVICES} devices × ${DAYS} days × ${READINGS_PER_DAY} readings (bench/seed-large-tenant.ts)…`);
  const t0 = nowMs();
  const seeded = await seedLargeTenant({
    db: ctx.db,
    tenantId: tenant.tenantId,
    options: { devices: DEVICES, days: DAYS, readingsPerDay: READINGS_PER_DAY, anchor: currentUtcHour() },
    log: (m) => ctx.log(`  seed ${m}`),
  });
  const seedSeconds = (nowMs() - t0) / 1000;
  ctx.log(`seeded in ${seedSeconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);
  return { ...tenant, devices: seeded.counts.devices, telemetry: seeded.counts.telemetry, seeded: { seconds: Number(seedSeconds.toFixed(1)), counts: seeded.counts } };
}

export const fleetScores: Benchmark = {
  id: "fleet-scores",
  title: "Fleet scores on the large tenant (GET /scores/fleet-risk, /scores/green-fleet, /reports/emissions; 30 and 365 days) vs their recorded SQL alone",
  // Seeding 10,000 devices takes ~6–7 min, and today a 365-day fleet score takes ~43 s (at least
  // three calls per 365-day case: the recording and one HTTP/SQL pair): the run's 15 min are not enough.
  extraRunMs: 45 * 60_000,
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const tenant = await largeTenant(ctx);
    const tctx = (db: Db): TenantCtx => ({ db, tenantId: tenant.tenantId, isSandbox: false, log: rootLogger() });
    const replayer = openReplayer(ctx.databaseUrl);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const rows: ComparisonRow[] = [];
      const perCase: Record<string, unknown> = {};
      for (const c of cases(tenant.devices, new Date())) {
        const url = `${ctx.appUrl}${c.path}`;
        // ── Record: the verb once, in-process, at the current time.
        const rec = await withTimeout(`${c.label} (recording)`, REQUEST_TIMEOUT_MS, () => recordStatements(ctx.databaseUrl, (db) => c.verb(tctx(db), new Date())));
        const recMiss = c.check(rec.result as Record<string, unknown>, tenant.devices);
        if (recMiss) throw new Error(`${c.label}: the verb's own answer is off: ${recMiss}`);
        if (rec.statements.length === 0) throw new Error(`${c.label}: the verb sent no statement`);
        const statements: readonly RecordedStatement[] = rec.statements;
        ctx.log(`${c.label}: recorded ${statements.length} statement(s) in ${(rec.ms / 1000).toFixed(1)} s`);

        let answerBytes = 0;
        let httpHeadline: string | null = null;
        const httpOnce = async (): Promise<number> => {
          const t0 = nowMs();
          const res = await withTimeout(`${c.label} (HTTP)`, REQUEST_TIMEOUT_MS, () => getText(agent, url, tenant.key));
          const ms = nowMs() - t0;
          if (res.status !== 200) throw new Error(`GET ${c.path} answered ${res.status}: ${res.body.slice(0, 500)}`);
          const answer = JSON.parse(res.body) as Record<string, unknown>;
          const miss = c.check(answer, tenant.devices);
          if (miss) throw new Error(`GET ${c.path}: ${miss}`);
          httpHeadline ??= c.headline(answer);
          answerBytes = Buffer.byteLength(res.body);
          return ms;
        };
        let rowsPerStatement: number[] = [];
        const sqlOnce = async (): Promise<number> => {
          const t0 = nowMs();
          rowsPerStatement = await withTimeout(`${c.label} (SQL)`, REQUEST_TIMEOUT_MS, () => replayer.replay(statements));
          return nowMs() - t0;
        };

        const warmups = rec.ms < WARMUP_BELOW_MS ? 1 : 0;
        for (let i = 0; i < warmups; i++) {
          await httpOnce();
          await sqlOnce();
        }
        const httpMs: number[] = [];
        const sqlMs: number[] = [];
        const started = nowMs();
        let lastPairMs = 0;
        for (let i = 0; i < REQUESTS; i++) {
          if (i > 0 && nowMs() - started + lastPairMs > CASE_BUDGET_MS) break;
          const p0 = nowMs();
          if (i % 2 === 0) {
            httpMs.push(await httpOnce());
            sqlMs.push(await sqlOnce());
          } else {
            sqlMs.push(await sqlOnce());
            httpMs.push(await httpOnce());
          }
          lastPairMs = nowMs() - p0;
        }
        // The app serves the .next build, the recording runs this tree's code: different answers mean the two differ.
        const verbHeadline = c.headline(rec.result as Record<string, unknown>);
        if (httpHeadline !== verbHeadline)
          ctx.log(
            `  WARNING: the app answered "${httpHeadline}", the in-process verb "${verbHeadline}": is .next built from this tree? (the replayed SQL may not be what the app sends)`,
          );
        const fdp = fromLatencies(httpMs);
        const baseline = fromLatencies(sqlMs);
        const ratio = fdp.p50Ms / baseline.p50Ms;
        const goal = c.goalMs === undefined ? undefined : { pass: fdp.p50Ms < c.goalMs, reason: fdp.p50Ms < c.goalMs ? "" : `median ${Math.round(fdp.p50Ms)} ms ≥ ${c.goalMs} ms` };
        rows.push({ label: c.label, fdp, baseline, ...(goal ? { goal } : {}) });
        perCase[c.label] = {
          path: c.path,
          recordingMs: Number(rec.ms.toFixed(1)),
          warmups,
          pairs: httpMs.length,
          fdpOverSqlP50: Number(ratio.toFixed(3)),
          answerBytes,
          answers: { app: httpHeadline, verbInProcess: verbHeadline },
          statements: describeStatements(statements),
          rowsPerStatement,
        };
        ctx.log(`  FDP p50 ${fdp.p50Ms.toFixed(1)} ms, SQL p50 ${baseline.p50Ms.toFixed(1)} ms (×${ratio.toFixed(2)}; ${httpMs.length} pairs, ${warmups} warm-up)`);
      }
      const full = tenant.devices >= GOAL_DEVICES;
      return {
        id: this.id,
        title: this.title,
        unit: "req",
        metric: "latency",
        sides: { fdp: "FDP HTTP", baseline: "SQL alone" },
        goal: [
          `Goal (issue 13): 365-day fleet risk < ${GOAL_MS} ms (FDP, median) on ${GOAL_DEVICES.toLocaleString("en-US")} devices / 10 M telemetry rows.`,
          `This run: ${tenant.devices.toLocaleString("en-US")} devices, ${tenant.telemetry.toLocaleString("en-US")} telemetry rows${full ? "" : ` (smaller than the goal's tenant: the verdict is indicative only; full size: BENCH_LARGE_DEVICES unset)`}.`,
          `"SQL alone" = the statements each verb sent (recorded in-process at run time), replayed one after another on one raw postgres.js connection; ratio = FDP ms ÷ SQL ms (medians).`,
        ].join("\n"),
        rows,
        details: {
          tenant: { devices: tenant.devices, telemetry: tenant.telemetry, reused: tenant.seeded === null, seed: tenant.seeded },
          requestsPerCase: REQUESTS,
          caseBudgetSeconds: CASE_BUDGET_MS / 1000,
          perCase,
        },
      };
    } finally {
      agent.destroy();
      await replayer.close();
    }
  },
};
