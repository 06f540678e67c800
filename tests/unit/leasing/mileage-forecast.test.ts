import { describe, expect, it } from "vitest";
import {
  addMonths,
  dataQuality,
  distanceVariance,
  forecastMileage,
  PRIOR_RATE_KM_PER_DAY,
  leaseTerms,
  normalCdf,
  overageKm,
  rateModel,
  riskScore,
} from "@/lib/leasing/mileage-forecast";
import { cleanOdometerHistory, dailyOdometerSeries, type OdometerDay } from "@/lib/leasing/mileage-history";
import { helsinkiDayNumber, helsinkiTime } from "@/lib/seed/calendar";
import { createRng } from "@/lib/seed/prng";

const DAY0 = helsinkiDayNumber(Date.UTC(2026, 0, 5, 12));

/** `n` daily points from DAY0, driving `km(i)` on day i. */
function series(n: number, km: (i: number) => number, startKm = 10_000): OdometerDay[] {
  let level = startKm;
  return Array.from({ length: n }, (_, i) => {
    if (i > 0) level += km(i);
    return { day: DAY0 + i, maxKm: level, jumpKm: 0, spikes: 0 };
  });
}

const noisy = (mean: number, sd: number, seed = 7) => {
  const rng = createRng(seed);
  return () => Math.max(0, rng.normal(mean, sd));
};

function forecast(days: OdometerDay[], horizon: number, contractKm: number | null = null) {
  const last = days[days.length - 1] as OdometerDay;
  return forecastMileage({ days, today: last.day, leaseEndDay: last.day + horizon, contractKm });
}

describe("mileage forecast: the trend", () => {
  it("a constant 50 km/day forecasts current + 50 × horizon", () => {
    const f = forecast(
      series(60, () => 50),
      300,
    );
    expect(f.currentKm).toBe(10_000 + 59 * 50);
    expect(f.dailyRateKm).toBe(50);
    expect(f.predictedEndKm).toBeCloseTo(f.currentKm + 50 * 300, 6);
    expect(f.lower).toBeLessThan(f.predictedEndKm);
    expect(f.upper).toBeGreaterThan(f.predictedEndKm);
    expect(f.lower).toBeGreaterThanOrEqual(f.currentKm);
  });

  it("the interval widens with less history (same driving, same horizon)", () => {
    const drive = noisy(50, 30);
    const long = series(200, drive);
    const short = long.slice(-20);
    const wLong = forecast(long, 365);
    const wShort = forecast(short, 365);
    expect(wShort.upper - wShort.lower).toBeGreaterThan(1.2 * (wLong.upper - wLong.lower));
  });

  it("the interval widens with more day-to-day variance (same mean, same history length)", () => {
    const calm = forecast(series(120, noisy(50, 5, 1)), 365);
    const wild = forecast(series(120, noisy(50, 60, 1)), 365);
    expect(wild.upper - wild.lower).toBeGreaterThan(calm.upper - calm.lower);
    expect(rateModel(cleanOdometerHistory(series(120, noisy(50, 60, 1)))).dailyVar).toBeGreaterThan(rateModel(cleanOdometerHistory(series(120, noisy(50, 5, 1)))).dailyVar);
  });

  it("the interval widens with the horizon, and is a point at horizon 0", () => {
    const days = series(90, noisy(40, 20));
    const m = rateModel(cleanOdometerHistory(days));
    expect(distanceVariance(m, 0)).toBe(0);
    expect(distanceVariance(m, 100)).toBeLessThan(distanceVariance(m, 400));
    const f0 = forecast(days, 0);
    expect(f0.predictedEndKm).toBe(f0.currentKm);
    expect(f0.upper).toBe(f0.lower);
  });

  it("gaps: a 10-day gap that drove 500 km counts as 50 km/day, not as one 500 km day", () => {
    const days: OdometerDay[] = [
      { day: DAY0, maxKm: 1_000, jumpKm: 0, spikes: 0 },
      { day: DAY0 + 1, maxKm: 1_050, jumpKm: 0, spikes: 0 },
      { day: DAY0 + 11, maxKm: 1_550, jumpKm: 0, spikes: 0 },
      { day: DAY0 + 12, maxKm: 1_600, jumpKm: 0, spikes: 0 },
    ];
    const m = rateModel(cleanOdometerHistory(days));
    expect(m.rate).toBe(50);
    expect(m.historyDays).toBe(12);
  });

  it("readings on one day only: the population prior's rate from that reading, low quality, a wide interval", () => {
    const f = forecast(
      series(1, () => 0),
      100,
    );
    expect(f.basis).toBe("population_prior");
    expect(f.currentKm).toBe(10_000);
    expect(f.predictedEndKm).toBeCloseTo(10_000 + PRIOR_RATE_KM_PER_DAY * 100, 6);
    expect(f.dataQuality).toBe("low");
    // Wider than the same horizon forecast from 60 days of steady history at the same rate.
    const steady = forecast(
      series(60, () => PRIOR_RATE_KM_PER_DAY),
      100,
    );
    expect(f.upper - f.lower).toBeGreaterThan(2 * (steady.upper - steady.lower));
  });

  it("no reading at all: current_km 0 by convention, the prior's distance over the whole lease", () => {
    const f = forecastMileage({ days: [], today: DAY0 + 50, leaseStartDay: DAY0, leaseEndDay: DAY0 + 364, contractKm: 20_000 });
    expect(f.basis).toBe("population_prior");
    expect(f.currentKm).toBe(0);
    expect(f.currentDay).toBeNull();
    expect(f.horizonDays).toBe(365);
    expect(f.predictedEndKm).toBeCloseTo(PRIOR_RATE_KM_PER_DAY * 365, 6);
    expect(f.lower).toBeGreaterThanOrEqual(0);
    expect(f.riskScore).toBeGreaterThan(0);
    expect(f.riskScore).toBeLessThan(100);
    expect(f.limitations.join(" ")).toMatch(/current_km is 0 by convention/);
  });

  it("a lease that already ended answers the odometer on its last day, with a zero-width interval", () => {
    const days = series(30, () => 40);
    const last = days[days.length - 1] as OdometerDay;
    const f = forecastMileage({ days, today: last.day, leaseEndDay: DAY0 + 10, contractKm: null });
    expect(f.predictedEndKm).toBe(10_000 + 10 * 40);
    expect(f.lower).toBe(f.upper);
    expect(f.limitations.join(" ")).toMatch(/lease ended/);
  });
});

