import { priceCommission } from "@/lib/pricing/price-commission";
import { priceGordonLoeb } from "@/lib/pricing/price-gordon-loeb";
import { commissionRequestSchema, commissionResponseSchema, gordonLoebRequestSchema, gordonLoebResponseSchema } from "@/lib/schemas/pricing";
import { defineOperation } from "./define-operation";

/** CONTRACT "Scopes by endpoint": the pricing endpoints need any valid key (no particular scope). */
const anyKey = { anyKey: true } as const;

/** SPEC 4.5: the security investment calculator. */
export const gordonLoebOperation = defineOperation({
  id: "priceSecurityInvestment",
  method: "POST",
  path: "/pricing/gordon-loeb",
  access: anyKey,
  tag: "Pricing",
  summary: "Security investment: expected loss, the Gordon–Loeb 1/e bound, the optimal investment and the ROI of a proposed one",
  description:
    "Gordon & Loeb (2002), ACM TISSEC 5(4). Expected loss v·L; the optimal investment is below (1/e)·v·L; with a breach probability function of class I `S = v/(αz+1)^β` or class II `S = v^(αz+1)` the optimum z* (closed form) and the ENBIS `[v − S(z,v)]·L − z` and ROI `(reduction − z)/z` of a proposed investment. Formulas and worked examples: docs/pricing.md.",
  input: { body: gordonLoebRequestSchema },
  output: gordonLoebResponseSchema,
  requestExample: {
    body: { vulnerability: 0.5, potential_loss_eur: 1_000_000, breach_function: { class: "I", alpha: 0.00001, beta: 1 }, proposed_investment_eur: 100_000 },
  },
  verb: priceGordonLoeb,
});

/** SPEC 4.5: the carried-interest calculator. */
export const commissionOperation = defineOperation({
  id: "priceCarriedInterest",
  method: "POST",
  path: "/pricing/commission",
  access: anyKey,
  tag: "Pricing",
  summary: "Carried interest: a European (whole-fund) distribution waterfall with hurdle, GP catch-up and carry split",
  description:
    "Tiers: return of capital, preferred return (annual compounding by default), GP catch-up, carry split; totals to LPs and GP and the effective carry. The GP commitment is carry-free. Formulas and worked examples: docs/pricing.md.",
  input: { body: commissionRequestSchema },
  output: commissionResponseSchema,
  requestExample: {
    body: {
      contributed_capital_eur: 100_000_000,
      total_distributions_eur: 180_000_000,
      preferred_return_pct: 8,
      holding_period_years: 5,
      compounding: "annual",
      carry_pct: 20,
      catch_up_pct: 100,
    },
  },
  verb: priceCommission,
});
