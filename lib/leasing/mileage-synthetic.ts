import { DAY_MS, helsinkiTime, weekdayOfDayNumber } from "@/lib/seed/calendar";
import { type Rng, rngFor } from "@/lib/seed/prng";
import type { OdometerReading } from "./mileage-history";

/**
 * Synthetic lease histories with a known truth for the mileage backtest (./mileage-backtest.ts). Each
 * driver drives every day by a documented recipe (docs/methodology/mileage-forecast.md "Synthetic
 * drivers"); the telematics unit reports the odometer twice a day with gaps, outages and one-sample
 * spikes, and the truth is the odometer at the end of the lease. Pure and deterministic given the seed.
 */

interface SyntheticLease {
  id: string;
  /** Helsinki day number of the lease's first day. */
  startDay: number;
  /** The lease ends at the end of this day (the forecast's lease end). */
  endDay: number;
  /** What the unit reported, oldest first (spikes included). */
  readings: OdometerReading[];
  /** True odometer at the end of each day from startDay through endDay. */
  truthKm: number[];
  contractKm: number;
}

/** Fixed-date Finnish public holidays (month-day) plus Christmas Eve, when driving looks like a Sunday. */
const FIXED_HOLIDAYS = new Set(["01-01", "01-06", "05-01", "12-06", "12-24", "12-25", "12-26"]);

function monthDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(5, 10);
}

/** Midsummer Eve: the Friday between 19 and 25 June. */
function isMidsummerEve(day: number): boolean {
  const md = monthDay(day);
  return md >= "06-19" && md <= "06-25" && weekdayOfDayNumber(day) === 5;
}

function dayOfYear(day: number): number {
  const d = new Date(day * DAY_MS);
  return (d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS;
}

interface Driver {
  weekdayKm: number;
  weekendFactor: number;
  /** Amplitude of the seasonal swing: negative = drives less in winter. */
  winterSwing: number;
  vacation: "away" | "road_trip";
  noiseSd: number;
  zeroDayP: number;
  longTripP: number;
  regimeChangeDay: number | null;
  regimeFactor: number;
  missingDayP: number;
  outageP: number;
  spikeP: number;
}

function driver(rng: Rng, startDay: number, endDay: number): Driver {
  return {
    // Log-normal around 45 km per weekday: 15–140 km for most drivers (commuters to field sales).
    weekdayKm: 45 * Math.exp(rng.normal(0, 0.5)),
    weekendFactor: rng.float(0.3, 1.4),
    winterSwing: rng.float(-0.15, 0.05),
    vacation: rng.chance(0.5) ? "away" : "road_trip",
    noiseSd: rng.float(0.3, 0.7),
    zeroDayP: rng.float(0.02, 0.12),
    longTripP: rng.float(0, 0.03),
    regimeChangeDay: rng.chance(0.3) ? rng.int(startDay + 30, endDay - 30) : null,
    regimeFactor: Math.exp(rng.normal(0, 0.25)),
    missingDayP: rng.float(0, 0.25),
    outageP: rng.float(0, 0.01),
    spikeP: rng.float(0, 0.004),
  };
}

/** Distance of one day for a driver (km), before noise: weekday pattern, holidays, season, vacation. */
function expectedKm(d: Driver, day: number, vacationStart: number): number {
  const weekday = weekdayOfDayNumber(day);
  const holiday = FIXED_HOLIDAYS.has(monthDay(day)) || isMidsummerEve(day);
  let km = d.weekdayKm * (weekday === 0 || weekday === 6 || holiday ? d.weekendFactor : 1);
  // Coldest in mid-January (day 15 of the year): the swing is largest there.
  km *= 1 + d.winterSwing * Math.cos((2 * Math.PI * (dayOfYear(day) - 15)) / 365);
  const inVacation = day >= vacationStart && day < vacationStart + 24;
  if (inVacation) km *= d.vacation === "away" ? 0.1 : 1.8;
  if (d.regimeChangeDay !== null && day >= d.regimeChangeDay) km *= d.regimeFactor;
  return km;
}

export function syntheticLease({ seed, index, leaseMonths = 36 }: { seed: string; index: number; leaseMonths?: 24 | 36 | 48 }): SyntheticLease {
  const rng = rngFor(seed, "lease", index);
  // Leases start any day of 2023–2025.
  const startDay = Math.floor(Date.UTC(2023, 0, 1) / DAY_MS) + rng.int(0, 3 * 365);
  const endDay = startDay + Math.round(leaseMonths * 30.44) - 1;
  const d = driver(rng, startDay, endDay);
  let km = rng.chance(0.7) ? rng.float(5, 50) : rng.float(5_000, 60_000);
  const truthKm: number[] = [];
  const readings: OdometerReading[] = [];
  let outageLeft = 0;
  for (let day = startDay; day <= endDay; day++) {
    // Summer holiday: four weeks starting between mid-June and mid-July of the day's year.
    const year = new Date(day * DAY_MS).getUTCFullYear();
    const vacationStart = Math.floor(Date.UTC(year, 5, 15) / DAY_MS) + rngFor("vacation", index, year, d.weekdayKm).int(0, 30);
    let driven = rng.chance(d.zeroDayP) ? 0 : expectedKm(d, day, vacationStart) * Math.exp(rng.normal(-(d.noiseSd ** 2) / 2, d.noiseSd));
    if (rng.chance(d.longTripP)) driven += rng.float(200, 500);
    const startKm = km;
    km += driven;
    truthKm.push(km);
    if (outageLeft > 0) {
      outageLeft -= 1;
      continue;
    }
    if (rng.chance(d.outageP)) {
      outageLeft = rng.int(5, 20);
      continue;
    }
    if (rng.chance(d.missingDayP)) continue;
    // Midday and evening readings (Helsinki time); a spike replaces one now and then.
    const midday = startKm + driven * 0.4;
    const spike = rng.chance(d.spikeP);
    readings.push({ km: spike ? midday + rng.float(5_000, 50_000) : midday, ts: new Date(helsinkiTime(day, 12 * 60)) });
    readings.push({ km, ts: new Date(helsinkiTime(day, 21 * 60)) });
  }
  const firstKm = truthKm[0] as number;
  const drivenTotal = (truthKm[truthKm.length - 1] as number) - firstKm;
  return {
    id: `syn-${String(index).padStart(4, "0")}`,
    startDay,
    endDay,
    readings,
    truthKm,
    // CONTRACT compares the odometer with contract_km: a limit near the real end odometer (the lease's
    // distance ±30 %), rounded to 1,000 km, so that the risk varies from driver to driver.
    contractKm: Math.round((firstKm + drivenTotal * rng.float(0.7, 1.3)) / 1_000) * 1_000,
  };
}
