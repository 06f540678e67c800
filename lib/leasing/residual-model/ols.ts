/**
 * Ordinary least squares by Householder QR, in plain TypeScript: numerically steadier than solving the
 * normal equations (X'X can be ill-conditioned when features are nearly collinear, as age and SoH are in
 * the published rows), small enough to read, and deterministic (a fixed sequence of floating-point
 * operations: the same CSV gives bit-identical coefficients on the same platform).
 */

export interface OlsFit {
  coefficients: number[];
  /** (X'X)⁻¹, row-major p×p: times σ² it is the coefficients' covariance. */
  xtxInverse: number[][];
  /** Residual sum of squares. */
  rss: number;
  /** Total sum of squares around the mean of y. */
  tss: number;
  n: number;
  p: number;
}

/** Fits y ≈ Xβ. Throws when X has fewer rows than columns or is rank-deficient (a feature the data cannot identify). */
export function olsQr(x: readonly (readonly number[])[], y: readonly number[]): OlsFit {
  const n = x.length;
  const p = x[0]?.length ?? 0;
  if (n !== y.length) throw new Error(`olsQr: ${n} rows of X but ${y.length} values of y`);
  if (p === 0 || n <= p) throw new Error(`olsQr: need more rows (${n}) than columns (${p})`);
  const a = x.map((row) => [...row]);
  const b = [...y];
  const diag: number[] = [];
  for (let k = 0; k < p; k++) {
    let norm = 0;
    for (let i = k; i < n; i++) norm += a[i]![k]! ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) throw new Error(`olsQr: column ${k} is rank-deficient`);
    const alpha = a[k]![k]! > 0 ? -norm : norm;
    // v = x - alpha e1, stored in place in column k (rows k..n-1).
    a[k]![k] = a[k]![k]! - alpha;
    let vv = 0;
    for (let i = k; i < n; i++) vv += a[i]![k]! ** 2;
    if (vv === 0) throw new Error(`olsQr: column ${k} is rank-deficient`);
    for (let j = k + 1; j < p; j++) {
      let s = 0;
      for (let i = k; i < n; i++) s += a[i]![k]! * a[i]![j]!;
      const f = (2 * s) / vv;
      for (let i = k; i < n; i++) a[i]![j] = a[i]![j]! - f * a[i]![k]!;
    }
    let s = 0;
    for (let i = k; i < n; i++) s += a[i]![k]! * b[i]!;
    const f = (2 * s) / vv;
    for (let i = k; i < n; i++) b[i] = b[i]! - f * a[i]![k]!;
    diag[k] = alpha;
  }
  // R: diagonal in `diag`, strictly upper part in a[i][j] (j > i).
  const r = (i: number, j: number) => (i === j ? diag[i]! : a[i]![j]!);
  const scale = Math.max(...diag.map(Math.abs));
  for (let k = 0; k < p; k++) if (Math.abs(diag[k]!) <= 1e-12 * scale) throw new Error(`olsQr: column ${k} is (nearly) collinear with the others`);
  const beta = new Array<number>(p).fill(0);
  for (let i = p - 1; i >= 0; i--) {
    let s = b[i]!;
    for (let j = i + 1; j < p; j++) s -= r(i, j) * beta[j]!;
    beta[i] = s / r(i, i);
  }
  // R⁻¹ (upper triangular), then (X'X)⁻¹ = R⁻¹ R⁻ᵀ.
  const rInv = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let j = 0; j < p; j++) {
    rInv[j]![j] = 1 / r(j, j);
    for (let i = j - 1; i >= 0; i--) {
      let s = 0;
      for (let k = i + 1; k <= j; k++) s += r(i, k) * rInv[k]![j]!;
      rInv[i]![j] = -s / r(i, i);
    }
  }
  const xtxInverse = Array.from({ length: p }, (_, i) =>
    Array.from({ length: p }, (_, j) => {
      let s = 0;
      for (let k = Math.max(i, j); k < p; k++) s += rInv[i]![k]! * rInv[j]![k]!;
      return s;
    }),
  );
  let rss = 0;
  let mean = 0;
  for (const v of y) mean += v / n;
  let tss = 0;
  for (let i = 0; i < n; i++) {
    let fitted = 0;
    for (let j = 0; j < p; j++) fitted += x[i]![j]! * beta[j]!;
    rss += (y[i]! - fitted) ** 2;
    tss += (y[i]! - mean) ** 2;
  }
  return { coefficients: beta, xtxInverse, rss, tss, n, p };
}
