import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breachProbability, enbis, gordonLoeb, optimalInvestment, type BreachFunction } from "@/lib/pricing/gordon-loeb";

/**
 * Gordon & Loeb (2002), ACM TISSEC 5(4): the closed forms checked against hand-worked values and
 * against a brute-force maximisation, and the paper's results as properties (z* < vL/e for classes I
 * and II; class II's optimum is not monotone in v).
 */

/** ENBIS maximised over a fine grid of [0, vL] (no investment above the expected loss can pay). */
function bruteForceOptimum(fn: BreachFunction, v: number, loss: number, steps = 20_000): { z: number; value: number } {
  let best = { z: 0, value: enbis(fn, v, loss, 0) };
  for (let i = 1; i <= steps; i++) {
    const z = (v * loss * i) / steps;
    const value = enbis(fn, v, loss, z);
    if (value > best.value) best = { z, value };
  }
  return best;
}

describe("worked examples (v = 0.5, L = EUR 1,000,000)", () => {
  it("class I, α = 1e-5, β = 1: z* = (√(αβvL) − 1)/α = (√5 − 1)·10⁵ = 123,606.80", () => {
    // By hand: αβvL = 1e-5 · 1 · 0.5 · 1e6 = 5; z* = (5^(1/2) − 1)/1e-5 = 123,606.797…;
    // S(z*) = 0.5/√5 = 0.223607; reduction = (0.5 − 0.223607)·1e6 = 276,393.20; ENBIS = 152,786.40.
    const r = gordonLoeb({ vulnerability: 0.5, potential_loss_eur: 1e6, breach_function: { class: "I", alpha: 1e-5, beta: 1 }, proposed_investment_eur: 100_000 });
    expect(r.expected_loss_eur).toBe(500_000);
    expect(r.max_optimal_investment_eur).toBeCloseTo(183_939.72, 2); // 500,000/e
    expect(r.optimum?.investment_eur).toBeCloseTo(123_606.797_75, 4);
    expect(r.optimum?.vulnerability_after).toBeCloseTo(0.5 / Math.sqrt(5), 12);
    expect(r.optimum?.loss_reduction_eur).toBeCloseTo(276_393.202_25, 4);
    expect(r.optimum?.enbis_eur).toBeCloseTo(152_786.404_5, 3);
    // Proposed 100,000: αz + 1 = 2, S = 0.25, reduction 250,000, ENBIS 150,000, ROI (250,000 − 100,000)/100,000 = 1.5.
    expect(r.proposed).toEqual({ investment_eur: 100_000, within_bound: true, vulnerability_after: 0.25, loss_reduction_eur: 250_000, enbis_eur: 150_000, roi: 1.5 });
  });

  it("class II, α = 1e-5: S(z*) = 1/(αL·ln(1/v)) = 1/(10 ln 2) and z* = ln(5 ln 2)/ln 2 · 10⁵ ≈ 179,316", () => {
    // By hand from the first-order condition −αL·ln(v)·v^(αz+1) = 1: v^(αz*+1) = 1/(10 ln 2) = 0.144270;
    // the paper's z* = ln(−1/(αvL ln v))/(α ln v) = ln(1/(5 ln 2))/(−ln 2 · 1e-5) = ln(3.465736)/ln 2 · 1e5.
    const r = gordonLoeb({ vulnerability: 0.5, potential_loss_eur: 1e6, breach_function: { class: "II", alpha: 1e-5 } });
    const z = (Math.log(5 * Math.LN2) / Math.LN2) * 1e5;
    expect(z).toBeCloseTo(179_316.0, 0);
    expect(r.optimum?.investment_eur).toBeCloseTo(z, 6);
    expect(r.optimum?.vulnerability_after).toBeCloseTo(1 / (10 * Math.LN2), 12);
    expect(r.optimum?.enbis_eur).toBeCloseTo((0.5 - 1 / (10 * Math.LN2)) * 1e6 - z, 4);
    expect(r.optimum!.investment_eur).toBeLessThan(r.max_optimal_investment_eur); // 179,316 < 183,940
  });

  it("no investment pays when αβvL ≤ 1 (class I) or −αvL·ln v ≤ 1 (class II): z* = 0", () => {
    expect(optimalInvestment({ class: "I", alpha: 1e-6, beta: 1 }, 0.5, 1e6)).toBe(0); // αβvL = 0.5
    expect(optimalInvestment({ class: "II", alpha: 1e-6 }, 0.5, 1e6)).toBe(0); // 0.347
    expect(optimalInvestment({ class: "II", alpha: 1 }, 1, 1e6)).toBe(0); // S = 1 whatever z
    expect(optimalInvestment({ class: "I", alpha: 1, beta: 1 }, 0, 1e6)).toBe(0);
  });

  it("without a breach function: expected loss and bound only; a proposal is checked against the bound", () => {
    const r = gordonLoeb({ vulnerability: 0.2, potential_loss_eur: 2e6, proposed_investment_eur: 200_000 });
    expect(r.expected_loss_eur).toBe(400_000);
    expect(r.optimum).toBeNull();
    expect(r.proposed).toEqual({ investment_eur: 200_000, within_bound: false, vulnerability_after: null, loss_reduction_eur: null, enbis_eur: null, roi: null });
  });

  it("ROI is null for a zero investment (undefined), ENBIS is then 0", () => {
    const r = gordonLoeb({ vulnerability: 0.5, potential_loss_eur: 1e6, breach_function: { class: "I", alpha: 1e-5, beta: 1 }, proposed_investment_eur: 0 });
    expect(r.proposed?.roi).toBeNull();
    expect(r.proposed?.enbis_eur).toBe(0);
  });
});