describe("mileage forecast: plausible readings only", () => {
  it("a one-sample spike reading does not move the level or the rate", () => {
    const rs = [];
    for (let i = 0; i < 30; i++) {
      rs.push({ km: 5_000 + 40 * i, ts: new Date(helsinkiTime(DAY0 + i, 20 * 60)) });
      if (i === 10) rs.push({ km: 95_000, ts: new Date(helsinkiTime(DAY0 + i, 21 * 60)) });
    }
    const days = dailyOdometerSeries(rs);
    expect(days.find((d) => d.day === DAY0 + 10)).toMatchObject({ maxKm: 5_400, spikes: 1 });
    const f = forecast(days, 100);
    expect(f.dailyRateKm).toBe(40);
    expect(f.currentKm).toBe(5_000 + 40 * 29);
  });

  it("a day read low that a later day contradicts is dropped; a rollback that persists restarts the level", () => {
    const glitch = series(20, () => 50);
    (glitch[8] as OdometerDay).maxKm -= 3_000;
    const h = cleanOdometerHistory(glitch);
    expect(h.contradictedDrops).toBe(1);
    expect(h.rollbacks).toBe(0);
    expect(rateModel(h).rate).toBe(50);

    const clocked = series(20, () => 50).map((d, i) => (i >= 12 ? { ...d, maxKm: d.maxKm - 8_000 } : d));
    const c = cleanOdometerHistory(clocked);
    expect(c.rollbacks).toBe(1);
    expect(rateModel(c).rate).toBe(50);
    const f = forecast(clocked, 10);
    // The plausible series: the reading the odometer shows plus the 7,950 km it was wound back (the
    // level 10,550 on day 11 → 2,600 on day 12); only day 12's own 50 km, the step across the drop, is lost.
    expect(f.odometerReadingKm).toBe(10_000 + 19 * 50 - 8_000);
    expect(c.rolledBackKm).toBe(7_950);
    expect(f.rolledBackKm).toBe(7_950);
    expect(f.currentKm).toBe(10_000 + 19 * 50 - 50);
    expect(f.predictedEndKm).toBe(f.currentKm + 50 * 10);
    expect(f.distanceMethod).toBe("odometer_plausible_increases");
    expect(f.dataQuality).not.toBe("high");
    expect(f.limitations.join(" ")).toMatch(/rollback/);
    expect(f.limitations.join(" ")).toMatch(/plausible series/);
  });

  it("an implausible forward jump moves the level but is not counted as driven", () => {
    const rs = [];
    for (let i = 0; i < 30; i++) rs.push({ km: 1_000 + 30 * i + (i >= 15 ? 20_000 : 0), ts: new Date(helsinkiTime(DAY0 + i, 20 * 60)) });
    // The 20,000 km arrive within 10 minutes of the day's first reading: no car drives that.
    rs.push({ km: 1_000 + 30 * 14 + 5, ts: new Date(helsinkiTime(DAY0 + 15, 8 * 60)) });
    rs.push({ km: 1_000 + 30 * 14 + 20_005, ts: new Date(helsinkiTime(DAY0 + 15, 8 * 60 + 10)) });
    const days = dailyOdometerSeries(rs);
    expect(days.find((d) => d.day === DAY0 + 15)?.jumpKm).toBe(20_000);
    const f = forecast(days, 100);
    expect(f.dailyRateKm).toBe(30);
    expect(f.currentKm).toBe(1_000 + 30 * 29 + 20_000);
  });
});

