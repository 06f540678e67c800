import { finiteOrNull } from "@/lib/numbers";
import { judgeSohReadings, LOW_VOLTAGE_RANGE_V, restingTwelveVolt, SETTLE_MS, SOH_JUMP_PP, type SohJudgement, usableSocPct, usableSohPct } from "@/lib/vocabulary/readings";
import { isChargingStatus } from "@/lib/vocabulary/charging";
import { ALERT_KEYS, type Severity } from "@/lib/vocabulary/alerts";
import { inferPowertrain, isPlugIn } from "@/lib/vocabulary/powertrain";
import { atLeast, below, corroborated, fmt, iso, isAwakeRecord, isChargingRecord, makeDraft, round, sortedByTs, tsMs } from "./common";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Battery detector: low traction-battery state of charge, a weak 12 V battery, and state-of-health
 * drops. Thresholds and their sources: docs/methodology/alerts.md#battery.
 */

// (a) State of charge of the traction battery.
const SOC_WARNING_PCT = 10;
const SOC_CRITICAL_PCT = 5;
/** A plug-in hybrid whose fuel tank is this low as well keeps the full-electric severity. */
const PHEV_LOW_FUEL_PCT = 10;

// (b) The 12 V (lead-acid / auxiliary) battery at rest.
/** ≈ fully discharged at rest (resting-voltage tables: 12.6–12.7 V full, ~12.0 V at 25 %, ~11.8 V empty). */
export const V12_WARNING_V = 11.8;
/** Deeply discharged or a failed cell: the battery cannot crank the engine/close the HV contactors. */
const V12_CRITICAL_V = 11.0;
/** A later resting reading at or above this shows the battery has been recharged since the low reading. */
const V12_RECOVERED_V = 12.4;

// (c) State of health (OEM BMS).
const SOH_DROP_PP = 3;
const SOH_WARNING_PCT = 70;
const SOH_CRITICAL_PCT = 60;
/** Plausible SoH values; some BMS report a little above 100 % when new. */

export const detectBattery: Detector = ({ device, records }) => {
  const sorted = sortedByTs(records);
  return [...lowSoc(device, sorted), ...low12V(device, sorted), ...sohDrop(device, sorted), ...sohLow(device, sorted)];
};

// ---------------------------------------------------------------------------------------------
// (a) low state of charge

const validSoc = (r: TelemetryRecord): number | null => usableSocPct(finiteOrNull(r.socPct));

/**
 * BEV or PHEV: the known powertrain, else the CONTRACT's inference from the batch's signals. HEVs keep
 * their small battery in a managed window and ICE vehicles have none: no low-SOC rule for them.
 */
function plugInKind(device: DeviceContext, records: readonly TelemetryRecord[]): "BEV" | "PHEV" | null {
  const powertrain = device.powertrain ?? inferPowertrain(records.map((r) => ({ socPct: validSoc(r), fuelLevelPct: r.fuelLevelPct })));
  return isPlugIn(powertrain) ? (powertrain as "BEV" | "PHEV") : null;
}

