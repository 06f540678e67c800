import type { CertifiedContent } from "@/lib/schemas/certificates";
import type { CertificatePdfInput } from "./pdf/certificate-pdf-input";

/**
 * The words of a certificate's PDF: every field of the certified content, in plain language, so the
 * paper states exactly what the public verification shows (CONTRACT: verification reveals nothing
 * that is not printed on the certificate). The layout is lib/certificates/pdf/.
 */

const GRADE_MEANING: Record<CertifiedContent["grade"], string> = {
  A: "No significant findings in the vehicle's own data.",
  B: "Minor findings only.",
  C: "Findings a buyer should look at.",
  D: "Significant findings; an inspection is recommended.",
  F: "A knockout (battery state of health below 60 % or odometer manipulation) or very poor condition.",
};

/** Why the grade is what it is: for a battery not measured in time, that first (CONTRACT "Evidence and trust"). */
function gradeExplanation(content: CertifiedContent): string {
  const evidence = content.data_snapshot.battery.state_of_health.evidence;
  const unmeasured = evidence !== undefined && (evidence.status === "outdated" || evidence.status === "none");
  if (!unmeasured || content.grade === "F") return GRADE_MEANING[content.grade];
  return `${GRADE_MEANING[content.grade]} The battery's state of health was not measured within ${evidence.max_age_days} days of this certificate, so the grade is at most C.`;
}

const MEASURED_BY: Record<string, string> = {
  oem_bms_readout: "Read from the vehicle's battery management system",
  fdp_estimate: "Estimated by FDP",
  master_data: "Declared in the vehicle's master data",
  not_measured: "Not measured",
};

const num = (x: number | null, unit: string, digits = 1) =>
  x === null ? "not known" : `${x.toLocaleString("en-GB", { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${unit}`;
const when = (x: string | null) => (x === null ? "not known" : x.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC"));
const sentenceCase = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, " ");
const yesNo = (x: boolean | null) => (x === null ? "not known" : x ? "yes" : "no");

/** The PDF's input: the words of the certified content, and how to check the certificate. */
export function certificatePdfInput(content: CertifiedContent, extra: { verify_url: string; verify_hash: string; signing: CertificatePdfInput["signing"] }): CertificatePdfInput {
  return { ...certificateWords(content), verify_url: extra.verify_url, verify_hash: extra.verify_hash, signing: extra.signing };
}

/** What the certificate states, in words: the same on the PDF and the public verify page. */
export function certificateWords(content: CertifiedContent): Omit<CertificatePdfInput, "verify_url" | "verify_hash" | "signing"> {
  const s = content.data_snapshot;
  const b = s.battery;
  const componentRows = Object.entries(s.vehicle_health.components).map(([name, value]) => ({
    label: `Health component: ${name.replace(/_/g, " ")}`,
    value: value === null ? "not measured" : `${value} / 100`,
  }));
  return {
    certificate_number: content.certificate_number,
    generated_at: content.generated_at,
    expires_at: content.expires_at,
    grade: content.grade,
    grade_explanation: gradeExplanation(content),
    device_id: content.device_id,
    vehicle: {
      name: s.vehicle.name,
      vin: s.vehicle.vin,
      make: s.vehicle.make,
      model: s.vehicle.model,
      model_year: s.vehicle.model_year,
      powertrain: s.vehicle.powertrain,
    },
    headline: {
      vehicle_health_score: content.vehicle_health_score,
      residual_value_pct: content.residual_value_pct,
      odometer_km: s.odometer.odometer_km,
      battery_soh_pct: b.state_of_health.value_pct,
    },
    sections: [
      {
        title: "Condition",
        rows: [
          { label: "Condition grade", value: `${s.condition.grade} (confidence ${s.condition.confidence})` },
          ...(s.condition.knockouts.length === 0
            ? [{ label: "Knockouts", value: "none" }]
            : s.condition.knockouts.map((k) => ({ label: `Knockout: ${k.knockout.replace(/_/g, " ")}`, value: k.statement }))),
          {
            label: "Vehicle health score",
            value: s.vehicle_health.score === null ? "not measured" : `${s.vehicle_health.score} / 100 (confidence ${s.vehicle_health.confidence})`,
          },
          ...componentRows,
        ],
      },
      {
        title: "Odometer",
        rows: [
          { label: "Odometer reading", value: num(s.odometer.odometer_km, " km") },
          { label: "Read at", value: when(s.odometer.read_at) },
          { label: "Manipulation found", value: yesNo(s.odometer.manipulation_found) },
        ],
      },
      {
        title: "Traction battery",
        rows: [
          { label: "Traction battery", value: yesNo(b.has_traction_battery) },
          {
            label: "State of health",
            value:
              b.state_of_health.value_pct === null ? (b.state_of_health.measured_by === "not_measured" ? "not measured" : "not known") : num(b.state_of_health.value_pct, " %"),
            // A figure not measured says so once, in the definition's words (with its last reading and age).
            note: `${b.state_of_health.measured_by === "not_measured" ? "" : `${MEASURED_BY[b.state_of_health.measured_by]}${b.state_of_health.measured_at ? `, ${when(b.state_of_health.measured_at)}` : ""}. `}${b.state_of_health.definition}${
              b.state_of_health.uncertainty_pct === null ? "" : ` Uncertainty ±${b.state_of_health.uncertainty_pct} points.`
            }${b.state_of_health.readings_set_aside > 0 ? ` ${b.state_of_health.readings_set_aside} implausible reading(s) set aside.` : ""}`,
          },
          {
            label: "State of charge (stateOfCharge)",
            value: num(b.stateOfCharge.value_pct, " %"),
            note: `${MEASURED_BY[b.stateOfCharge.measured_by]}${b.stateOfCharge.measured_at ? `, ${when(b.stateOfCharge.measured_at)}` : ""}.`,
          },
          { label: "Rated energy (ratedEnergy)", value: num(b.ratedEnergy.value_kwh, " kWh"), note: `${MEASURED_BY[b.ratedEnergy.measured_by]}.` },
        ],
      },
      {
        title: "Residual value (indicative)",
        rows: [
          {
            label: "Estimated residual value",
            value: s.residual_value.estimated_residual_pct === null ? "not estimated" : `${num(s.residual_value.estimated_residual_pct, " %")} of the original price`,
            note: `FDP estimate, confidence ${s.residual_value.confidence ?? "not stated"}; an indication, not a valuation or an offer.`,
          },
          { label: "Age", value: s.residual_value.age_months === null ? "not known" : `${s.residual_value.age_months} months` },
          { label: "Mileage used", value: num(s.residual_value.mileage_km, " km") },
        ],
      },
      {
        title: "Vehicle",
        rows: [
          { label: "Device id", value: content.device_id },
          { label: "Vehicle", value: s.vehicle.name },
          { label: "VIN", value: s.vehicle.vin ?? "not known" },
          { label: "Make / model", value: [s.vehicle.make, s.vehicle.model].filter(Boolean).join(" ") || "not known" },
          { label: "Model year", value: s.vehicle.model_year === null ? "not known" : String(s.vehicle.model_year) },
          { label: "Powertrain", value: s.vehicle.powertrain ?? "not known" },
          { label: "Asset class", value: s.vehicle.asset_class.replace(/_/g, " ") },
          { label: "Data as of", value: when(s.data_as_of) },
        ],
      },
      {
        title: "Methods and versions",
        rows: [{ label: "Snapshot format", value: s.format }, ...Object.entries(s.methods).map(([k, v]) => ({ label: sentenceCase(k), value: v }))],
      },
    ],
  };
}
