import { helsinkiDayNumber } from "@/lib/seed/calendar";
import { generateSandboxFleet } from "@/lib/seed/generate-sandbox-fleet";
import { forecastMileage, INTERVAL_LEVEL_PCT } from "./mileage-forecast";
import { cleanOdometerHistory, dailyOdometerSeries, type OdometerReading } from "./mileage-history";
import { syntheticLease } from "./mileage-synthetic";

/**
 * The mileage forecast's backtest: histories with a known truth are cut at several points, the
 * forecast made from the part before the cut is compared with what happened, and the interval's
 * empirical coverage is set against its stated level. `npm run backtest:mileage` prints the table that
 * docs/methodology/mileage-forecast.md shows; tests/unit/leasing/mileage-backtest.test.ts runs a
 * smaller set.
 */

interface BacktestCase {
  source: "synthetic" | "sandbox";
  /** Days of history before the cut. */
  cutDays: number;
  id: string;
  /** The history the forecast may see (readings before the cut). */
  readings: OdometerReading[];
  today: number;
  endDay: number;
  truthKm: number;
  contractKm: number | null;
}

interface BacktestRow {
  source: string;
  cutDays: number;
  n: number;
  /** Forecasts made from the population prior (fewer than two days of readings before the cut); scored like the others. */
  priorBased: number;
  coveragePct: number;
  maeKm: number;
  /** MAE relative to the distance actually driven after the cut. */
  maeOfRemainingPct: number;
  meanWidthKm: number;
  /** Mean squared error of risk_score/100 against the 0/1 outcome (lower is better; 0.25 = coin toss). */
  riskBrier: number | null;
}

/** Synthetic leases (mileage-synthetic.ts) cut `cuts` days after the lease start; the truth is the odometer at the lease end. */
export function syntheticCases({ seed, count, cuts }: { seed: string; count: number; cuts: readonly number[] }): BacktestCase[] {
  const out: BacktestCase[] = [];
  for (let i = 1; i <= count; i++) {
    const lease = syntheticLease({ seed, index: i, leaseMonths: ([24, 36, 48] as const)[i % 3] });
    for (const cut of cuts) {
      const cutDay = lease.startDay + cut;
      if (cutDay >= lease.endDay) continue;
      out.push({
        source: "synthetic",
        cutDays: cut,
        id: lease.id,
        readings: lease.readings.filter((r) => helsinkiDayNumber(r.ts.getTime()) < cutDay),
        today: cutDay,
        endDay: lease.endDay,
        truthKm: lease.truthKm[lease.truthKm.length - 1] as number,
        contractKm: lease.contractKm,
      });
    }
  }
  return out;
}

/**
 * The sandbox fleet (lib/seed/generate-sandbox-fleet.ts, generated in memory for `anchor`) cut `cuts`
 * days into its history; the "lease end" is the history's last day and the truth the odometer that day
 * (its cleaned daily level), so the horizon is the rest of the 95-day history, not the real lease.
 * A vehicle whose odometer is rolled back in the history (the sandbox's clocking scenario) is left out
 * and counted in `excluded`: its truth is the manipulated reading, which no mileage trend forecasts.
 */
export function sandboxCases({ anchors, cuts }: { anchors: readonly Date[]; cuts: readonly number[] }): BacktestCase[] & { excluded?: string[] } {
  const out: BacktestCase[] & { excluded?: string[] } = [];
  out.excluded = [];
  for (const anchor of anchors) {
    const fleet = generateSandboxFleet({ anchor });
    const byDevice = new Map<string, OdometerReading[]>();
    for (const t of fleet.telemetry) {
      if (t.odometerKm === null) continue;
      const list = byDevice.get(t.deviceId) ?? [];
      list.push({ km: t.odometerKm, ts: t.ts });
      byDevice.set(t.deviceId, list);
    }
    for (const [deviceId, readings] of byDevice) {
      const full = cleanOdometerHistory(dailyOdometerSeries(readings));
      const first = full.days[0];
      const last = full.days[full.days.length - 1];
      if (!first || !last) continue;
      if (full.rollbacks > 0) {
        out.excluded.push(`${anchor.toISOString().slice(0, 10)}/${deviceId}`);
        continue;
      }
      for (const cut of cuts) {
        const cutDay = first.day + cut;
        if (cutDay >= last.day) continue;
        out.push({
          source: "sandbox",
          cutDays: cut,
          id: `${anchor.toISOString().slice(0, 10)}/${deviceId}`,
          readings: readings.filter((r) => helsinkiDayNumber(r.ts.getTime()) < cutDay),
          today: cutDay,
          endDay: last.day,
          truthKm: last.maxKm,
          contractKm: null,
        });
      }
    }
  }
  return out;
}