function lowSoc(device: DeviceContext, records: readonly TelemetryRecord[]): AlertDraft[] {
  const kind = plugInKind(device, records);
  if (kind === null) return [];
  const withSoc = records.filter((r) => validSoc(r) !== null);
  const latest = withSoc[withSoc.length - 1];
  const soc = latest ? validSoc(latest) : null;
  if (!latest || soc === null || !below(soc, SOC_WARNING_PCT) || isChargingRecord(latest)) return [];
  if (supersededState(device, latest, "socPct")) return [];

  const fuel = lastFinite(records, (r) => r.fuelLevelPct);
  const critical = below(soc, SOC_CRITICAL_PCT);
  // A plug-in hybrid cannot strand its driver while it has fuel: one level lower.
  const downgraded = kind === "PHEV" && !(fuel !== null && below(fuel.value, PHEV_LOW_FUEL_PCT));
  const severity: Severity = critical ? (downgraded ? "WARNING" : "CRITICAL") : downgraded ? "INFO" : "WARNING";
  const threshold = critical ? SOC_CRITICAL_PCT : SOC_WARNING_PCT;
  const level = critical ? "critical" : "warning";

  // Corroboration: the trailing run of readings below the warning level (not charging).
  let run = 0;
  for (let i = withSoc.length - 1; i >= 0; i--) {
    const r = withSoc[i];
    const v = r ? validSoc(r) : null;
    if (!r || v === null || !below(v, SOC_WARNING_PCT) || isChargingRecord(r)) break;
    run++;
  }

  const prediction = downgraded
    ? `State of charge is ${fmt(soc)} %, below the ${threshold} % ${level} level: the plug-in hybrid now runs on its combustion engine, at higher fuel cost and emissions; charge it to drive electrically.`
    : critical
      ? `State of charge is ${fmt(soc)} %, below the ${threshold} % critical level: the vehicle may strand its driver; charge it before any further driving.`
      : `State of charge is ${fmt(soc)} %, below the ${threshold} % warning level: little range is left; charge the vehicle before its next trip.`;

  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "battery",
      severity,
      prediction,
      confidence: corroborated(0.8, 0.05, run, 0.95),
      dedupeKey: ALERT_KEYS.batteryLowSoc,
      measure: { field: "soc_pct", worse: "lower" },
      observedAt: latest.ts,
      technicalData: {
        rule: "low_soc",
        soc_pct: round(soc, 1),
        threshold_pct: threshold,
        warning_threshold_pct: SOC_WARNING_PCT,
        critical_threshold_pct: SOC_CRITICAL_PCT,
        powertrain: device.powertrain,
        powertrain_assumed: device.powertrain === null ? kind : null,
        fuel_level_pct: fuel ? round(fuel.value, 1) : null,
        severity_downgraded_phev: downgraded,
        charging_status: latest.chargingStatus,
        charging_power_kw: finiteOrNull(latest.chargingPowerKw),
        readings_below_warning: run,
        observed_at: iso(latest.ts),
      },
    }),
  ];
}

/**
 * A state rule judges the vehicle's current state: when FDP already holds a newer value than the batch's
 * latest reading (the batch is a late arrival), the old reading says nothing about now.
 */
function supersededState(device: DeviceContext, latest: TelemetryRecord, field: "socPct" | "sohPct"): boolean {
  const prev = device.previous;
  if (prev === null) return false;
  // Only a usable newer value supersedes (a stored SoH of 0 is no reading: lib/vocabulary/readings.ts).
  const usable = field === "sohPct" ? usableSohPct(finiteOrNull(prev.sohPct)) : usableSocPct(finiteOrNull(prev.socPct));
  return usable !== null && prev.ts.getTime() > tsMs(latest);
}

function lastFinite(records: readonly TelemetryRecord[], pick: (r: TelemetryRecord) => number | null): { value: number; ts: Date } | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    const v = r ? finiteOrNull(pick(r)) : null;
    if (r && v !== null) return { value: v, ts: r.ts };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// (b) low 12 V battery

type VoltageKind = "low_voltage" | "traction" | null;

const TRACTION_WORDS = ["traction", "hv", "high", "pack", "main"];
const LOW_VOLTAGE_WORDS = ["12v", "12", "lv", "low", "aux", "auxiliary", "starter", "sli", "lead_acid"];

/** `raw_data.voltage_kind` when the OEM says which battery the voltage belongs to. */
function voltageKind(r: TelemetryRecord): VoltageKind {
  const raw = r.rawData?.["voltage_kind"];
  if (typeof raw !== "string") return null;
  const word = raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if (TRACTION_WORDS.some((w) => word === w || word.startsWith(`${w}_`))) return "traction";
  if (LOW_VOLTAGE_WORDS.some((w) => word === w || word.startsWith(`${w}_`))) return "low_voltage";
  return null;
}

