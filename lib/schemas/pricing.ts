import { z } from "zod";

/**
 * The pricing calculators (SPEC 4.5): JSON bodies and answers. Every number is a finite JSON number
 * within the stated bounds (a value out of range is a 400 naming the field, never clamped); the bounds
 * keep every intermediate result finite (e.g. (αβvL)^(1/(β+1)) ≤ (10⁶·10³·10¹²)^1).
 */

/** A finite number in [min, max] (or (min, max] with `exclusiveMin`). */
function bounded({ min, max, exclusiveMin, description }: { min: number; max: number; exclusiveMin?: boolean; description: string }) {
  const base = z.number({ message: "must be a number" });
  const lowered = exclusiveMin ? base.gt(min, { message: `must be greater than ${min}` }) : base.min(min, { message: `must be at least ${min}` });
  return lowered.max(max, { message: `must be at most ${max}` }).meta({ description });
}

const MAX_EUR = 1e12;

// ---------------------------------------------------------------------------------------------
// Gordon–Loeb

const classI = z
  .object({
    class: z.literal("I"),
    alpha: bounded({ min: 0, exclusiveMin: true, max: 1e6, description: "α > 0, per EUR: how quickly investment reduces the breach probability." }),
    beta: bounded({ min: 0, exclusiveMin: true, max: 1e3, description: "β > 0: the curvature of S in the investment (the paper takes β ≥ 1)." }),
  })
  .meta({ description: "Gordon & Loeb (2002) class I: S(z, v) = v / (αz + 1)^β." });

const classII = z
  .object({
    class: z.literal("II"),
    alpha: bounded({ min: 0, exclusiveMin: true, max: 1e6, description: "α > 0, per EUR: how quickly investment reduces the breach probability." }),
  })
  .meta({ description: "Gordon & Loeb (2002) class II: S(z, v) = v^(αz + 1)." });

export const gordonLoebRequestSchema = z
  .object({
    vulnerability: bounded({ min: 0, max: 1, description: "v, 0–1: probability that a realised threat breaches the information set without further investment." }),
    potential_loss_eur: bounded({ min: 0, exclusiveMin: true, max: MAX_EUR, description: "L, EUR > 0: the loss should a breach occur." }),
    breach_function: z
      .discriminatedUnion("class", [classI, classII], { message: "must be an object with class I (alpha, beta) or II (alpha)" })
      .optional()
      .meta({ description: "The breach probability function S(z, v). Without it only the expected loss and the 1/e bound are computed." }),
    proposed_investment_eur: bounded({ min: 0, max: MAX_EUR, description: "z, EUR ≥ 0: an investment to appraise (ENBIS and ROI need `breach_function`)." }).optional(),
  })
  .meta({ id: "GordonLoebRequest" });
export type GordonLoebRequest = z.output<typeof gordonLoebRequestSchema>;

const nullableNumber = (description: string) => z.number().nullable().meta({ description });

export const gordonLoebResponseSchema = z
  .object({
    method: z.string().meta({ description: "Versioned method id." }),
    inputs: gordonLoebRequestSchema,
    expected_loss_eur: z.number().meta({ description: "v·L: the expected loss without further investment." }),
    max_optimal_investment_eur: z.number().meta({ description: "(1/e)·v·L: the Gordon–Loeb bound; the optimal investment is below it for classes I and II." }),
    optimum: z
      .object({
        investment_eur: z.number().meta({ description: "z*: the investment that maximises ENBIS (closed form)." }),
        vulnerability_after: z.number().meta({ description: "S(z*, v)." }),
        loss_reduction_eur: z.number().meta({ description: "[v − S(z*, v)]·L." }),
        enbis_eur: z.number().meta({ description: "ENBIS(z*) = [v − S(z*, v)]·L − z*." }),
        share_of_expected_loss: z.number().meta({ description: "z* / (v·L); at most 1/e ≈ 0.368." }),
      })
      .nullable()
      .meta({ description: "Null without `breach_function`." }),
    proposed: z
      .object({
        investment_eur: z.number(),
        within_bound: z.boolean().meta({ description: "z ≤ (1/e)·v·L." }),
        vulnerability_after: nullableNumber("S(z, v); null without `breach_function`."),
        loss_reduction_eur: nullableNumber("[v − S(z, v)]·L; null without `breach_function`."),
        enbis_eur: nullableNumber("[v − S(z, v)]·L − z; null without `breach_function`."),
        roi: nullableNumber("(loss reduction − z) / z, a fraction (0.5 = 50 %); null without `breach_function` or for z = 0."),
      })
      .nullable()
      .meta({ description: "Null without `proposed_investment_eur`." }),
    interpretation: z.string(),
    sources: z.array(z.string()),
  })
  .meta({ id: "GordonLoebResult" });

