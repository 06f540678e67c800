import { finiteOrNull } from "@/lib/numbers";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { MAX_PLAUSIBLE_KW } from "@/lib/vocabulary/charging";
import { above, atLeast, corroborated, fmt, iso, isChargingRecord, isChargingStatus, isMoving, makeDraft, round, sortedByTs, tsMs } from "./common";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Charging detector: implausible charging power, a charge rate beyond what batteries accept, and
 * stalled charging sessions. Thresholds and sources: docs/methodology/alerts.md#charging.
 */

/** Batteries this large belong to heavy vehicles that may use the Megawatt Charging System: no absolute cap. */
const HEAVY_VEHICLE_BATTERY_KWH = 300;
/** Charge rate (power ÷ battery energy) above which a passenger-car battery is not charged today. */
const MAX_C_RATE = 4;
/** Below this, no energy is flowing: the minimum AC charge (6 A × 230 V ≈ 1.4 kW) is well above it. */
const STALLED_MAX_KW = 0.5;
const STALLED_MIN_READINGS = 3;
const STALLED_MIN_S = 15 * 60;
/** A battery this full may legitimately trickle at ~0 kW while balancing. */
const STALLED_FULL_SOC_PCT = 99;

interface PowerReading {
  r: TelemetryRecord;
  kw: number;
}

function chargingPower(records: readonly TelemetryRecord[]): PowerReading[] {
  return records.flatMap((r) => {
    const kw = finiteOrNull(r.chargingPowerKw);
    return kw === null || !isChargingRecord(r) ? [] : [{ r, kw }];
  });
}

/** The highest reading; among equals the earliest. */
function highest(xs: readonly PowerReading[]): PowerReading | undefined {
  let m: PowerReading | undefined;
  for (const x of xs) if (!m || x.kw > m.kw) m = x;
  return m;
}

function implausiblePower(device: DeviceContext, power: readonly PowerReading[]): { drafts: AlertDraft[]; flagged: Set<PowerReading> } {
  const battery = finiteOrNull(device.batteryKwh);
  if (battery !== null && battery >= HEAVY_VEHICLE_BATTERY_KWH) return { drafts: [], flagged: new Set() };
  const over = power.filter((x) => above(x.kw, MAX_PLAUSIBLE_KW));
  const top = highest(over);
  if (!top) return { drafts: [], flagged: new Set() };
  const wattsHint = top.kw >= 1000 && top.kw / 1000 <= MAX_PLAUSIBLE_KW;
  const cause = wattsHint
    ? `it looks like watts reported as kilowatts (${fmt(top.kw / 1000, 1)} kW)`
    : "no public car charger delivers this, so the power reading or its unit is probably wrong";
  return {
    flagged: new Set(over),
    drafts: [
      makeDraft({
        deviceId: device.deviceId,
        agent: "charging",
        severity: "WARNING",
        prediction: `Charging power of ${fmt(top.kw, 0)} kW was reported, above the ${MAX_PLAUSIBLE_KW} kW of today's fastest public car chargers: ${cause}; energy and cost figures for this session are unreliable until the OEM feed is checked.`,
        confidence: corroborated(0.7, 0.05, over.length, 0.9),
        dedupeKey: ALERT_KEYS.chargingImplausiblePower,
        measure: { field: "power_kw", worse: "higher" },
        observedAt: top.r.ts,
        technicalData: {
          rule: "implausible_power",
          power_kw: round(top.kw, 1),
          threshold_kw: MAX_PLAUSIBLE_KW,
          readings_above_threshold: over.length,
          possibly_watts: wattsHint,
          charging_status: top.r.chargingStatus,
          battery_kwh: battery,
          observed_at: iso(top.r.ts),
        },
      }),
    ],
  };
}

