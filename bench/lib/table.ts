import type { BenchmarkResult } from "./types";

/** 12345.6 → "12,346"; NaN → "–". */
export function fmtInt(n: number): string {
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
