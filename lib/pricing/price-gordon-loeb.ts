import type { TenantCtx } from "@/lib/context";
import type { GordonLoebRequest } from "@/lib/schemas/pricing";
import { gordonLoeb } from "./gordon-loeb";
import { cents, ratio } from "./round";

const GORDON_LOEB_METHOD = "gordon-loeb-2027.01";
const GORDON_LOEB_SOURCE =
  'L. A. Gordon and M. P. Loeb (2002), "The economics of information security investment", ACM Transactions on Information and System Security 5(4), 438–457, doi:10.1145/581271.581274';

const eur = (n: number) => `EUR ${cents(n).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const pct = (n: number) => `${(Math.round(n * 1000) / 10).toString()} %`;

/** POST /pricing/gordon-loeb. Pure computation: the tenant context is not consulted. */
export async function priceGordonLoeb({ input }: { ctx: TenantCtx; input: GordonLoebRequest }) {
  const r = gordonLoeb(input);
  const fn = input.breach_function;
  const lines = [
    `Expected loss without further investment: ${eur(r.expected_loss_eur)} (v·L).`,
    `Gordon–Loeb bound: the optimal security investment is below ${eur(r.max_optimal_investment_eur)}, 1/e ≈ 36.8 % of the expected loss.`,
  ];
  if (r.optimum && fn) {
    lines.push(
      r.optimum.investment_eur > 0
        ? `With class ${fn.class} (${fn.class === "I" ? `α = ${fn.alpha}, β = ${fn.beta}` : `α = ${fn.alpha}`}) the optimum is ${eur(r.optimum.investment_eur)} (${pct(r.optimum.share_of_expected_loss)} of the expected loss), lowering the breach probability from ${ratio(input.vulnerability)} to ${ratio(r.optimum.vulnerability_after)} for a net benefit of ${eur(r.optimum.enbis_eur)}.`
        : `With class ${fn.class} no positive investment pays for itself: the optimum is to invest nothing.`,
    );
  } else {
    lines.push("Give `breach_function` for the optimal investment and for the net benefit of a proposed one.");
  }
  if (r.proposed) {
    const p = r.proposed;
    if (p.enbis_eur !== null) {
      lines.push(
        `The proposed ${eur(p.investment_eur)} ${p.enbis_eur >= 0 ? "pays for itself" : "costs more than it saves"}: net benefit ${eur(p.enbis_eur)}${p.roi === null ? "" : `, ROI ${pct(p.roi)}`}${p.within_bound ? "" : "; it exceeds the 1/e bound, so it is more than the optimum"}.`,
      );
    } else {
      lines.push(`The proposed ${eur(p.investment_eur)} is ${p.within_bound ? "within" : "above"} the 1/e bound${p.within_bound ? "" : ": more than any optimal investment"}.`);
    }
  }
  return {
    method: GORDON_LOEB_METHOD,
    inputs: input,
    expected_loss_eur: cents(r.expected_loss_eur),
    max_optimal_investment_eur: cents(r.max_optimal_investment_eur),
    optimum: r.optimum && {
      investment_eur: cents(r.optimum.investment_eur),
      vulnerability_after: ratio(r.optimum.vulnerability_after),
      loss_reduction_eur: cents(r.optimum.loss_reduction_eur),
      enbis_eur: cents(r.optimum.enbis_eur),
      share_of_expected_loss: ratio(r.optimum.share_of_expected_loss),
    },
    proposed: r.proposed && {
      investment_eur: cents(r.proposed.investment_eur),
      within_bound: r.proposed.within_bound,
      vulnerability_after: r.proposed.vulnerability_after === null ? null : ratio(r.proposed.vulnerability_after),
      loss_reduction_eur: r.proposed.loss_reduction_eur === null ? null : cents(r.proposed.loss_reduction_eur),
      enbis_eur: r.proposed.enbis_eur === null ? null : cents(r.proposed.enbis_eur),
      roi: r.proposed.roi === null ? null : ratio(r.proposed.roi),
    },
    interpretation: lines.join(" "),
    sources: [GORDON_LOEB_SOURCE],
  };
}
