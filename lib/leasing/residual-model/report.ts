/**
 * The tables the methodology page quotes, computed from a model file (scripts/fit-residual-model.ts
 * prints them): the out-of-sample error table of the model against the rule-based method, and the
 * constructed vehicles valued by both methods. Pure.
 */
import { computeResidualValue } from "@/lib/leasing/residual-value-rules";
import type { ResidualModelFile } from "./model-file";
import { predictResidual, confidenceOf } from "./predict";

/** The constructed vehicles of issue 27 (BEVs, scores unmeasured, age from the lease start). */
const CONSTRUCTED_VEHICLES = [
  { name: "12 m / 10,000 km, SoH 95 %", ageMonths: 12, odometerKm: 10_000, sohPct: 95 },
  { name: "12 m / 10,000 km, SoH 75 %", ageMonths: 12, odometerKm: 10_000, sohPct: 75 },
  { name: "72 m / 15,000 km, SoH not measured", ageMonths: 72, odometerKm: 15_000, sohPct: null },
  { name: "72 m / 140,000 km, SoH not measured", ageMonths: 72, odometerKm: 140_000, sohPct: null },
  { name: "72 m / 200,000 km, SoH not measured", ageMonths: 72, odometerKm: 200_000, sohPct: null },
  { name: "72 m / 300,000 km, SoH not measured", ageMonths: 72, odometerKm: 300_000, sohPct: null },
] as const;

const f1 = (x: number) => x.toFixed(1);

/** The rule-based value (endpoint 10) of a BEV of `ageMonths` on `now`, scores unmeasured. */
function ruleBasedPct(ageMonths: number, odometerKm: number, sohPct: number | null, now = new Date("2027-01-15T12:00:00Z")): { pct: number; confidence: string } {
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - ageMonths);
  const r = computeResidualValue(
    {
      device_id: "constructed",
      powertrain: "BEV",
      year: null,
      lease_start: start.toISOString().slice(0, 10),
      original_price_eur: null,
      mileage_km: odometerKm,
      soh_pct: sohPct,
      soh_at: sohPct === null ? null : now,
      vehicle_health_score: null,
      fleet_risk_score: null,
      green_fleet_score: null,
      eol_grade: null,
      knockouts: [],
    },
    { now },
  );
  return { pct: r.estimated_residual_pct, confidence: r.confidence };
}

export function validationTable(model: ResidualModelFile): string {
  const lines: string[] = [];
  for (const [scheme, title] of [
    ["loo", "leave-one-out"],
    ["leave_one_source_out", "leave-one-source-out"],
  ] as const) {
    const v = model.validation[scheme];
    lines.push(`${title}: | band | n | rule-based MAE / RMSE | rule-based on the row's basis MAE / RMSE | model MAE / RMSE |`);
    for (let i = 0; i < v.model.by_age_band.length; i++) {
      const [a, b, m] = [v.rule_based.by_age_band[i]!, v.rule_based_basis.by_age_band[i]!, v.model.by_age_band[i]!];
      lines.push(`| ${m.band} | ${m.n} | ${f1(a.mae_pp)} / ${f1(a.rmse_pp)} | ${f1(b.mae_pp)} / ${f1(b.rmse_pp)} | ${f1(m.mae_pp)} / ${f1(m.rmse_pp)} |`);
    }
    lines.push(
      `| all | ${v.model.n} | ${f1(v.rule_based.mae_pp)} / ${f1(v.rule_based.rmse_pp)} | ${f1(v.rule_based_basis.mae_pp)} / ${f1(v.rule_based_basis.rmse_pp)} | ${f1(v.model.mae_pp)} / ${f1(v.model.rmse_pp)} |`,
    );
  }
  lines.push(
    `model beats the rule-based method (leave-one-out, MAE and RMSE, both rule-based predictors): ${model.validation.model_beats_rule_based}; estimate_source = ${model.estimate_source}`,
  );
  return lines.join("\n");
}

export function constructedVehiclesTable(model: ResidualModelFile): string {
  const lines = ["| vehicle | endpoint 10 (rules) | endpoint 20 estimate | 80 % interval | endpoint 20 confidence |", "|---|---|---|---|---|"];
  for (const c of CONSTRUCTED_VEHICLES) {
    const rules = ruleBasedPct(c.ageMonths, c.odometerKm, c.sohPct);
    const p = predictResidual(model, { ageMonths: c.ageMonths, odometerKm: c.odometerKm, sohPct: c.sohPct, powertrain: "BEV" });
    const { confidence } = confidenceOf(model, p, { missingInputs: [], sohNotMeasured: c.sohPct === null });
    lines.push(`| ${c.name} | ${f1(rules.pct)} % (${rules.confidence}) | ${f1(p.pct)} % | ${f1(p.lowPct)}–${f1(p.highPct)} % | ${confidence} |`);
  }
  return lines.join("\n");
}
