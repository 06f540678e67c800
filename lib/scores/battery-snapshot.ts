/**
 * Battery health snapshot (SPEC 2.6, endpoint 6): a pure data-in/result-out function.
 * Methodology: docs/methodology/battery-snapshot.md. No database, no clock (the caller passes `now`).
 */
import { chargingWord, isNotChargingStatus } from "@/lib/vocabulary/charging";
import { hasTractionBattery, isPlugIn, normalisePowertrain, sohExpected, type Powertrain } from "@/lib/vocabulary/powertrain";
import { measuredSohPct, sohEvidence, sohEvidenceBody, usableSocPct, usableSohPct, type SohEvidenceBody, type SohFlag } from "@/lib/vocabulary/readings";
import { excludedSohReadings, type ExcludedReading } from "./knockout-evidence";
import { finiteOrNull } from "@/lib/numbers";
import { round } from "./score-common";

/**
 * battery-snapshot-2027.02: a SoH counts only when read at most 90 days before the answer (CONTRACT
 * "Evidence and trust"); an older one is named in `data_quality.soh_evidence`, not shown as `soh_pct`
 * and not applied to the range.
 * battery-snapshot-2027.01: the SoH shown (and applied to the range) is the latest plausible reading
 * (one validity rule with TAS, EOL and vehicle health); readings set aside are named in
 * `data_quality.excluded_readings`; an HEV's SoH is not applicable, as in TAS (battery-snapshot.md "Changes").
 */
export const BATTERY_SNAPSHOT_VERSION = "battery-snapshot-2027.02";

/** The latest known state of the device (fleet_snapshot row), or null when none was ever received. */
export interface BatteryLatestState {
  /** Device timestamp of the latest state. */
  ts: Date;
  soc_pct: number | null;
  battery_voltage: number | null;
  charging_status: string | null;
  charging_power_kw: number | null;
  /** Ambient temperature in °C (drives the cold-weather penalty of the range model). */
  weather_temp: number | null;
}

export interface BatterySnapshotInput {
  device_id: string;
  /** Master data; null = unknown. */
  powertrain: string | null;
  /** Nominal (usable) battery capacity in kWh from master data. */
  battery_kwh: number | null;
  /** passenger_car | light_commercial | heavy_truck | other | null (read as passenger_car). */
  asset_class: string | null;
  latest: BatteryLatestState | null;
  /**
   * The latest state of health reported by the OEM battery management system (may come from an older
   * record than `latest`); null when no OEM ever reported one.
   */
  oem_soh: { pct: number; reported_at: Date } | null;
  /** SoH readings set aside as implausible (lib/vocabulary/readings.ts `judgeSohReadings`). */
  soh_flags?: readonly SohFlag[];
  /** The newest alert of agent `battery` (any dedupe key), or null. */
  last_battery_alert: {
    severity: string;
    prediction: string;
    confidence: number;
    created_at: Date;
  } | null;
}

type Freshness = "fresh" | "recent" | "stale" | "none";

