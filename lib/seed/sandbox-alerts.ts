import type { alerts, devices } from "@/lib/db/schema";
import type { Severity } from "@/lib/vocabulary/alerts";
import { DAY_MS, helsinkiDayNumber, helsinkiHourOfDay, HOUR_MS, isoDate, MINUTE_MS } from "./calendar";
import { haversineKm } from "./finland";
import { rngFor } from "./prng";
import type { SimResult, SimWindow, TelemetryRow, VehicleSetup } from "./simulate-vehicle";
import type { AlertDraft } from "@/lib/detectors/types";

/**
 * The alerts the platform's detectors would have raised on the simulated history. Each one is
 * derived from the telemetry it describes (the DTC alert is on the vehicle and time the code
 * appeared, the speeding alert counts the actual readings), so the sandbox tells one story.
 */

type AlertRow = typeof alerts.$inferInsert;
type DeviceRow = typeof devices.$inferInsert;

export interface VehicleHistory {
  setup: VehicleSetup;
  result: SimResult;
  device: DeviceRow;
}

/** A detector's draft, with the creation time the sandbox gives it. */
type Draft = Omit<AlertDraft, "observedAt"> & { createdAtMs: number };

const ACKNOWLEDGERS = ["fleet.manager@sandbox.fdp.example", "fleet.manager@sandbox.fdp.example", "service.desk@sandbox.fdp.example"] as const;
const SPEED_POLICY_KMH = 110;
const SPEEDING_THRESHOLD_KMH = 115;
const LOW_12V_WARNING_V = 12.0;
const LOW_12V_CRITICAL_V = 11.8;
const OFFLINE_AFTER_H = 24;
const EXCESS_KM_RATE_EUR = 0.08;
const HIGH_SOC_PCT = 95;
const EVENING_PEAK_HOURS = [16, 20] as const;
/** Service intervals: Toyota 15,000 km, the others 30,000 km (flexible service, typical Finnish fleet use). */
const SERVICE_INTERVAL_KM = (make: string) => (make === "Toyota" ? 15_000 : 30_000);

const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => isoDate(helsinkiDayNumber(ms));
const ms = (row: TelemetryRow) => (row.ts as Date).getTime();
const thousands = (n: number) => Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d + 0;
const name = (v: VehicleHistory) => `${v.device.name} (${v.device.deviceId})`;

export function buildAlerts(fleet: readonly VehicleHistory[], window: SimWindow): AlertRow[] {
  const drafts: Draft[] = [
    ...fleet.flatMap((v) => dtcAlerts(v)),
    ...fleet.flatMap((v) => offlineAlert(v, window)),
    ...fleet.flatMap((v) => lowVoltageAlerts(v)),
    ...sohAlerts(fleet, window),
    ...highSocAlert(fleet, window),
    ...fleet.flatMap((v) => speedingAlert(v)),
    ...earlyHoursAlert(fleet, window),
    ...idlingAlert(fleet, window),
    ...mileageAlerts(fleet, window),
    ...fleet.flatMap((v) => slowWallboxAlert(v)),
    ...dcShareAlert(fleet, window),
    ...phevElectricShareAlerts(fleet, window),
    ...peakChargingAlert(fleet, window),
    ...fleet.flatMap((v) => odometerFreezeAlert(v)),
    ...fleet.flatMap((v) => telemetryGapAlert(v)),
    ...serviceDueAlerts(fleet, window),
  ].map((d) => ({ ...d, createdAtMs: Math.min(d.createdAtMs, window.anchorMs) }));

  drafts.sort((a, b) => a.createdAtMs - b.createdAtMs || a.deviceId.localeCompare(b.deviceId) || a.dedupeKey.localeCompare(b.dedupeKey));
  const rows = drafts.map((d, i) => acknowledge(d, i, window));
  ensureBothAckStates(rows, window);
  return rows;
}

