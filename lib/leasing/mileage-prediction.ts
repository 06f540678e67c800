import type { TenantCtx } from "@/lib/context";
import { UnprocessableError } from "@/lib/errors";
import { helsinkiDayNumber } from "@/lib/seed/calendar";
import { oneDevice } from "@/lib/devices/one-device";
import type { MileageForecastBody, MileageForecastInput } from "@/lib/schemas/leasing-mileage";
import { forecastMileage, INTERVAL_LEVEL_PCT, isoDay, leaseTerms, MILEAGE_FORECAST_METHOD } from "./mileage-forecast";
import { loadOdometerHistory } from "./queries/load-odometer-history";

/**
 * Without a lease duration (no lease_months in the query or the master data) the forecast is for this
 * many days after today, and the answer says so (`forecast_end_basis`), rather than refusing a device
 * whose contract FDP was never told.
 */
const DEFAULT_HORIZON_DAYS = 365;

/**
 * Endpoint 19: the device's odometer at the end of its lease (SPEC 2.15). Query terms win over the
 * master data. Without a lease duration the forecast is for DEFAULT_HORIZON_DAYS after today; without
 * two days of readings it is the population prior's, data_quality low; without any plausible reading
 * it is a 422 (docs/methodology/mileage-forecast.md).
 */
export async function predictMileage({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: MileageForecastInput; now?: Date }): Promise<MileageForecastBody> {
  const h = oneDevice(await loadOdometerHistory({ ctx, deviceIds: [input.device_id] }), input.device_id);
  const terms = leaseTerms({
    query: { contractKm: input.contract_km, leaseMonths: input.lease_months },
    master: { contractKm: h.contractKm, leaseMonths: h.leaseMonths, leaseStart: h.leaseStart },
    firstReadingDay: h.firstReadingAt ? helsinkiDayNumber(h.firstReadingAt.getTime()) : null,
    registeredDay: h.createdAt ? helsinkiDayNumber(h.createdAt.getTime()) : null,
  });
  if (terms.leaseStart === null || terms.leaseStartSource === null || terms.leaseStartDay === null) {
    // Unreachable for a stored device (it always has created_at); kept so the types stay honest.
    throw new UnprocessableError(`Device ${input.device_id} has no lease_start, no odometer reading and no registration date.`);
  }
  const today = helsinkiDayNumber(now.getTime());
  const endDay = terms.leaseEndDay ?? today + DEFAULT_HORIZON_DAYS;
  const f = forecastMileage({ days: h.days, today, leaseStartDay: terms.leaseStartDay, leaseEndDay: endDay, contractKm: terms.contractKm });
  if (f.currentDay === null) {
    // Without a single plausible reading even current_km would be invented: refuse rather than
    // answer a number a lessor could price an overage on.
    throw new UnprocessableError(`Device ${input.device_id} has reported no plausible odometer reading: a mileage forecast needs at least one.`);
  }
  const limitations = [...f.limitations];
  if (terms.leaseEndDay === null) {
    limitations.unshift(
      `No lease duration known (query lease_months or the device's master data): predicted_end_km is the odometer ${DEFAULT_HORIZON_DAYS} days from today (${isoDay(endDay)}), not at a lease end.`,
    );
  }
  if (terms.leaseStartSource === "first_odometer_day") {
    limitations.unshift(`The device's master data has no lease_start: the lease is taken to start on its first day with an odometer reading (${terms.leaseStart}).`);
  } else if (terms.leaseStartSource === "registered_in_fdp") {
    limitations.unshift(`The device has no lease_start and no odometer reading: the lease is taken to start on the day FDP registered it (${terms.leaseStart}).`);
  }
  return {
    device_id: input.device_id,
    current_km: f.currentKm,
    predicted_end_km: f.predictedEndKm,
    contract_km: terms.contractKm,
    overage_km: f.overageKm,
    risk_score: f.riskScore,
    confidence_interval: { lower: f.lower, upper: f.upper },
    forecast_method: MILEAGE_FORECAST_METHOD,
    data_quality: f.dataQuality,
    generated_at: now.toISOString(),
    interval_level_pct: INTERVAL_LEVEL_PCT,
    risk_basis: terms.contractKm === null ? "no_contract_limit" : "contract_km",
    current_km_at: currentKmAt(f),
    odometer_reading_km: f.odometerReadingKm,
    rolled_back_km: f.rolledBackKm,
    distance_method: f.distanceMethod,
    forecast_basis: f.basis,
    daily_rate_km: f.dailyRateKm,
    history_days: f.historyDays,
    reading_days: f.readingDays,
    horizon_days: f.horizonDays,
    forecast_end: isoDay(endDay),
    forecast_end_basis: terms.leaseEndDay === null ? "default_horizon" : "lease_end",
    contract: {
      contract_km_source: terms.contractKmSource,
      lease_months: terms.leaseMonths,
      lease_months_source: terms.leaseMonthsSource,
      lease_start: terms.leaseStart,
      lease_start_source: terms.leaseStartSource,
      lease_end: terms.leaseEnd,
    },
    limitations,
  };
}

/**
 * current_km_at (CONTRACT: a date-time, RFC 3339 UTC): the device time of the latest plausible reading.
 * Every series read from the database carries it; a day without one (a hand-built series) is dated at
 * its first instant in UTC rather than left without a time.
 */
function currentKmAt(f: { currentAt: number | null; currentDay: number | null }): string | null {
  if (f.currentAt !== null) return new Date(f.currentAt).toISOString();
  return f.currentDay === null ? null : `${isoDay(f.currentDay)}T00:00:00.000Z`;
}
