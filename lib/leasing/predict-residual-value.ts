import type { TenantCtx } from "@/lib/context";
import type { KNOWN_ENTITLEMENTS } from "@/lib/tenants/entitlements";
import type { ResidualModelRequest, ResidualValuePrediction } from "@/lib/schemas/leasing-residual-model";
import { oneDevice } from "@/lib/devices/one-device";
import { CURRENT_RESIDUAL_MODEL } from "./residual-model/current-model";
import { loadResidualModelInputs } from "./residual-model/load-residual-model-inputs";
import type { ResidualModelFile } from "./residual-model/model-file";
import { confidenceOf, factorsOf, predictResidual } from "./residual-model/predict";
import { dataQualityOf, resolveInputs, type DeviceResidualFacts } from "./residual-model/resolve-inputs";

/** The entitlement that turns on `factors` (CONTRACT "Scopes by endpoint"; lib/tenants/entitlements.ts). */
const RESIDUAL_FACTORS_ENTITLEMENT: KnownEntitlement = "residual_factors";

type KnownEntitlement = (typeof KNOWN_ENTITLEMENTS)[number];

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Endpoint 20's answer from a device's facts: pure (the verb below adds the database and the clock). */
export function buildResidualPrediction({
  input,
  device,
  model,
  now,
}: {
  input: ResidualModelRequest;
  device: DeviceResidualFacts;
  model: ResidualModelFile;
  now: Date;
}): ResidualValuePrediction {
  const { device_id: _id, ...query } = input;
  const resolved = resolveInputs({ query, device, model, now });
  const prediction = predictResidual(model, resolved.features);
  const limitations = [...resolved.limitations];
  if (prediction.outsideTrainingRange.length > 0) {
    limitations.push(`Outside the calibration range (${prediction.outsideTrainingRange.join(", ")}): the estimate extrapolates the model and its confidence is low.`);
  }
  const adj = round1(prediction.modelPct - prediction.rulePct);
  if (model.estimate_source === "rule_based") {
    limitations.push(
      `The model did not beat the rule-based method out of sample; the estimate is the rule-based value. The model would have moved it by ${adj >= 0 ? "+" : ""}${adj} points (not used).`,
    );
  }
  const missingInputs = (["age_months", "odometer_km"] as const).filter((k) => resolved.inputs[k].status === "missing");
  const { confidence, reasons } = confidenceOf(model, prediction, { missingInputs, sohNotMeasured: resolved.features.sohPct === null });
  const v = model.validation;
  return {
    device_id: device.device_id,
    estimated_residual_pct: round1(prediction.pct),
    estimated_residual_eur: resolved.originalPriceEur === null ? null : Math.round((resolved.originalPriceEur * prediction.pct) / 100),
    original_price_eur: resolved.originalPriceEur,
    confidence,
    data_quality: dataQualityOf(resolved.inputs),
    model_version: model.model_version,
    factors: device.entitlements.includes(RESIDUAL_FACTORS_ENTITLEMENT) ? factorsOf(model, resolved.features) : null,
    generated_at: now.toISOString(),
    price_basis: model.answer_basis,
    estimate_source: model.estimate_source,
    rule_based_pct: round1(prediction.rulePct),
    confidence_reasons: reasons,
    validation: {
      scheme: "leave-one-out",
      published_rows: v.n_published,
      model_mae_pp: round1(v.loo.model.mae_pp),
      rule_based_mae_pp: round1(v.loo.rule_based.mae_pp),
      rule_based_on_row_basis_mae_pp: round1(v.loo.rule_based_basis.mae_pp),
      model_beats_rule_based: v.model_beats_rule_based,
    },
    prediction_interval: { level: model.interval.level, low_pct: round1(prediction.lowPct), high_pct: round1(prediction.highPct), method: "jackknife (leave-one-out errors)" },
    inputs: resolved.inputs,
    limitations,
  };
}

/** Endpoint 20: model-based residual value of one device (SPEC 2.16, query SPEC 4.4). */
export async function predictResidualValue({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: ResidualModelRequest; now?: Date }): Promise<ResidualValuePrediction> {
  const device = oneDevice(await loadResidualModelInputs({ ctx, deviceIds: [input.device_id] }), input.device_id);
  return buildResidualPrediction({ input, device, model: CURRENT_RESIDUAL_MODEL, now });
}
