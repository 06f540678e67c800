import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryWaterfall, preferredReturnDue, type WaterfallInput } from "@/lib/pricing/carry-waterfall";

/** European (whole-fund) waterfall: hand-worked examples, edge cases and conservation properties. */

const base: WaterfallInput = {
  contributed_capital_eur: 100e6,
  total_distributions_eur: 180e6,
  preferred_return_pct: 8,
  holding_period_years: 5,
  compounding: "annual",
  carry_pct: 20,
  catch_up_pct: 100,
  gp_commitment_pct: 0,
};
const tier = (r: ReturnType<typeof carryWaterfall>, name: string) => r.tiers.find((t) => t.tier === name)!;

describe("the hand-worked example: 100 M in, 180 M out, 8 % over 5 years compounded, 100 % catch-up, 20 % carry", () => {
  // By hand:
  //   1. return of capital: 100,000,000.00 to LPs; 80,000,000.00 left.
  //   2. preferred return: 1.08^5 = 1.4693280768, so P = 46,932,807.68 to LPs; 33,067,192.32 left.
  //   3. catch-up (c = 100 %): x = k·P/(c − k) = 0.2 · 46,932,807.68 / 0.8 = 11,733,201.92 to the GP;
  //      21,333,990.40 left. The GP now holds 11,733,201.92 = 20 % of (46,932,807.68 + 11,733,201.92).
  //   4. split: 20 % = 4,266,798.08 to the GP, 80 % = 17,067,192.32 to LPs.
  //   Totals: GP 16,000,000.00 (= 20 % of the 80 M profit), LPs 164,000,000.00.
  const r = carryWaterfall(base);

  it("tier by tier", () => {
    expect(r.preferred_return_due_eur).toBeCloseTo(46_932_807.68, 4);
    expect(tier(r, "return_of_capital")).toEqual({ tier: "return_of_capital", total_eur: 100e6, to_lps_eur: 100e6, to_gp_eur: 0 });
    expect(tier(r, "preferred_return").to_lps_eur).toBeCloseTo(46_932_807.68, 4);
    expect(tier(r, "gp_catch_up").to_gp_eur).toBeCloseTo(11_733_201.92, 4);
    expect(tier(r, "gp_catch_up").to_lps_eur).toBe(0);
    expect(tier(r, "carried_interest_split").total_eur).toBeCloseTo(21_333_990.4, 4);
    expect(tier(r, "carried_interest_split").to_gp_eur).toBeCloseTo(4_266_798.08, 4);
    expect(tier(r, "carried_interest_split").to_lps_eur).toBeCloseTo(17_067_192.32, 4);
  });

  it("totals: the GP holds exactly 20 % of the profit", () => {
    expect(r.gp_carry_eur).toBeCloseTo(16e6, 4);
    expect(r.to_lps_eur).toBeCloseTo(164e6, 4);
    expect(r.effective_carry_pct).toBeCloseTo(20, 10);
    expect(r.hurdle_met).toBe(true);
    expect(r.catch_up_complete).toBe(true);
  });
});

