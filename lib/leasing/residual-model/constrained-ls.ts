/**
 * Least squares under homogeneous linear inequality constraints, min ‖y − Xβ‖² subject to a_k·β ≤ 0,
 * solved exactly through the Karush-Kuhn-Tucker conditions. Used by fit.ts for the residual value
 * model's economic constraints (a feature that never raises the value; a car that never gains value
 * with age at the same odometer), so that a constraint that binds changes the FIT, not the predictions
 * afterwards.
 *
 * Method: an active set enumerated in full. For a working set W of constraints held as equalities,
 * β = N·γ where the columns of N span {β : a_k·β = 0, k ∈ W}; γ is the ordinary least squares fit of y
 * on the reduced design X·N. That β is the optimum when it is feasible (every a_k·β ≤ 0) and the
 * multipliers λ of W, from X'(Xβ − y) + Σ λ_k·a_k = 0, are all ≥ 0 (no held constraint would rather be
 * released). The problem is convex and X has full column rank, so exactly one β satisfies these
 * conditions; W is tried from the empty set upwards, so an unconstrained fit that already satisfies
 * every constraint is returned unchanged, and the working set reported is the smallest one that
 * reaches the optimum. With a handful of constraints (2^5 = 32 working sets at most) a full enumeration
 * is cheaper to read and check than a pivoting loop, and cannot cycle.
 *
 * N is built by elimination, not orthogonalisation: each held constraint expresses one coefficient (its
 * first non-zero column, in feature order) through the others, so the boundary holds exactly in floating
 * point (β_age is computed AS 1.5·β_exc, not approximately equal to it) and the reduced design's columns
 * are readable regressors (excess_10k_km + 1.5·age_years is the odometer in 10,000 km).
 */
import { olsQr, type OlsFit } from "./ols";

export interface InequalityConstraint {
  name: string;
  /** The constraint is a·β ≤ 0, in the design's column order. */
  a: readonly number[];
}

