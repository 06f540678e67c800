import type postgres from "postgres";
import type { Db } from "@/lib/db/client";

/** What run.ts hands every benchmark: a running app and the database it serves. */
export interface BenchContext {
  /** Base URL of the running app (`http://127.0.0.1:<port>`). */
  appUrl: string;
  /** DATABASE_URL the app runs on. */
  databaseUrl: string;
  /** Drizzle handle on that database, for setup through the project's own verbs. */
  db: Db;
  /** Opens a raw postgres.js client on the same database (closed by run.ts at the end). */
  rawClient(opts?: { max?: number }): postgres.Sql;
  /** Creates a tenant and a live key with every scope and the highest allowed rate limit. */
  newTenant(name: string): Promise<{ tenantId: string; key: string }>;
  /** Logical CPUs of this machine (for goal lines). */
  cpuCount: number;
  /** Progress lines (stderr). */
  log: (message: string) => void;
}

/** One timed run: `units` work items done in `wallMs`, with each batch's latency. */
export interface Measurement {
  /** Work items processed (records for ingest). */
  units: number;
  batches: number;
  concurrency: number;
  wallMs: number;
  /** units / (wallMs / 1000). */
  perSecond: number;
  latenciesMs: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** One line of a benchmark's table: FDP through HTTP, side by side with its raw baseline. */
export interface ComparisonRow {
  label: string;
  fdp: Measurement;
  /** null when a benchmark has no baseline for this row. */
  baseline: Measurement | null;
  /** Informational goal verdict (never fails the run). */
  goal?: { pass: boolean; reason: string };
}

export interface BenchmarkResult {
  id: string;
  title: string;
  /** Unit of `perSecond`, e.g. "rec" → "rec/s". */
  unit: string;
  /** The goal line printed under the table. */
  goal?: string;
  /** Column names of the two sides (default "FDP HTTP" and "raw driver"). */
  sides?: { fdp: string; baseline: string };
  /**
   * What the table and the history compare (default "rate"): "rate" = units per second of the whole
   * measurement, ratio FDP ÷ baseline rate (1 = as fast as the baseline, higher is better);
   * "latency" = median milliseconds per request, ratio FDP ms ÷ baseline ms (1 = as fast, lower is better).
   */
  metric?: "rate" | "latency";
  rows: ComparisonRow[];
  /** Anything else worth keeping in the JSON (payload sizes, settings). */
  details?: Record<string, unknown>;
}

/** A benchmark: one file in bench/benchmarks/, registered in bench/run.ts. */
export interface Benchmark {
  id: string;
  title: string;
  /**
   * Time this benchmark may add to the run's time limit (bench/run.ts, 15 min without it), for
   * benchmarks that seed large data or wait on slow requests by design.
   */
  extraRunMs?: number;
  run(ctx: BenchContext): Promise<BenchmarkResult>;
}