/** Older alerts are more likely to have been handled; acknowledgement comes 1–48 h after creation. */
function acknowledge(d: Draft, index: number, window: SimWindow): AlertRow {
  const rng = rngFor("sandbox-alert-ack", index, d.dedupeKey);
  const ageDays = (window.anchorMs - d.createdAtMs) / DAY_MS;
  const p = ageDays > 14 ? 0.7 : ageDays > 3 ? 0.35 : 0.1;
  const ackAt = d.createdAtMs + Math.round(rng.float(1, 48) * 60) * MINUTE_MS;
  const acked = rng.chance(p) && ackAt < window.anchorMs;
  return {
    id: `alt_sbx_${String(index + 1).padStart(4, "0")}`,
    tenantId: "sandbox",
    deviceId: d.deviceId,
    agent: d.agent,
    severity: d.severity,
    prediction: d.prediction,
    confidence: round(d.confidence, 2),
    technicalData: d.technicalData,
    dedupeKey: d.dedupeKey,
    acknowledged: acked,
    acknowledgedBy: acked ? rng.pick(ACKNOWLEDGERS) : null,
    acknowledgedAt: acked ? new Date(ackAt) : null,
    createdAt: new Date(d.createdAtMs),
  };
}

/** The sandbox should show both states whatever the draw: the oldest handled, the newest open. */
function ensureBothAckStates(rows: AlertRow[], window: SimWindow): void {
  const oldest = rows[0];
  const newest = rows[rows.length - 1];
  if (!oldest || !newest || oldest === newest) return;
  if (!rows.some((r) => r.acknowledged)) {
    const created = (oldest.createdAt as Date).getTime();
    oldest.acknowledged = true;
    oldest.acknowledgedBy = ACKNOWLEDGERS[0];
    oldest.acknowledgedAt = new Date(Math.min(created + 6 * HOUR_MS, window.anchorMs));
  }
  if (rows.every((r) => r.acknowledged)) {
    newest.acknowledged = false;
    newest.acknowledgedBy = null;
    newest.acknowledgedAt = null;
  }
}

const recent = (rows: readonly TelemetryRow[], window: SimWindow, days: number) => rows.filter((r) => ms(r) >= window.anchorMs - days * DAY_MS);
const isOffline = (v: VehicleHistory) => v.setup.plan.atAnchor?.state === "offline";

// ---------------------------------------------------------------------------------------------
// diagnostics

const DTC_ADVICE: Record<string, { severity: Severity; confidence: number; advice: string }> = {
  P0A80: { severity: "CRITICAL", confidence: 0.9, advice: "the hybrid battery is failing: expect reduced power and higher fuel use; book a battery test within days" },
  P0420: { severity: "WARNING", confidence: 0.78, advice: "the catalytic converter is wearing out: the car is likely to fail the emissions test at its next periodic inspection" },
  P0300: { severity: "WARNING", confidence: 0.72, advice: "misfires risk damaging the catalytic converter: check spark plugs and ignition coils before long trips" },
  U0100: { severity: "WARNING", confidence: 0.65, advice: "the engine control module dropped off the CAN bus: check the ECM connector and ground; the van may stall or not start" },
  P2463: { severity: "WARNING", confidence: 0.81, advice: "short delivery rounds keep the particulate filter from regenerating: a forced regeneration is needed within about two weeks" },
};

function dtcAlerts(v: VehicleHistory): Draft[] {
  return (v.setup.plan.dtc ?? []).flatMap((episode) => {
    const hits = v.result.rows.filter((r) => r.dtcCodes?.includes(episode.code));
    const first = hits[0];
    const last = hits[hits.length - 1];
    const advice = DTC_ADVICE[episode.code];
    if (!first || !last || !advice) return [];
    const cleared = episode.toDaysAgo !== undefined;
    return [
      {
        deviceId: v.device.deviceId,
        agent: "diagnostics",
        severity: advice.severity,
        prediction: `${name(v)} reports ${episode.code} (${episode.description}): ${advice.advice}.`,
        confidence: advice.confidence,
        technicalData: {
          dtc_code: episode.code,
          description: episode.description,
          first_seen_at: iso(ms(first)),
          last_seen_at: iso(ms(last)),
          readings_with_code: hits.length,
          still_active: !cleared,
          odometer_km_at_first_seen: first.odometerKm,
        },
        dedupeKey: `diagnostics:${v.device.deviceId}:dtc:${episode.code}`,
        createdAtMs: ms(first) + 10 * MINUTE_MS,
      },
    ];
  });
}

