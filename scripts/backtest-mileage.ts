/**
 * `npm run backtest:mileage`: the mileage forecast's backtest (lib/leasing/mileage-backtest.ts) on
 * 300 synthetic leases cut at 30, 90, 180 and 365 days, and the sandbox fleet generated in memory for
 * two anchors (winter and late summer) cut at 30 and 60 days. Prints the table of
 * docs/methodology/mileage-forecast.md. Deterministic: the same code prints the same table.
 */
import { formatBacktestTable, pooledCoveragePct, runBacktest, sandboxCases, syntheticCases } from "@/lib/leasing/mileage-backtest";
import { INTERVAL_LEVEL_PCT, MILEAGE_FORECAST_METHOD } from "@/lib/leasing/mileage-forecast";

const SYNTHETIC = { seed: "mileage-backtest-v1", count: 300, cuts: [30, 90, 180, 365] } as const;
const SANDBOX = { anchors: [new Date("2026-03-01T12:00:00Z"), new Date("2026-09-15T12:00:00Z")], cuts: [30, 60] } as const;

const sandbox = sandboxCases(SANDBOX);
const rows = [...runBacktest(syntheticCases(SYNTHETIC)), ...runBacktest(sandbox)];
console.log(`Mileage forecast backtest, ${MILEAGE_FORECAST_METHOD}, stated interval level ${INTERVAL_LEVEL_PCT} %`);
console.log(`synthetic: ${SYNTHETIC.count} leases (seed ${SYNTHETIC.seed}); sandbox: anchors ${SANDBOX.anchors.map((a) => a.toISOString().slice(0, 10)).join(", ")}`);
console.log("");
console.log(formatBacktestTable(rows));
console.log("");
console.log(`sandbox vehicles left out (odometer rolled back in the history): ${(sandbox.excluded ?? []).join(", ") || "none"}`);
console.log(
  `pooled coverage: synthetic ${pooledCoveragePct(rows.filter((r) => r.source === "synthetic"))} %, sandbox ${pooledCoveragePct(rows.filter((r) => r.source === "sandbox"))} %`,
);
