/**
 * Helpers shared by the pure score functions (fleet risk, vehicle health, green fleet and later
 * scores). Everything here is pure: no clock, no I/O, no randomness.
 */
import { finiteOrNull } from "@/lib/numbers";

export type Confidence = "high" | "medium" | "low";

const CONFIDENCE_RANK: Readonly<Record<Confidence, number>> = { low: 0, medium: 1, high: 2 };

/** A finite, non-negative number, else 0 (for counts and durations from a query). */
export function nonNegative(x: number | null | undefined): number {
  const v = finiteOrNull(x);
  return v === null || v < 0 ? 0 : v;
}

/** Clamp into [lo, hi]; NaN becomes lo so that a score can never be NaN. */
export function clamp(x: number, lo = 0, hi = 100): number {
  if (Number.isNaN(x)) return lo;
  return Math.min(hi, Math.max(lo, x));
}

/** Round half away from zero to `decimals` (default 1), free of binary noise (0.05 → 0.1). */
export function round(x: number, decimals = 1): number {
  const f = 10 ** decimals;
  const r = (Math.sign(x) * Math.round(Math.abs(x) * f + 1e-9)) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** A score on 0–100, rounded to one decimal. */
export function score100(x: number): number {
  return round(clamp(x, 0, 100), 1);
}

/** part / whole in [0, 1]; 0 when whole is 0 or not finite. */
export function share(part: number, whole: number): number {
  if (!(whole > 0) || !Number.isFinite(whole)) return 0;
  return clamp(part / whole, 0, 1);
}

/**
 * Piecewise-linear interpolation through points sorted by x ascending; flat beyond the ends.
 * With strictly increasing y values the result is strictly increasing between the end points.
 */
export function interpolate(x: number, points: ReadonlyArray<readonly [number, number]>): number {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return 0;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (x <= b[0]) return a[1] + ((x - a[0]) / (b[0] - a[0])) * (b[1] - a[1]);
  }
  return last[1];
}

/**
 * Weighted mean of the components whose value is not null, with the weights re-normalised over
 * those components. Returns null when no component is available.
 */
export function weightedAvailable<K extends string>(
  values: Readonly<Record<K, number | null>>,
  weights: Readonly<Record<K, number>>,
): { value: number; usedWeight: number } | null {
  let sum = 0;
  let w = 0;
  for (const key of Object.keys(weights) as K[]) {
    const v = values[key];
    const wk = weights[key];
    if (v === null || v === undefined || !Number.isFinite(v) || !(wk > 0)) continue;
    sum += v * wk;
    w += wk;
  }
  if (w <= 0) return null;
  return { value: sum / w, usedWeight: w };
}

/** The lowest of several confidence levels (at least one is given). */
export function minConfidence(...levels: Confidence[]): Confidence {
  let best: Confidence = "high";
  for (const l of levels) if (CONFIDENCE_RANK[l] < CONFIDENCE_RANK[best]) best = l;
  return best;
}

/** Confidence cap from data freshness: ≤ 48 h high, ≤ 7 days medium, older or none low. */
export function confidenceFromFreshness(newest: Date | null, now: Date): Confidence {
  const age = ageMs(newest, now);
  if (age === null) return "low";
  if (age <= 48 * 3_600_000) return "high";
  if (age <= 7 * 86_400_000) return "medium";
  return "low";
}

/** now − newest in ms (never negative), or null when there is no newest timestamp. */
function ageMs(newest: Date | null, now: Date): number | null {
  if (!newest || Number.isNaN(newest.getTime())) return null;
  return Math.max(0, now.getTime() - newest.getTime());
}

/** "45 min", "3 h", "2 days": the age in its largest sensible unit, rounded down. */
function formatAge(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "less than a minute";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  return `${d} days`;
}

/** The freshness sentence every score puts into `limitations`. */
export function freshnessSentence(newest: Date | null, now: Date): string {
  const age = ageMs(newest, now);
  if (age === null) return "No telemetry was available for this score.";
  const when = newest!.toISOString();
  if (age < 60_000) return `Newest telemetry used is less than a minute old (${when}).`;
  return `Newest telemetry used is ${formatAge(age)} old (${when}).`;
}

/** The newest of several optional timestamps, or null. */
export function newestOf(dates: ReadonlyArray<Date | null | undefined>): Date | null {
  let best: Date | null = null;
  for (const d of dates) {
    if (!d || Number.isNaN(d.getTime())) continue;
    if (!best || d.getTime() > best.getTime()) best = d;
  }
  return best;
}

/** `generated_at`: RFC 3339 UTC with Z (CONTRACT "date-times"). */
export function generatedAt(now: Date): string {
  return now.toISOString();
}
