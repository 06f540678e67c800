import type { TenantCtx } from "@/lib/context";
import { UnprocessableError } from "@/lib/errors";
import { helsinkiDayNumber } from "@/lib/seed/calendar";
import { oneDevice } from "@/lib/scores/queries/one-device";
import type { MileageForecastBody, MileageForecastInput } from "@/lib/schemas/leasing-mileage";
import { forecastMileage, InsufficientHistory, INTERVAL_LEVEL_PCT, isoDay, leaseTerms, MILEAGE_FORECAST_METHOD } from "./mileage-forecast";
import { loadOdometerHistory } from "./queries/load-odometer-history";

/**
 * Endpoint 19: the device's odometer at the end of its lease (SPEC 2.15). Query terms win over the
 * master data; without a lease duration, or without odometer readings on two days, there is nothing
 * honest to answer: 422 `unprocessable` naming what is missing (docs/methodology/mileage-forecast.md).
 */
export async function predictMileage({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: MileageForecastInput; now?: Date }): Promise<MileageForecastBody> {
  const h = oneDevice(await loadOdometerHistory({ ctx, deviceIds: [input.device_id] }), input.device_id);
  const terms = leaseTerms({
    query: { contractKm: input.contract_km, leaseMonths: input.lease_months },
    master: { contractKm: h.contractKm, leaseMonths: h.leaseMonths, leaseStart: h.leaseStart },
    firstReadingDay: h.firstReadingAt ? helsinkiDayNumber(h.firstReadingAt.getTime()) : null,
  });
  if (terms.leaseMonths === null || terms.leaseMonthsSource === null) {
    throw new UnprocessableError(`No lease duration is known for device ${input.device_id}: pass lease_months (the device's master data has none).`);
  }
  if (terms.leaseEnd === null || terms.leaseEndDay === null || terms.leaseStart === null || terms.leaseStartSource === null) {
    throw new UnprocessableError(`Device ${input.device_id} has no odometer reading and no lease_start: there is nothing to forecast from.`);
  }
  let f;
  try {
    f = forecastMileage({ days: h.days, today: helsinkiDayNumber(now.getTime()), leaseEndDay: terms.leaseEndDay, contractKm: terms.contractKm });
  } catch (e) {
    if (e instanceof InsufficientHistory) throw new UnprocessableError(`Device ${input.device_id}: ${e.message}.`);
    throw e;
  }
  const limitations = [...f.limitations];
  if (terms.leaseStartSource === "first_odometer_day") {
    limitations.unshift(`The device's master data has no lease_start: the lease is taken to start on its first day with an odometer reading (${terms.leaseStart}).`);
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
    current_km_at: isoDay(f.currentDay),
    daily_rate_km: f.dailyRateKm,
    history_days: f.historyDays,
    reading_days: f.readingDays,
    horizon_days: f.horizonDays,
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
