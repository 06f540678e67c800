import { performance } from "node:perf_hooks";
import type { Measurement } from "./types";

export const nowMs = (): number => performance.now();

/** The p-th percentile (0–100, nearest rank) of a list; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A measurement from its totals and each batch's latency: the rates and percentiles every benchmark reports. */
export function measurementOf({
  units,
  batches,
  concurrency,
  wallMs,
  latenciesMs,
}: Pick<Measurement, "units" | "batches" | "concurrency" | "wallMs" | "latenciesMs">): Measurement {
  return {
    units,
    batches,
    concurrency,
    wallMs,
    perSecond: units / (wallMs / 1000),
    latenciesMs,
    p50Ms: median(latenciesMs),
    p95Ms: percentile(latenciesMs, 95),
    maxMs: Math.max(...latenciesMs),
  };
}

/**
 * Runs `batches` jobs with at most `concurrency` in flight: lane k runs jobs k, k+c, k+2c, ...
 * one after another (so each lane's jobs keep their order). Returns the wall time of the whole
 * set and each job's latency. A job that throws stops the measurement.
 */
export async function measure({
  batches,
  concurrency,
  unitsPerBatch,
  job,
}: {
  batches: number;
  concurrency: number;
  unitsPerBatch: number;
  job: (index: number, lane: number) => Promise<void>;
}): Promise<Measurement> {
  const latencies: number[] = new Array<number>(batches).fill(0);
  const lanes = Math.max(1, Math.min(concurrency, batches));
  const start = nowMs();
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < batches; i += lanes) {
        const t0 = nowMs();
        await job(i, lane);
        latencies[i] = nowMs() - t0;
      }
    }),
  );
  return measurementOf({ units: batches * unitsPerBatch, batches, concurrency: lanes, wallMs: nowMs() - start, latenciesMs: latencies });
}

/** Rejects after `ms` with a clear message; keeps every measurement bounded in time. */
export async function withTimeout<T>(what: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Several measurements of the same thing (rounds) as one: units and wall times add up, latencies
 * pool. Alternating rounds of FDP and its baseline spreads any background load over both sides.
 */
export function combine(parts: readonly Measurement[]): Measurement {
  if (parts.length === 0) throw new Error("combine: no measurements");
  return measurementOf({
    units: parts.reduce((n, p) => n + p.units, 0),
    batches: parts.reduce((n, p) => n + p.batches, 0),
    concurrency: parts[0]!.concurrency,
    wallMs: parts.reduce((n, p) => n + p.wallMs, 0),
    latenciesMs: parts.flatMap((p) => p.latenciesMs),
  });
}