interface BatterySnapshot {
  device_id: string;
  snapshot: {
    soc_current_pct: number | null;
    battery_voltage: number | null;
    charging_status: string | null;
    charging_power_kw: number | null;
    estimated_range_km: number | null;
  };
  last_battery_alert: { severity: string; prediction: string; confidence: number; created_at: string } | null;
  data_quality: {
    method_version: string;
    /** Fields that apply to this vehicle but could not be known (null in the answer). */
    missing_fields: string[];
    /** The fields of `missing_fields` that are null because they do not apply (no traction battery, or no plug). */
    not_applicable_fields: string[];
    /** Device time of the newest telemetry, RFC 3339, or null. */
    latest_telemetry_at: string | null;
    /** Seconds between the newest telemetry and `generated_at` (0 when the device clock is ahead), or null. */
    data_age_seconds: number | null;
    freshness: Freshness;
    /**
     * OEM-reported state of health in percent when read at most 90 days before `generated_at`; null
     * otherwise (then listed as missing, and `soh_evidence` says whether an older reading exists).
     */
    soh_pct: number | null;
    soh_source: "oem_bms" | null;
    soh_reported_at: string | null;
    /** Which SoH reading the answer rests on and how old it is (the 90-day rule). */
    soh_evidence: SohEvidenceBody;
    powertrain: Powertrain | null;
    /** true for BEV/PHEV/HEV, false for ICE, null when the powertrain is unknown. */
    has_traction_battery: boolean | null;
    /** Readings set aside as implausible (not shown, not applied to the range). */
    excluded_readings: ExcludedReading[];
    range_model: {
      consumption_kwh_per_km: number;
      temperature_c: number | null;
      /** true when no ambient temperature was known and the Nordic default was assumed. */
      temperature_assumed: boolean;
      cold_penalty_pct: number;
      soh_applied: boolean;
    } | null;
  };
  generated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Range model (documented in docs/methodology/battery-snapshot.md)

/** Mild-weather energy use at the battery, kWh per km, per asset class. */
const BASE_CONSUMPTION_KWH_PER_KM: Record<string, number> = {
  passenger_car: 0.18,
  light_commercial: 0.26,
  heavy_truck: 1.2,
  other: 0.2,
};
/** At or above this temperature no cold-weather penalty applies. */
const COLD_PENALTY_START_C = 15;
/** Extra consumption per °C below the start temperature. */
const COLD_PENALTY_PER_C = 0.015;
/** Upper bound of the extra consumption (reached at about −18 °C). */
const COLD_PENALTY_MAX = 0.5;
/** Temperature assumed when none is known: a Nordic winter-ish 0 °C (conservative). */
const ASSUMED_TEMPERATURE_C = 0;

/** Extra consumption as a fraction (0 … 0.5) for an ambient temperature. */
export function coldPenalty(tempC: number): number {
  const raw = (COLD_PENALTY_START_C - tempC) * COLD_PENALTY_PER_C;
  return Math.min(COLD_PENALTY_MAX, Math.max(0, raw));
}

/** Freshness bands of the newest telemetry. */
const FRESH_MAX_S = 60 * 60;
const RECENT_MAX_S = 24 * 60 * 60;

// ---------------------------------------------------------------------------------------------

export function buildBatterySnapshot(input: BatterySnapshotInput, opts: { now: Date }): BatterySnapshot {
  const now = opts.now;
  const powertrain = normalisePowertrain(input.powertrain);
  const hasTraction = hasTractionBattery(powertrain);
  // Plug-in vehicles report SOC, charging and an electric range; an HEV's battery is managed inside a
  // narrow window by the car (SOC is shown if reported, but there is no charging and no electric range).
  const pluggable = powertrain === null ? null : isPlugIn(powertrain);

  const latest = input.latest;
  const latestAt = latest?.ts ?? null;

  const missing: string[] = [];
  const notApplicable: string[] = [];
  // CONTRACT: every number that cannot be known is null and named in `missing_fields`, whatever the
  // reason; `not_applicable_fields` adds why for those that do not apply to this vehicle at all.
  const field = <T>(name: string, value: T | null, applies: boolean | null): T | null => {
    if (applies === false) {
      missing.push(name);
      notApplicable.push(name);
      return null;
    }
    if (value === null) missing.push(name);
    return value;
  };

  // SOC in [0, 100]; anything else is not a usable reading.
  const socRaw = finiteOrNull(latest?.soc_pct ?? null);
  const usableSoc = usableSocPct(socRaw);
  const soc = usableSoc !== null ? round(usableSoc, 1) : null;
  const socOut = field("soc_current_pct", soc, hasTraction);

  const voltRaw = finiteOrNull(latest?.battery_voltage ?? null);
  const voltage = voltRaw !== null && voltRaw >= 0 ? round(voltRaw, 2) : null;
  const voltageOut = field("battery_voltage", voltage, true);

  const statusRaw = latest?.charging_status ?? null;
  const status = typeof statusRaw === "string" && statusRaw.trim() !== "" ? chargingWord(statusRaw) : null;
  const statusOut = field("charging_status", status, pluggable);

  const powerRaw = finiteOrNull(latest?.charging_power_kw ?? null);
  let power: number | null = powerRaw !== null && powerRaw >= 0 ? round(powerRaw, 1) : null;
  // A status that says "not charging" makes the power known: 0 kW.
  if (power === null && status !== null && isNotChargingStatus(status)) power = 0;
  const powerOut = field("charging_power_kw", power, pluggable);

  // State of health: only an OEM value counts (SPEC 2.6), and only when read within the 90 days before
  // `now` (CONTRACT "Evidence and trust"): an older one is stated in `soh_evidence`, never shown as today's.
  const usableSoh = usableSohPct(finiteOrNull(input.oem_soh?.pct ?? null));
  const evidence = sohEvidence(usableSoh !== null && input.oem_soh ? { pct: usableSoh, at: input.oem_soh.reported_at } : null, now);
  const measured = measuredSohPct(evidence);
  const soh = measured !== null ? round(measured, 1) : null;
  const sohAt = evidence.status === "measured" ? evidence.read_at : null;
  // One rule with TAS and vehicle health: an HEV's SoH is not expected (reported, it is still shown); a
  // reading too old to count is missing, whatever the powertrain.
  const sohOut = field("soh_pct", soh, soh !== null || evidence.status === "outdated" ? true : sohExpected(powertrain));

  // Range (plug-in vehicles only).
  const kwhRaw = finiteOrNull(input.battery_kwh);
  const kwh = kwhRaw !== null && kwhRaw > 0 ? kwhRaw : null;
  if (pluggable !== false && kwh === null) missing.push("battery_kwh");
  let range: number | null = null;
  let rangeModel: BatterySnapshot["data_quality"]["range_model"] = null;
  if (pluggable !== false) {
    const assetClass = input.asset_class ?? "passenger_car";
    const base = BASE_CONSUMPTION_KWH_PER_KM[assetClass] ?? BASE_CONSUMPTION_KWH_PER_KM.passenger_car ?? 0.18;
    const temp = finiteOrNull(latest?.weather_temp ?? null);
    const penalty = coldPenalty(temp ?? ASSUMED_TEMPERATURE_C);
    const consumption = base * (1 + penalty);
    rangeModel = {
      consumption_kwh_per_km: round(consumption, 3),
      temperature_c: temp,
      temperature_assumed: temp === null,
      cold_penalty_pct: round(penalty * 100, 1),
      soh_applied: soh !== null,
    };
    if (soc !== null && kwh !== null) {
      // battery_kwh is the nominal usable capacity when new; an OEM SoH scales it to today's capacity.
      const capacity = kwh * (soh !== null ? soh / 100 : 1);
      range = Math.round(((soc / 100) * capacity) / consumption);
    }
  }
  const rangeOut = field("estimated_range_km", range, pluggable);

  let ageS: number | null = null;
  let freshness: Freshness = "none";
  if (latestAt !== null) {
    ageS = Math.max(0, Math.round((now.getTime() - latestAt.getTime()) / 1000));
    freshness = ageS <= FRESH_MAX_S ? "fresh" : ageS <= RECENT_MAX_S ? "recent" : "stale";
  } else {
    missing.push("latest_telemetry_at");
  }
  if (powertrain === null) missing.push("powertrain");

  const alert = input.last_battery_alert;
  const alertAt = alert?.created_at ?? null;
  const lastAlert =
    alert && alertAt
      ? {
          severity: alert.severity,
          prediction: alert.prediction,
          confidence: finiteOrNull(alert.confidence) ?? 0,
          created_at: alertAt.toISOString(),
        }
      : null;

  return {
    device_id: input.device_id,
    snapshot: {
      soc_current_pct: socOut,
      battery_voltage: voltageOut,
      charging_status: statusOut,
      charging_power_kw: powerOut,
      estimated_range_km: rangeOut,
    },
    last_battery_alert: lastAlert,
    data_quality: {
      method_version: BATTERY_SNAPSHOT_VERSION,
      missing_fields: missing,
      not_applicable_fields: notApplicable,
      latest_telemetry_at: latestAt ? latestAt.toISOString() : null,
      data_age_seconds: ageS,
      freshness,
      soh_pct: sohOut,
      soh_source: sohOut !== null ? "oem_bms" : null,
      soh_reported_at: sohOut !== null && sohAt ? sohAt.toISOString() : null,
      soh_evidence: sohEvidenceBody(evidence, sohExpected(powertrain)),
      powertrain,
      has_traction_battery: hasTraction,
      excluded_readings: excludedSohReadings(input.soh_flags),
      range_model: rangeModel,
    },
    generated_at: now.toISOString(),
  };
}
