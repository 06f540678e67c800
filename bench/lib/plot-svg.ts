/**
 * One benchmark's history as a hand-written SVG (no dependency): two panels over the runs, the
 * ratio FDP ÷ baseline on top and FDP's own figure below, one coloured series per table row, one
 * point per run (with a tooltip: date, commit, load, figures). Runs are spaced evenly (they are
 * irregular in time); the x labels give each run's date and commit.
 */
import type { HistoryLine } from "./history";

const W = 960;
const PANEL_H = 250;
const M = { left: 78, right: 48, top: 56, gap: 80, bottom: 84 };
/** Room for one x label (two lines: date, then time and commit): labels closer than this are thinned out. */
const X_LABEL_W = 92;
const PLOT_W = W - M.left - M.right;
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];

/** Escapes text and attribute values for XML. */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

const num = (x: number) => (Math.round(x * 10) / 10).toString();

/** 1, 2, 5 × 10^k steps: about `count` ticks covering [lo, hi]. */
function linearTicks(lo: number, hi: number, count = 5): number[] {
  const span = hi - lo || Math.abs(hi) || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

function fmtTick(x: number): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a >= 10_000) return `${Number((x / 1000).toPrecision(3))}k`;
  if (a >= 100) return String(Math.round(x));
  return String(Number(x.toPrecision(3)));
}

interface Axis {
  toY(v: number): number;
  ticks: number[];
}

/** A y axis for `values` in a panel whose top is `top`: linear from 0 (or below, for negatives), or log10 when the values span more than 20×. */
function yAxis(values: number[], top: number, extra: number[] = []): Axis {
  const all = [...values, ...extra].filter((v) => Number.isFinite(v));
  const max = all.length ? Math.max(...all) : 1;
  const min = all.length ? Math.min(...all) : 0;
  const bottom = top + PANEL_H;
  if (min > 0 && max / min > 20) {
    const lo = Math.floor(Math.log10(min));
    const hi = Math.ceil(Math.log10(max));
    const span = hi - lo || 1;
    const ticks: number[] = [];
    for (let k = lo; k <= hi; k++) for (const m of span <= 2 ? [1, 2, 5] : [1]) if (m * 10 ** k <= 10 ** hi) ticks.push(m * 10 ** k);
    return { toY: (v) => bottom - ((Math.log10(v) - lo) / span) * PANEL_H, ticks };
  }
  const lo = Math.min(0, min);
  const hi = max <= lo ? lo + 1 : max * 1.1;
  return { toY: (v) => bottom - ((v - lo) / (hi - lo)) * PANEL_H, ticks: linearTicks(lo, hi) };
}