describe("the closed forms against a brute-force maximisation", () => {
  it.each([
    [{ class: "I", alpha: 1e-5, beta: 1 }, 0.5, 1e6],
    [{ class: "I", alpha: 2e-6, beta: 3 }, 0.8, 5e6],
    [{ class: "II", alpha: 1e-5 }, 0.5, 1e6],
    [{ class: "II", alpha: 3e-7 }, 0.9, 2e7],
  ] as [BreachFunction, number, number][])("%o, v = %d, L = %d", (fn, v, loss) => {
    const closed = optimalInvestment(fn, v, loss);
    const brute = bruteForceOptimum(fn, v, loss);
    expect(Math.abs(closed - brute.z)).toBeLessThanOrEqual((v * loss) / 20_000);
    expect(enbis(fn, v, loss, closed)).toBeGreaterThanOrEqual(brute.value - 1e-6);
  });
});

describe("properties (Gordon & Loeb 2002, propositions for classes I and II)", () => {
  const fnArb: fc.Arbitrary<BreachFunction> = fc.oneof(
    fc.record({ class: fc.constant("I" as const), alpha: fc.double({ min: 1e-8, max: 1e-2, noNaN: true }), beta: fc.double({ min: 0.01, max: 10, noNaN: true }) }),
    fc.record({ class: fc.constant("II" as const), alpha: fc.double({ min: 1e-8, max: 1e-2, noNaN: true }) }),
  );
  const v = fc.double({ min: 0.001, max: 0.999, noNaN: true });
  const loss = fc.double({ min: 1e3, max: 1e9, noNaN: true });

  it("z* ≤ vL/e (the 1/e bound; the paper proves it for β ≥ 1, and it holds for the β < 1 this API accepts too)", () => {
    fc.assert(
      fc.property(fnArb, v, loss, (fn, vv, ll) => {
        expect(optimalInvestment(fn, vv, ll)).toBeLessThanOrEqual((vv * ll) / Math.E);
      }),
      { numRuns: 2000 },
    );
  });

  it("ENBIS at z* is at least ENBIS at any other investment", () => {
    fc.assert(
      fc.property(fnArb, v, loss, fc.double({ min: 0, max: 1, noNaN: true }), (fn, vv, ll, share) => {
        const star = optimalInvestment(fn, vv, ll);
        const other = share * vv * ll;
        // Relative slack for floating point at large L.
        expect(enbis(fn, vv, ll, star)).toBeGreaterThanOrEqual(enbis(fn, vv, ll, other) - 1e-9 * ll);
      }),
      { numRuns: 2000 },
    );
  });

  it("S(z, v) falls with z and S(0, v) = v", () => {
    fc.assert(
      fc.property(fnArb, v, fc.double({ min: 0, max: 1e6, noNaN: true }), (fn, vv, z) => {
        expect(breachProbability(fn, vv, 0)).toBeCloseTo(vv, 12);
        expect(breachProbability(fn, vv, z)).toBeLessThanOrEqual(vv + 1e-15);
      }),
    );
  });

  it("class II: the optimum is not monotone in v (the paper: do not always protect the most vulnerable set most)", () => {
    const fn: BreachFunction = { class: "II", alpha: 1e-5 };
    const mid = optimalInvestment(fn, 0.5, 1e6);
    expect(optimalInvestment(fn, 0.99, 1e6)).toBeLessThan(mid);
    expect(optimalInvestment(fn, 0.05, 1e6)).toBeLessThan(mid);
  });
});