function offlineAlert(v: VehicleHistory, window: SimWindow): Draft[] {
  const last = v.result.rows[v.result.rows.length - 1];
  if (!isOffline(v) || !last) return [];
  const lastMs = ms(last);
  return [
    {
      deviceId: v.device.deviceId,
      agent: "diagnostics",
      severity: "WARNING",
      prediction: `No telemetry from ${name(v)} since ${iso(lastMs)}: the telematics unit has lost power or coverage; the vehicle is shown offline until it reports again.`,
      confidence: 0.95,
      technicalData: {
        last_seen_at: iso(lastMs),
        offline_threshold_hours: OFFLINE_AFTER_H,
        hours_silent_at_anchor: round((window.anchorMs - lastMs) / HOUR_MS),
        last_position: { lat: last.lat, lon: last.lon },
        last_odometer_km: last.odometerKm,
        last_battery_voltage_v: last.batteryVoltage,
      },
      dedupeKey: `diagnostics:${v.device.deviceId}:offline`,
      createdAtMs: lastMs + OFFLINE_AFTER_H * HOUR_MS,
    },
  ];
}

function serviceDueAlerts(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const candidates = fleet
    .filter((v) => !isOffline(v) && (v.device.powertrain === "ICE" || v.device.powertrain === "HEV"))
    .map((v) => {
      const rows = recent(v.result.rows, window, 30);
      const first = rows[0];
      const last = rows[rows.length - 1];
      const odo = last?.odometerKm ?? 0;
      const interval = SERVICE_INTERVAL_KM(v.device.make ?? "");
      const remaining = interval - (odo % interval);
      const kmPerDay = first && last ? ((last.odometerKm ?? 0) - (first.odometerKm ?? 0)) / Math.max(1, (ms(last) - ms(first)) / DAY_MS) : 0;
      return { v, last, odo, interval, remaining, kmPerDay };
    })
    .sort((a, b) => a.remaining - b.remaining)
    .slice(0, 2);
  return candidates.flatMap(({ v, last, odo, interval, remaining, kmPerDay }) => {
    if (!last) return [];
    const days = kmPerDay > 0 ? Math.round(remaining / kmPerDay) : null;
    return [
      {
        deviceId: v.device.deviceId,
        agent: "diagnostics",
        severity: "INFO",
        prediction: `${name(v)} is due for service in about ${thousands(remaining)} km${days === null ? "" : ` (~${days} days at ${Math.round(kmPerDay)} km/day)`}; book the workshop to avoid an overdue interval.`,
        confidence: 0.85,
        technicalData: { odometer_km: odo, service_interval_km: interval, next_service_at_km: odo + remaining, km_remaining: round(remaining), km_per_day_30d: round(kmPerDay), measured_at: iso(ms(last)) },
        dedupeKey: `diagnostics:${v.device.deviceId}:service:${Math.round(odo + remaining)}`,
        createdAtMs: ms(last) - 12 * HOUR_MS,
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------
// battery

function lowVoltageAlerts(v: VehicleHistory): Draft[] {
  if (!v.setup.plan.weak12V) return [];
  const resting = v.result.rows.filter((r) => r.ignition === 0 && r.chargingStatus !== "charging");
  const levels = [
    { threshold: LOW_12V_WARNING_V, severity: "WARNING" as const, confidence: 0.74, outlook: "starting failures are likely within two to three weeks, sooner in frost; test the battery at the next stop at the depot" },
    { threshold: LOW_12V_CRITICAL_V, severity: "CRITICAL" as const, confidence: 0.86, outlook: "the engine may fail to start at any time; replace the 12 V battery now" },
  ];
  return levels.flatMap((level) => {
    const hit = resting.find((r) => (r.batteryVoltage ?? 99) < level.threshold);
    if (!hit) return [];
    const recentRest = resting.filter((r) => ms(r) <= ms(hit) && ms(r) > ms(hit) - 7 * DAY_MS).map((r) => r.batteryVoltage ?? 0);
    return [
      {
        deviceId: v.device.deviceId,
        agent: "battery",
        severity: level.severity,
        prediction: `12 V battery of ${name(v)} rested at ${hit.batteryVoltage} V (threshold ${level.threshold.toFixed(1)} V) at ${hit.weatherTemp} °C: ${level.outlook}.`,
        confidence: level.confidence,
        technicalData: {
          battery_voltage_v: hit.batteryVoltage,
          threshold_v: level.threshold,
          measured_at: iso(ms(hit)),
          ambient_temp_c: hit.weatherTemp,
          mean_rest_voltage_7d_v: round(recentRest.reduce((s, x) => s + x, 0) / Math.max(1, recentRest.length), 2),
        },
        dedupeKey: `battery:${v.device.deviceId}:12v:${level.severity.toLowerCase()}`,
        createdAtMs: ms(hit) + 5 * MINUTE_MS,
      },
    ];
  });
}

function sohTrend(v: VehicleHistory) {
  const withSoh = v.result.rows.filter((r) => r.sohPct !== null && r.sohPct !== undefined);
  const first = withSoh[0];
  const last = withSoh[withSoh.length - 1];
  if (!first || !last || ms(last) <= ms(first)) return undefined;
  const years = (ms(last) - ms(first)) / (365.25 * DAY_MS);
  return { v, first, last, lossPerYear: ((first.sohPct ?? 0) - (last.sohPct ?? 0)) / years };
}

function sohAlerts(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const trends = fleet.map(sohTrend).filter((t) => t !== undefined);
  const losses = trends.map((t) => t.lossPerYear).sort((a, b) => a - b);
  const median = losses[Math.floor(losses.length / 2)] ?? 0;
  const weakest = [...trends].sort((a, b) => (a.last.sohPct ?? 0) - (b.last.sohPct ?? 0)).slice(0, 2);
  return weakest.map(({ v, first, last, lossPerYear }, rank): Draft => {
    const soh = last.sohPct ?? 0;
    const yearsTo80 = lossPerYear > 0 ? (soh - 80) / lossPerYear : null;
    const severity: Severity = rank === 0 ? "WARNING" : "INFO";
    const outlook =
      rank === 0
        ? `it loses ${round(lossPerYear)} points a year against a fleet median of ${round(median)}${yearsTo80 === null ? "" : `, reaching 80 % in about ${round(yearsTo80)} years`}: limit DC fast charging and check residual value assumptions`
        : `the lowest after the fleet's weakest battery but within the expected range for its age; review again in 90 days`;
    return {
      deviceId: v.device.deviceId,
      agent: "battery",
      severity,
      prediction: `Traction battery of ${name(v)} is at ${soh} % state of health: ${outlook}.`,
      confidence: rank === 0 ? 0.8 : 0.7,
      technicalData: {
        soh_pct: soh,
        soh_pct_window_start: first.sohPct,
        window_start: iso(ms(first)),
        measured_at: iso(ms(last)),
        soh_loss_pct_per_year: round(lossPerYear, 2),
        fleet_median_loss_pct_per_year: round(median, 2),
        source: "oem_bms",
      },
      dedupeKey: `battery:${v.device.deviceId}:soh`,
      createdAtMs: Math.min(ms(last), window.anchorMs - 6 * DAY_MS),
    };
  });
}

function highSocAlert(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const scored = fleet
    .filter((v) => v.device.powertrain === "BEV")
    .map((v) => {
      const parked = recent(v.result.rows, window, 30).filter((r) => r.ignition === 0);
      const high = parked.filter((r) => (r.socPct ?? 0) >= HIGH_SOC_PCT);
      return { v, parked: parked.length, high: high.length, share: parked.length ? high.length / parked.length : 0 };
    })
    .sort((a, b) => b.share - a.share);
  const top = scored[0];
  if (!top || top.high === 0) return [];
  return [
    {
      deviceId: top.v.device.deviceId,
      agent: "battery",
      severity: "INFO",
      prediction: `${name(top.v)} spent ${Math.round(top.share * 100)} % of its parked readings in the last 30 days at or above ${HIGH_SOC_PCT} % charge: a daily limit of 80 % would slow battery ageing.`,
      confidence: 0.7,
      technicalData: { period_days: 30, parked_readings: top.parked, readings_at_or_above_pct: top.high, soc_threshold_pct: HIGH_SOC_PCT },
      dedupeKey: `battery:${top.v.device.deviceId}:high-soc`,
      createdAtMs: window.anchorMs - 3 * DAY_MS,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// driving

function speedingAlert(v: VehicleHistory): Draft[] {
  if (!v.setup.plan.heavyFoot) return [];
  const fast = v.result.rows.filter((r) => (r.speedKmh ?? 0) >= SPEEDING_THRESHOLD_KMH);
  // The 7-day span with the most readings over the threshold.
  let best: { start: number; count: number } | undefined;
  for (const r of fast) {
    const start = ms(r);
    const count = fast.filter((x) => ms(x) >= start && ms(x) < start + 7 * DAY_MS).length;
    if (!best || count > best.count) best = { start, count };
  }
  if (!best) return [];
  const { start, count } = best;
  const inSpan = fast.filter((x) => ms(x) >= start && ms(x) < start + 7 * DAY_MS);
  const max = inSpan.reduce((m, r) => ((r.speedKmh ?? 0) > (m.speedKmh ?? 0) ? r : m));
  const lastInSpan = inSpan[inSpan.length - 1] ?? max;
  return [
    {
      deviceId: v.device.deviceId,
      agent: "driving",
      severity: count >= 10 ? "WARNING" : "INFO",
      prediction: `${name(v)} recorded ${count} readings at or above ${SPEEDING_THRESHOLD_KMH} km/h within 7 days (top ${max.speedKmh} km/h on ${day(ms(max))}) against the fleet policy of ${SPEED_POLICY_KMH} km/h: higher accident, fine and tyre-wear risk.`,
      confidence: 0.83,
      technicalData: {
        policy_limit_kmh: SPEED_POLICY_KMH,
        threshold_kmh: SPEEDING_THRESHOLD_KMH,
        readings_over_threshold: count,
        period_start: iso(start),
        period_end: iso(start + 7 * DAY_MS),
        max_speed_kmh: max.speedKmh,
        max_speed_at: iso(ms(max)),
        max_speed_position: { lat: max.lat, lon: max.lon },
      },
      dedupeKey: `driving:${v.device.deviceId}:speeding:${day(start)}`,
      createdAtMs: ms(lastInSpan) + HOUR_MS,
    },
  ];
}

function earlyHoursAlert(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const isNight = (r: TelemetryRow) => {
    const h = helsinkiHourOfDay(ms(r));
    return r.ignition === 1 && (h >= 22 || h < 5.5);
  };
  const scored = fleet
    .map((v) => ({ v, night: recent(v.result.rows, window, 30).filter(isNight) }))
    .sort((a, b) => b.night.length - a.night.length);
  const top = scored[0];
  const last = top?.night[top.night.length - 1];
  if (!top || !last) return [];
  const nights = new Set(top.night.map((r) => helsinkiDayNumber(ms(r)))).size;
  return [
    {
      deviceId: top.v.device.deviceId,
      agent: "driving",
      severity: "INFO",
      prediction: `${name(top.v)} was driven between 22:00 and 05:30 on ${nights} days in the last 30 (${top.night.length} readings), mostly early delivery starts: fatigue and wildlife-collision risk is higher in the dark.`,
      confidence: 0.76,
      technicalData: { period_days: 30, readings_in_window: top.night.length, days_with_night_driving: nights, window_local: "22:00-05:30 Europe/Helsinki", last_at: iso(ms(last)) },
      dedupeKey: `driving:${top.v.device.deviceId}:night-driving`,
      createdAtMs: ms(last) + 2 * HOUR_MS,
    },
  ];
}

function idlingAlert(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const scored = fleet
    .filter((v) => v.device.powertrain === "ICE")
    .map((v) => {
      const rows = recent(v.result.rows, window, 30);
      const idle = rows.filter((r) => r.ignition === 1 && r.speedKmh === 0);
      const temps = idle.map((r) => r.weatherTemp ?? 0);
      return { v, idle, meanTemp: temps.reduce((s, x) => s + x, 0) / Math.max(1, temps.length) };
    })
    .sort((a, b) => b.idle.length - a.idle.length);
  const top = scored[0];
  const last = top?.idle[top.idle.length - 1];
  if (!top || !last) return [];
  return [
    {
      deviceId: top.v.device.deviceId,
      agent: "driving",
      severity: "INFO",
      prediction: `${name(top.v)} idled with the engine on before ${top.idle.length} departures in the last 30 days (mean ${round(top.meanTemp)} °C): ${
        top.meanTemp < 0 ? "plugging in the engine-block heater instead of warming up at idle" : "switching the engine off while loading"
      } would save fuel and engine wear.`,
      confidence: 0.68,
      technicalData: { period_days: 30, idle_starts: top.idle.length, mean_ambient_temp_c: round(top.meanTemp), last_idle_at: iso(ms(last)) },
      dedupeKey: `driving:${top.v.device.deviceId}:idling`,
      createdAtMs: ms(last) + HOUR_MS,
    },
  ];
}

function mileageAlerts(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const forecasts = fleet
    .filter((v) => !isOffline(v) && v.device.contractKm && v.device.leaseStart && v.device.leaseMonths)
    .map((v) => {
      const rows = recent(v.result.rows, window, 30);
      const first = rows[0];
      const last = rows[rows.length - 1];
      if (!first || !last) return undefined;
      const kmPerDay = ((last.odometerKm ?? 0) - (first.odometerKm ?? 0)) / ((ms(last) - ms(first)) / DAY_MS);
      const start = new Date(`${v.device.leaseStart}T00:00:00Z`);
      const end = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + (v.device.leaseMonths ?? 0), start.getUTCDate());
      const projected = (last.odometerKm ?? 0) + kmPerDay * Math.max(0, (end - ms(last)) / DAY_MS);
      const contract = v.device.contractKm ?? 0;
      return { v, last, kmPerDay, end, projected, contract, ratio: projected / contract };
    })
    .filter((f) => f !== undefined)
    .sort((a, b) => b.ratio - a.ratio)
    .slice(0, 2);
  return forecasts.map(({ v, last, kmPerDay, end, projected, contract, ratio }): Draft => {
    const over = projected - contract;
    const severity: Severity = ratio > 1 ? "WARNING" : "INFO";
    const outlook =
      over > 0
        ? `about ${thousands(over)} km over, roughly ${thousands(over * EXCESS_KM_RATE_EUR)} € in excess-mileage charges at ${EXCESS_KM_RATE_EUR} €/km; consider renegotiating the contract`
        : `${thousands(-over)} km under the limit, but the closest in the fleet`;
    return {
      deviceId: v.device.deviceId,
      agent: "driving",
      severity,
      prediction: `At ${Math.round(kmPerDay)} km/day ${name(v)} will reach ${thousands(projected)} km by its lease end on ${isoDate(Math.floor(end / DAY_MS))} against a ${thousands(contract)} km contract: ${outlook}.`,
      confidence: 0.72,
      technicalData: {
        odometer_km: last.odometerKm,
        km_per_day_30d: round(kmPerDay),
        lease_end: isoDate(Math.floor(end / DAY_MS)),
        contract_km: contract,
        projected_km_at_lease_end: Math.round(projected),
        projected_excess_km: Math.round(Math.max(0, over)),
        excess_km_rate_eur: EXCESS_KM_RATE_EUR,
      },
      dedupeKey: `driving:${v.device.deviceId}:mileage-forecast`,
      createdAtMs: window.anchorMs - 2 * DAY_MS,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// charging

function slowWallboxAlert(v: VehicleHistory): Draft[] {
  if (!v.setup.plan.slowWallbox) return [];
  const slow = v.result.sessions.filter((s) => s.atHome && s.kind === "AC" && s.peakPowerKw < 5);
  const second = slow[1] ?? slow[0];
  const first = slow[0];
  if (!first || !second) return [];
  const expected = Math.min(v.setup.model.acKw ?? 11, 11);
  return [
    {
      deviceId: v.device.deviceId,
      agent: "charging",
      severity: "WARNING",
      prediction: `${name(v)} charged at home at ${round(first.peakPowerKw)} kW instead of ${expected} kW in ${slow.length} sessions since ${day(first.startMs)}: the wallbox is most likely running on one phase; have an electrician check it.`,
      confidence: 0.79,
      technicalData: {
        expected_power_kw: expected,
        observed_power_kw: round(first.peakPowerKw),
        sessions_affected: slow.length,
        first_session_at: iso(first.startMs),
        sessions: slow.map((s) => ({ start: iso(s.startMs), end: iso(s.endMs), energy_kwh: round(s.energyKwh) })),
      },
      dedupeKey: `charging:${v.device.deviceId}:slow-ac`,
      createdAtMs: second.endMs + 15 * MINUTE_MS,
    },
  ];
}

function dcShareAlert(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const since = window.anchorMs - 30 * DAY_MS;
  const scored = fleet
    .filter((v) => v.device.powertrain === "BEV")
    .map((v) => {
      const sessions = v.result.sessions.filter((s) => s.startMs >= since);
      const dc = sessions.filter((s) => s.kind === "DC");
      const total = sessions.reduce((s, x) => s + x.energyKwh, 0);
      const dcKwh = dc.reduce((s, x) => s + x.energyKwh, 0);
      return { v, dc, total, dcKwh, share: total > 0 ? dcKwh / total : 0 };
    })
    .sort((a, b) => b.share - a.share);
  const top = scored[0];
  const lastDc = top?.dc[top.dc.length - 1];
  if (!top || !lastDc) return [];
  return [
    {
      deviceId: top.v.device.deviceId,
      agent: "charging",
      severity: "INFO",
      prediction: `${Math.round(top.share * 100)} % of the energy ${name(top.v)} charged in the last 30 days came from DC fast chargers (${top.dc.length} sessions): frequent fast charging speeds up battery wear and costs about twice as much per kWh as home charging.`,
      confidence: 0.74,
      technicalData: { period_days: 30, dc_sessions: top.dc.length, dc_energy_kwh: round(top.dcKwh), total_energy_kwh: round(top.total), dc_share_pct: round(top.share * 100), last_dc_session_at: iso(lastDc.startMs) },
      dedupeKey: `charging:${top.v.device.deviceId}:dc-share`,
      createdAtMs: lastDc.endMs + HOUR_MS,
    },
  ];
}

/** The PHEVs plugged in on the fewest of their driving days: their batteries mostly ride along as dead weight. */
function phevElectricShareAlerts(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const since = window.anchorMs - 30 * DAY_MS;
  const scored = fleet
    .filter((v) => v.device.powertrain === "PHEV")
    .map((v) => {
      const trips = v.result.trips.filter((t) => t.departMs >= since);
      const drivingDays = new Set(trips.map((t) => helsinkiDayNumber(t.departMs))).size;
      const sessions = v.result.sessions.filter((s) => s.startMs >= since).length;
      const km = trips.reduce((s, t) => s + t.km, 0);
      const electric = trips.reduce((s, t) => s + t.kmElectric, 0);
      return { v, km, electric, drivingDays, sessions, plugRate: drivingDays > 0 ? sessions / drivingDays : 1, lastTrip: trips[trips.length - 1] };
    })
    .filter((s) => s.km > 0)
    .sort((a, b) => a.plugRate - b.plugRate)
    .slice(0, 2);
  return scored.flatMap(({ v, km, electric, drivingDays, sessions, plugRate, lastTrip }, rank): Draft[] => {
    if (!lastTrip) return [];
    const share = electric / km;
    return [
      {
        deviceId: v.device.deviceId,
        agent: "charging",
        severity: rank === 0 ? "WARNING" : "INFO",
        prediction: `${name(v)} was plugged in ${sessions} times on the ${drivingDays} days it was driven in the last 30, so only ${Math.round(share * 100)} % of its ${thousands(km)} km were electric: charging after each day's driving would cover most of its daily distance on electricity.`,
        confidence: 0.77,
        technicalData: {
          period_days: 30,
          driving_days: drivingDays,
          charging_sessions: sessions,
          sessions_per_driving_day: round(plugRate, 2),
          distance_km: round(km),
          electric_km: round(electric),
          electric_share_pct: round(share * 100),
          battery_kwh: v.device.batteryKwh,
        },
        dedupeKey: `charging:${v.device.deviceId}:phev-rarely-charged`,
        createdAtMs: lastTrip.arriveMs + HOUR_MS,
      },
    ];
  });
}

function peakChargingAlert(fleet: readonly VehicleHistory[], window: SimWindow): Draft[] {
  const since = window.anchorMs - 30 * DAY_MS;
  const inPeak = (t: number) => {
    const h = helsinkiHourOfDay(t);
    return h >= EVENING_PEAK_HOURS[0] && h < EVENING_PEAK_HOURS[1];
  };
  const scored = fleet
    .filter((v) => v.device.powertrain === "BEV" && !v.setup.plan.nightTariff)
    .map((v) => {
      const peak = v.result.sessions.filter((s) => s.atHome && s.kind === "AC" && s.startMs >= since && inPeak(s.startMs));
      return { v, peak, kwh: peak.reduce((s, x) => s + x.energyKwh, 0) };
    })
    .sort((a, b) => b.kwh - a.kwh);
  const top = scored[0];
  const last = top?.peak[top.peak.length - 1];
  if (!top || !last) return [];
  return [
    {
      deviceId: top.v.device.deviceId,
      agent: "charging",
      severity: "INFO",
      prediction: `${name(top.v)} started ${top.peak.length} home charging sessions (${Math.round(top.kwh)} kWh) in the ${EVENING_PEAK_HOURS[0]}–${EVENING_PEAK_HOURS[1]} evening peak in the last 30 days: scheduling them after 22:00 would move the load to the cheapest spot-price hours.`,
      confidence: 0.66,
      technicalData: { period_days: 30, peak_window_local: `${EVENING_PEAK_HOURS[0]}:00-${EVENING_PEAK_HOURS[1]}:00 Europe/Helsinki`, sessions_in_peak: top.peak.length, energy_in_peak_kwh: round(top.kwh), last_session_at: iso(last.startMs) },
      dedupeKey: `charging:${top.v.device.deviceId}:peak-charging`,
      createdAtMs: last.endMs + 30 * MINUTE_MS,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// odometer_integrity

function odometerFreezeAlert(v: VehicleHistory): Draft[] {
  const freeze = v.setup.plan.odometerFreeze;
  if (!freeze) return [];
  const rows = v.result.rows;
  // The frozen stretch: consecutive readings with the same odometer while the position moves.
  const startIdx = rows.findIndex((r, i) => {
    const next = rows[i + 1];
    return next !== undefined && next.odometerKm === r.odometerKm && (next.speedKmh ?? 0) > 0;
  });
  const before = rows[startIdx];
  if (startIdx < 0 || !before) return [];
  let endIdx = startIdx;
  while (rows[endIdx + 1]?.odometerKm === before.odometerKm) endIdx++;
  const frozenEnd = rows[endIdx];
  const after = rows[endIdx + 1];
  if (!frozenEnd || !after) return [];
  let gpsKm = 0;
  for (let i = startIdx + 1; i <= endIdx + 1; i++) {
    const a = rows[i - 1];
    const b = rows[i];
    if (a && b) gpsKm += haversineKm([a.lat ?? 0, a.lon ?? 0], [b.lat ?? 0, b.lon ?? 0]);
  }
  const jump = (after.odometerKm ?? 0) - (before.odometerKm ?? 0);
  return [
    {
      deviceId: v.device.deviceId,
      agent: "odometer_integrity",
      severity: "CRITICAL",
      prediction: `The odometer of ${name(v)} stayed at ${thousands(before.odometerKm ?? 0)} km from ${day(ms(before))} to ${day(ms(frozenEnd))} while the GPS track covered ${thousands(gpsKm)} km, then jumped by ${thousands(jump)} km: the odometer signal was frozen (CAN fault or an odometer blocker); inspect the vehicle before trusting its mileage.`,
      confidence: 0.88,
      technicalData: {
        frozen_from: iso(ms(before)),
        frozen_to: iso(ms(frozenEnd)),
        frozen_value_km: before.odometerKm,
        readings_frozen: endIdx - startIdx + 1,
        gps_distance_km_straight_line: round(gpsKm),
        odometer_jump_km: round(jump),
        jump_at: iso(ms(after)),
        rollback_detected: false,
      },
      dedupeKey: `odometer_integrity:${v.device.deviceId}:frozen`,
      createdAtMs: ms(after) + 15 * MINUTE_MS,
    },
  ];
}

function telemetryGapAlert(v: VehicleHistory): Draft[] {
  if (!v.setup.plan.telemetryGap) return [];
  const rows = v.result.rows;
  let widest: { before: TelemetryRow; after: TelemetryRow; hours: number } | undefined;
  for (let i = 1; i < rows.length; i++) {
    const before = rows[i - 1];
    const after = rows[i];
    if (!before || !after) continue;
    const hours = (ms(after) - ms(before)) / HOUR_MS;
    if (!widest || hours > widest.hours) widest = { before, after, hours };
  }
  if (!widest) return [];
  const { before, after, hours } = widest;
  const km = (after.odometerKm ?? 0) - (before.odometerKm ?? 0);
  const gapKm = haversineKm([before.lat ?? 0, before.lon ?? 0], [after.lat ?? 0, after.lon ?? 0]);
  return [
    {
      deviceId: v.device.deviceId,
      agent: "odometer_integrity",
      severity: km > 50 ? "WARNING" : "INFO",
      prediction: `${name(v)} sent no telemetry for ${Math.round(hours)} h (${iso(ms(before))} to ${iso(ms(after))}) and its odometer advanced ${thousands(km)} km meanwhile, ending ${thousands(gapKm)} km from where it went silent: no rollback, but that distance has no GPS track to verify it.`,
      confidence: 0.7,
      technicalData: {
        gap_start: iso(ms(before)),
        gap_end: iso(ms(after)),
        gap_hours: round(hours),
        odometer_before_km: before.odometerKm,
        odometer_after_km: after.odometerKm,
        odometer_delta_km: round(km),
        straight_line_km: round(gapKm),
        rollback_detected: false,
      },
      dedupeKey: `odometer_integrity:${v.device.deviceId}:gap:${day(ms(before))}`,
      createdAtMs: ms(after) + 10 * MINUTE_MS,
    },
  ];
}
