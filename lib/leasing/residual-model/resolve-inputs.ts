/**
 * Which value of each input a prediction uses: the query's when given (supplied), else what FDP knows
 * about the device (derived: master data, telemetry), else a typical value for the vehicle's age
 * (missing). Pure: the device's facts and the clock come in as arguments.
 */
import type { InputName, InputStatus, ModelPowertrain, ResidualModelQuery } from "@/lib/schemas/leasing-residual-model";
import type { OdometerEvidence } from "@/lib/devices/reading-rows";
import { normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { expectedSohPct, NORMAL_KM_PER_YEAR, normalMileageKm } from "@/lib/leasing/residual-value-rules";
import { outdatedSohSentence, sohEvidence } from "@/lib/vocabulary/readings";

const round1 = (x: number) => Math.round(x * 10) / 10;
import type { VehicleFeatures } from "./features";
import type { ResidualModelFile } from "./model-file";

/** What FDP holds about one device (lib/leasing/residual-model/load-residual-model-inputs.ts). */
export interface DeviceResidualFacts {
  device_id: string;
  make: string | null;
  model: string | null;
  year: number | null;
  powertrain: string | null;
  battery_kwh: number | null;
  original_price_eur: number | null;
  /** `YYYY-MM-DD` or null. */
  lease_start: string | null;
  /** The latest odometer reading (ingest refuses values outside the physical range) and when. */
  latest_odometer: { km: number; at: Date } | null;
  /**
   * Evidence that the odometer was turned back (the TAS knockout's rule, lib/devices/device-parts.ts
   * `odometerEvidence`): the latest reading is more than the tolerance below a higher earlier one.
   */
  odometer_rollback: OdometerEvidence | null;
  /** The latest plausible SoH (judgeSohReadings, lib/vocabulary/readings.ts) and when. */
  soh: { pct: number; at: Date } | null;
  entitlements: readonly string[];
}

interface ResolvedInput {
  status: InputStatus;
  value: number | string | null;
  source: string;
  used_by_model: boolean;
}

interface ResolvedInputs {
  features: VehicleFeatures;
  inputs: Record<InputName, ResolvedInput>;
  originalPriceEur: number | null;
  limitations: string[];
}

/** Average month (365.25 / 12 days). */
const MONTH_MS = 30.4375 * 86_400_000;
/**
 * A model year's age is counted from 1 July of that year: model years run across calendar years, and
 * mid-year halves the largest error (six months either way) when the registration date is unknown.
 */
const MODEL_YEAR_MID = "-07-01T00:00:00Z";

const monthsSince = (from: Date, now: Date) => Math.max(0, Math.floor((now.getTime() - from.getTime()) / MONTH_MS));

const supplied = (value: number | string, used: boolean): ResolvedInput => ({ status: "supplied", value, source: "query", used_by_model: used });
const derived = (value: number | string, source: string, used: boolean): ResolvedInput => ({ status: "derived", value, source, used_by_model: used });
const missing = (value: number | string | null, source: string, used: boolean): ResolvedInput => ({ status: "missing", value, source, used_by_model: used });

/** Reported-only input: the query's, else master data's, else missing. */
function reported(q: number | string | undefined, master: number | string | null, masterSource: string | null): ResolvedInput {
  if (q !== undefined) return supplied(q, false);
  if (master !== null && masterSource !== null) return derived(master, masterSource, false);
  return missing(null, "none", false);
}

export function resolveInputs({ query, device, model, now }: { query: ResidualModelQuery; device: DeviceResidualFacts; model: ResidualModelFile; now: Date }): ResolvedInputs {
  const limitations: string[] = [];

  // Powertrain: query, else the device's master data when the model covers it, else BEV (SPEC 4.4 default).
  let powertrain: ModelPowertrain;
  let powertrainInput: ResolvedInput;
  const masterPowertrain = normalisePowertrain(device.powertrain);
  if (query.powertrain !== undefined) {
    powertrain = query.powertrain;
    powertrainInput = supplied(powertrain, true);
  } else if (masterPowertrain === "BEV" || masterPowertrain === "PHEV") {
    powertrain = masterPowertrain;
    powertrainInput = derived(powertrain, "master_data.powertrain", true);
  } else {
    powertrain = "BEV";
    powertrainInput = missing("BEV", "default.spec_4_4", true);
    if (masterPowertrain !== null) {
      limitations.push(`The device's powertrain is ${masterPowertrain}; the model covers BEV and PHEV only, so it was valued as a BEV (the SPEC default).`);
    }
  }

  // Age: query age_months, else from the query's model year, else the lease start, else the master model year.
  let ageInput: ResolvedInput;
  const yearAge = (year: number) => monthsSince(new Date(`${String(year).padStart(4, "0")}${MODEL_YEAR_MID}`), now);
  const leaseStart = device.lease_start !== null ? new Date(`${device.lease_start}T00:00:00Z`) : null;
  if (query.age_months !== undefined) ageInput = supplied(query.age_months, true);
  else if (query.year !== undefined) ageInput = derived(yearAge(query.year), "query.year", true);
  else if (leaseStart !== null && Number.isFinite(leaseStart.getTime())) ageInput = derived(monthsSince(leaseStart, now), "master_data.lease_start", true);
  else if (device.year !== null) ageInput = derived(yearAge(device.year), "master_data.year", true);
  else {
    ageInput = missing(Math.round(model.reference.age_months), "imputed.calibration_mean_age", true);
    limitations.push("The vehicle's age is unknown (no age_months, year or lease start): the calibration data's mean age was used.");
  }
  const ageMonths = ageInput.value as number;

  // Odometer: query, else the latest reading (the highest earlier one when the odometer was turned back:
  // a clocked odometer under-reports the distance, and valuing the car on it would reward the fraud),
  // else the normal mileage for the age (NORMAL_KM_PER_YEAR, shared with the rule-based method): zero
  // excess kilometres, so a missing odometer neither raises nor lowers the estimate.
  let odometerInput: ResolvedInput;
  if (query.odometer_km !== undefined) odometerInput = supplied(query.odometer_km, true);
  else if (device.odometer_rollback !== null) {
    const { highest, latest } = device.odometer_rollback;
    odometerInput = derived(highest.km, "telemetry.highest_before_rollback", true);
    limitations.push(
      `The odometer was turned back (${highest.km} km at ${highest.at.toISOString()}, ${latest.km} km at ${latest.at.toISOString()}): the highest earlier reading is used, a lower bound of the distance driven.`,
    );
  } else if (device.latest_odometer !== null) odometerInput = derived(device.latest_odometer.km, "telemetry.latest_odometer", true);
  else {
    odometerInput = missing(Math.round(normalMileageKm(ageMonths)), "imputed.typical_for_age", true);
    limitations.push(`No odometer reading: the normal distance for the vehicle's age (${NORMAL_KM_PER_YEAR.toLocaleString("en-GB")} km a year) was used.`);
  }

  // SoH: query, else the latest plausible reading, else NOT MEASURED: no battery adjustment is made (the
  // same as the rule-based method), and the confidence says so. No SoH is invented.
  let sohInput: ResolvedInput;
  if (query.battery_soh_pct !== undefined) sohInput = supplied(query.battery_soh_pct, true);
  else if (device.soh !== null && sohEvidence(device.soh, now).status === "measured") sohInput = derived(device.soh.pct, "telemetry.latest_plausible_soh", true);
  else if (device.soh !== null) {
    // CONTRACT "Evidence and trust": a reading older than 90 days is not today's SoH. A battery does not
    // regain capacity, so it still bounds today's value from above: the model takes the lower of it and
    // the SoH expected at this age, which can cost value but never adds any.
    const evidence = sohEvidence(device.soh, now);
    const bound = Math.round(Math.min(device.soh.pct, expectedSohPct(ageMonths)) * 10) / 10;
    sohInput = derived(bound, "telemetry.outdated_soh_upper_bound", true);
    limitations.push(
      `${outdatedSohSentence(evidence)} It bounds today's state of health from above: the model uses the lower of it and the ${round1(expectedSohPct(ageMonths))} % expected at this age, ${bound} %, so the old reading can lower the estimate but never raise it.`,
    );
  } else {
    sohInput = missing(null, "not_measured", true);
    limitations.push("Battery state of health not measured (no plausible reading): no battery adjustment was made.");
  }

  const priceInput = reported(query.original_price_eur, device.original_price_eur, "master_data.original_price_eur");
  const inputs: Record<InputName, ResolvedInput> = {
    make: reported(query.make, device.make, "master_data.make"),
    model: reported(query.model, device.model, "master_data.model"),
    year: reported(query.year, device.year, "master_data.year"),
    powertrain: powertrainInput,
    age_months: ageInput,
    odometer_km: odometerInput,
    battery_soh_pct: sohInput,
    battery_kwh: reported(query.battery_kwh, device.battery_kwh, "master_data.battery_kwh"),
    original_price_eur: priceInput,
    electric_range_km: reported(query.electric_range_km, null, null),
    power_kw: reported(query.power_kw, null, null),
    mass_kg: reported(query.mass_kg, null, null),
  };
  if (priceInput.status === "missing") limitations.push("No original price (query or master data): estimated_residual_eur is null.");
  return {
    features: { ageMonths, odometerKm: odometerInput.value as number, sohPct: typeof sohInput.value === "number" ? sohInput.value : null, powertrain },
    inputs,
    originalPriceEur: typeof priceInput.value === "number" ? priceInput.value : null,
    limitations,
  };
}

/** SPEC 2.16 `data_quality` from the model inputs: none missing → high, one → medium, more → low. */
export function dataQualityOf(inputs: Record<InputName, ResolvedInput>): "high" | "medium" | "low" {
  const missingModelInputs = Object.values(inputs).filter((i) => i.used_by_model && i.status === "missing").length;
  return missingModelInputs === 0 ? "high" : missingModelInputs === 1 ? "medium" : "low";
}
