/**
 * Fleet risk score (SPEC 2.3, endpoint 3): 0–100, higher = riskier. Pure: data in, result out.
 * Methodology: docs/methodology/fleet-risk.md. Change FLEET_RISK_VERSION with any rule change.
 */
import { isPlugIn, normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { type Confidence, confidenceFromFreshness, freshnessSentence, generatedAt, minConfidence, newestOf, nonNegative, round, score100, share } from "./score-common";
import { MIN_RATE_EXPOSURE_HOURS, MIN_RATE_EXPOSURE_KM } from "./behaviour-exposure";

export const FLEET_RISK_VERSION = "fleet-risk-2027.01";

type FleetRiskComponent = "event_severity" | "weather_exposure" | "time_pattern" | "speed_compliance" | "ev_charging_risk";

/** Weights of the weighted sum; they add up to 1. */
export const FLEET_RISK_WEIGHTS: Readonly<Record<FleetRiskComponent, number>> = {
  event_severity: 0.4,
  speed_compliance: 0.2,
  weather_exposure: 0.15,
  time_pattern: 0.15,
  ev_charging_risk: 0.1,
};

/**
 * event_severity: harsh events (braking, acceleration, cornering) per 100 km, each weighted by its
 * severity band (moderate 0.3–0.5 g: 1, severe ≥ 0.5 g: 2; queries/behaviour-sql.ts), on a saturating
 * curve: EVENT_SCALE_PER_100KM weighted events per 100 km give 1 − 1/e ≈ 63.
 */
const EVENT_SCALE_PER_100KM = 1;
/** Rates need this much exposure, else the component is not computed (a few km say nothing). */
const MIN_EVENT_EXPOSURE_KM = 50;
/** Exposure (km) at which a behaviour rate's confidence is high / medium. */
const EXPOSURE_KM_FOR = { high: 1000, medium: 200 } as const;
/**
 * weather_exposure band weights (share of temperature-known driving time in each band): near freezing
 * (−3…+3 °C, black ice) 1.0; cold (−10…−3 °C) 0.5; very cold (below −10 °C) 0.35. Liikenneturva: accident
 * risk is highest around 0 °C and at the changes of season, not on the coldest days (SOURCES.md).
 */
const WEATHER_BAND_WEIGHTS = { near_freezing: 1, cold: 0.5, very_cold: 0.35 } as const;
/**
 * ev_charging_risk: share of the charging energy from DC above 100 kW, full at 40 %. Geotab's 2025
 * battery study (22,700 EVs) reports about 3.0 %/yr for EVs relying heavily on DC above 100 kW against
 * about 1.5 %/yr on AC or low-power DC; the 40 % threshold appears only in a secondary report of it
 * (c114pro.com), other reports give a 12 % split (< 12 % DC → 1.5 %/yr, > 12 % → 2.5 %/yr; evshift.com).
 * Geotab's share is of "total charging" (sessions or energy, unstated); FDP's is of energy. See
 * docs/methodology/fleet-risk.md (the `ev_charging_risk` source note).
 */
const HIGH_POWER_DC_FULL_SHARE = 0.4;

/** Alert counts in the period, by severity (all alerts created in the period, acknowledged or not). */
export interface SeverityCounts {
  critical: number;
  warning: number;
  info: number;
}

/**
 * One device's aggregates over the period [now − period_days, now], from telemetry and driving events
 * (queries/behaviour-sql.ts; see the methodology page, "Inputs").
 */
export interface FleetRiskDeviceInput {
  device_id: string;
  /** BEV | PHEV | HEV | ICE; null or anything else = unknown. */
  powertrain: string | null;
  /** Alerts created in the period, by severity: reported as alert facts (SPEC), not scored. */
  alerts: SeverityCounts;
  /** Minutes driven (speed > 1 km/h) in the period. */
  driving_minutes: number;
  /** Minutes driven above 130 km/h (120 km/h Finnish maximum + 10 km/h tolerance). */
  minutes_over_130: number;
  /** Minutes driven above 160 km/h (also counted in minutes_over_130). */
  minutes_over_160: number;
  /**
   * Odometer km driven between samples whose first was moving; and of those, above 130 / 160 km/h (a
   * pair longer than 10 minutes is credited at most speed × 10 minutes; queries/behaviour-sql.ts).
   */
  moving_km: number;
  km_over_130: number;
  km_over_160: number;
  /** Minutes driven between 22:00 and 06:00 Finnish local time (Europe/Helsinki). */
  night_driving_minutes: number;
  /** Minutes driven with a known ambient temperature. */
  temp_known_driving_minutes: number;
  /** Minutes driven at −3…+3 °C (near freezing). */
  driving_minutes_near_0c: number;
  /** Minutes driven below −3 down to −10 °C. */
  driving_minutes_cold: number;
  /** Minutes driven at an ambient temperature below −10 °C. */
  driving_minutes_below_minus10c: number;
  /**
   * Harsh events of the period from the source that covers it (OEM-reported, else derived from dense
   * speed samples): count, severity-weighted count and the km they were measured over; null = no source
   * covers the period (unknown, not zero).
   */
  harsh_events: { count: number; weighted: number; km: number } | null;
  /** Battery energy charged in the period (kWh, SOC-based) and its share from DC above 100 kW; null = none measured. */
  charged_battery_kwh: number | null;
  high_power_dc_share: number | null;
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

interface FleetRiskResult {
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

const FLEET_RISK_SCORING_METHOD =
  "Weighted sum of five risk components on 0-100 measured from telemetry (event_severity 0.40 = severity-weighted harsh events per 100 km, speed_compliance 0.20, " +
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

/** Confidence of a rate from the km it was measured on. */
function exposureConfidence(km: number): Confidence {
  if (km >= EXPOSURE_KM_FOR.high) return "high";
  if (km >= EXPOSURE_KM_FOR.medium) return "medium";
  return "low";
}

export function computeFleetRisk(input: FleetRiskInput, opts: { now: Date }): FleetRiskResult {
  const { now } = opts;
  const periodDays = Math.max(1, Math.floor(nonNegative(input.period_days)) || 1);
  const devices = input.devices;
  const deviceCount = devices.length;

  // Alert facts (SPEC 2.3 fields): reported, not scored.
  const critical = Math.round(sumBy(devices, (d) => d.alerts.critical));
  const warning = Math.round(sumBy(devices, (d) => d.alerts.warning));
  const info = Math.round(sumBy(devices, (d) => d.alerts.info));

  const driving = sumBy(devices, (d) => d.driving_minutes);

  // event_severity: severity-weighted harsh events per 100 km, over the devices whose events are measured.
  // A device whose source covered no km (or unknown km) is left out of both sides of the rate: its
  // events cannot be divided by a distance over which they were not watched.
  const measured = devices.filter((d) => d.harsh_events !== null && Number.isFinite(d.harsh_events.km) && d.harsh_events.km > 0);
  // Membership by Set, not Array.includes: a 10,000-vehicle fleet made the filters below quadratic (10⁸ comparisons).
  const isMeasured = new Set(measured);
  const eventKm = sumBy(measured, (d) => d.harsh_events?.km ?? 0);
  const eventCount = sumBy(measured, (d) => d.harsh_events?.count ?? 0);
  const eventWeighted = sumBy(measured, (d) => d.harsh_events?.weighted ?? 0);
  const eventRate = eventKm >= MIN_EVENT_EXPOSURE_KM ? (100 * eventWeighted) / eventKm : null;
  const eventSeverity = eventRate === null ? null : 100 * (1 - Math.exp(-eventRate / EVENT_SCALE_PER_100KM));

  // speed_compliance: share over 130 (×10) plus over 160 (×20 more), capped. The distance share when
  // odometer pairs measured the driving (a speeder covers more km per minute), else the time share.
  // Per device, only a measurement with the minimum exposure counts (behaviour-exposure.ts: 100 km on
  // the distance basis, 2 h on the time basis); a device below it is left out of both sides.
  const kmDevices = devices.filter((d) => d.moving_km >= MIN_RATE_EXPOSURE_KM);
  const timeDevices = devices.filter((d) => d.driving_minutes / 60 >= MIN_RATE_EXPOSURE_HOURS);
  const isKmDevice = new Set(kmDevices);
  const isTimeDevice = new Set(timeDevices);
  const speedKm = sumBy(kmDevices, (d) => d.moving_km);
  const speedMinutes = sumBy(timeDevices, (d) => d.driving_minutes);
  const over130 = sumBy(timeDevices, (d) => Math.min(d.minutes_over_130, d.driving_minutes));
  const over160 = sumBy(timeDevices, (d) => Math.min(d.minutes_over_160, d.minutes_over_130, d.driving_minutes));
  const km130 = sumBy(kmDevices, (d) => Math.min(d.km_over_130, d.moving_km));
  const km160 = sumBy(kmDevices, (d) => Math.min(d.km_over_160, d.km_over_130, d.moving_km));
  const timeShares = speedMinutes > 0 ? { s130: share(over130, speedMinutes), s160: share(over160, speedMinutes) } : null;
  const kmShares = speedKm > 0 ? { s130: share(km130, speedKm), s160: share(km160, speedKm) } : null;
  // A vehicle measured only by time (under 100 km of odometer pairs but 2 h of driving) keeps its time
  // share when others have a distance share: then the fleet share is the driving-time-weighted mean of
  // each vehicle's own share (distance where measured, else time), so no measured vehicle is dropped.
  const timeOnly = timeDevices.filter((d) => !isKmDevice.has(d));
  let speedShares = kmShares ?? timeShares;
  if (kmShares && timeOnly.length > 0) {
    const own = (d: FleetRiskDeviceInput) =>
      isKmDevice.has(d)
        ? { s130: share(Math.min(d.km_over_130, d.moving_km), d.moving_km), s160: share(Math.min(d.km_over_160, d.km_over_130, d.moving_km), d.moving_km) }
        : {
            s130: share(Math.min(d.minutes_over_130, d.driving_minutes), d.driving_minutes),
            s160: share(Math.min(d.minutes_over_160, d.minutes_over_130, d.driving_minutes), d.driving_minutes),
          };
    const counted = [...kmDevices, ...timeOnly];
    const weight = sumBy(counted, (d) => d.driving_minutes);
    if (weight > 0) {
      speedShares = {
        s130: sumBy(counted, (d) => d.driving_minutes * own(d).s130) / weight,
        s160: sumBy(counted, (d) => d.driving_minutes * own(d).s160) / weight,
      };
    }
  }
  const speedCompliance = speedShares ? 100 * Math.min(1, 10 * speedShares.s130 + 20 * speedShares.s160) : null;

  // time_pattern: night share of driving time; half of driving at night or more = 100.
  const night = sumBy(devices, (d) => Math.min(d.night_driving_minutes, d.driving_minutes));
  const timePattern = driving > 0 ? 100 * Math.min(1, 2 * share(night, driving)) : null;

  // weather_exposure: temperature bands weighted by their road risk (near freezing highest).
  const tempKnown = sumBy(devices, (d) => d.temp_known_driving_minutes);
  const near0 = sumBy(devices, (d) => Math.min(d.driving_minutes_near_0c, d.temp_known_driving_minutes));
  const cold = sumBy(devices, (d) => Math.min(d.driving_minutes_cold, d.temp_known_driving_minutes));
  const veryCold = sumBy(devices, (d) => Math.min(d.driving_minutes_below_minus10c, d.temp_known_driving_minutes));
  const weatherExposure =
    tempKnown > 0
      ? 100 *
        Math.min(
          1,
          WEATHER_BAND_WEIGHTS.near_freezing * share(near0, tempKnown) +
            WEATHER_BAND_WEIGHTS.cold * share(cold, tempKnown) +
            WEATHER_BAND_WEIGHTS.very_cold * share(veryCold, tempKnown),
        )
      : null;

  // ev_charging_risk (EVs only): high-power DC share of charging energy (0.5) and low-SOC exposure (0.5, 10 % of time = full).
  const evs = devices.filter((d) => isPlugIn(normalisePowertrain(d.powertrain)));
  const charged = evs.filter((d) => d.high_power_dc_share !== null);
  // Energy-weighted across vehicles; a vehicle whose capacity is unknown (kWh null) counts as one unit.
  const chargeWeight = (d: FleetRiskDeviceInput) => (d.charged_battery_kwh !== null && d.charged_battery_kwh > 0 ? d.charged_battery_kwh : 1);
  const chargeW = sumBy(charged, chargeWeight);
  const hpcShare = chargeW > 0 ? sumBy(charged, (d) => chargeWeight(d) * Math.min(1, d.high_power_dc_share ?? 0)) / chargeW : null;
  const socKnown = sumBy(evs, (d) => d.soc_known_minutes);
  const lowSoc = sumBy(evs, (d) => Math.min(d.low_soc_minutes, d.soc_known_minutes));
  const dcPart = hpcShare !== null ? Math.min(1, hpcShare / HIGH_POWER_DC_FULL_SHARE) : null;
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
  if (deviceCount > 0) {
    limitations.push(
      eventRate === null
        ? measured.length === 0
          ? "event_severity: no source covers the period with harsh events (no OEM event feed, no speed samples dense enough to derive them); unknown, not zero."
          : `event_severity: harsh events were measured over only ${round(eventKm, 1)} km (at least ${MIN_EVENT_EXPOSURE_KM} km needed).`
        : `event_severity: ${round(eventRate, 2)} severity-weighted harsh events per 100 km (${Math.round(eventCount)} events over ${round(eventKm, 1)} km on ${measured.length} vehicle(s)); confidence ${exposureConfidence(eventKm)}.`,
    );
    if (speedShares) {
      const t = timeShares
        ? `${round(100 * timeShares.s130, 2)} % of ${round(speedMinutes / 60, 1)} h driving time above 130 km/h (${round(100 * timeShares.s160, 2)} % above 160)`
        : "time share unknown";
      const k = kmShares ? `${round(100 * kmShares.s130, 2)} % of ${round(speedKm, 1)} km above 130 km/h (${round(100 * kmShares.s160, 2)} % above 160)` : "distance share unknown";
      limitations.push(
        `speed_compliance: ${k}; ${t}; scored on the ${kmShares ? "distance" : "time"} share; confidence ${exposureConfidence(kmShares ? speedKm : (speedMinutes / 60) * 50)}.`,
      );
    }
    const leftOut = devices.filter((d) => !isKmDevice.has(d) && !isTimeDevice.has(d) && (d.moving_km > 0 || d.driving_minutes > 0)).length;
    if (leftOut > 0) {
      limitations.push(
        `speed_compliance: ${leftOut} vehicle(s) drove less than the minimum exposure (${MIN_RATE_EXPOSURE_KM} km measured, or ${MIN_RATE_EXPOSURE_HOURS} h) and are left out of the speeding share.`,
      );
    }
    const noEventKm = devices.filter((d) => d.harsh_events !== null && !isMeasured.has(d)).length;
    if (noEventKm > 0) {
      limitations.push(`event_severity: ${noEventKm} vehicle(s) have an event source but no km measured while it covered the period; left out of the rate.`);
    }
    if (tempKnown > 0) {
      limitations.push(
        `weather_exposure: over ${round(tempKnown / 60, 1)} h of driving with a known temperature, ${round(100 * share(near0, tempKnown), 1)} % near freezing (−3…+3 °C), ${round(100 * share(cold, tempKnown), 1)} % at −10…−3 °C, ${round(100 * share(veryCold, tempKnown), 1)} % below −10 °C.`,
      );
    }
    if (driving > 0) {
      limitations.push(`time_pattern: ${round(100 * share(night, driving), 1)} % of ${round(driving / 60, 1)} h driving time between 22:00 and 06:00 (Helsinki).`);
    }
    if (hpcShare !== null) {
      const kwh = sumBy(charged, (d) => d.charged_battery_kwh ?? 0);
      limitations.push(
        `ev_charging_risk: ${round(100 * hpcShare, 1)} % of the charging energy (from SOC changes${kwh > 0 ? `, ${round(kwh, 1)} kWh on ${charged.length} vehicle(s)` : ""}) came from DC above 100 kW; confidence ${kwh >= 200 ? "high" : kwh >= 40 ? "medium" : "low"}.`,
      );
    }
  }
  limitations.push(
    "Speeding is judged against one flat threshold (130 km/h = Finland's 120 km/h maximum + 10 km/h tolerance); without a speed-limit map, speeding on slower roads is not seen.",
    "Driving minutes hold a sample's state until the next sample for at most 10 minutes; sparse sampling under-counts short events. Distances come from odometer changes between samples.",
    "The score compares the fleet with fixed reference points chosen by FDP, not with an insurer's claims data; it is not a predicted claim frequency.",
  );
  if (deviceCount > 0 && meanTelemetryDays < periodDays * 0.5) {
    limitations.push(`Devices reported telemetry on ${round(meanTelemetryDays, 1)} of ${periodDays} days on average; the period is only partly covered.`);
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