// ---------------------------------------------------------------------------------------------
// Carried-interest waterfall

const pct = (description: string, max = 100) => bounded({ min: 0, max, description });

export const commissionRequestSchema = z
  .object({
    contributed_capital_eur: bounded({ min: 0, exclusiveMin: true, max: MAX_EUR, description: "Capital contributed (drawn down) by all investors, GP commitment included." }),
    committed_capital_eur: bounded({
      min: 0,
      exclusiveMin: true,
      max: MAX_EUR,
      description: "Committed capital; reported only (the waterfall returns contributed capital).",
    }).optional(),
    total_distributions_eur: bounded({ min: 0, max: 100 * MAX_EUR, description: "Everything the fund distributes (net proceeds)." }),
    preferred_return_pct: pct("Hurdle rate per year, % (commonly 8)."),
    holding_period_years: bounded({ min: 0, max: 100, description: "Years over which the hurdle accrues on the contributed capital." }),
    compounding: z.enum(["annual", "simple"]).default("annual").meta({ description: "`annual` (default): C·((1 + h)^T − 1); `simple`: C·h·T." }),
    carry_pct: pct("Carried interest rate, % (commonly 20).", 99).default(20),
    catch_up_pct: pct("Share of distributions to the GP in the catch-up tier, % (100 = full catch-up; at most carry_pct = none).").default(100),
    gp_commitment_pct: pct("GP's own share of contributed capital, % (carry-free, paid pro rata).", 99).default(0),
  })
  // committed ≥ contributed is checked by the verb (lib/pricing/commission.ts): the registry merges
  // body shapes into one flat schema, so an object-level refine here would not run.
  .meta({ id: "CommissionRequest" });
export type CommissionRequest = z.output<typeof commissionRequestSchema>;

const tierSchema = z.object({
  tier: z.enum(["return_of_capital", "preferred_return", "gp_catch_up", "carried_interest_split"]),
  total_eur: z.number(),
  to_lps_eur: z.number(),
  to_gp_eur: z.number(),
});

export const commissionResponseSchema = z
  .object({
    method: z.string().meta({ description: "Versioned method id." }),
    inputs: z.object({
      contributed_capital_eur: z.number(),
      committed_capital_eur: z.number().nullable(),
      total_distributions_eur: z.number(),
      preferred_return_pct: z.number(),
      holding_period_years: z.number(),
      compounding: z.enum(["annual", "simple"]),
      carry_pct: z.number(),
      catch_up_pct: z.number(),
      gp_commitment_pct: z.number(),
    }),
    lp_capital_eur: z.number().meta({ description: "The investors' contributed capital (without the GP commitment)." }),
    lp_distributions_eur: z.number().meta({ description: "The distributions that run through the waterfall (without the GP commitment's pro-rata share)." }),
    profit_eur: z.number().meta({ description: "lp_distributions_eur − lp_capital_eur (negative for a loss)." }),
    preferred_return_due_eur: z.number().meta({ description: "The hurdle amount the investors are owed before any carry." }),
    tiers: z.array(tierSchema).meta({ description: "The four tiers in order; an unreached tier has 0." }),
    totals: z.object({
      to_lps_eur: z.number(),
      to_gp_eur: z.number().meta({ description: "Carry plus the GP commitment's distributions." }),
      gp_carry_eur: z.number(),
      gp_commitment_distributions_eur: z.number(),
    }),
    effective_carry_pct: z.number().nullable().meta({ description: "gp_carry / profit, %; null without profit. Equals carry_pct once the catch-up is complete." }),
    hurdle_met: z.boolean(),
    catch_up_complete: z.boolean(),
    notes: z.array(z.string()),
    sources: z.array(z.string()),
  })
  .meta({ id: "CommissionResult" });