/** "2026-11-24 10:40" from an ISO time. */
const runLabel = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** The SVG of one benchmark's history (`lines` may hold other benchmarks: they are ignored). */
export function renderHistorySvg(bench: string, allLines: readonly HistoryLine[]): string {
  const lines = allLines.filter((l) => l.bench === bench);
  const runs = [...new Set(lines.map((l) => l.run))].sort();
  const rowsInOrder = [...new Set(lines.map((l) => l.row))];
  const metric = lines[0]?.metric ?? "rate";
  const units = [...new Set(lines.map((l) => l.unit))];
  const unit = units.length === 1 ? units[0]! : units.join(" / ");
  const top1 = M.top;
  const top2 = M.top + PANEL_H + M.gap;
  const legendTop = top2 + PANEL_H + M.bottom;
  const H = legendTop + 22 * Math.max(1, rowsInOrder.length) + 16;
  const xOf = (i: number) => M.left + (runs.length <= 1 ? PLOT_W / 2 : (i / (runs.length - 1)) * PLOT_W);
  const runIndex = new Map(runs.map((r, i) => [r, i]));

  const ratioLabel = metric === "latency" ? "FDP ÷ baseline time (1 = as fast; lower is better)" : "FDP ÷ baseline rate (1 = as fast; higher is better)";
  const figureLabel = metric === "latency" ? `FDP median (${unit})` : `FDP (${unit})`;
  const ratioAxis = yAxis(
    lines.map((l) => l.ratio ?? Number.NaN),
    top1,
    [1],
  );
  const figureAxis = yAxis(
    lines.map((l) => l.fdp),
    top2,
  );

  const out: string[] = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<title>${xmlEscape(`npm run bench: ${bench}, history of ${runs.length} run(s)`)}</title>`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${M.left}" y="24" font-size="16" font-weight="bold">${xmlEscape(`Benchmark ${bench}`)}</text>`);
  const span = runs.length ? ` (${runLabel(runs[0]!)} to ${runLabel(runs[runs.length - 1]!)} UTC)` : "";
  out.push(
    `<text x="${M.left}" y="42" fill="#555555">${xmlEscape(`${runs.length} run(s)${span} from bench/history.jsonl; one point per run and row; hollow: uncommitted changes or unknown`)}</text>`,
  );

  const panel = (top: number, axis: Axis, yLabel: string, kind: "ratio" | "figure", value: (l: HistoryLine) => number | null) => {
    const bottom = top + PANEL_H;
    out.push(`<g class="panel ${kind}">`);
    for (const t of axis.ticks) {
      const y = axis.toY(t);
      if (y < top - 0.5 || y > bottom + 0.5) continue;
      out.push(`<line x1="${M.left}" x2="${M.left + PLOT_W}" y1="${num(y)}" y2="${num(y)}" stroke="#e5e5e5"/>`);
      out.push(`<text class="tick y" x="${M.left - 6}" y="${num(y + 4)}" text-anchor="end">${xmlEscape(fmtTick(t))}</text>`);
    }
    if (kind === "ratio") {
      const y = axis.toY(1);
      if (y >= top && y <= bottom)
        out.push(
          `<line class="reference" x1="${M.left}" x2="${M.left + PLOT_W}" y1="${num(y)}" y2="${num(y)}" stroke="#555555" stroke-dasharray="5,4"><title>1 = as fast as the baseline</title></line>`,
        );
    }
    out.push(`<line x1="${M.left}" x2="${M.left}" y1="${top}" y2="${bottom}" stroke="#000000"/>`);
    out.push(`<line x1="${M.left}" x2="${M.left + PLOT_W}" y1="${bottom}" y2="${bottom}" stroke="#000000"/>`);
    const cy = top + PANEL_H / 2;
    out.push(`<text class="axis-label y" x="18" y="${cy}" text-anchor="middle" transform="rotate(-90 18 ${cy})">${xmlEscape(yLabel)}</text>`);
    const spacing = runs.length > 1 ? PLOT_W / (runs.length - 1) : PLOT_W;
    const every = Math.max(1, Math.ceil(X_LABEL_W / spacing));
    runs.forEach((r, i) => {
      const x = xOf(i);
      out.push(`<line x1="${num(x)}" x2="${num(x)}" y1="${bottom}" y2="${bottom + 4}" stroke="#000000"/>`);
      // Every `every`-th run is labelled, and the last one always (thinned from its end).
      if ((runs.length - 1 - i) % every !== 0) return;
      const sha = lines.find((l) => l.run === r)?.sha ?? "";
      const label = runLabel(r);
      out.push(
        `<text class="tick x" x="${num(x)}" y="${bottom + 16}" text-anchor="middle" font-size="10">${xmlEscape(label.slice(0, 10))}<tspan x="${num(x)}" dy="12">${xmlEscape(`${label.slice(11)} ${sha.slice(0, 7)}`)}</tspan></text>`,
      );
    });
    out.push(`<text class="axis-label x" x="${M.left + PLOT_W / 2}" y="${bottom + 50}" text-anchor="middle">${xmlEscape("run (start time UTC, commit)")}</text>`);
    rowsInOrder.forEach((row, k) => {
      const color = COLORS[k % COLORS.length]!;
      const pts = lines
        .filter((l) => l.row === row)
        .map((l) => ({ l, v: value(l) }))
        .filter((p): p is { l: HistoryLine; v: number } => p.v !== null && Number.isFinite(p.v) && Number.isFinite(axis.toY(p.v)))
        .sort((a, b) => a.l.run.localeCompare(b.l.run));
      if (pts.length > 1)
        out.push(`<polyline fill="none" stroke="${color}" stroke-width="1.5" points="${pts.map((p) => `${num(xOf(runIndex.get(p.l.run)!))},${num(axis.toY(p.v))}`).join(" ")}"/>`);
      for (const p of pts) {
        const l = p.l;
        const tip = [
          `${row}`,
          `run ${runLabel(l.run)} UTC, commit ${l.sha}${l.shaApprox ? " (approx.)" : ""}${l.dirty ? " + uncommitted changes" : ""}`,
          `FDP ${l.fdp} ${l.unit}, baseline ${l.baseline ?? "–"} ${l.unit}, ratio ${l.ratio ?? "–"}`,
          `p50 ${l.p50 ?? "–"} / p99 ${l.p99 ?? "–"} ms (baseline ${l.baselineP50 ?? "–"} / ${l.baselineP99 ?? "–"} ms), n ${l.n}`,
          `load ${l.load1 ?? "?"} on ${l.cpus ?? "?"} CPUs${l.goal ? `, goal ${l.goal}` : ""}`,
        ].join("\n");
        out.push(
          `<circle class="point ${kind}" data-row="${xmlEscape(row)}" data-run="${xmlEscape(l.run)}" cx="${num(xOf(runIndex.get(l.run)!))}" cy="${num(axis.toY(p.v))}" r="3.5" ${l.dirty === false ? `fill="${color}"` : `fill="#ffffff" stroke="${color}" stroke-width="1.5"`}><title>${xmlEscape(tip)}</title></circle>`,
        );
      }
    });
    out.push(`</g>`);
  };

  panel(top1, ratioAxis, ratioLabel, "ratio", (l) => l.ratio);
  panel(top2, figureAxis, figureLabel, "figure", (l) => l.fdp);

  rowsInOrder.forEach((row, k) => {
    const y = legendTop + 22 * k;
    out.push(`<rect x="${M.left}" y="${y - 9}" width="12" height="12" fill="${COLORS[k % COLORS.length]!}"/>`);
    out.push(`<text class="legend" x="${M.left + 18}" y="${y + 1}">${xmlEscape(row)}</text>`);
  });
  if (rowsInOrder.length === 0) out.push(`<text x="${M.left}" y="${legendTop}">${xmlEscape("no runs yet")}</text>`);
  out.push(`</svg>`);
  return out.join("\n") + "\n";
}
