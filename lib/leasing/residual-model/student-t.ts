/**
 * Student's t quantile for the prediction interval (a t with the published rows' degrees of freedom, not
 * the normal: with 14 degrees of freedom the 95 % quantile is 1.761, not 1.645). Numerical integration
 * of the density and bisection: no dependency, deterministic, accurate to ~1e-9 for the df used here.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const xx = x - 1;
  let a = c[0]!;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}

function density(x: number, df: number): number {
  return Math.exp(lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log(1 + (x * x) / df));
}

/** P(T ≤ t) for t ≥ 0, by composite Simpson on [0, t]. */
export function studentTCdf(t: number, df: number): number {
  if (t < 0) return 1 - studentTCdf(-t, df);
  const steps = 4000;
  const h = t / steps;
  let s = density(0, df) + density(t, df);
  for (let i = 1; i < steps; i++) s += (i % 2 === 1 ? 4 : 2) * density(i * h, df);
  return 0.5 + (s * h) / 3;
}

/** The p-quantile (0.5 < p < 1) of Student's t with `df` degrees of freedom. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1) || !(df >= 1)) throw new Error(`studentTQuantile: p=${p}, df=${df}`);
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
