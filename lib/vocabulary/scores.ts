/**
 * Words of the scores' answers that the answers' schemas (lib/schemas/) and the scores themselves
 * (lib/scores/) both name: the Total Asset Score's pillars, the knockouts, the condition grades. Here, so
 * that a schema never imports a score module (tests/unit/architecture/layer-imports.test.ts).
 * Methodology: docs/methodology/tas.md, eol-summary.md.
 */

/** The four pillars of the Total Asset Score (their weights are server-side only: lib/scores/tas-weights.ts). */
export const TAS_PILLARS = ["battery_health", "usage_behaviour", "contractual_market_risk", "regulatory_compliance"] as const;
export type TasPillar = (typeof TAS_PILLARS)[number];

/** CONTRACT "Settled details": the knockouts, evidence that forces grade F (TAS and EOL). */
export const KNOCKOUTS = ["soh_below_60", "odometer_manipulation"] as const;
export type Knockout = (typeof KNOCKOUTS)[number];

/** The end-of-life condition grades, best first; a certificate states the vehicle's EOL grade. */
export const EOL_GRADES = ["A", "B", "C", "D", "F"] as const;
export type EolGrade = (typeof EOL_GRADES)[number];
