/**
 * A European (whole-fund, "all capital back") carried-interest distribution waterfall: pure functions.
 *
 * Tiers, in order (ILPA Principles 3.0, 2019, "GP and Fund Economics — Waterfall Structure", which
 * recommends the whole-of-fund, all-capital-back structure; the four tiers are the standard ones of a
 * limited partnership agreement):
 *   1. return of capital: 100 % to the investors until they have their contributed capital back;
 *   2. preferred return: 100 % to the investors until they have the hurdle on that capital;
 *   3. GP catch-up: a share c of each further euro to the GP until the GP holds the carry rate k of
 *      all profit distributed so far (preferred return + catch-up);
 *   4. split: the rest k to the GP, 1 − k to the investors.
 * Catch-up size: the GP's c·x must equal k·(P + x), so x = k·P / (c − k); with c ≤ k there is no
 * catch-up tier (the GP's share in it would never reach k) and the split starts at once.
 * The preferred return P on contributed capital C over T years at rate h is C·((1 + h)^T − 1) with
 * annual compounding (the usual LPA convention), C·h·T when `simple`. One holding period for all
 * capital: a summary of a fund, not a dated cash-flow ledger.
 * The GP's own commitment (share g of contributed capital) is carry-free: it receives its pro-rata
 * g·D of the distributions D, and the waterfall runs on the other investors' (1 − g)·C and (1 − g)·D.
 */

export type Compounding = "annual" | "simple";

export interface WaterfallInput {
  contributed_capital_eur: number;
  total_distributions_eur: number;
  preferred_return_pct: number;
  holding_period_years: number;
  compounding: Compounding;
  carry_pct: number;
  catch_up_pct: number;
  gp_commitment_pct: number;
}

type TierName = "return_of_capital" | "preferred_return" | "gp_catch_up" | "carried_interest_split";

interface Tier {
  tier: TierName;
  total_eur: number;
  to_lps_eur: number;
  to_gp_eur: number;
}

interface WaterfallResult {
  lp_capital_eur: number;
  lp_distributions_eur: number;
  profit_eur: number;
  preferred_return_due_eur: number;
  tiers: Tier[];
  gp_carry_eur: number;
  gp_commitment_distributions_eur: number;
  to_lps_eur: number;
  to_gp_eur: number;
  effective_carry_pct: number | null;
  hurdle_met: boolean;
  catch_up_complete: boolean;
}

export function preferredReturnDue(capital: number, ratePct: number, years: number, compounding: Compounding): number {
  const h = ratePct / 100;
  return compounding === "annual" ? capital * (Math.pow(1 + h, years) - 1) : capital * h * years;
}

export function carryWaterfall(input: WaterfallInput): WaterfallResult {
  const g = input.gp_commitment_pct / 100;
  const k = input.carry_pct / 100;
  const c = input.catch_up_pct / 100;
  const capital = (1 - g) * input.contributed_capital_eur;
  const distributions = (1 - g) * input.total_distributions_eur;
  const pref = preferredReturnDue(capital, input.preferred_return_pct, input.holding_period_years, input.compounding);

  let left = distributions;
  const roc = Math.min(left, capital);
  left -= roc;
  const prefPaid = Math.min(left, pref);
  left -= prefPaid;
  // The catch-up tier's full size (see the header); none when c ≤ k.
  const catchUpSize = c > k ? (k * pref) / (c - k) : 0;
  const catchUp = Math.min(left, catchUpSize);
  left -= catchUp;
  const split = left;

  const tiers: Tier[] = [
    { tier: "return_of_capital", total_eur: roc, to_lps_eur: roc, to_gp_eur: 0 },
    { tier: "preferred_return", total_eur: prefPaid, to_lps_eur: prefPaid, to_gp_eur: 0 },
    { tier: "gp_catch_up", total_eur: catchUp, to_lps_eur: catchUp * (1 - c), to_gp_eur: catchUp * c },
    { tier: "carried_interest_split", total_eur: split, to_lps_eur: split * (1 - k), to_gp_eur: split * k },
  ];
  const carry = catchUp * c + split * k;
  const gpCommitment = g * input.total_distributions_eur;
  const profit = distributions - capital;
  return {
    lp_capital_eur: capital,
    lp_distributions_eur: distributions,
    profit_eur: profit,
    preferred_return_due_eur: pref,
    tiers,
    gp_carry_eur: carry,
    gp_commitment_distributions_eur: gpCommitment,
    to_lps_eur: distributions - carry,
    to_gp_eur: carry + gpCommitment,
    effective_carry_pct: profit > 0 ? (100 * carry) / profit : null,
    hurdle_met: distributions >= capital + pref && distributions > 0,
    catch_up_complete: catchUpSize === 0 ? distributions >= capital + pref : catchUp >= catchUpSize,
  };
}
