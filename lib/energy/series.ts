/**
 * The normalised price series every source adapter produces and the cache stores: UTC instants in
 * milliseconds and VAT-inclusive c/kWh, sorted by start, without overlaps.
 */
export type Resolution = "PT15M" | "PT60M";

export interface SpotPoint {
  startMs: number;
  endMs: number;
  /** c/kWh including Finnish VAT (lib/energy/vat.ts). */
  priceWithVat: number;
}

export interface SpotSeries {
  /** What the series came from, e.g. `porssisahko.net` or `recorded:2024-02-21`. */
  source: string;
  resolution: Resolution;
  points: SpotPoint[];
}

const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;

/**
 * The series' resolution, from its slots: all 15 minutes → PT15M, all an hour → PT60M. A source that
 * mixes lengths (or gives neither) is not understood, and its answer is refused rather than guessed at.
 */
export function resolutionOf(points: readonly SpotPoint[]): Resolution | null {
  if (points.length === 0) return null;
  const lengths = new Set(points.map((p) => p.endMs - p.startMs));
  if (lengths.size !== 1) return null;
  const [len] = [...lengths];
  return len === QUARTER_MS ? "PT15M" : len === HOUR_MS ? "PT60M" : null;
}

/** Sorted by start, with the first of any duplicated start kept. */
export function sortedUnique(points: readonly SpotPoint[]): SpotPoint[] {
  const out: SpotPoint[] = [];
  for (const p of [...points].sort((a, b) => a.startMs - b.startMs)) {
    if (out.length === 0 || out[out.length - 1]!.startMs !== p.startMs) out.push(p);
  }
  return out;
}
