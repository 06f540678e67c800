/**
 * Fleet risk score (SPEC 2.3, endpoint 3): 0–100, higher = riskier. Pure: data in, result out.
 * Methodology: docs/methodology/fleet-risk.md. Change FLEET_RISK_VERSION with any rule change.
 */
import { isPlugIn, normalisePowertrain, type Powertrain } from "@/lib/vocabulary/powertrain";
import {
  type Confidence,
  confidenceFromFreshness,
  freshnessSentence,
  generatedAt,
  minConfidence,
  newestOf,
  nonNegative,
  round,
  score100,
  share,
} from "./score-common";

export const FLEET_RISK_VERSION = "fleet-risk-2026.12";

export type FleetRiskComponent =
  | "event_severity"
  | "weather_exposure"
  | "time_pattern"
  | "speed_compliance"
  | "ev_charging_risk";

/** Weights of the weighted sum; they add up to 1. */
export const FLEET_RISK_WEIGHTS: Readonly<Record<FleetRiskComponent, number>> = {
  event_severity: 0.4,
  speed_compliance: 0.2,
  weather_exposure: 0.15,
  time_pattern: 0.15,
  ev_charging_risk: 0.1,
};

/** Severity points per alert (event_severity). */
export const SEVERITY_POINTS = { critical: 10, warning: 3, info: 1 } as const;
/** Points per vehicle per 30 days at which event_severity reaches 1 − 1/e ≈ 63. */
export const EVENT_SCALE_POINTS = 10;

/** Alert counts in the period, by severity (all alerts created in the period, acknowledged or not). */
export interface SeverityCounts {
  critical: number;
  warning: number;
  info: number;
}

/**
 * One device's aggregates over the period [now − period_days, now]. Minutes are estimated from
 * consecutive telemetry samples by the query module (see the methodology page, "Inputs").
 */
export interface FleetRiskDeviceInput {
  device_id: string;
  /** BEV | PHEV | HEV | ICE; null or anything else = unknown. */
  powertrain: Powertrain | string | null;
  /** Alerts created in the period, by severity. */
  alerts: SeverityCounts;
  /** Minutes driven (speed > 1 km/h) in the period. */
  driving_minutes: number;
  /** Minutes driven above 130 km/h (120 km/h Finnish maximum + 10 km/h tolerance). */
  minutes_over_130: number;
  /** Minutes driven above 160 km/h (also counted in minutes_over_130). */
  minutes_over_160: number;
  /** Minutes driven between 22:00 and 06:00 Finnish local time (Europe/Helsinki). */
  night_driving_minutes: number;
  /** Minutes driven with a known ambient temperature. */
  temp_known_driving_minutes: number;
  /** Minutes driven at an ambient temperature below 0 °C. */
  driving_minutes_below_0c: number;
  /** Minutes driven at an ambient temperature below −10 °C (also counted below 0 °C). */
  driving_minutes_below_minus10c: number;
  /** Minutes charging in the period (EVs); 0 when none or unknown. */
  charging_minutes: number;
  /** Minutes of DC (fast) charging: status dc/fast, or power above 22 kW. */
  dc_charging_minutes: number;
  /** Minutes with a SOC reading (EVs). */
  soc_known_minutes: number;
  /** Minutes at SOC below 10 % while not charging. */
  low_soc_minutes: number;
  /** Distinct UTC days with at least one telemetry record in the period. */
  telemetry_days: number;
  /** Device time of the newest telemetry record used, or null. */
  newest_telemetry_at: Date | null;
}

export interface FleetRiskInput {
  /** From the `period` query (`30d` → 30). */
  period_days: number;
  devices: readonly FleetRiskDeviceInput[];
}

export interface FleetRiskResult {
  fleet_risk_score: number;
  score_version: string;
  confidence: Confidence;
  period_days: number;
  device_count: number;
  alerts_period: number;
  critical_alerts_period: number;
  severity_distribution: { critical: number; warning: number; info: number };
  scoring_method: string;
  components: Record<FleetRiskComponent, number>;
  limitations: string[];
  generated_at: string;
}

export const FLEET_RISK_SCORING_METHOD =
  "Weighted sum of five risk components on 0-100 (event_severity 0.40, speed_compliance 0.20, " +
  "weather_exposure 0.15, time_pattern 0.15, ev_charging_risk 0.10); a component without data is " +
  "reported as 0 and the weights are re-normalised over the components with data. Higher = riskier. " +
  "See docs/methodology/fleet-risk.md.";