/**
 * A lead-acid 12 V reading taken at rest, or null: the one resting-12 V rule of
 * lib/vocabulary/readings.ts (`restingTwelveVolt`, also vehicle health's SQL): off and not charging,
 * settled (no awake reading within SETTLE_MS before it), a lead-acid rest voltage. Lithium packs have
 * no sourced curve and are not judged here.
 */
function restingLowVoltage(r: TelemetryRecord, lastAwakeMs: number | null): number | null {
  // An awake reading stored after this one (a late record) leaves it unjudged: its settle time is unknown.
  const settled = lastAwakeMs === null || tsMs(r) - lastAwakeMs >= SETTLE_MS;
  const chemistry = r.rawData?.["lv_battery_chemistry"];
  const resting = restingTwelveVolt(
    {
      voltage: finiteOrNull(r.batteryVoltage),
      speedKmh: finiteOrNull(r.speedKmh),
      ignition: r.ignition,
      charging: isChargingRecord(r) || isChargingStatus(r.chargingStatus),
      voltageKind: voltageKind(r) === "traction" ? "traction" : null,
      chemistry: typeof chemistry === "string" ? chemistry : null,
    },
    settled,
  );
  return resting !== null && resting.chemistry === "lead_acid" ? resting.v : null;
}

/**
 * When the settle clock starts for the batch: the latest stored awake reading within SETTLE_MS before
 * the device's previous state (`lastAwakeAt`, read by readDeviceContexts from the snapshot or the history), or the
 * previous state itself when it was moving (a context without `lastAwakeAt`). One record per batch is
 * thus judged like a whole history: vehicle health's SQL looks back SETTLE_MS over the stored readings.
 */
function settleClockStart(device: DeviceContext): number | null {
  const prev = device.previous;
  const stored = device.lastAwakeAt ? device.lastAwakeAt.getTime() : null;
  const moving = prev && (finiteOrNull(prev.speedKmh ?? null) ?? 0) > 0 ? prev.ts.getTime() : null;
  return stored === null ? moving : moving === null ? stored : Math.max(stored, moving);
}

function low12V(device: DeviceContext, records: readonly TelemetryRecord[]): AlertDraft[] {
  let lastAwakeMs = settleClockStart(device);
  const resting: { r: TelemetryRecord; v: number }[] = [];
  for (const r of records) {
    const v = restingLowVoltage(r, lastAwakeMs);
    if (v !== null) resting.push({ r, v });
    if (isAwakeRecord(r) && (lastAwakeMs === null || tsMs(r) > lastAwakeMs)) lastAwakeMs = tsMs(r);
  }
  const low = resting.filter((x) => below(x.v, V12_WARNING_V));
  // The lowest reading is the evidence; among equals the latest.
  let worst: { r: TelemetryRecord; v: number } | undefined;
  for (const x of low) if (!worst || x.v <= worst.v) worst = x;
  if (!worst) return [];

  const critical = below(worst.v, V12_CRITICAL_V);
  const threshold = critical ? V12_CRITICAL_V : V12_WARNING_V;
  const latestRest = resting[resting.length - 1];
  const recovered = latestRest !== undefined && tsMs(latestRest.r) > tsMs(worst.r) && atLeast(latestRest.v, V12_RECOVERED_V);
  const conf = corroborated(0.7, 0.1, low.length, 0.95) - (recovered ? 0.2 : 0);

  const consequence = critical
    ? "the 12 V battery is deeply discharged or has a failed cell and the vehicle will probably not start; recharge or replace it before the next trip"
    : "the 12 V battery is close to flat and the vehicle may not start; have it charged and tested";
  const recoveredNote = recovered ? ` It has since read ${fmt(latestRest.v, 2)} V, so it was recharged, but a battery that falls this low is often worn.` : "";

  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "battery",
      severity: critical ? "CRITICAL" : "WARNING",
      prediction: `12 V battery reads ${fmt(worst.v, 2)} V with the vehicle switched off, below the ${fmt(threshold, 1)} V ${critical ? "critical" : "warning"} level: ${consequence}.${recoveredNote}`,
      confidence: conf,
      dedupeKey: ALERT_KEYS.batteryLow12v,
      measure: { field: "voltage_v", worse: "lower" },
      observedAt: worst.r.ts,
      technicalData: {
        rule: "low_12v",
        voltage_v: round(worst.v, 2),
        threshold_v: threshold,
        warning_threshold_v: V12_WARNING_V,
        critical_threshold_v: V12_CRITICAL_V,
        plausible_12v_range_v: [LOW_VOLTAGE_RANGE_V.min, LOW_VOLTAGE_RANGE_V.max],
        voltage_kind_reported: voltageKind(worst.r),
        ignition: worst.r.ignition,
        speed_kmh: finiteOrNull(worst.r.speedKmh),
        readings_below_warning: low.length,
        resting_readings: resting.length,
        latest_resting_voltage_v: latestRest ? round(latestRest.v, 2) : null,
        latest_resting_at: latestRest ? iso(latestRest.r.ts) : null,
        recovered_since: recovered,
        observed_at: iso(worst.r.ts),
      },
    }),
  ];
}

