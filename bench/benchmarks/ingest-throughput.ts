import { FleetSimulator, type OemRecord } from "../lib/fleet";
import { rawIngestBatch } from "../lib/raw-ingest";
import { combine, measure, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * Ingest throughput: vehicle records per second through the whole HTTP stack
 * (`POST /api/v1/oem/ingest`, JSON body, Bearer key) against the raw baseline (the same storage
 * written by hand with postgres.js: bench/lib/raw-ingest.ts), batch by batch, sequentially and with
 * two batches in flight. FDP and the baseline write to two tenants of the same database and get
 * identical payloads (same fleet seeds).
 */

const GOAL_RECORDS_PER_S = 10_000;
/** Issue 13's goals: at least this share of the raw baseline's rate, by request size. */
const goalRatio = (batchSize: number) => (batchSize >= 10_000 ? 0.7 : 0.6);
const WARMUP_BATCHES = Number(process.env.BENCH_WARMUP_BATCHES ?? 2);
/** Each row is measured in this many rounds (raw then HTTP, HTTP then raw, ...), then pooled. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** Hard bound on any single measurement (a fixed number of batches; this only guards a hang). */
const MEASUREMENT_TIMEOUT_MS = 120_000;

interface Case {
  tag: string;
  label: string;
  vehicles: number;
  recordsPerVehicle: number;
  /** Batches per round and measurement (even, so that two in flight share them equally). */
  batches: number;
}

const CASES: Case[] = [
  { tag: "A", label: "ingest 1,000 (1000 veh × 1)", vehicles: 1000, recordsPerVehicle: 1, batches: Number(process.env.BENCH_INGEST_BATCHES_1K ?? 6) },
  { tag: "B", label: "ingest 1,000 (100 veh × 10)", vehicles: 100, recordsPerVehicle: 10, batches: Number(process.env.BENCH_INGEST_BATCHES_1K ?? 6) },
  { tag: "C", label: "ingest 10,000 (2000 veh × 5)", vehicles: 2000, recordsPerVehicle: 5, batches: Number(process.env.BENCH_INGEST_BATCHES_10K ?? 4) },
];

/** Two independent feeds per case (lane 0 and 1: disjoint vehicles), as two OEM gateways would be. */
const LANES = 2;
const STEP_MS = 60_000;

function fleetsFor(c: Case, caseIndex: number, startMs: number): FleetSimulator[] {
  return Array.from(
    { length: LANES },
    (_, lane) =>
      new FleetSimulator({
        seed: 1000 * (caseIndex + 1) + lane,
        vehicles: c.vehicles,
        recordsPerVehicle: c.recordsPerVehicle,
        vinTag: `${c.tag}0000${lane}`,
        startMs,
        stepMs: STEP_MS,
      }),
  );
}

/** Batches for one measurement: batch i goes to lane i % concurrency (as `measure` schedules it). */
function takeBatches(fleets: FleetSimulator[], count: number, concurrency: number): OemRecord[][] {
  return Array.from({ length: count }, (_, i) => fleets[i % concurrency]!.nextBatch());
}

async function postIngest(url: string, key: string, body: string): Promise<void> {
  const res = await fetch(`${url}/api/v1/oem/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
    signal: AbortSignal.timeout(MEASUREMENT_TIMEOUT_MS),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /api/v1/oem/ingest answered ${res.status}: ${text.slice(0, 500)}`);
  const parsed = JSON.parse(text) as { accepted?: boolean };
  if (parsed.accepted !== true) throw new Error(`POST /api/v1/oem/ingest did not accept the batch: ${text.slice(0, 500)}`);
}

export const ingestThroughput: Benchmark = {
  id: "ingest",
  title: "Ingest throughput (POST /api/v1/oem/ingest vs raw postgres.js upsert)",
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const fdpTenant = await ctx.newTenant("Bench ingest (HTTP)");
    const rawTenant = await ctx.newTenant("Bench ingest (raw baseline)");
    const raw = ctx.rawClient({ max: LANES });
    // Device clocks start 8 h back: every batch moves them forward, never past "now" (the
    // endpoint refuses timestamps more than 10 min in the future).
    const startMs = Math.floor(Date.now() / 60_000) * 60_000 - 8 * 3_600_000;

    const rows: ComparisonRow[] = [];
    const sent = { fdp: 0, raw: 0 };
    const payloadBytes: Record<string, number> = {};
    const perRound: { row: string; fdpPerSecond: number[]; rawPerSecond: number[] }[] = [];

    for (const [caseIndex, c] of CASES.entries()) {
      const batchSize = c.vehicles * c.recordsPerVehicle;
      // Identical payload streams for FDP and the baseline (same seeds, separate tenants).
      const fdpFleets = fleetsFor(c, caseIndex, startMs);
      const rawFleets = fleetsFor(c, caseIndex, startMs);

      const runRaw = async (concurrency: number, count: number): Promise<Measurement> => {
        const batches = takeBatches(rawFleets, count, concurrency);
        sent.raw += count * batchSize;
        return withTimeout(`raw ${c.label} ×${count} c${concurrency}`, MEASUREMENT_TIMEOUT_MS, () =>
          measure({ batches: count, concurrency, unitsPerBatch: batchSize, job: (i) => rawIngestBatch(raw, rawTenant.tenantId, batches[i]!) }),
        );
      };
      const runHttp = async (concurrency: number, count: number): Promise<Measurement> => {
        // Bodies are serialised before the clock starts: the client's own JSON work is not measured.
        const bodies = takeBatches(fdpFleets, count, concurrency).map((b) => JSON.stringify({ source: "fdp-bench", vehicles: b }));
        payloadBytes[c.label] = Buffer.byteLength(bodies[0] ?? "");
        sent.fdp += count * batchSize;
        return withTimeout(`HTTP ${c.label} ×${count} c${concurrency}`, MEASUREMENT_TIMEOUT_MS, () =>
          measure({ batches: count, concurrency, unitsPerBatch: batchSize, job: (i) => postIngest(ctx.appUrl, fdpTenant.key, bodies[i]!) }),
        );
      };

      ctx.log(`${c.label}: warm-up (${WARMUP_BATCHES} batches per feed, both sides)`);
      if (WARMUP_BATCHES > 0) {
        await runRaw(LANES, WARMUP_BATCHES * LANES);
        await runHttp(LANES, WARMUP_BATCHES * LANES);
      }
      for (const concurrency of [1, 2]) {
        const rawRounds: Measurement[] = [];
        const fdpRounds: Measurement[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          // Alternate which side goes first, so neither always runs on the fresher database.
          const rawFirst = round % 2 === 1;
          ctx.log(`${c.label}: round ${round}/${ROUNDS}, ${c.batches} batches, ${concurrency} in flight (${rawFirst ? "raw, then HTTP" : "HTTP, then raw"})`);
          if (rawFirst) rawRounds.push(await runRaw(concurrency, c.batches));
          fdpRounds.push(await runHttp(concurrency, c.batches));
          if (!rawFirst) rawRounds.push(await runRaw(concurrency, c.batches));
        }
        const baseline = combine(rawRounds);
        const fdp = combine(fdpRounds);
        perRound.push({
          row: `${c.label}, ${concurrency} in flight`,
          fdpPerSecond: fdpRounds.map((m) => Math.round(m.perSecond)),
          rawPerSecond: rawRounds.map((m) => Math.round(m.perSecond)),
        });
        const ratio = fdp.perSecond / baseline.perSecond;
        const goal = goalRatio(batchSize);
        const misses = [
          ...(fdp.perSecond < GOAL_RECORDS_PER_S ? [`< ${GOAL_RECORDS_PER_S.toLocaleString("en-US")} rec/s`] : []),
          ...(ratio < goal ? [`< ${Math.round(goal * 100)}% of raw`] : []),
        ];
        rows.push({
          label: `${c.label}${concurrency > 1 ? `, ${concurrency} in flight` : ""}`,
          fdp,
          baseline,
          goal: { pass: misses.length === 0, reason: misses.join(", ") },
        });
        ctx.log(`  HTTP ${Math.round(fdp.perSecond)} rec/s, raw ${Math.round(baseline.perSecond)} rec/s (${Math.round(ratio * 100)}%)`);
      }
    }

    // Sanity: every record sent was really stored (fresh timestamps, nothing de-duplicated away).
    const counted = await raw<{ tenant_id: string; n: number }[]>`
      select tenant_id, count(*)::int as n from telemetry where tenant_id in (${fdpTenant.tenantId}, ${rawTenant.tenantId}) group by tenant_id`;
    const stored = {
      fdp: counted.find((r) => r.tenant_id === fdpTenant.tenantId)?.n ?? 0,
      raw: counted.find((r) => r.tenant_id === rawTenant.tenantId)?.n ?? 0,
    };
    if (stored.fdp !== sent.fdp || stored.raw !== sent.raw) {
      ctx.log(`WARNING: telemetry rows stored (HTTP ${stored.fdp}, raw ${stored.raw}) differ from records sent (HTTP ${sent.fdp}, raw ${sent.raw})`);
    }
    const [alertCount] = await raw<{ n: number }[]>`select count(*)::int as n from alerts where tenant_id = ${fdpTenant.tenantId}`;

    // The baseline must do the same storage work: both tenants now hold the same rows.
    const differing = async (table: string, columns: string) => {
      const [row] = await raw.unsafe<{ n: number }[]>(
        `select count(*)::int as n from (
           (select ${columns} from ${table} where tenant_id = $1 except all select ${columns} from ${table} where tenant_id = $2)
           union all
           (select ${columns} from ${table} where tenant_id = $2 except all select ${columns} from ${table} where tenant_id = $1)) x`,
        [fdpTenant.tenantId, rawTenant.tenantId],
      );
      return row?.n ?? -1;
    };
    const signal =
      "device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data";
    const equivalence = {
      telemetryRowsDiffering: await differing("telemetry", signal),
      snapshotRowsDiffering: await differing("fleet_snapshot", signal),
      deviceRowsDiffering: await differing(
        "devices",
        "device_id, name, vin, make, model, year, powertrain, powertrain_source, fuel_type, battery_kwh, master_data_at, odometer_max_km, odometer_max_at, events_reported_at, dense_speed_at",
      ),
      // Both mark every device's daily rollups stale (FDP's background refresh then moves its own
      // `clean_before` on, so only the devices are compared), and neither stores driving events.
      rollupStateRowsDiffering: await differing("telemetry_rollup_state", "device_id"),
      drivingEventRowsDiffering: await differing("driving_events", "device_id, ts, kind, source, value, duration_s, record_ts"),
    };
    if (Object.values(equivalence).some((n) => n !== 0)) {
      ctx.log(`WARNING: the baseline did not store the same rows as FDP: ${JSON.stringify(equivalence)}`);
    }

    return {
      id: this.id,
      title: this.title,
      unit: "rec",
      goal: `Goal (issue 13): ≥ 70% of the raw baseline at 10,000 records per request and ≥ 60% at 1,000, and ≥ ${GOAL_RECORDS_PER_S.toLocaleString("en-US")} records/s, on this ${ctx.cpuCount}-core machine.`,
      rows,
      details: {
        warmupBatchesPerFeed: WARMUP_BATCHES,
        rounds: ROUNDS,
        perRound,
        cases: CASES,
        payloadBytesPerBatch: payloadBytes,
        recordsSent: sent,
        telemetryRowsStored: stored,
        baselineEquivalence: equivalence,
        alertsRaisedByDetectors: alertCount?.n ?? 0,
      },
    };
  },
};