interface Scored {
  c: BacktestCase;
  predicted: number;
  lower: number;
  upper: number;
  currentKm: number;
  risk: number | null;
  prior: boolean;
}

function scoreCase(c: BacktestCase): Scored {
  const f = forecastMileage({ days: dailyOdometerSeries(c.readings), today: c.today, leaseEndDay: c.endDay, contractKm: c.contractKm });
  return {
    c,
    predicted: f.predictedEndKm,
    lower: f.lower,
    upper: f.upper,
    currentKm: f.currentKm,
    risk: c.contractKm === null ? null : f.riskScore,
    prior: f.basis === "population_prior",
  };
}

/** One row per (source, cut): coverage of the interval, MAE of predicted_end_km, and the risk's Brier score. */
export function runBacktest(cases: readonly BacktestCase[]): BacktestRow[] {
  const groups = new Map<string, BacktestCase[]>();
  for (const c of cases) {
    const key = `${c.source}\u0000${c.cutDays}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => {
    const scored = group.map(scoreCase);
    const n = scored.length;
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const withRisk = scored.filter((s) => s.risk !== null && s.c.contractKm !== null);
    const first = group[0] as BacktestCase;
    return {
      source: first.source,
      cutDays: first.cutDays,
      n,
      priorBased: scored.filter((x) => x.prior).length,
      coveragePct: round(100 * mean(scored.map((s) => (s.c.truthKm >= s.lower && s.c.truthKm <= s.upper ? 1 : 0))), 1),
      maeKm: round(mean(scored.map((s) => Math.abs(s.predicted - s.c.truthKm))), 0),
      maeOfRemainingPct: round(100 * (mean(scored.map((s) => Math.abs(s.predicted - s.c.truthKm))) / Math.max(1, mean(scored.map((s) => s.c.truthKm - s.currentKm)))), 1),
      meanWidthKm: round(mean(scored.map((s) => s.upper - s.lower)), 0),
      riskBrier: withRisk.length === 0 ? null : round(mean(withRisk.map((s) => ((s.risk as number) / 100 - (s.c.truthKm > (s.c.contractKm as number) ? 1 : 0)) ** 2)), 3),
    };
  });
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The pooled coverage of a set of rows (weighted by n). */
export function pooledCoveragePct(rows: readonly BacktestRow[]): number {
  const n = rows.reduce((s, r) => s + r.n, 0);
  return n === 0 ? 0 : round(rows.reduce((s, r) => s + r.coveragePct * r.n, 0) / n, 1);
}

export function formatBacktestTable(rows: readonly BacktestRow[]): string {
  const header = `| source | history before cut (days) | forecasts | coverage of the ${INTERVAL_LEVEL_PCT} % interval | MAE of predicted_end_km | MAE / km still driven | mean interval width | risk Brier score |`;
  const sep = "|---|---:|---:|---:|---:|---:|---:|---:|";
  const lines = rows.map(
    (r) =>
      `| ${r.source} | ${r.cutDays} | ${r.n}${r.priorBased > 0 ? ` (${r.priorBased} from the prior)` : ""} | ${r.coveragePct.toFixed(1)} % | ${r.maeKm.toLocaleString("en-US")} km | ${r.maeOfRemainingPct.toFixed(1)} % | ${r.meanWidthKm.toLocaleString("en-US")} km | ${r.riskBrier === null ? "n/a" : r.riskBrier.toFixed(3)} |`,
  );
  return [header, sep, ...lines].join("\n");
}
