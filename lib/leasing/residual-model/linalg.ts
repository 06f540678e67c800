/** Small dense linear algebra for the residual value fit (a handful of parameters): plain TypeScript, deterministic. */

/** The inverse of a symmetric positive definite matrix (Cholesky); throws when it is not positive definite. */
export function invertSpd(a: readonly (readonly number[])[]): number[][] {
  const n = a.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (!(s > 0)) throw new Error("matrix is not positive definite");
        l[i]![i] = Math.sqrt(s);
      } else l[i]![j] = s / l[j]![j]!;
    }
  }
  // inv(L), then inv(A) = inv(L)' inv(L).
  const li = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    li[j]![j] = 1 / l[j]![j]!;
    for (let i = j + 1; i < n; i++) {
      let s = 0;
      for (let k = j; k < i; k++) s -= l[i]![k]! * li[k]![j]!;
      li[i]![j] = s / l[i]![i]!;
    }
  }
  const out = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = Math.max(i, j); k < n; k++) s += li[k]![i]! * li[k]![j]!;
      out[i]![j] = s;
    }
  return out;
}

export const dot = (a: readonly number[], b: readonly number[]): number => a.reduce((s, v, i) => s + v * b[i]!, 0);
export const matVec = (m: readonly (readonly number[])[], v: readonly number[]): number[] => m.map((row) => dot(row, v));