describe("edge cases", () => {
  it("no profit (90 M back on 100 M): all to LPs, no carry, effective carry null", () => {
    const r = carryWaterfall({ ...base, total_distributions_eur: 90e6 });
    expect(tier(r, "return_of_capital").total_eur).toBe(90e6);
    expect(r.tiers.slice(1).every((t) => t.total_eur === 0)).toBe(true);
    expect(r.gp_carry_eur).toBe(0);
    expect(r.effective_carry_pct).toBeNull();
    expect(r.hurdle_met).toBe(false);
  });

  it("profit below the hurdle (130 M back: 30 M < P = 46.93 M): all profit to LPs as preferred return", () => {
    const r = carryWaterfall({ ...base, total_distributions_eur: 130e6 });
    expect(tier(r, "preferred_return").total_eur).toBeCloseTo(30e6, 6);
    expect(r.gp_carry_eur).toBe(0);
    expect(r.effective_carry_pct).toBe(0);
    expect(r.hurdle_met).toBe(false);
  });

  it("inside the catch-up (150 M back): the GP takes all of the 3,067,192.32 above the hurdle", () => {
    // 150 − 146,932,807.68 = 3,067,192.32, below the 11,733,201.92 catch-up: all to the GP, 6.13 % of 50 M profit.
    const r = carryWaterfall({ ...base, total_distributions_eur: 150e6 });
    expect(r.gp_carry_eur).toBeCloseTo(3_067_192.32, 4);
    expect(r.effective_carry_pct).toBeCloseTo((100 * 3_067_192.32) / 50e6, 6);
    expect(r.catch_up_complete).toBe(false);
  });

  it("partial catch-up (50 %): x = 0.2·P/(0.5 − 0.2) = 31,288,538.45, split half and half", () => {
    // 180 M leaves 33,067,192.32 after the hurdle; the catch-up tier is 2/3 · 46,932,807.68 = 31,288,538.453…,
    // GP 15,644,269.23 and LPs 15,644,269.23 of it; the remaining 1,778,653.87 splits 20/80 (GP 355,730.77).
    // GP total 16,000,000.00: once the catch-up is complete the GP holds 20 % of the profit again.
    const r = carryWaterfall({ ...base, catch_up_pct: 50 });
    expect(tier(r, "gp_catch_up").total_eur).toBeCloseTo(31_288_538.453_33, 4);
    expect(tier(r, "gp_catch_up").to_gp_eur).toBeCloseTo(15_644_269.226_67, 4);
    expect(tier(r, "carried_interest_split").total_eur).toBeCloseTo(1_778_653.866_67, 4);
    expect(r.gp_carry_eur).toBeCloseTo(16e6, 4);
    // At 160 M it is incomplete: 13,067,192.32 in the catch-up, half to the GP.
    const short = carryWaterfall({ ...base, catch_up_pct: 50, total_distributions_eur: 160e6 });
    expect(short.gp_carry_eur).toBeCloseTo(6_533_596.16, 4);
    expect(short.catch_up_complete).toBe(false);
  });

  it("no catch-up (0 %): 20 % of what exceeds the hurdle only", () => {
    const r = carryWaterfall({ ...base, catch_up_pct: 0 });
    expect(tier(r, "gp_catch_up").total_eur).toBe(0);
    expect(r.gp_carry_eur).toBeCloseTo(0.2 * 33_067_192.32, 4);
  });

  it("simple preferred return: C·h·T = 40 M", () => {
    expect(preferredReturnDue(100e6, 8, 5, "simple")).toBeCloseTo(40e6, 6);
    const r = carryWaterfall({ ...base, compounding: "simple" });
    expect(r.gp_carry_eur).toBeCloseTo(16e6, 4); // catch-up 10 M, split 30 M · 20 % = 6 M
  });

  it("a 2 % GP commitment is carry-free: it gets 2 % of the distributions, the waterfall runs on 98 %", () => {
    const r = carryWaterfall({ ...base, gp_commitment_pct: 2 });
    expect(r.gp_commitment_distributions_eur).toBeCloseTo(3.6e6, 6);
    expect(r.lp_capital_eur).toBeCloseTo(98e6, 6);
    expect(r.gp_carry_eur).toBeCloseTo(0.98 * 16e6, 4);
    expect(r.to_gp_eur).toBeCloseTo(3.6e6 + 0.98 * 16e6, 4);
  });
});

describe("properties", () => {
  const input = fc.record({
    contributed_capital_eur: fc.double({ min: 1, max: 1e10, noNaN: true }),
    total_distributions_eur: fc.double({ min: 0, max: 5e10, noNaN: true }),
    preferred_return_pct: fc.double({ min: 0, max: 20, noNaN: true }),
    holding_period_years: fc.double({ min: 0, max: 15, noNaN: true }),
    compounding: fc.constantFrom("annual" as const, "simple" as const),
    carry_pct: fc.double({ min: 0, max: 50, noNaN: true }),
    catch_up_pct: fc.double({ min: 0, max: 100, noNaN: true }),
    gp_commitment_pct: fc.double({ min: 0, max: 10, noNaN: true }),
  });

  it("every euro goes somewhere once; the GP never takes more than the carry rate of the profit", () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = carryWaterfall(i);
        const tol = 1e-9 * Math.max(1, i.total_distributions_eur);
        expect(Math.abs(r.to_lps_eur + r.to_gp_eur - i.total_distributions_eur)).toBeLessThanOrEqual(tol);
        const tiers = r.tiers.reduce((s, t) => s + t.total_eur, 0);
        expect(Math.abs(tiers - r.lp_distributions_eur)).toBeLessThanOrEqual(tol);
        for (const t of r.tiers) expect(Math.abs(t.to_lps_eur + t.to_gp_eur - t.total_eur)).toBeLessThanOrEqual(tol);
        if (r.profit_eur > 0) expect(r.gp_carry_eur).toBeLessThanOrEqual((i.carry_pct / 100) * r.profit_eur + tol);
        else expect(r.gp_carry_eur).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });
});