describe("mileage forecast: overage and risk", () => {
  it("overage_km = max(0, predicted − contract) with a limit, null without", () => {
    expect(overageKm(120_000, 100_000)).toBe(20_000);
    expect(overageKm(90_000, 100_000)).toBe(0);
    expect(overageKm(90_000, null)).toBeNull();
    const f = forecast(
      series(60, () => 50),
      300,
      10_000 + 59 * 50 + 10_000,
    );
    expect(f.overageKm).toBeCloseTo(5_000, 0);
  });

  it("risk is the model's probability of ending above the limit: 50 at the prediction, monotone in contract_km", () => {
    const f = forecast(series(90, noisy(50, 25)), 365);
    const at = (contractKm: number) => riskScore({ predictedEndKm: f.predictedEndKm, sdKm: f.sdKm, currentKm: f.currentKm, contractKm });
    expect(at(f.predictedEndKm)).toBeCloseTo(50, 6);
    expect(at(f.upper)).toBeCloseTo(10, 1);
    expect(at(f.lower)).toBeCloseTo(90, 1);
    let previous = 101;
    for (let c = f.currentKm + 1; c < f.predictedEndKm * 1.5; c += 500) {
      const r = at(c);
      expect(r).toBeLessThanOrEqual(previous);
      expect(r).toBeGreaterThanOrEqual(0);
      previous = r;
    }
    expect(at(f.currentKm - 1)).toBe(100);
    expect(at(Number.MAX_SAFE_INTEGER)).toBeCloseTo(0, 6);
  });

  it("without a contract limit risk_score is 0 and a limitation says why", () => {
    const f = forecast(
      series(60, () => 50),
      300,
      null,
    );
    expect(f.riskScore).toBe(0);
    expect(f.overageKm).toBeNull();
    expect(f.limitations.join(" ")).toMatch(/no limit to exceed/);
  });

  it("normalCdf matches known values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.2815515655446004)).toBeCloseTo(0.9, 6);
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 6);
  });
});

describe("mileage forecast: contract terms and data quality", () => {
  const master = { contractKm: 90_000, leaseMonths: 36, leaseStart: "2025-03-10" };

  it("a query parameter wins over master data, each on its own", () => {
    const both = leaseTerms({ query: { contractKm: 120_000, leaseMonths: 24 }, master, firstReadingDay: null });
    expect(both).toMatchObject({ contractKm: 120_000, contractKmSource: "query", leaseMonths: 24, leaseMonthsSource: "query", leaseEnd: "2027-03-09" });
    const one = leaseTerms({ query: { leaseMonths: 48 }, master, firstReadingDay: null });
    expect(one).toMatchObject({ contractKm: 90_000, contractKmSource: "master_data", leaseMonths: 48, leaseMonthsSource: "query", leaseEnd: "2029-03-09" });
    const none = leaseTerms({ query: {}, master, firstReadingDay: null });
    expect(none).toMatchObject({ contractKm: 90_000, leaseMonths: 36, leaseStartSource: "master_data", leaseEnd: "2028-03-09" });
  });

  it("without lease_start the lease starts on the first odometer day; without anything, nothing is known", () => {
    const t = leaseTerms({ query: {}, master: { contractKm: null, leaseMonths: 12, leaseStart: null }, firstReadingDay: helsinkiDayNumber(Date.UTC(2026, 1, 1, 12)) });
    expect(t).toMatchObject({ leaseStart: "2026-02-01", leaseStartSource: "first_odometer_day", leaseEnd: "2027-01-31", contractKm: null, contractKmSource: null });
    const u = leaseTerms({ query: {}, master: { contractKm: null, leaseMonths: null, leaseStart: null }, firstReadingDay: null });
    expect(u).toMatchObject({ leaseMonths: null, leaseEnd: null, leaseEndDay: null });
  });

  it("addMonths clamps to the month's end", () => {
    expect(addMonths("2025-01-31", 1)).toBe("2025-02-28");
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2025-11-15", 3)).toBe("2026-02-15");
  });

  it("data_quality: high needs 90 days, dense and fresh; medium 28 days; else low", () => {
    const base = { historyDays: 120, readingDays: 110, maxGapDays: 3, staleDays: 1, rollbacks: 0 };
    expect(dataQuality(base)).toBe("high");
    expect(dataQuality({ ...base, historyDays: 60, readingDays: 55 })).toBe("medium");
    expect(dataQuality({ ...base, maxGapDays: 10 })).toBe("medium");
    expect(dataQuality({ ...base, staleDays: 14 })).toBe("medium");
    expect(dataQuality({ ...base, rollbacks: 1 })).toBe("medium");
    expect(dataQuality({ ...base, historyDays: 20, readingDays: 20 })).toBe("low");
    expect(dataQuality({ ...base, readingDays: 30 })).toBe("low");
    expect(dataQuality({ ...base, staleDays: 60 })).toBe("low");
  });
});
