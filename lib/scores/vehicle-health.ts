/**
 * Vehicle health score (SPEC 2.4, endpoint 4): 0–100, higher = healthier. Pure: data in, result out.
 * Methodology: docs/methodology/vehicle-health.md. Change VEHICLE_HEALTH_VERSION with any rule change.
 */
import { finiteOrNull } from "@/lib/numbers";
import {
  isLowVoltageSystemReading,
  measuredSohPct,
  outdatedSohSentence,
  sohEvidence,
  sohEvidenceBody,
  sohFlagSentence,
  usableSohPct,
  type SohEvidenceBody,
  type SohFlag,
  type TwelveVoltChemistry,
} from "@/lib/vocabulary/readings";
import { normalisePowertrain, sohExpected, type Powertrain } from "@/lib/vocabulary/powertrain";
import type { OdometerEvidence } from "@/lib/devices/reading-rows";
import { odometerEvidenceSentence } from "./derived-measures";
import { classifyDtc, normaliseDtc } from "@/lib/detectors/diagnostics";
import { type Confidence, confidenceFromFreshness, freshnessSentence, generatedAt, interpolate, minConfidence, nonNegative, score100, weightedAvailable } from "./score-common";

/**
 * vehicle-health-2027.02: the battery component rests only on a SoH read at most 90 days before the
 * answer (CONTRACT "Evidence and trust"); an older one is named in `soh_evidence` and `limitations`.
 * vehicle-health-2027.01: implausible SoH readings set aside (one validity rule with TAS and EOL);
 * odometer integrity from the readings' evidence, not alert counts; HEV SoH not expected (as in TAS);
 * the resting 12 V reading excludes charging and needs a settle time; lithium packs are not judged on
 * the lead-acid curve (docs/methodology/vehicle-health.md "Changes").
 */
export const VEHICLE_HEALTH_VERSION = "vehicle-health-2027.02";

export type VehicleHealthComponent = "battery" | "diagnostics" | "electrical_12v" | "odometer_integrity" | "usage";
export type VehicleHealthSignal = "soh_pct" | "dtc_codes" | "battery_voltage" | "odometer_km";

export const VEHICLE_HEALTH_WEIGHTS: Readonly<Record<VehicleHealthComponent, number>> = {
  battery: 0.35,
  diagnostics: 0.3,
  usage: 0.15,
  electrical_12v: 0.1,
  odometer_integrity: 0.1,
};

/** SoH % → battery component. 70 % (warranty level) → 40, 60 % (TAS knockout) → 10. */
const SOH_CURVE: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [60, 10],
  [70, 40],
  [85, 75],
  [100, 100],
];
/** Resting 12 V reading → electrical_12v component (lead-acid resting-voltage table). */
const VOLTAGE_12V_CURVE: ReadonlyArray<readonly [number, number]> = [
  [10.5, 0],
  [11.0, 10],
  [11.8, 40],
  [12.2, 75],
  [12.4, 90],
  [12.6, 100],
];
/** Odometer km → usage component for cars and vans; heavy trucks use 3× the distances. */
const ODOMETER_CURVE: ReadonlyArray<readonly [number, number]> = [
  [0, 100],
  [100_000, 85],
  [200_000, 60],
  [300_000, 35],
  [500_000, 0],
];
/** Penalty points per active DTC by severity; diagnostics = 100 × exp(−points / 50). */
const DTC_POINTS = { CRITICAL: 40, WARNING: 15, INFO: 3 } as const;

export interface VehicleHealthInput {
  device_id: string;
  powertrain: string | null;
  /** passenger_car | light_commercial | heavy_truck | other; null = passenger_car. */
  asset_class: string | null;
  /** Latest plausible reported state of health, % (judged by `judgeSohReadings`), or null. */
  latest_soh_pct: number | null;
  /** Device time of that reading (the 90-day rule); null with no reading. */
  latest_soh_at: Date | null;
  /** SoH readings set aside as implausible (named in `limitations`). */
  soh_flags?: readonly SohFlag[];
  /** Latest reported odometer, km, or null. */
  latest_odometer_km: number | null;
  /**
   * The DTC list of the latest record that carried one (the active codes), or null when the
   * device has never reported a DTC list. [] = reported, no active code.
   */
  active_dtc_codes: readonly string[] | null;
  /** True when the device reported any battery_voltage value. */
  battery_voltage_reported: boolean;
  /**
   * Latest resting 12 V reading (`restingTwelveVolt` in lib/vocabulary/readings.ts: off, not charging,
   * settled, not a traction-pack voltage, a lead-acid or lithium rest voltage), or null when none exists.
   */
  latest_resting_12v_v: number | null;
  /** Chemistry of that reading's battery (lib/vocabulary/readings.ts); lithium is not judged on the lead-acid curve. Absent: lead-acid. */
  resting_12v_chemistry?: TwelveVoltChemistry | null;
  /** The latest odometer reading is more than 1 km below the highest earlier one (evidence below); null = no odometer. */
  odometer_manipulation: boolean | null;
  odometer_evidence?: OdometerEvidence | null;
  /**
   * Open implausible-forward-jump problems (`odometer_integrity:jump` alerts not acknowledged, counted as
   * distinct problems, so 0 or 1): not alert rows, which depend on batching and acknowledgement cycles.
   */
  odometer_jump_alerts: number;
  /** Number of telemetry records in the last 30 days. */
  records_30d: number;
  /** Device time of the newest telemetry record, or null. */
  newest_telemetry_at: Date | null;
}

