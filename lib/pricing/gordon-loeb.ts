/**
 * The Gordon–Loeb model of information security investment: pure functions.
 *
 * Source: L. A. Gordon and M. P. Loeb (2002), "The economics of information security investment",
 * ACM Transactions on Information and System Security 5(4), 438–457, doi:10.1145/581271.581274.
 * Notation as in the paper: v is the vulnerability (probability that a threat, once realised, breaches
 * the information set), L the monetary loss of a breach, z the investment in security, S(z, v) the
 * breach probability after investing z. Expected net benefit of the investment:
 *   ENBIS(z) = [v − S(z, v)]·L − z.
 * The paper's two classes of breach probability functions (its section 3):
 *   class I:  S(z, v) = v / (αz + 1)^β   (α > 0, β ≥ 1 in the paper; any β > 0 is accepted here)
 *   class II: S(z, v) = v^(αz + 1)       (α > 0)
 * and its central result: for both classes the optimal investment z* is below (1/e)·v·L, about 36.8 %
 * of the expected loss.
 *
 * Both classes have a closed-form optimum (the first-order condition ∂ENBIS/∂z = 0 solved for z, and
 * ENBIS is concave in z for both), so no numeric search is needed; tests/unit/pricing/ checks the
 * closed forms against a brute-force maximisation.
 */

export type BreachFunction = { class: "I"; alpha: number; beta: number } | { class: "II"; alpha: number };

/** S(z, v): the breach probability after investing z. */
export function breachProbability(fn: BreachFunction, v: number, z: number): number {
  if (fn.class === "I") return v / Math.pow(fn.alpha * z + 1, fn.beta);
  return Math.pow(v, fn.alpha * z + 1);
}

/** ENBIS(z) = [v − S(z, v)]·L − z. */
export function enbis(fn: BreachFunction, v: number, lossEur: number, z: number): number {
  return (v - breachProbability(fn, v, z)) * lossEur - z;
}

/**
 * z*, the investment that maximises ENBIS (0 when no positive investment pays for itself).
 * Class I: vLαβ(αz + 1)^−(β+1) = 1  ⇒  z* = [(αβvL)^(1/(β+1)) − 1] / α, positive iff αβvL > 1.
 * Class II: −αL·ln(v)·v^(αz+1) = 1  ⇒  z* = ln(−1/(α·v·L·ln v)) / (α·ln v) (the paper's form),
 * positive iff −α·v·L·ln v > 1; at v = 0 or v = 1 no investment changes S, so z* = 0.
 */
export function optimalInvestment(fn: BreachFunction, v: number, lossEur: number): number {
  if (fn.class === "I") {
    const k = fn.alpha * fn.beta * v * lossEur;
    return k > 1 ? (Math.pow(k, 1 / (fn.beta + 1)) - 1) / fn.alpha : 0;
  }
  if (v <= 0 || v >= 1) return 0;
  const k = -fn.alpha * v * lossEur * Math.log(v);
  return k > 1 ? Math.log(1 / k) / (fn.alpha * Math.log(v)) : 0;
}

interface GordonLoebInput {
  vulnerability: number;
  potential_loss_eur: number;
  breach_function?: BreachFunction;
  proposed_investment_eur?: number;
}

interface GordonLoebResult {
  expected_loss_eur: number;
  max_optimal_investment_eur: number;
  optimum: { investment_eur: number; vulnerability_after: number; loss_reduction_eur: number; enbis_eur: number; share_of_expected_loss: number } | null;
  proposed: {
    investment_eur: number;
    within_bound: boolean;
    vulnerability_after: number | null;
    loss_reduction_eur: number | null;
    enbis_eur: number | null;
    roi: number | null;
  } | null;
}

/** The numbers of the calculator, unrounded (the verb rounds them for the answer). */
export function gordonLoeb(input: GordonLoebInput): GordonLoebResult {
  const v = input.vulnerability;
  const loss = input.potential_loss_eur;
  const expected = v * loss;
  const fn = input.breach_function;
  let optimum: GordonLoebResult["optimum"] = null;
  if (fn) {
    const z = optimalInvestment(fn, v, loss);
    const after = breachProbability(fn, v, z);
    optimum = {
      investment_eur: z,
      vulnerability_after: after,
      loss_reduction_eur: (v - after) * loss,
      enbis_eur: enbis(fn, v, loss, z),
      share_of_expected_loss: expected > 0 ? z / expected : 0,
    };
  }
  let proposed: GordonLoebResult["proposed"] = null;
  const z = input.proposed_investment_eur;
  if (z !== undefined) {
    const after = fn ? breachProbability(fn, v, z) : null;
    const reduction = after === null ? null : (v - after) * loss;
    proposed = {
      investment_eur: z,
      within_bound: z <= expected / Math.E,
      vulnerability_after: after,
      loss_reduction_eur: reduction,
      enbis_eur: reduction === null ? null : reduction - z,
      // ROI = (reduction in expected loss − z) / z; undefined for z = 0.
      roi: reduction === null || z === 0 ? null : (reduction - z) / z,
    };
  }
  return { expected_loss_eur: expected, max_optimal_investment_eur: expected / Math.E, optimum, proposed };
}