export interface ConstrainedFit extends OlsFit {
  /**
   * Names of the constraints that hold with equality at the optimum (the active set), in the
   * constraints' order. It can be larger than the working set that reached the optimum when
   * constraints coincide on the boundary (b_soh = 0 makes the two age constraints the same).
   */
  active: string[];
  /** The working set that satisfied the KKT conditions: the constraints held as equalities in the reduced fit. */
  workingSet: string[];
  /** KKT multiplier of each constraint (0 for an inactive one): the marginal reduction of RSS / 2 if it were relaxed. */
  multipliers: Record<string, number>;
  /** Degrees of freedom the fit spends: columns − active constraints. */
  freeParameters: number;
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/**
 * Basis of {β : Aβ = 0} by reduced row echelon form of A: the pivot coefficients are expressed through
 * the free ones, one column of N per free coefficient (1 at the free coefficient, −R[pivot][free] at
 * each pivot). Null when A's rows are linearly dependent (a redundant working set, skipped).
 */
export function nullSpaceByElimination(rows: readonly (readonly number[])[], p: number): number[][] | null {
  const r = rows.map((row) => [...row]);
  const pivots: number[] = [];
  for (let i = 0; i < r.length; i++) {
    // Earlier pivot columns are already zero in this row (eliminated from every row), so the first
    // non-zero entry is a new pivot; none left means the row depends on the earlier ones.
    let col = 0;
    while (col < p && Math.abs(r[i]![col]!) < 1e-12) col++;
    if (col === p) return null;
    const scale = r[i]![col]!;
    r[i] = r[i]!.map((v) => v / scale);
    for (let k = 0; k < r.length; k++) {
      if (k === i || r[k]![col] === 0) continue;
      const f = r[k]![col]!;
      r[k] = r[k]!.map((v, j) => (j === col ? 0 : v - f * r[i]![j]!));
    }
    pivots.push(col);
  }
  const free = Array.from({ length: p }, (_, j) => j).filter((j) => !pivots.includes(j));
  // N is p × free.length, stored row-major.
  return Array.from({ length: p }, (_, i) =>
    free.map((f) => {
      if (i === f) return 1;
      const row = pivots.indexOf(i);
      return row < 0 ? 0 : -r[row]![f]!;
    }),
  );
}

/** Subsets of {0..m-1} by size, then lexicographically. */
function workingSets(m: number): number[][] {
  const out: number[][] = [];
  const rec = (start: number, size: number, cur: number[]) => {
    if (cur.length === size) return void out.push([...cur]);
    for (let k = start; k < m; k++) rec(k + 1, size, [...cur, k]);
  };
  for (let size = 0; size <= m; size++) rec(0, size, []);
  return out;
}

export function constrainedLeastSquares(x: readonly (readonly number[])[], y: readonly number[], constraints: readonly InequalityConstraint[]): ConstrainedFit {
  const p = x[0]?.length ?? 0;
  for (const c of constraints) if (c.a.length !== p) throw new Error(`constrainedLeastSquares: constraint ${c.name} has ${c.a.length} entries for ${p} columns`);
  const yScale = Math.sqrt(y.reduce((s, v) => s + v * v, 0)) || 1;
  for (const w of workingSets(constraints.length)) {
    const n = nullSpaceByElimination(
      w.map((k) => constraints[k]!.a),
      p,
    );
    if (n === null) continue;
    const q = n[0]!.length;
    if (q === 0) continue;
    const reduced = olsQr(
      x.map((row) => Array.from({ length: q }, (_, j) => row.reduce((s, v, i) => s + v * n[i]![j]!, 0))),
      y,
    );
    const beta = n.map((row) => dot(row, reduced.coefficients));
    const betaScale = Math.max(1e-12, ...beta.map(Math.abs));
    if (constraints.some((c) => dot(c.a, beta) > 1e-10 * betaScale)) continue;
    // Half the gradient of the RSS at β: X'(Xβ − y).
    const residual = x.map((row, i) => dot(row, beta) - y[i]!);
    const g = Array.from({ length: p }, (_, j) => x.reduce((s, row, i) => s + row[j]! * residual[i]!, 0));
    let lambda: number[] = [];
    if (w.length > 0) {
      // g + A_W'λ = 0 holds exactly at the reduced optimum (g is orthogonal to N): solve it by least squares.
      const at = Array.from({ length: p }, (_, j) => w.map((k) => constraints[k]!.a[j]!));
      lambda = solveTall(at, g.map((v) => -v));
      if (lambda.some((l) => l < -1e-9 * yScale)) continue;
    }
    // (X'X)⁻¹ of the constrained fit: N (N'X'XN)⁻¹ N', the covariance of β = Nγ up to σ².
    const m = reduced.xtxInverse;
    const xtxInverse = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => n[i]!.reduce((s, nik, k) => s + nik * dot(m[k]!, n[j]!), 0)));
    return {
      coefficients: beta,
      xtxInverse,
      rss: reduced.rss,
      tss: reduced.tss,
      n: reduced.n,
      p,
      freeParameters: q,
      active: constraints.filter((c) => Math.abs(dot(c.a, beta)) <= 1e-10 * betaScale).map((c) => c.name),
      workingSet: w.map((k) => constraints[k]!.name),
      multipliers: Object.fromEntries(constraints.map((c, k) => [c.name, w.includes(k) ? lambda[w.indexOf(k)]! : 0])),
    };
  }
  throw new Error("constrainedLeastSquares: no working set satisfies the KKT conditions");
}

/** Least squares for a tall system A z = b with few columns (normal equations; A is p × k with k ≤ 3 here). */
function solveTall(a: number[][], b: number[]): number[] {
  const k = a[0]!.length;
  const ata = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => a.reduce((s, row) => s + row[i]! * row[j]!, 0)));
  const atb = Array.from({ length: k }, (_, i) => a.reduce((s, row, r) => s + row[i]! * b[r]!, 0));
  // Gaussian elimination with partial pivoting on the k × k system.
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(ata[r]![c]!) > Math.abs(ata[piv]![c]!)) piv = r;
    [ata[c], ata[piv]] = [ata[piv]!, ata[c]!];
    [atb[c], atb[piv]] = [atb[piv]!, atb[c]!];
    for (let r = c + 1; r < k; r++) {
      const f = ata[r]![c]! / ata[c]![c]!;
      for (let j = c; j < k; j++) ata[r]![j] = ata[r]![j]! - f * ata[c]![j]!;
      atb[r] = atb[r]! - f * atb[c]!;
    }
  }
  const z = new Array<number>(k).fill(0);
  for (let i = k - 1; i >= 0; i--) z[i] = (atb[i]! - ata[i]!.slice(i + 1).reduce((s, v, j) => s + v * z[i + 1 + j]!, 0)) / ata[i]![i]!;
  return z;
}