// ---------------------------------------------------------------------------------------------
// (c) state of health

const validSoh = (r: TelemetryRecord): number | null => {
  const soh = finiteOrNull(r.sohPct);
  return usableSohPct(soh);
};

function sohReadings(records: readonly TelemetryRecord[]): { r: TelemetryRecord; soh: number }[] {
  return records.flatMap((r) => {
    const soh = validSoh(r);
    return soh === null ? [] : [{ r, soh }];
  });
}

/**
 * The plausibility rule every score applies (judgeSohReadings, lib/vocabulary/readings.ts) over the
 * device's stored state and the batch's readings: a jump of more than SOH_JUMP_PP that no following
 * reading confirms is set aside, so the detectors never call "knockout" what TAS does not use.
 */
function judgedSoh(device: DeviceContext, readings: readonly { r: TelemetryRecord; soh: number }[]): SohJudgement {
  const prev = device.previous;
  const prevSoh = prev ? usableSohPct(finiteOrNull(prev.sohPct)) : null;
  const first = readings[0];
  const base = prev && prevSoh !== null && first && prev.ts.getTime() < tsMs(first.r) ? [{ pct: prevSoh, at: prev.ts }] : [];
  return judgeSohReadings([...base, ...readings.map((x) => ({ pct: x.soh, at: x.r.ts }))]);
}

function sohDrop(device: DeviceContext, records: readonly TelemetryRecord[]): AlertDraft[] {
  const readings = sohReadings(records);
  const latest = readings[readings.length - 1];
  if (!latest) return [];
  // The previous known SoH: the device's state before this batch when it is older than the latest
  // reading, else the batch's first reading.
  const prev = device.previous;
  const prevSoh = prev ? usableSohPct(finiteOrNull(prev.sohPct)) : null;
  let reference: { soh: number; ts: Date; source: "previous_state" | "batch_first" } | null = null;
  if (prev && prevSoh !== null && prev.ts.getTime() < tsMs(latest.r)) {
    reference = { soh: prevSoh, ts: prev.ts, source: "previous_state" };
  } else {
    const first = readings[0];
    if (first && tsMs(first.r) < tsMs(latest.r)) reference = { soh: first.soh, ts: first.r.ts, source: "batch_first" };
  }
  if (!reference) return [];
  const drop = round(reference.soh - latest.soh, 6);
  if (!atLeast(drop, SOH_DROP_PP)) return [];

  const ref = reference;
  const confirming = readings.filter((x) => tsMs(x.r) > ref.ts.getTime() && atLeast(ref.soh - x.soh, SOH_DROP_PP)).length;
  // The latest reading may be a jump no following reading confirms yet: the scores set it aside, and
  // this WARNING is the only alert it raises until a later reading confirms it (sohLow then judges it).
  const unconfirmed = judgedSoh(device, readings).flagged.some((f) => f.reason === "unconfirmed_jump" && f.at.getTime() === tsMs(latest.r));
  const note = unconfirmed ? ` The reading jumps more than ${SOH_JUMP_PP} points and no later reading confirms it yet (unconfirmed): the scores do not use it until one does.` : "";
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "battery",
      severity: "WARNING",
      prediction: `Battery state of health fell from ${fmt(ref.soh)} % to ${fmt(latest.soh)} %, a drop of ${fmt(drop)} percentage points (alert at ${SOH_DROP_PP}): far faster than the 2–3 points a year typical of fleet EVs; have the battery checked or the reading confirmed.${note}`,
      confidence: corroborated(0.6, 0.05, confirming, 0.85),
      dedupeKey: ALERT_KEYS.batterySohDrop,
      measure: { field: "drop_pp", worse: "higher" },
      observedAt: latest.r.ts,
      technicalData: {
        rule: "soh_drop",
        soh_pct: round(latest.soh, 1),
        reference_soh_pct: round(ref.soh, 1),
        reference_at: iso(ref.ts),
        reference_source: ref.source,
        drop_pp: round(drop, 2),
        threshold_drop_pp: SOH_DROP_PP,
        confirming_readings: confirming,
        unconfirmed_jump: unconfirmed,
        observed_at: iso(latest.r.ts),
      },
    }),
  ];
}

