/**
 * `npm run bench:plot`: draws bench/plots/<benchmark id>.svg from bench/history.jsonl, one SVG per
 * benchmark (the ratio FDP ÷ baseline and FDP's figure over the runs; bench/lib/plot-svg.ts).
 * `npm run bench` calls this at its end. `-- --import` first appends the local bench/results/*.json
 * runs that the history does not hold yet (matched on the run's start time; safe to repeat).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importResults, readHistory } from "./lib/history";
import { renderHistorySvg } from "./lib/plot-svg";

const BENCH_DIR = import.meta.dirname;
export const HISTORY_FILE = path.join(BENCH_DIR, "history.jsonl");
export const RESULTS_DIR = path.join(BENCH_DIR, "results");
export const PLOTS_DIR = path.join(BENCH_DIR, "plots");

/** Writes one SVG per benchmark in the history; returns the files written. */
export function writePlots(historyFile = HISTORY_FILE, plotsDir = PLOTS_DIR): string[] {
  const lines = readHistory(historyFile);
  const benches = [...new Set(lines.map((l) => l.bench))].sort();
  if (benches.length === 0) return [];
  mkdirSync(plotsDir, { recursive: true });
  return benches.map((b) => {
    const file = path.join(plotsDir, `${b.replace(/[^A-Za-z0-9_-]/g, "_")}.svg`);
    writeFileSync(file, renderHistorySvg(b, lines));
    return file;
  });
}

function main(): void {
  const root = path.dirname(BENCH_DIR);
  if (process.argv.includes("--import")) {
    const imported = importResults(root, RESULTS_DIR, HISTORY_FILE);
    process.stdout.write(`imported ${imported.length} result file(s) into ${path.relative(root, HISTORY_FILE)}${imported.length ? `: ${imported.join(", ")}` : ""}\n`);
  }
  const files = writePlots();
  process.stdout.write(files.length ? `${files.map((f) => path.relative(root, f)).join("\n")}\n` : `no history yet (${path.relative(root, HISTORY_FILE)})\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
