import type { TenantCtx } from "@/lib/context";
import { ValidationError } from "@/lib/errors";
import type { CommissionRequest } from "@/lib/schemas/pricing";
import { carryWaterfall } from "./carry-waterfall";
import { cents, ratio } from "./round";

const COMMISSION_METHOD = "carry-waterfall-2027.01";
const WATERFALL_SOURCE =
  'ILPA Principles 3.0 (Institutional Limited Partners Association, 2019), "GP and Fund Economics — Waterfall Structure": whole-of-fund ("all capital back") waterfall';

/** POST /pricing/commission. Pure computation: the tenant context is not consulted. */
export async function priceCommission({ input }: { ctx: TenantCtx; input: CommissionRequest }) {
  // Here rather than in the schema: body shapes are merged flat by the registry, so a cross-field refine would not run.
  if (input.committed_capital_eur !== undefined && input.committed_capital_eur < input.contributed_capital_eur) {
    throw new ValidationError("Invalid request: committed capital is less than contributed capital.", [
      { field: "committed_capital_eur", message: "must be at least contributed_capital_eur" },
    ]);
  }
  const r = carryWaterfall(input);
  const notes = [
    "European (whole-fund) waterfall: no carry until the investors have all contributed capital back plus the preferred return.",
    input.compounding === "annual"
      ? `Preferred return compounded annually: C·((1 + ${input.preferred_return_pct} %)^${input.holding_period_years} − 1), one holding period for all capital.`
      : `Preferred return simple: C·${input.preferred_return_pct} %·${input.holding_period_years}, one holding period for all capital.`,
  ];
  if (input.catch_up_pct <= input.carry_pct)
    notes.push("The catch-up share is not above the carry rate, so there is no catch-up tier: the split starts after the preferred return.");
  else if (input.catch_up_pct < 100)
    notes.push(`Partial catch-up: the GP takes ${input.catch_up_pct} % of the catch-up tier until it holds ${input.carry_pct} % of the profit so far.`);
  if (input.gp_commitment_pct > 0)
    notes.push(
      `The GP commitment (${input.gp_commitment_pct} % of capital) is carry-free and receives its pro-rata share of the distributions; the tiers cover the other investors only.`,
    );
  if (r.profit_eur <= 0) notes.push("No profit: the distributions do not exceed the investors' capital, so no preferred return or carry is paid.");
  else if (!r.hurdle_met) notes.push("The preferred return is not fully met: no carry is due.");
  else if (!r.catch_up_complete) notes.push("The catch-up is not complete: the GP's share of the profit is below the carry rate.");
  if (input.committed_capital_eur !== undefined) notes.push("Committed capital is reported only: the waterfall returns contributed capital.");
  return {
    method: COMMISSION_METHOD,
    inputs: { ...input, committed_capital_eur: input.committed_capital_eur ?? null },
    lp_capital_eur: cents(r.lp_capital_eur),
    lp_distributions_eur: cents(r.lp_distributions_eur),
    profit_eur: cents(r.profit_eur),
    preferred_return_due_eur: cents(r.preferred_return_due_eur),
    tiers: r.tiers.map((t) => ({ tier: t.tier, total_eur: cents(t.total_eur), to_lps_eur: cents(t.to_lps_eur), to_gp_eur: cents(t.to_gp_eur) })),
    totals: {
      to_lps_eur: cents(r.to_lps_eur),
      to_gp_eur: cents(r.to_gp_eur),
      gp_carry_eur: cents(r.gp_carry_eur),
      gp_commitment_distributions_eur: cents(r.gp_commitment_distributions_eur),
    },
    effective_carry_pct: r.effective_carry_pct === null ? null : ratio(r.effective_carry_pct),
    hurdle_met: r.hurdle_met,
    catch_up_complete: r.catch_up_complete,
    notes,
    sources: [WATERFALL_SOURCE],
  };
}
