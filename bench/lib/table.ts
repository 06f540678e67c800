import type { BenchmarkResult } from "./types";

/** 12345.6 → "12,346"; NaN → "–". */
function fmtInt(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–";
}

export function fmtMs(n: number): string {
  if (!Number.isFinite(n)) return "–";
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1);
}

/** A plain-text table with `|` separators; columns whose `align` is "right" are right-aligned. */
export function renderTable(headers: string[], rows: string[][], align: ("left" | "right")[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        const w = widths[i] ?? 0;
        return align[i] === "right" ? c.padStart(w) : c.padEnd(w);
      })
      .join(" | ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("-|-"), ...rows.map(line)].join("\n");
}

/** The FDP-vs-baseline table of one benchmark, followed by its goal line. */
export function renderComparison(result: BenchmarkResult): string {
  if (result.metric === "latency") return renderLatencyComparison(result);
  const u = result.unit;
  const sides = result.sides ?? { fdp: "FDP HTTP", baseline: "raw driver" };
  const headers = ["benchmark", `${sides.fdp} ${u}/s`, `${sides.baseline} ${u}/s`, "ratio", `p50 batch ms (${sides.fdp} / ${sides.baseline})`, `p95 ${sides.fdp} ms`, "goal"];
  const rows = result.rows.map((r) => [
    r.label,
    fmtInt(r.fdp.perSecond),
    r.baseline ? fmtInt(r.baseline.perSecond) : "–",
    r.baseline ? `${Math.round((100 * r.fdp.perSecond) / r.baseline.perSecond)}%` : "–",
    `${fmtMs(r.fdp.p50Ms)} / ${r.baseline ? fmtMs(r.baseline.p50Ms) : "–"}`,
    fmtMs(r.fdp.p95Ms),
    r.goal ? (r.goal.pass ? "PASS" : `MISS (${r.goal.reason})`) : "",
  ]);
  const table = renderTable(headers, rows, ["left", "right", "right", "right", "right", "right", "left"]);
  return [`## ${result.title}`, "", table, ...(result.goal ? ["", result.goal] : [])].join("\n");
}

/** "×1.27" for a time ratio; "–" when unknown. */
function fmtRatio(x: number): string {
  return Number.isFinite(x) ? `×${x.toFixed(2)}` : "–";
}

/**
 * The table of a latency benchmark (`metric: "latency"`): median ms of each side, their ratio
 * (FDP ÷ baseline: 1 = as fast as the baseline), FDP's p95 and the number of measured requests.
 */
function renderLatencyComparison(result: BenchmarkResult): string {
  const sides = result.sides ?? { fdp: "FDP HTTP", baseline: "raw driver" };
  const headers = ["benchmark", `${sides.fdp} p50 ms`, `${sides.baseline} p50 ms`, "ratio", `p95 ms (${sides.fdp} / ${sides.baseline})`, "n", "goal"];
  const rows = result.rows.map((r) => [
    r.label,
    fmtMs(r.fdp.p50Ms),
    r.baseline ? fmtMs(r.baseline.p50Ms) : "–",
    r.baseline ? fmtRatio(r.fdp.p50Ms / r.baseline.p50Ms) : "–",
    `${fmtMs(r.fdp.p95Ms)} / ${r.baseline ? fmtMs(r.baseline.p95Ms) : "–"}`,
    String(r.fdp.batches),
    r.goal ? (r.goal.pass ? "PASS" : `MISS (${r.goal.reason})`) : "",
  ]);
  const table = renderTable(headers, rows, ["left", "right", "right", "right", "right", "right", "left"]);
  return [`## ${result.title}`, "", table, ...(result.goal ? ["", result.goal] : [])].join("\n");
}
