/**
 * The committed history of `npm run bench`: bench/history.jsonl, one compact JSON line per benchmark
 * row per run (bench/results/*.json, one file per run, stay local and git-ignored). The plots of
 * bench/plots/ are drawn from it (bench/lib/plot-svg.ts, `npm run bench:plot`).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { percentile } from "./timing";
import type { BenchmarkResult } from "./types";

/** One benchmark row of one run. */
export interface HistoryLine {
  /** The run: its start time (ISO 8601), shared by every line of the run. */
  run: string;
  /** The commit the run measured (12 hex digits), or "unknown". */
  sha: string;
  /** Uncommitted changes in the working tree at the run; null when unknown. */
  dirty: boolean | null;
  /** True when `sha` was inferred afterwards (the last commit before the run) for an imported result file. */
  shaApprox?: true;
  /** 1-minute load average before the run, and the machine's logical CPUs (other work makes figures pessimistic). */
  load1: number | null;
  cpus: number | null;
  /** Benchmark id and row label, as printed. */
  bench: string;
  row: string;
  /** "rate": figures are units/s, ratio = FDP rate ÷ baseline rate (higher is better). "latency": figures are median ms, ratio = FDP ms ÷ baseline ms (lower is better). */
  metric: "rate" | "latency";
  /** Unit of `fdp` and `baseline`: "rec/s", "req/s", … or "ms". */
  unit: string;
  fdp: number;
  baseline: number | null;
  ratio: number | null;
  /** Latency percentiles of each side's requests or batches, where measured. */
  p50: number | null;
  p99: number | null;
  baselineP50: number | null;
  baselineP99: number | null;
  /** Requests or batches measured on FDP's side. */
  n: number;
  /** The row's goal verdict, when it has one. */
  goal: "PASS" | "MISS" | null;
}

/** The parts of a results file (bench/run.ts) that the history reads. */
export interface RunReport {
  startedAt: string;
  machine?: { cpus?: number; loadAverageAtStart?: number[] };
  git?: { sha: string; dirty: boolean | null };
  /** False for a run made with BENCH_HISTORY=0: never imported. */
  history?: boolean;
  benchmarks: BenchmarkResult[];
}

/** Rounds to `digits` significant digits (keeps the lines short, loses nothing a plot shows). */
export function sig(x: number, digits = 4): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const p = digits - 1 - Math.floor(Math.log10(Math.abs(x)));
  const f = 10 ** Math.max(0, p);
  return p >= 0 ? Math.round(x * f) / f : Number(x.toPrecision(digits));
}

const finiteOrNull = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? sig(x) : null);
const p99Of = (latencies: readonly number[] | undefined): number | null => (latencies && latencies.length > 0 ? finiteOrNull(percentile(latencies, 99)) : null);

/** The history lines of one run: one per benchmark row. */
export function summaryLines(report: RunReport, git: { sha: string; dirty: boolean | null; approx?: boolean } = report.git ?? { sha: "unknown", dirty: null }): HistoryLine[] {
  const load1 = report.machine?.loadAverageAtStart?.[0];
  const lines: HistoryLine[] = [];
  for (const b of report.benchmarks) {
    const metric = b.metric ?? "rate";
    for (const r of b.rows) {
      const fdp = metric === "latency" ? r.fdp.p50Ms : r.fdp.perSecond;
      const base = r.baseline ? (metric === "latency" ? r.baseline.p50Ms : r.baseline.perSecond) : null;
      const ratio = base !== null && base > 0 && Number.isFinite(fdp) ? fdp / base : null;
      lines.push({
        run: report.startedAt,
        sha: git.sha,
        dirty: git.dirty,
        ...(git.approx ? { shaApprox: true as const } : {}),
        load1: finiteOrNull(load1),
        cpus: report.machine?.cpus ?? null,
        bench: b.id,
        row: r.label,
        metric,
        unit: metric === "latency" ? "ms" : `${b.unit}/s`,
        fdp: sig(fdp),
        baseline: base === null ? null : sig(base),
        ratio: ratio === null ? null : sig(ratio, 3),
        p50: finiteOrNull(r.fdp.p50Ms),
        p99: p99Of(r.fdp.latenciesMs),
        baselineP50: r.baseline ? finiteOrNull(r.baseline.p50Ms) : null,
        baselineP99: r.baseline ? p99Of(r.baseline.latenciesMs) : null,
        n: r.fdp.batches,
        goal: r.goal ? (r.goal.pass ? "PASS" : "MISS") : null,
      });
    }
  }
  return lines;
}

/** The history file's lines (an absent file is an empty history; a broken line is an error naming it). */
export function readHistory(file: string): HistoryLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l) as HistoryLine;
      } catch {
        throw new Error(`${file}:${i + 1}: not a JSON line`);
      }
    });
}

export function appendHistory(file: string, lines: readonly HistoryLine[]): void {
  if (lines.length > 0) appendFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

const git = (root: string, args: string[]): string =>
  execFileSync("git", ["--no-optional-locks", ...args], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** The checked-out commit and whether the working tree has changes (read-only git calls; "unknown" without git). */
export function gitState(root: string): { sha: string; dirty: boolean | null } {
  try {
    return { sha: git(root, ["rev-parse", "--short=12", "HEAD"]), dirty: git(root, ["status", "--porcelain", "--untracked-files=no"]) !== "" };
  } catch {
    return { sha: "unknown", dirty: null };
  }
}

/** The last commit before `iso` (for result files written before the history recorded the commit). */
function commitBefore(root: string, iso: string): string {
  try {
    return git(root, ["rev-list", "-1", `--before=${iso}`, "--abbrev=12", "--abbrev-commit", "HEAD"]) || "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Appends the results files of `resultsDir` whose run is not yet in the history (matched on the run's
 * start time), oldest first, except runs made with BENCH_HISTORY=0. Files written before the history existed carry no commit: the last commit
 * before the run stands in, marked `shaApprox`. Returns the files imported.
 */
export function importResults(root: string, resultsDir: string, historyFile: string): string[] {
  if (!existsSync(resultsDir)) return [];
  const known = new Set(readHistory(historyFile).map((l) => l.run));
  const imported: string[] = [];
  const files = readdirSync(resultsDir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  for (const f of files) {
    let report: RunReport;
    try {
      report = JSON.parse(readFileSync(path.join(resultsDir, f), "utf8")) as RunReport;
    } catch {
      continue;
    }
    if (typeof report.startedAt !== "string" || !Array.isArray(report.benchmarks) || report.history === false || known.has(report.startedAt)) continue;
    const gitInfo = report.git ?? { sha: commitBefore(root, report.startedAt), dirty: null, approx: true };
    appendHistory(historyFile, summaryLines(report, gitInfo));
    known.add(report.startedAt);
    imported.push(f);
  }
  return imported;
}
