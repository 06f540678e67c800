/**
 * Total Asset Score pillar weights per vertical (asset class).
 *
 * SERVER-SIDE ONLY: the weights are proprietary (SPEC 2.14 "Pillar weights are withheld"). They are
 * never part of an API answer, an error message, a log line sent to a client, or the OpenAPI document.
 * The design principles are public (docs/methodology/tas.md); the numbers live only here.
 * Every row sums to 1 (unit-tested).
 */

import type { TasPillar } from "@/lib/vocabulary/scores";

type TasWeights = Readonly<Record<TasPillar, number>>;

export const TAS_WEIGHTS = {
  /** Battery value dominates an electric car's residual value (Autovista: +1 pp SoH ≈ +0.5 % RV). */
  passenger_car: { battery_health: 0.35, usage_behaviour: 0.2, contractual_market_risk: 0.25, regulatory_compliance: 0.2 },
  /** Vans work hard: driving behaviour and mileage wear weigh more, battery less. */
  light_commercial: { battery_health: 0.25, usage_behaviour: 0.3, contractual_market_risk: 0.25, regulatory_compliance: 0.2 },
  /** heavy_truck, other and anything unknown. */
  default: { battery_health: 0.3, usage_behaviour: 0.25, contractual_market_risk: 0.25, regulatory_compliance: 0.2 },
} as const satisfies Record<string, TasWeights>;

/** The weights for a vertical: its own row when one exists, else `default`. */
export function tasWeightsFor(vertical: string): TasWeights {
  if (vertical === "passenger_car") return TAS_WEIGHTS.passenger_car;
  if (vertical === "light_commercial") return TAS_WEIGHTS.light_commercial;
  return TAS_WEIGHTS.default;
}