function sumBy(devices: readonly FleetRiskDeviceInput[], f: (d: FleetRiskDeviceInput) => number): number {
  let s = 0;
  for (const d of devices) s += nonNegative(f(d));
  return s;
}

/** Confidence rules (documented in the methodology page). */
function fleetConfidence(args: {
  deviceCount: number;
  meanTelemetryDays: number;
  periodDays: number;
  drivingMinutes: number;
  missingComponents: number;
  newest: Date | null;
  now: Date;
}): Confidence {
  const { deviceCount, meanTelemetryDays, periodDays, drivingMinutes, missingComponents, newest, now } = args;
  if (deviceCount === 0 || newest === null) return "low";
  const coverage = periodDays > 0 ? meanTelemetryDays / periodDays : 0;
  let level: Confidence = "low";
  if (deviceCount >= 5 && meanTelemetryDays >= 14 && coverage >= 0.5 && drivingMinutes >= 600 && missingComponents === 0) {
    level = "high";
  } else if (meanTelemetryDays >= 3 && drivingMinutes >= 60 && missingComponents <= 2) {
    level = "medium";
  }
  return minConfidence(level, confidenceFromFreshness(newest, now));
}

export function computeFleetRisk(input: FleetRiskInput, opts: { now: Date }): FleetRiskResult {
  const { now } = opts;
  const periodDays = Math.max(1, Math.floor(nonNegative(input.period_days)) || 1);
  const devices = input.devices;
  const deviceCount = devices.length;

  const critical = Math.round(sumBy(devices, (d) => d.alerts.critical));
  const warning = Math.round(sumBy(devices, (d) => d.alerts.warning));
  const info = Math.round(sumBy(devices, (d) => d.alerts.info));

  // event_severity: severity points per vehicle per 30 days on a saturating curve (strictly increasing).
  const points = SEVERITY_POINTS.critical * critical + SEVERITY_POINTS.warning * warning + SEVERITY_POINTS.info * info;
  const pointsPerVehicle30d = deviceCount > 0 ? (points / deviceCount) * (30 / periodDays) : 0;
  const eventSeverity = deviceCount > 0 ? 100 * (1 - Math.exp(-pointsPerVehicle30d / EVENT_SCALE_POINTS)) : null;

  const driving = sumBy(devices, (d) => d.driving_minutes);

  // speed_compliance: share of driving time above 130 (×10) plus above 160 (×20 more), capped.
  const over130 = sumBy(devices, (d) => Math.min(d.minutes_over_130, d.driving_minutes));
  const over160 = sumBy(devices, (d) => Math.min(d.minutes_over_160, d.minutes_over_130, d.driving_minutes));
  const speedCompliance = driving > 0 ? 100 * Math.min(1, 10 * share(over130, driving) + 20 * share(over160, driving)) : null;

  // time_pattern: night share of driving time; half of driving at night or more = 100.
  const night = sumBy(devices, (d) => Math.min(d.night_driving_minutes, d.driving_minutes));
  const timePattern = driving > 0 ? 100 * Math.min(1, 2 * share(night, driving)) : null;

  // weather_exposure: share of temperature-known driving below 0 °C (0.6) and below −10 °C (0.4).
  const tempKnown = sumBy(devices, (d) => d.temp_known_driving_minutes);
  const below0 = sumBy(devices, (d) => Math.min(d.driving_minutes_below_0c, d.temp_known_driving_minutes));
  const below10 = sumBy(devices, (d) =>
    Math.min(d.driving_minutes_below_minus10c, d.driving_minutes_below_0c, d.temp_known_driving_minutes),
  );
  const weatherExposure = tempKnown > 0 ? 100 * (0.6 * share(below0, tempKnown) + 0.4 * share(below10, tempKnown)) : null;

  // ev_charging_risk (EVs only): DC share of charging time (0.5) and low-SOC exposure (0.5, 10 % of time = full).
  const evs = devices.filter((d) => isPlugIn(normalisePowertrain(d.powertrain)));
  const chargingMin = sumBy(evs, (d) => d.charging_minutes);
  const dcMin = sumBy(evs, (d) => Math.min(d.dc_charging_minutes, d.charging_minutes));
  const socKnown = sumBy(evs, (d) => d.soc_known_minutes);
  const lowSoc = sumBy(evs, (d) => Math.min(d.low_soc_minutes, d.soc_known_minutes));
  const dcPart = chargingMin > 0 ? share(dcMin, chargingMin) : null;
  const lowSocPart = socKnown > 0 ? Math.min(1, 10 * share(lowSoc, socKnown)) : null;
  let evChargingRisk: number | null = null;
  if (dcPart !== null && lowSocPart !== null) evChargingRisk = 100 * (0.5 * dcPart + 0.5 * lowSocPart);
  else if (dcPart !== null) evChargingRisk = 100 * dcPart;
  else if (lowSocPart !== null) evChargingRisk = 100 * lowSocPart;

  const raw: Record<FleetRiskComponent, number | null> = {
    event_severity: eventSeverity,
    speed_compliance: speedCompliance,
    weather_exposure: weatherExposure,
    time_pattern: timePattern,
    ev_charging_risk: evChargingRisk,
  };

  let sum = 0;
  let wsum = 0;
  for (const k of Object.keys(FLEET_RISK_WEIGHTS) as FleetRiskComponent[]) {
    const v = raw[k];
    if (v === null) continue;
    sum += FLEET_RISK_WEIGHTS[k] * v;
    wsum += FLEET_RISK_WEIGHTS[k];
  }
  const score = wsum > 0 ? sum / wsum : 0;

  const components: Record<FleetRiskComponent, number> = {
    event_severity: score100(raw.event_severity ?? 0),
    weather_exposure: score100(raw.weather_exposure ?? 0),
    time_pattern: score100(raw.time_pattern ?? 0),
    speed_compliance: score100(raw.speed_compliance ?? 0),
    ev_charging_risk: score100(raw.ev_charging_risk ?? 0),
  };

  const newest = newestOf(devices.map((d) => d.newest_telemetry_at));
  const meanTelemetryDays = deviceCount > 0 ? sumBy(devices, (d) => Math.min(d.telemetry_days, periodDays)) / deviceCount : 0;
  const missing = (Object.keys(raw) as FleetRiskComponent[]).filter((k) => raw[k] === null);
  // ev_charging_risk without EVs is not "missing data": it does not apply.
  const missingCount = missing.filter((k) => !(k === "ev_charging_risk" && evs.length === 0)).length;

  const limitations: string[] = [freshnessSentence(newest, now)];
  if (deviceCount === 0) {
    limitations.push("The fleet has no vehicles: the score is 0 by definition and says nothing about risk.");
  }
  for (const k of missing) {
    if (deviceCount === 0) break;
    if (k === "ev_charging_risk" && evs.length === 0) {
      limitations.push("ev_charging_risk does not apply (no BEV or PHEV in the fleet); it is reported as 0 and left out of the weighted sum.");
    } else {
      limitations.push(`${k} could not be computed from the data of the period; it is reported as 0 and left out of the weighted sum.`);
    }
  }
  limitations.push(
    "Speeding is judged against one flat threshold (130 km/h = Finland's 120 km/h maximum + 10 km/h tolerance); without a speed-limit map, speeding on slower roads is not seen.",
    "Driving minutes are estimated from telemetry samples; sparse sampling under-counts short events.",
    "The score compares the fleet with fixed reference points chosen by FDP, not with an insurer's claims data; it is not a predicted claim frequency.",
  );
  if (deviceCount > 0 && meanTelemetryDays < periodDays * 0.5) {
    limitations.push(
      `Devices reported telemetry on ${round(meanTelemetryDays, 1)} of ${periodDays} days on average; the period is only partly covered.`,
    );
  }

  return {
    fleet_risk_score: score100(score),
    score_version: FLEET_RISK_VERSION,
    confidence: fleetConfidence({
      deviceCount,
      meanTelemetryDays,
      periodDays,
      drivingMinutes: driving,
      missingComponents: missingCount,
      newest,
      now,
    }),
    period_days: periodDays,
    device_count: deviceCount,
    alerts_period: critical + warning + info,
    critical_alerts_period: critical,
    severity_distribution: { critical, warning, info },
    scoring_method: FLEET_RISK_SCORING_METHOD,
    components,
    limitations,
    generated_at: generatedAt(now),
  };
}
