import { formatKmInNote } from "@/lib/display/format";
import type { DistanceMethod } from "@/lib/vocabulary/distance";
import { cleanOdometerHistory, type CleanHistory, type OdometerDay } from "./mileage-history";

/**
 * The mileage forecast of endpoint 19 (SPEC 2.15) as a pure function: the odometer at the end of the
 * lease from the device's daily odometer history, with an 80 % prediction interval and the probability
 * of ending above the contract's km limit. Method, constants and their justification, the backtest:
 * docs/methodology/mileage-forecast.md.
 */

export const MILEAGE_FORECAST_METHOD = "mileage-trend-2027.02";

/** Nominal level of `confidence_interval` (two-sided, central). */
export const INTERVAL_LEVEL_PCT = 80;
/** Standard normal quantile for the interval: Φ⁻¹(0.9). */
const Z_INTERVAL = 1.2815515655446004;

/**
 * Prior on the day-to-day variability: a day's distance has a standard deviation of about its mean
 * (weekend days, days parked, long trips). Worth PRIOR_DAYS days of history: with a week of data the
 * prior dominates, with three months the device's own variance does. A judgement, not a cited figure;
 * the backtest checks the resulting coverage (docs/methodology/mileage-forecast.md "Constants").
 */
const PRIOR_DAILY_CV = 1.0;
const PRIOR_DAYS = 14;
/**
 * The future average daily distance differs from the past one even for a perfectly measured past:
 * job and route changes, vacations, a second car. Modelled as a relative error of the rate with this
 * standard deviation (judgement, checked by the backtest).
 */
const RATE_DRIFT_CV = 0.1;
/**
 * Seasonality (Finland): the model does not adjust the rate by month (no citable monthly index of
 * private-car driving was found), it widens the interval instead. A history shorter than a year has
 * not seen every season: the rate error grows by up to this relative standard deviation, in proportion
 * to the part of the year the history has not covered.
 */
const SEASONAL_CV = 0.12;
const YEAR_DAYS = 365;
/** A rate scale floor (km/day) for the drift terms, so that a car parked throughout the history still gets an interval. */
const MIN_RATE_SCALE_KM_PER_DAY = 10;

/**
 * The population prior, for a device without two days of odometer history: Finnish passenger cars
 * drove 39 billion km in 2025 (Statistics Finland, Finnish road statistics 2025,
 * https://stat.fi/en/publication/cmfv5oueq5hr208vzkt5776kk) and about 2.7 million were in traffic use
 * (Trafi, mid-2017; Statistics Finland motor vehicle stock: 2,635,643 at the end of 2015, 2,720,663 at
 * the end of 2018; URLs in docs/methodology/mileage-forecast.md), about 14,300 km per car and year,
 * 39 km per day. Company and leased cars
 * drive more or less than the average car, so the prior's rate is uncertain by PRIOR_RATE_CV (a
 * judgement): the interval is wide and data_quality is low.
 */
export const PRIOR_RATE_KM_PER_DAY = 39;
const PRIOR_RATE_CV = 0.6;

/** data_quality thresholds (docs/methodology/mileage-forecast.md "Data quality"). */
export const QUALITY = {
  high: { minHistoryDays: 90, minCoverage: 0.7, maxGapDays: 7, maxStaleDays: 7 },
  medium: { minHistoryDays: 28, minCoverage: 0.4, maxGapDays: 21, maxStaleDays: 30 },
} as const;

type DataQuality = "high" | "medium" | "low";
type Source = "query" | "master_data";

interface MileageForecastInput {
  /** Daily odometer history, oldest first (./mileage-history.ts). */
  days: readonly OdometerDay[];
  /** Helsinki day number of the lease's first day (the prior forecast of a device without readings starts there). */
  leaseStartDay?: number;
  /** Helsinki day number of "today" (staleness of the history). */
  today: number;
  /** Helsinki day number on which the lease ends. */
  leaseEndDay: number;
  /** The contract's km limit, or null when none is known. */
  contractKm: number | null;
}