export interface VehicleHealthResult {
  device_id: string;
  vehicle_health_score: number;
  score_version: string;
  confidence: Confidence;
  /** Each component on 0–100, or null when the device does not report what it needs. */
  components: Record<VehicleHealthComponent, number | null>;
  available_signals: VehicleHealthSignal[];
  missing_signals: VehicleHealthSignal[];
  /** Which SoH reading the battery component rests on, and how old it is. */
  soh_evidence: SohEvidenceBody;
  limitations: string[];
  generated_at: string;
}

/** Signals this powertrain is expected to report (SoH only exists for a traction battery). */
function expectedSignals(powertrain: Powertrain | null): VehicleHealthSignal[] {
  const base: VehicleHealthSignal[] = ["dtc_codes", "battery_voltage", "odometer_km"];
  return sohExpected(powertrain) === false ? base : ["soh_pct", ...base];
}

export function computeVehicleHealth(input: VehicleHealthInput, opts: { now: Date }): VehicleHealthResult {
  const { now } = opts;
  const powertrain = normalisePowertrain(input.powertrain);
  const limitations: string[] = [freshnessSentence(input.newest_telemetry_at, now)];

  const sohReading = usableSohPct(finiteOrNull(input.latest_soh_pct));
  // Only a reading at most 90 days old is today's SoH (CONTRACT "Evidence and trust").
  const evidence = sohEvidence(sohReading !== null && input.latest_soh_at ? { pct: sohReading, at: input.latest_soh_at } : null, now);
  const soh = measuredSohPct(evidence);
  const odo = finiteOrNull(input.latest_odometer_km);
  const odometer = odo !== null && odo >= 0 ? odo : null;
  const dtcList = input.active_dtc_codes;
  const v12 = finiteOrNull(input.latest_resting_12v_v);
  const resting12vAny = isLowVoltageSystemReading(v12) ? v12 : null;
  const lithium12v = resting12vAny !== null && input.resting_12v_chemistry === "lithium";
  const resting12v = lithium12v ? null : resting12vAny;

  const reported: Record<VehicleHealthSignal, boolean> = {
    soh_pct: soh !== null,
    dtc_codes: dtcList !== null,
    battery_voltage: input.battery_voltage_reported || resting12vAny !== null,
    odometer_km: odometer !== null,
  };
  const expected = expectedSignals(powertrain);
  const available_signals = (["soh_pct", "dtc_codes", "battery_voltage", "odometer_km"] as const).filter((s) => reported[s]);
  const missing_signals = expected.filter((s) => !reported[s]);

  // battery: SoH curve.
  const battery = soh !== null ? interpolate(soh, SOH_CURVE) : null;

  // diagnostics: active DTCs classified by the diagnostics detector's family table.
  let diagnostics: number | null = null;
  const dtcCounts = { CRITICAL: 0, WARNING: 0, INFO: 0 };
  if (dtcList !== null) {
    const seen = new Set<string>();
    for (const c of dtcList) {
      const code = normaliseDtc(c);
      if (code === null || seen.has(code)) continue;
      seen.add(code);
      dtcCounts[classifyDtc(code, powertrain).severity] += 1;
    }
    const points = DTC_POINTS.CRITICAL * dtcCounts.CRITICAL + DTC_POINTS.WARNING * dtcCounts.WARNING + DTC_POINTS.INFO * dtcCounts.INFO;
    diagnostics = 100 * Math.exp(-points / 50);
  }

  // electrical_12v: latest resting reading.
  const electrical = resting12v !== null ? interpolate(resting12v, VOLTAGE_12V_CURVE) : null;

  // odometer_integrity: needs odometer readings; a manipulation on evidence (the TAS/EOL knockout
  // rule) → 0, an open implausible-forward-jump problem × 0.6.
  let odometerIntegrity: number | null = null;
  if (odometer !== null) {
    const jumps = nonNegative(input.odometer_jump_alerts);
    odometerIntegrity = input.odometer_manipulation === true ? 0 : 100 * 0.6 ** jumps;
  }

  // usage: lifetime distance (wear); heavy trucks are built for about 3× the distance.
  const distanceFactor = input.asset_class === "heavy_truck" ? 3 : 1;
  const usage = odometer !== null ? interpolate(odometer / distanceFactor, ODOMETER_CURVE) : null;

  const raw: Record<VehicleHealthComponent, number | null> = {
    battery,
    diagnostics,
    electrical_12v: electrical,
    odometer_integrity: odometerIntegrity,
    usage,
  };
  const without = weightedAvailable(raw, VEHICLE_HEALTH_WEIGHTS);
  // An outdated SoH is not scored, but it bounds today's from above (a battery does not regain
  // capacity): when counting it would lower the score, the lower score stands. It can cost, never add.
  const bounded = evidence.status === "outdated" ? weightedAvailable({ ...raw, battery: interpolate(evidence.pct, SOH_CURVE) }, VEHICLE_HEALTH_WEIGHTS) : null;
  const boundApplies = bounded !== null && without !== null && bounded.value < without.value;
  const combined = boundApplies ? bounded : without;
  const score = combined ? combined.value : 50;

  // Confidence: share of the expected components' weight that is available, freshness, data volume.
  const applicable = (Object.keys(VEHICLE_HEALTH_WEIGHTS) as VehicleHealthComponent[]).filter((k) => !(k === "battery" && sohExpected(powertrain) === false && battery === null));
  const applicableWeight = applicable.reduce((s, k) => s + VEHICLE_HEALTH_WEIGHTS[k], 0);
  const availableWeight = applicable.reduce((s, k) => s + (raw[k] !== null ? VEHICLE_HEALTH_WEIGHTS[k] : 0), 0);
  const coverage = applicableWeight > 0 ? availableWeight / applicableWeight : 0;
  const records = nonNegative(input.records_30d);
  let level: Confidence = "low";
  if (coverage >= 0.999 && records >= 10) level = "high";
  else if (coverage >= 0.6 && records >= 1) level = "medium";
  const confidence = combined ? minConfidence(level, confidenceFromFreshness(input.newest_telemetry_at, now)) : "low";

  if (!combined) {
    limitations.push("No health signal is available for this vehicle: the score is the neutral midpoint 50 and says nothing about its condition.");
  } else if (missing_signals.length > 0) {
    limitations.push(`Not reported by this vehicle: ${missing_signals.join(", ")}; the weights were re-normalised over the components that could be computed.`);
  }
  if (sohExpected(powertrain) === false && soh === null) {
    limitations.push(
      powertrain === "HEV"
        ? "Hybrid (HEV): the car keeps its small traction battery in a narrow window and OEMs do not report its SoH as a rule; the battery component does not apply (as in TAS)."
        : "No traction battery (ICE): the battery component does not apply.",
    );
  }
  if (powertrain === null) limitations.push("Powertrain unknown: a traction battery is assumed possible, so a missing soh_pct lowers confidence.");
  for (const f of input.soh_flags ?? []) limitations.push(sohFlagSentence(f));
  const outdated = outdatedSohSentence(evidence);
  if (outdated) {
    limitations.push(
      boundApplies
        ? `${outdated} The battery component is not scored; the reading bounds it from above, and counting it lowers the score, so the lower score stands (${score100(bounded.value)} instead of ${score100(without.value)}).`
        : `${outdated} The battery component is not scored.`,
    );
  }
  if (input.odometer_manipulation === true && input.odometer_evidence) {
    limitations.push(`Odometer manipulation: ${odometerEvidenceSentence(input.odometer_evidence)}`);
  }
  if (lithium12v) {
    limitations.push(
      `The resting auxiliary-battery reading (${v12} V) is from a lithium pack; FDP has no sourced rest-voltage curve for it, so electrical_12v is not scored (the lead-acid table does not apply).`,
    );
  }
  if (soh !== null) {
    limitations.push("SoH is the value the OEM's battery management system reports; makers define it differently (capacity- or energy-based).");
  }
  if (reported.battery_voltage && resting12v === null) {
    if (!lithium12v) {
      limitations.push(
        "battery_voltage is reported but no resting 12 V reading exists (traction-pack voltage, or only while driving, charging or within the settle time after it); electrical_12v is not scored.",
      );
    }
  }
  if (dtcCounts.CRITICAL > 0) limitations.push(`${dtcCounts.CRITICAL} active critical trouble code(s) pull the diagnostics component down.`);
  limitations.push("Usage reflects lifetime distance only; maintenance history and age are not known to FDP.");

  const components: Record<VehicleHealthComponent, number | null> = {
    battery: battery === null ? null : score100(battery),
    diagnostics: diagnostics === null ? null : score100(diagnostics),
    electrical_12v: electrical === null ? null : score100(electrical),
    odometer_integrity: odometerIntegrity === null ? null : score100(odometerIntegrity),
    usage: usage === null ? null : score100(usage),
  };

  return {
    device_id: input.device_id,
    vehicle_health_score: score100(score),
    score_version: VEHICLE_HEALTH_VERSION,
    confidence,
    components,
    available_signals,
    missing_signals,
    soh_evidence: sohEvidenceBody(evidence, sohExpected(powertrain)),
    limitations,
    generated_at: generatedAt(now),
  };
}