/**
 * Low state of health, judged on the reading the scores use: the latest reading of the batch that the
 * plausibility rule accepts (judgedSoh). A latest reading that jumps more than SOH_JUMP_PP and is not yet
 * confirmed raises nothing here (the soh_drop WARNING says "unconfirmed"); once a following reading
 * confirms it, it is accepted and judged. A stored state accepted before this batch was judged then.
 */
function sohLow(device: DeviceContext, records: readonly TelemetryRecord[]): AlertDraft[] {
  const all = sohReadings(records);
  const newest = all[all.length - 1];
  if (!newest || supersededState(device, newest.r, "sohPct")) return [];
  const judged = judgedSoh(device, all);
  const accepted = judged.accepted;
  const latest = accepted ? all.find((x) => tsMs(x.r) === accepted.at.getTime()) : undefined;
  if (!latest || !below(latest.soh, SOH_WARNING_PCT)) return [];
  const flagged = new Set(judged.flagged.map((f) => f.at.getTime()));
  const readings = all.filter((x) => !flagged.has(tsMs(x.r)));
  const critical = below(latest.soh, SOH_CRITICAL_PCT);
  const threshold = critical ? SOH_CRITICAL_PCT : SOH_WARNING_PCT;
  const confirming = readings.filter((x) => below(x.soh, threshold)).length;
  const prediction = critical
    ? `Battery state of health is ${fmt(latest.soh)} %, below ${SOH_CRITICAL_PCT} %: the battery holds well under two thirds of its original energy, and the Total Asset Score grades the vehicle F (knockout soh_below_60); plan a battery replacement or remarketing decision.`
    : `Battery state of health is ${fmt(latest.soh)} %, below the ${SOH_WARNING_PCT} % that EV battery warranties commonly guarantee (typically 8 years or 160,000 km): check whether a warranty claim is possible and expect noticeably shorter range.`;
  return [
    makeDraft({
      deviceId: device.deviceId,
      agent: "battery",
      severity: critical ? "CRITICAL" : "WARNING",
      prediction,
      confidence: corroborated(0.75, 0.05, confirming, 0.9),
      dedupeKey: ALERT_KEYS.batterySohLow,
      measure: { field: "soh_pct", worse: "lower" },
      observedAt: latest.r.ts,
      technicalData: {
        rule: "soh_low",
        soh_pct: round(latest.soh, 1),
        threshold_pct: threshold,
        warning_threshold_pct: SOH_WARNING_PCT,
        critical_threshold_pct: SOH_CRITICAL_PCT,
        tas_knockout: critical ? "soh_below_60" : null,
        readings_below_threshold: confirming,
        observed_at: iso(latest.r.ts),
      },
    }),
  ];
}