interface MileageForecast {
  /**
   * The plausible series at the latest kept reading: the reading itself, plus the km the odometer was
   * wound back when it had a rollback (the series continued from the pre-rollback baseline); 0 by
   * convention when the device has no reading (see `basis`).
   */
  currentKm: number;
  /** The latest kept reading as the odometer shows it (differs from currentKm after a rollback); null without one. */
  odometerReadingKm: number | null;
  /** Km added back for rollbacks (0 without). */
  rolledBackKm: number;
  /** `odometer`: no reading set aside; `odometer_plausible_increases`: spikes, jumps, contradicted drops or rollbacks set aside; `none`: no reading. */
  distanceMethod: Extract<DistanceMethod, "odometer" | "odometer_plausible_increases" | "none">;
  /** Helsinki day number of the latest kept reading; null without one. */
  currentDay: number | null;
  /** Device time (epoch ms) of the latest kept reading; null without one (or a hand-made series without times). */
  currentAt: number | null;
  /** `history`: the device's own trend; `population_prior`: fewer than two days of readings (PRIOR_RATE_KM_PER_DAY). */
  basis: "history" | "population_prior";
  predictedEndKm: number;
  lower: number;
  upper: number;
  /** Standard deviation of the end odometer under the model (km). */
  sdKm: number;
  overageKm: number | null;
  /** 0–100; 0 without a contract limit (nothing to exceed), see riskScore. */
  riskScore: number;
  dailyRateKm: number;
  /** Calendar days the distance steps cover. */
  historyDays: number;
  /** Days with at least one kept reading. */
  readingDays: number;
  horizonDays: number;
  dataQuality: DataQuality;
  history: CleanHistory;
  limitations: string[];
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 on erf, |error| < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** CONTRACT "Settled details": max(0, predicted_end_km − contract_km) when a limit is known, else null. */
export function overageKm(predictedEndKm: number, contractKm: number | null): number | null {
  return contractKm === null ? null : Math.max(0, predictedEndKm - contractKm);
}

/**
 * Probability (0–100) that the odometer at the lease end exceeds `contractKm` under the forecast's
 * normal model (mean `predictedEndKm`, sd `sdKm`); 100 when the odometer already reads more than the
 * limit. Without a limit there is nothing to exceed: 0 (the answer's `risk_basis` says so).
 */
export function riskScore({ predictedEndKm, sdKm, currentKm, contractKm }: { predictedEndKm: number; sdKm: number; currentKm: number; contractKm: number | null }): number {
  if (contractKm === null) return 0;
  if (currentKm > contractKm) return 100;
  if (sdKm <= 0) return predictedEndKm > contractKm ? 100 : 0;
  return 100 * (1 - normalCdf((contractKm - predictedEndKm) / sdKm));
}

interface RateModel {
  /** Average daily distance (km/day): distance over the days the steps cover. */
  rate: number;
  /** Per-day variance of the daily distance (km²), the device's own blended with the prior. */
  dailyVar: number;
  historyDays: number;
  steps: number;
}

/**
 * The rate and the per-day variance from the distance steps. A step of g days that drove y km has
 * E[(y − rate·g)²] = g·σ² when days are independent, so σ² is estimated by Σ (y − rate·g)² / g over
 * (n − 1) steps, then blended with the prior (PRIOR_DAILY_CV·rate)² worth PRIOR_DAYS days.
 */
export function rateModel(history: CleanHistory): RateModel {
  const totalDays = history.steps.reduce((s, x) => s + x.days, 0);
  const totalKm = history.steps.reduce((s, x) => s + x.km, 0);
  const rate = totalDays > 0 ? totalKm / totalDays : 0;
  const n = history.steps.length;
  const ownSum = history.steps.reduce((s, x) => s + (x.km - rate * x.days) ** 2 / x.days, 0);
  const ownDf = Math.max(0, n - 1);
  const prior = (PRIOR_DAILY_CV * Math.max(rate, MIN_RATE_SCALE_KM_PER_DAY)) ** 2;
  const dailyVar = (PRIOR_DAYS * prior + ownSum) / (PRIOR_DAYS + ownDf);
  return { rate, dailyVar, historyDays: totalDays, steps: n };
}

/**
 * Variance of the distance still to drive over `horizon` days: the days' own noise (horizon·σ²), the
 * error of the estimated rate (σ²/T per day, squared over the horizon), and the rate's drift and
 * unseen seasons (relative errors RATE_DRIFT_CV and SEASONAL_CV·(1 − T/365)).
 */
export function distanceVariance(model: RateModel, horizon: number): number {
  if (horizon <= 0) return 0;
  const T = Math.max(1, model.historyDays);
  const unseenYear = Math.max(0, 1 - T / YEAR_DAYS);
  const relVar = RATE_DRIFT_CV ** 2 + (SEASONAL_CV * unseenYear) ** 2;
  const scale = Math.max(model.rate, MIN_RATE_SCALE_KM_PER_DAY);
  const rateVar = model.dailyVar / T + relVar * scale ** 2;
  return horizon * model.dailyVar + horizon ** 2 * rateVar;
}

export function dataQuality({
  historyDays,
  readingDays,
  maxGapDays,
  staleDays,
  rollbacks,
}: {
  historyDays: number;
  readingDays: number;
  maxGapDays: number;
  staleDays: number;
  rollbacks: number;
}): DataQuality {
  const coverage = readingDays / (historyDays + 1);
  const meets = (q: (typeof QUALITY)["high" | "medium"]) =>
    historyDays >= q.minHistoryDays && coverage >= q.minCoverage && maxGapDays <= q.maxGapDays && staleDays <= q.maxStaleDays;
  if (rollbacks === 0 && meets(QUALITY.high)) return "high";
  if (meets(QUALITY.medium)) return "medium";
  return "low";
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The forecast of a device with fewer than two days of plausible readings: the population prior's rate
 * from its latest reading, or, without any reading, from 0 km on the lease's first day (the convention
 * of a car delivered new; current_km is then 0 and says nothing). Its interval carries the prior's rate
 * uncertainty; data_quality is low.
 */
function priorForecast({
  history,
  today,
  leaseStartDay,
  leaseEndDay,
  contractKm,
}: {
  history: CleanHistory;
  today: number;
  leaseStartDay: number | undefined;
  leaseEndDay: number;
  contractKm: number | null;
}): MileageForecast {
  const last = history.days[history.days.length - 1];
  const baseKm = last ? last.maxKm + history.rolledBackKm : 0;
  const baseDay = last ? last.day : (leaseStartDay ?? today) - 1;
  const horizon = Math.max(0, leaseEndDay - baseDay);
  const predicted = baseKm + PRIOR_RATE_KM_PER_DAY * horizon;
  const sd = Math.sqrt(horizon * (PRIOR_DAILY_CV * PRIOR_RATE_KM_PER_DAY) ** 2 + (PRIOR_RATE_CV * PRIOR_RATE_KM_PER_DAY * horizon) ** 2);
  const lower = Math.max(baseKm, predicted - Z_INTERVAL * sd);
  const upper = Math.max(lower, predicted + Z_INTERVAL * sd);
  const limitations = [
    last
      ? "Plausible odometer readings on one day only: no trend of the device's own, the forecast uses the Finnish average passenger car's distance (about 14,300 km a year) with a wide interval."
      : "No plausible odometer reading: current_km is 0 by convention, not a reading, and the forecast assumes a car at 0 km on the lease's first day driving the Finnish average passenger car's distance (about 14,300 km a year), with a wide interval. Treat it as a placeholder until readings arrive.",
  ];
  if (contractKm === null) limitations.push(NO_CONTRACT);
  limitations.push(...setAsideLimitations(history));
  return {
    currentKm: round1(baseKm),
    ...seriesFields(history),
    currentDay: last ? last.day : null,
    basis: "population_prior",
    predictedEndKm: round1(predicted),
    lower: round1(lower),
    upper: round1(upper),
    sdKm: sd,
    overageKm: ((o) => (o === null ? null : round1(o)))(overageKm(predicted, contractKm)),
    riskScore: round1(riskScore({ predictedEndKm: predicted, sdKm: sd, currentKm: baseKm, contractKm })),
    dailyRateKm: PRIOR_RATE_KM_PER_DAY,
    historyDays: 0,
    readingDays: history.days.length,
    horizonDays: horizon,
    dataQuality: "low",
    history,
    limitations,
  };
}

/** The answer's account of the series: the reading as shown, what was added back, the method's word, when. */
function seriesFields(history: CleanHistory): Pick<MileageForecast, "odometerReadingKm" | "rolledBackKm" | "distanceMethod" | "currentAt"> {
  const last = history.days[history.days.length - 1];
  const setAside = history.rollbacks + history.spikes + history.contradictedDrops + history.jumps;
  return {
    odometerReadingKm: last ? round1(last.maxKm) : null,
    rolledBackKm: round1(history.rolledBackKm),
    distanceMethod: !last ? "none" : setAside > 0 ? "odometer_plausible_increases" : "odometer",
    currentAt: last && last.maxAt !== undefined && Number.isFinite(last.maxAt) ? last.maxAt : null,
  };
}

/** What was set aside from the history, in words (rollbacks first: they move current_km). */
function setAsideLimitations(history: CleanHistory): string[] {
  const out: string[] = [];
  const last = history.days[history.days.length - 1];
  if (history.rollbacks > 0 && last) {
    const events = history.rollbackEvents.map((r) => `${formatKmInNote(r.fromKm)} → ${formatKmInNote(r.toKm)} km on ${isoDay(r.day)}`).join("; ");
    out.push(
      `Odometer rollback or reset: ${history.rollbacks} day(s) read lower than the odometer's earlier level and no later day returned to it (${events}). The forecast is from the plausible series: current_km is the latest reading (${formatKmInNote(last.maxKm)} km, odometer_reading_km) plus the ${formatKmInNote(history.rolledBackKm)} km the odometer was wound back, i.e. the series continued from the pre-rollback baseline, so a rollback neither erases distance driven nor lowers the overrun risk; the step across each drop is not counted as distance.`,
    );
  }
  if (history.spikes + history.contradictedDrops + history.jumps > 0)
    out.push(
      `Set aside as implausible: ${history.spikes} one-sample spike reading(s), ${history.contradictedDrops} day(s) contradicted by later readings, ${history.jumps} implausible forward jump(s) (their km are not counted as driven).`,
    );
  return out;
}

const NO_CONTRACT =
  "No contract km limit known (query contract_km or the device's master data): overage_km is null and risk_score is 0 because there is no limit to exceed, not because the risk is low.";

export function forecastMileage({ days, today, leaseStartDay, leaseEndDay, contractKm }: MileageForecastInput): MileageForecast {
  const history = cleanOdometerHistory(days);
  const last = history.days[history.days.length - 1];
  if (!last || history.steps.length === 0) return priorForecast({ history, today, leaseStartDay, leaseEndDay, contractKm });
  const model = rateModel(history);
  // The plausible series: a rollback's km added back (CONTRACT: a rollback does not erase distance driven).
  const currentKm = last.maxKm + history.rolledBackKm;
  const horizon = Math.max(0, leaseEndDay - last.day);
  const limitations: string[] = [];

  let predicted = currentKm + model.rate * horizon;
  let sd = Math.sqrt(distanceVariance(model, horizon));
  if (leaseEndDay < last.day) {
    // The lease already ended: the odometer on its last day is history, not a forecast.
    const atEnd = [...history.days].reverse().find((d) => d.day <= leaseEndDay);
    const addedBack = atEnd ? history.rollbackEvents.filter((r) => r.day <= atEnd.day).reduce((s, r) => s + (r.fromKm - r.toKm), 0) : 0;
    predicted = atEnd ? atEnd.maxKm + addedBack : currentKm;
    sd = 0;
    limitations.push("The lease ended before the latest reading: predicted_end_km is the odometer on the lease's last day with a reading, not a forecast.");
  }
  const lower = Math.max(currentKm, predicted - Z_INTERVAL * sd);
  const upper = Math.max(lower, predicted + Z_INTERVAL * sd);

  const gaps = history.days.slice(1).map((d, i) => d.day - (history.days[i] as OdometerDay).day);
  const quality = dataQuality({
    historyDays: model.historyDays,
    readingDays: history.days.length,
    maxGapDays: Math.max(0, ...gaps),
    staleDays: Math.max(0, today - last.day),
    rollbacks: history.rollbacks,
  });

  if (contractKm === null) limitations.push(NO_CONTRACT);
  limitations.push(...setAsideLimitations(history));
  if (model.historyDays < YEAR_DAYS)
    limitations.push(
      "The history covers less than a year, so not every season: the model does not adjust for Finnish seasonality, it widens the interval for the unseen part of the year.",
    );
  if (today - last.day > QUALITY.high.maxStaleDays) limitations.push(`The latest odometer reading is ${today - last.day} days old; the forecast starts from it.`);

  return {
    currentKm: round1(currentKm),
    ...seriesFields(history),
    currentDay: last.day,
    basis: "history",
    predictedEndKm: round1(predicted),
    lower: round1(lower),
    upper: round1(upper),
    sdKm: sd,
    overageKm: ((o) => (o === null ? null : round1(o)))(overageKm(predicted, contractKm)),
    riskScore: round1(riskScore({ predictedEndKm: predicted, sdKm: sd, currentKm, contractKm })),
    dailyRateKm: round1(model.rate),
    historyDays: model.historyDays,
    readingDays: history.days.length,
    horizonDays: horizon,
    dataQuality: quality,
    history,
    limitations,
  };
}

/**
 * Contract terms: a query parameter wins over the device's master data. The lease starts on the
 * master data's `lease_start`, else (documented) on the first day with an odometer reading.
 */
export function leaseTerms({
  query,
  master,
  firstReadingDay,
  registeredDay = null,
}: {
  query: { contractKm?: number; leaseMonths?: number };
  master: { contractKm: number | null; leaseMonths: number | null; leaseStart: string | null };
  firstReadingDay: number | null;
  /** The day FDP first registered the device: the lease-start fallback of last resort. */
  registeredDay?: number | null;
}): {
  contractKm: number | null;
  contractKmSource: Source | null;
  leaseMonths: number | null;
  leaseMonthsSource: Source | null;
  leaseStart: string | null;
  leaseStartSource: "master_data" | "first_odometer_day" | "registered_in_fdp" | null;
  leaseStartDay: number | null;
  leaseEnd: string | null;
  leaseEndDay: number | null;
} {
  const contractKm = query.contractKm ?? master.contractKm;
  const leaseMonths = query.leaseMonths ?? master.leaseMonths;
  const fallbackDay = firstReadingDay ?? registeredDay;
  const leaseStart = master.leaseStart ?? (fallbackDay === null ? null : isoDay(fallbackDay));
  // The lease's last day: start + months is the first day after it (2025-09-02 + 36 months → 2028-09-01).
  const leaseEndDay = leaseStart !== null && leaseMonths !== null ? Date.parse(`${addMonths(leaseStart, leaseMonths)}T00:00:00Z`) / 86_400_000 - 1 : null;
  const leaseEnd = leaseEndDay === null ? null : isoDay(leaseEndDay);
  return {
    contractKm,
    contractKmSource: query.contractKm !== undefined ? "query" : master.contractKm !== null ? "master_data" : null,
    leaseMonths,
    leaseMonthsSource: query.leaseMonths !== undefined ? "query" : master.leaseMonths !== null ? "master_data" : null,
    leaseStart,
    leaseStartSource: master.leaseStart !== null ? "master_data" : firstReadingDay !== null ? "first_odometer_day" : registeredDay !== null ? "registered_in_fdp" : null,
    leaseStartDay: leaseStart === null ? null : Date.parse(`${leaseStart}T00:00:00Z`) / 86_400_000,
    leaseEnd,
    leaseEndDay,
  };
}

export const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Calendar months: 2025-01-31 + 1 month = 2025-02-28 (the day clamps to the month's end). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = total % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(d, lastDay))).toISOString().slice(0, 10);
}
