import { behaviourPart } from "@/lib/telemetry/queries/behaviour-rollup-sql";
import { windowBounds, type WindowBounds } from "@/lib/telemetry/queries/rollup-window";
import { toDrivingBehaviour, type DrivingBehaviourRow } from "@/lib/telemetry/queries/behaviour-sql";
import { harshExposure, speedingShare } from "@/lib/scores/behaviour-exposure";
import { sqlCount, sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import {
  ageMonths,
  DAY_MS,
  DEVICE_WINDOW_DAYS,
  distanceKm,
  harshEventsInWindow,
  kmPerYear,
  odometerManipulation,
  sohTrendPpPerYear,
  type Reading,
  windowsAt,
} from "@/lib/scores/derived-measures";
import type { TasInput } from "@/lib/scores/tas";
import { V12_WARNING_V } from "@/lib/detectors/battery";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, templateValue, type DevicePart, type DeviceQueryArgs, type DeviceStatementTemplate } from "@/lib/devices/device-query";
import { knockoutDismissalsOf, odometerEvidenceOf, resting12vOf, sohJudgementOf } from "@/lib/devices/reading-rows";

const reading = (value: unknown, at: unknown): Reading | null => {
  const v = sqlNumber(value);
  const d = sqlDate(at);
  return v !== null && d ? { value: v, at: d } : null;
};

/** The usage-behaviour rates of the TAS from the behaviour aggregate: shares over exposure, never alert counts. */
function tasBehaviour(
  b: DrivingBehaviourRow,
  windowStart: Date,
): Pick<TasInput["behaviour"], "speeding" | "night_share" | "icy_share" | "harsh_events_weighted" | "harsh_events_km"> {
  const harsh = harshExposure(b.harsh, windowStart);
  return {
    // Distance share over ≥ 100 km measured, else time share over ≥ 2 h, else null (behaviour-exposure.ts).
    speeding: speedingShare(b),
    night_share: b.driving_minutes > 0 ? b.night_driving_minutes / b.driving_minutes : null,
    icy_share: b.temp_known_driving_minutes > 0 ? b.driving_minutes_near_0c / b.temp_known_driving_minutes : null,
    harsh_events_weighted: harsh?.weighted ?? null,
    // The km over which the events' source covered the window: the rate's denominator, not period_km.
    harsh_events_km: harsh?.km ?? null,
  };
}

/** The values a TAS statement is made of: the call's time windows. */
interface TasWindows {
  since90: string;
  now: string;
  bounds: WindowBounds;
}

function tasParts({ since90, now, bounds }: TasWindows): DevicePart[] {
  return [
    parts.master("powertrain", "fuel_type", "asset_class", "year", "contract_km", "lease_months"),
    parts.leaseStart(),
    parts.windowOdometer({ since: since90 }),
    parts.newest(),
    parts.recentSoh(),
    parts.earlySoh(),
    parts.latestOdometer(),
    parts.odometerEvidence(),
    parts.dismissedKnockoutAlerts(),
    parts.activeDtcs(),
    parts.electrical({ since90 }),
    // The 90-day coverage (days with telemetry) from the same rolled-up part, not from a pass over the
    // window's raw readings.
    behaviourPart({ since: since90, until: now, measures: "driving", telemetryDays: true, bounds }),
  ];
}

/** The TAS statement, its text built once per process (`DeviceStatementTemplate`, lib/devices/device-query.ts). */
const TAS_STATEMENT: DeviceStatementTemplate = {
  parts: () =>
    tasParts({
      since90: templateValue("since90"),
      now: templateValue("now"),
      bounds: { headEnd: templateValue("headEnd"), headDay: templateValue("headDay"), untilDay: templateValue("untilDay") },
    }),
};

/**
 * TAS inputs of the tenant's devices among `deviceIds`, in one round trip (endpoints 17 and 18), or a
 * bounded few at once for a large batch. `template: false` builds the statement for this call (the
 * test that the template gives the same answers).
 */
export async function loadTasInputs(args: DeviceQueryArgs & { now: Date; template?: boolean }): Promise<Map<string, TasInput>> {
  const { since90 } = windowsAt(args.now);
  const now = args.now.toISOString();
  const windows: TasWindows = { since90, now, bounds: windowBounds(since90, now) };
  const found = await queryDevices("tas", args, () => tasParts(windows), {
    genericPlan: true,
    ...(args.template === false ? {} : { template: { statement: TAS_STATEMENT, values: { since90, now, ...windows.bounds } } }),
  });
  const windowStart = new Date(args.now.getTime() - DEVICE_WINDOW_DAYS * DAY_MS);
  const out = new Map<string, TasInput>();
  for (const r of found) {
    const soh = sohJudgementOf(r);
    const latestSoh: Reading | null = soh.accepted ? { value: soh.accepted.pct, at: soh.accepted.at } : null;
    const odometerEvidence = odometerEvidenceOf(r);
    const resting12v = resting12vOf(r);
    const latestOdometer = sqlNumber(r.latest_odo);
    // The behaviour part's harsh-event counts serve both the rate and the raw count (one driving_events scan).
    const behaviour = toDrivingBehaviour(r);
    const periodKm = distanceKm(sqlNumber(r.odo_first_km), sqlNumber(r.odo_last_km));
    const dtcs = sqlTextArray(r.dtc_codes);
    const id = String(r.device_id);
    out.set(id, {
      device_id: id,
      powertrain: sqlText(r.powertrain),
      fuel_type: sqlText(r.fuel_type),
      asset_class: sqlText(r.asset_class),
      year: sqlNumber(r.year),
      age_months: ageMonths(sqlText(r.lease_start), args.now),
      battery: {
        soh_pct: latestSoh?.value ?? null,
        soh_at: latestSoh?.at ?? null,
        soh_flags: soh.flagged,
        soh_trend_pp_per_year: sohTrendPpPerYear(latestSoh, reading(r.early_soh, r.early_soh_ts)),
      },
      mileage: {
        odometer_km: latestOdometer,
        km_per_year: kmPerYear(periodKm, sqlDate(r.odo_first_ts), sqlDate(r.odo_last_ts)),
        contract_km: sqlNumber(r.contract_km),
        lease_months: sqlNumber(r.lease_months),
      },
      behaviour: {
        period_days: DEVICE_WINDOW_DAYS,
        period_km: periodKm,
        // Measured from the 90-day speed, temperature and event history (lib/telemetry/queries/behaviour-sql.ts, shared with the fleet scores).
        ...tasBehaviour(behaviour, windowStart),
        harsh_events: harshEventsInWindow(
          { oemCount: behaviour.harsh.oem, derivedCount: behaviour.harsh.derived, reportedAt: behaviour.harsh.reported_at, denseSpeedAt: behaviour.harsh.dense_speed_at },
          windowStart,
        ),
      },
      compliance: {
        active_dtcs: dtcs,
        weak_12v: resting12v === null || resting12v.chemistry !== "lead_acid" ? null : resting12v.v < V12_WARNING_V,
        emissions_class: null,
      },
      odometer_manipulation: odometerManipulation(latestOdometer, odometerEvidence),
      odometer_evidence: odometerEvidence,
      knockout_dismissals: knockoutDismissalsOf(r),
      data: {
        latest_telemetry_at: sqlDate(r.newest_ts),
        coverage_pct: (Math.min(sqlCount(r.bh_telemetry_days), DEVICE_WINDOW_DAYS) / DEVICE_WINDOW_DAYS) * 100,
      },
    });
  }
  return out;
}
