/**
 * A finite number, else null: NaN, ±Infinity, null, undefined and non-numbers all become null. The
 * one guard the detectors, the ingest and the pure scores share against a value that is not a usable
 * measurement (validation refuses them at the edge; this keeps a missed one from becoming a score).
 */
export function finiteOrNull(x: unknown): number | null {
  return typeof x === "number" && Number.isFinite(x) ? x : null;
}