function highCRate(device: DeviceContext, power: readonly PowerReading[], flagged: ReadonlySet<PowerReading>): AlertDraft[] {
  const battery = finiteOrNull(device.batteryKwh);
  if (battery === null || battery <= 0) return [];
  const limit = MAX_C_RATE * battery;
  // A reading already reported as implausible is not reported twice.
  const over = power.filter((x) => !flagged.has(x) && above(x.kw, limit));
  const top = highest(over);
  if (!top) return [];
  const cRate = top.kw / battery;
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "charging",
      severity: "WARNING",
      prediction: `Charging at ${fmt(top.kw, 0)} kW into a ${fmt(battery, 1)} kWh battery is a ${fmt(cRate, 1)}C rate, above the ${MAX_C_RATE}C that today's fastest-charging cars reach: either the power reading or the battery size on record is wrong, or the battery is charged beyond its limits; check the master data and the charger's session log.`,
      confidence: corroborated(0.6, 0.05, over.length, 0.85),
      dedupeKey: ALERT_KEYS.chargingHighCRate,
      measure: { field: "c_rate", worse: "higher" },
      observedAt: top.r.ts,
      technicalData: {
        rule: "high_c_rate",
        power_kw: round(top.kw, 1),
        battery_kwh: battery,
        c_rate: round(cRate, 2),
        threshold_c_rate: MAX_C_RATE,
        threshold_kw: round(limit, 1),
        readings_above_threshold: over.length,
        charging_status: top.r.chargingStatus,
        observed_at: iso(top.r.ts),
      },
    }),
  ];
}

/** The OEM says "charging", the vehicle stands, and a power reading shows (almost) nothing flowing. */
function isStalledReading(r: TelemetryRecord): boolean {
  const kw = finiteOrNull(r.chargingPowerKw);
  return isChargingStatus(r.chargingStatus) && !isMoving(r) && kw !== null && !above(kw, STALLED_MAX_KW);
}

function stalled(device: DeviceContext, records: readonly TelemetryRecord[]): AlertDraft[] {
  const runs: TelemetryRecord[][] = [];
  let cur: TelemetryRecord[] = [];
  for (const r of records) {
    if (isStalledReading(r)) cur.push(r);
    else {
      if (cur.length > 0) runs.push(cur);
      cur = [];
    }
  }
  if (cur.length > 0) runs.push(cur);

  const qualifying = runs.flatMap((run) => {
    const first = run[0];
    const last = run[run.length - 1];
    if (!first || !last || run.length < STALLED_MIN_READINGS) return [];
    const durationS = (tsMs(last) - tsMs(first)) / 1000;
    if (!atLeast(durationS, STALLED_MIN_S)) return [];
    const soc =
      [...run]
        .reverse()
        .map((r) => finiteOrNull(r.socPct))
        .find((v) => v !== null) ?? null;
    if (soc !== null && atLeast(soc, STALLED_FULL_SOC_PCT)) return [];
    // The reading at which both conditions were first met.
    const trigger = run.find((r, i) => i + 1 >= STALLED_MIN_READINGS && atLeast((tsMs(r) - tsMs(first)) / 1000, STALLED_MIN_S)) ?? last;
    return [{ run, first, last, durationS, soc, trigger }];
  });
  // The longest stall; among equals the latest.
  let best: (typeof qualifying)[number] | undefined;
  for (const q of qualifying) if (!best || q.durationS >= best.durationS) best = q;
  if (!best) return [];

  const maxKw = Math.max(...best.run.map((r) => finiteOrNull(r.chargingPowerKw) ?? 0));
  const minutes = best.durationS / 60;
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "charging",
      severity: "INFO",
      prediction: `The vehicle has reported "charging" for ${fmt(minutes, 0)} min while drawing at most ${fmt(maxKw, 1)} kW (${best.run.length} readings; stall level ${STALLED_MAX_KW} kW): the charge has stalled, so check the cable, the charger and any charging schedule, or the vehicle may not be ready for its next trip.`,
      confidence: corroborated(0.6, 0.05, best.run.length - (STALLED_MIN_READINGS - 1), 0.85),
      dedupeKey: ALERT_KEYS.chargingStalled,
      measure: { field: "duration_s", worse: "higher" },
      observedAt: best.trigger.ts,
      technicalData: {
        rule: "stalled",
        max_power_kw: round(maxKw, 2),
        threshold_kw: STALLED_MAX_KW,
        readings: best.run.length,
        min_readings: STALLED_MIN_READINGS,
        duration_s: round(best.durationS, 0),
        min_duration_s: STALLED_MIN_S,
        start_ts: iso(best.first.ts),
        end_ts: iso(best.last.ts),
        charging_status: best.last.chargingStatus,
        soc_pct: best.soc === null ? null : round(best.soc, 1),
        observed_at: iso(best.trigger.ts),
      },
    }),
  ];
}

export const detectCharging: Detector = ({ device, records }) => {
  const sorted = sortedByTs(records);
  const power = chargingPower(sorted);
  const implausible = implausiblePower(device, power);
  return [...implausible.drafts, ...highCRate(device, power, implausible.flagged), ...stalled(device, sorted)];
};
