import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { CertifiedContent, CertificateSnapshot } from "@/lib/schemas/certificates";
import type { BatteryHealthSnapshot, EolSummaryBody, VehicleHealthScore } from "@/lib/schemas/scores-device";
import type { ResidualValueBody } from "@/lib/schemas/leasing-residual";
import { BATTERY_SNAPSHOT_VERSION } from "@/lib/scores/battery-snapshot";
import { EOL_GRADE_VERSION } from "@/lib/scores/eol-summary";
import { VEHICLE_HEALTH_VERSION } from "@/lib/scores/vehicle-health";
import { DEFAULT_ASSET_CLASS } from "@/lib/vocabulary/master-data";
import type { SohEvidenceBody } from "@/lib/vocabulary/readings";
import type { Powertrain } from "@/lib/vocabulary/powertrain";

/**
 * Layout of `data_snapshot`; a new field or meaning is a new format, old certificates keep theirs.
 * 2027.02: the state of health is certified only when read at most 90 days before `generated_at`
 * (`battery.state_of_health.evidence` says which reading, how old; CONTRACT "Evidence and trust").
 */
const CERTIFICATE_FORMAT = "fdp-certificate-2027.02";

const DAY_MS = 86_400_000;

/** Master data and the latest odometer of the device (lib/certificates/queries/load-certificate-inputs.ts). */
export interface CertificateVehicle {
  device_id: string;
  name: string;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  powertrain: Powertrain | null;
  asset_class: string | null;
  battery_kwh: number | null;
  latest_odometer_km: number | null;
  latest_odometer_at: Date | null;
}

export interface CertificateSources {
  vehicle: CertificateVehicle;
  vehicleHealth: VehicleHealthScore;
  eol: EolSummaryBody;
  battery: BatteryHealthSnapshot;
  residual: ResidualValueBody;
}

/** What a BMS-reported SoH is, and why it is not the Battery Passport's `stateOfCertifiedEnergy`. */
const BMS_SOH_DEFINITION =
  "State of health as the vehicle's battery management system reports it through the OEM's telematics: the OEM's own definition (usually usable capacity relative to new), not normalised by FDP. It is not the EU Battery Passport's stateOfCertifiedEnergy (UN GTR No. 22 SOCE), which is measured against the certified energy.";

/** What the certificate says in place of a state of health it does not certify. */
function notMeasuredSohSentence(e: SohEvidenceBody): string {
  if (e.status === "outdated") {
    return `Not measured: the battery's state of health was last read on ${e.last_reading_at?.slice(0, 10)} (${e.last_reading_pct} %), ${e.age_days} days before this certificate; only a reading at most ${e.max_age_days} days old is certified. FDP does not estimate SoH.`;
  }
  if (e.status === "not_applicable") return "Not applicable: no traction battery whose state of health the OEM reports.";
  return "Not measured: no plausible state-of-health reading was ever received from the vehicle's battery management system. FDP does not estimate SoH.";
}

const round1 = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.round(x * 10) / 10);
const iso = (d: Date) => d.toISOString();

/**
 * The certified content of a new certificate (the eight fields the hash covers) from the outputs it
 * aggregates: EOL summary (grade and knockouts), vehicle health, battery snapshot and rule-based
 * residual value. Pure: the caller gives the number and the time.
 */
export function buildCertifiedContent(src: CertificateSources, { number, now, validityDays }: { number: string; now: Date; validityDays: number }): CertifiedContent {
  const { vehicle, vehicleHealth, eol, battery, residual } = src;
  const generatedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  // Only a reading within the 90-day limit (the battery snapshot applied it at `now`).
  const soh = battery.data_quality.soh_pct;
  const sohEvidence = battery.data_quality.soh_evidence;
  const snapshot: CertificateSnapshot = {
    format: CERTIFICATE_FORMAT,
    vehicle: {
      name: vehicle.name,
      vin: vehicle.vin,
      make: vehicle.make,
      model: vehicle.model,
      model_year: vehicle.year,
      powertrain: vehicle.powertrain,
      asset_class: vehicle.asset_class ?? DEFAULT_ASSET_CLASS,
    },
    odometer: {
      odometer_km: round1(vehicle.latest_odometer_km),
      read_at: vehicle.latest_odometer_at ? iso(vehicle.latest_odometer_at) : null,
      manipulation_found: eol.knockout_evidence.some((k) => k.knockout === "odometer_manipulation"),
    },
    condition: {
      grade: eol.condition_grade,
      confidence: eol.confidence,
      knockouts: eol.knockout_evidence.map((k) => ({ knockout: k.knockout, statement: k.statement })),
    },
    vehicle_health: {
      score: eol.vehicle_health_score,
      confidence: vehicleHealth.confidence,
      components: { ...vehicleHealth.components },
    },
    battery: {
      has_traction_battery: battery.data_quality.has_traction_battery,
      state_of_health: {
        value_pct: round1(soh),
        measured_by: soh === null ? "not_measured" : "oem_bms_readout",
        definition: soh === null ? notMeasuredSohSentence(sohEvidence) : BMS_SOH_DEFINITION,
        measured_at: battery.data_quality.soh_reported_at,
        evidence: sohEvidence,
        uncertainty_pct: null,
        battery_passport_attribute: null,
        readings_set_aside: battery.data_quality.excluded_readings.length,
      },
      stateOfCharge: {
        value_pct: round1(battery.snapshot.soc_current_pct),
        measured_by: battery.snapshot.soc_current_pct === null ? "not_measured" : "oem_bms_readout",
        measured_at: battery.snapshot.soc_current_pct === null ? null : battery.data_quality.latest_telemetry_at,
      },
      ratedEnergy: { value_kwh: vehicle.battery_kwh, measured_by: vehicle.battery_kwh === null ? "not_measured" : "master_data" },
    },
    residual_value: {
      estimated_residual_pct: round1(residual.estimated_residual_pct),
      confidence: residual.confidence,
      age_months: residual.factors.age_months,
      mileage_km: round1(residual.factors.mileage_km),
    },
    data_as_of: battery.data_quality.latest_telemetry_at,
    methods: {
      condition_grade: EOL_GRADE_VERSION,
      vehicle_health: VEHICLE_HEALTH_VERSION,
      battery_snapshot: BATTERY_SNAPSHOT_VERSION,
      residual_value: residual.estimation_method,
      certificate: CERTIFICATE_FORMAT,
    },
  };
  return {
    certificate_number: number,
    device_id: vehicle.device_id,
    grade: eol.condition_grade,
    vehicle_health_score: eol.vehicle_health_score,
    residual_value_pct: round1(residual.estimated_residual_pct),
    data_snapshot: snapshot,
    generated_at: iso(generatedAt),
    expires_at: iso(new Date(generatedAt.getTime() + validityDays * DAY_MS)),
  };
}

/** RFC 8785 canonical JSON of exactly the eight certified fields: the bytes that are hashed and signed. */
export function canonicalContent(content: CertifiedContent): string {
  const { certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at } = content;
  return canonicalize({ certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at }) as string;
}

/** `verify_hash`: lowercase hex SHA-256 of the canonical content. */
export function verifyHashOf(canonical: string): string {
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}
