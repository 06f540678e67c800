import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendHistory, importResults, readHistory, sig, summaryLines, type HistoryLine, type RunReport } from "@/bench/lib/history";
import { renderHistorySvg, xmlEscape } from "@/bench/lib/plot-svg";
import type { Measurement } from "@/bench/lib/types";

/** A measurement of single requests with these latencies (ms). */
function m(latencies: number[], units = 1): Measurement {
  const wallMs = latencies.reduce((a, b) => a + b, 0);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    units: units * latencies.length,
    batches: latencies.length,
    concurrency: 1,
    wallMs,
    perSecond: (units * latencies.length) / (wallMs / 1000),
    latenciesMs: latencies,
    p50Ms: sorted[Math.floor((sorted.length - 1) / 2)]!,
    p95Ms: sorted[sorted.length - 1]!,
    maxMs: sorted[sorted.length - 1]!,
  };
}

function report(startedAt: string, fleetP50: number, ingestRate: number): RunReport {
  return {
    startedAt,
    machine: { cpus: 2, loadAverageAtStart: [0.42, 0.3, 0.2] },
    git: { sha: "4b2b26d0a1b2", dirty: false },
    benchmarks: [
      {
        id: "fleet-scores",
        title: "Fleet scores",
        unit: "req",
        metric: "latency",
        rows: [
          {
            label: "fleet risk 365 d (500 devices) <&>",
            fdp: m([fleetP50, fleetP50, fleetP50 * 2]),
            baseline: m([fleetP50 / 2, fleetP50 / 2, fleetP50 / 2]),
            goal: { pass: false, reason: "median ≥ 300 ms" },
          },
          { label: "green fleet 30 d (500 devices)", fdp: m([20, 22, 24]), baseline: m([10, 11, 12]) },
        ],
      },
      {
        id: "ingest",
        title: "Ingest",
        unit: "rec",
        rows: [
          {
            label: "ingest 1,000",
            fdp: { ...m([100, 100], 1000), perSecond: ingestRate },
            baseline: { ...m([50, 50], 1000), perSecond: ingestRate * 2 },
            goal: { pass: true, reason: "" },
          },
        ],
      },
    ],
  };
}

const RUNS = [report("2026-11-22T01:00:00.000Z", 400, 9000), report("2026-11-23T21:51:00.000Z", 350, 10000), report("2026-11-24T10:40:00.000Z", 280, 12000)];

/**
 * A strict well-formedness check of the XML the renderer writes (no parser among the dependencies):
 * one prolog, balanced and properly nested elements, quoted attributes without `<`, and no bare `&`
 * or `<` in text or attribute values.
 */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, "");
  expect(body.startsWith("<svg")).toBe(true);
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let match: RegExpExecArray | null;
  let roots = 0;
  while ((match = token.exec(body)) !== null) {
    const [, closing, name, attrs, selfClosing, text, stray] = match;
    if (stray) throw new Error(`stray "<" at ${match.index}: ${body.slice(match.index, match.index + 40)}`);
    if (text !== undefined) {
      if (stack.length === 0 && text.trim() !== "") throw new Error(`text outside the root element: ${text.slice(0, 40)}`);
      if (text.replace(entity, "").includes("&")) throw new Error(`bare "&" in text: ${text.slice(0, 60)}`);
      continue;
    }
    if (attrs && attrs.replace(entity, "").includes("&")) throw new Error(`bare "&" in attributes of <${name}>`);
    if (attrs) {
      const names = [...attrs.matchAll(/([\w:.-]+)="/g)].map((a) => a[1]);
      if (new Set(names).size !== names.length) throw new Error(`duplicate attribute in <${name}>`);
    }
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? "nothing"}>`);
    } else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) roots++;
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

describe("bench history: summary lines", () => {
  it("writes one line per benchmark row with the run, commit, load, figures, ratio and percentiles", () => {
    const lines = summaryLines(RUNS[0]!);
    expect(lines).toHaveLength(3);
    const [risk, green, ingest] = lines as [HistoryLine, HistoryLine, HistoryLine];
    expect(risk).toEqual({
      run: "2026-11-22T01:00:00.000Z",
      sha: "4b2b26d0a1b2",
      dirty: false,
      load1: 0.42,
      cpus: 2,
      bench: "fleet-scores",
      row: "fleet risk 365 d (500 devices) <&>",
      metric: "latency",
      unit: "ms",
      fdp: 400,
      baseline: 200,
      ratio: 2,
      p50: 400,
      p99: 800,
      baselineP50: 200,
      baselineP99: 200,
      n: 3,
      goal: "MISS",
    });
    expect(green.goal).toBeNull();
    expect(green.ratio).toBe(2);
    // A rate benchmark: figures in units/s, ratio FDP ÷ baseline rate.
    expect(ingest).toMatchObject({ bench: "ingest", metric: "rate", unit: "rec/s", fdp: 9000, baseline: 18000, ratio: 0.5, goal: "PASS", n: 2 });
    // Compact: one short JSON line each.
    for (const l of lines) expect(JSON.stringify(l).length).toBeLessThan(400);
  });

  it("takes the commit given (an imported result file's approximated one is marked)", () => {
    const [line] = summaryLines({ ...RUNS[0]!, git: undefined }, { sha: "abc", dirty: null, approx: true });
    expect(line).toMatchObject({ sha: "abc", dirty: null, shaApprox: true });
    expect(summaryLines({ ...RUNS[0]!, git: undefined })[0]).toMatchObject({ sha: "unknown", dirty: null });
  });

  it("rounds to four significant digits", () => {
    expect(sig(12345.678)).toBe(12350);
    expect(sig(0.012345)).toBe(0.01235);
    expect(sig(1.23456, 3)).toBe(1.23);
  });
});

describe("bench history: file and import", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("appends lines, reads them back, and imports result files once", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "fdp-bench-history-"));
    const history = path.join(dir, "history.jsonl");
    appendHistory(history, summaryLines(RUNS[0]!));
    const results = path.join(dir, "results");
    mkdirSync(results);
    // The first run is already in the history; the second is new; a broken file and a run made with BENCH_HISTORY=0 are skipped.
    writeFileSync(path.join(results, "a.json"), JSON.stringify(RUNS[0]));
    writeFileSync(path.join(results, "b.json"), JSON.stringify(RUNS[1]));
    writeFileSync(path.join(results, "c.json"), "{ not json");
    writeFileSync(path.join(results, "d.json"), JSON.stringify({ ...RUNS[2], history: false }));
    expect(importResults(dir, results, history)).toEqual(["b.json"]);
    expect(importResults(dir, results, history)).toEqual([]);
    const lines = readHistory(history);
    expect(lines).toHaveLength(6);
    expect(new Set(lines.map((l) => l.run))).toEqual(new Set([RUNS[0]!.startedAt, RUNS[1]!.startedAt]));
    expect(readFileSync(history, "utf8").trim().split("\n")).toHaveLength(6);
  });
});

describe("bench history: SVG plot", () => {
  const lines = RUNS.flatMap((r) => summaryLines(r));
  const svg = renderHistorySvg("fleet-scores", lines);

  it("is well-formed XML with one svg root", () => {
    assertWellFormedXml(svg);
    assertWellFormedXml(renderHistorySvg("ingest", lines));
    assertWellFormedXml(renderHistorySvg("nothing-yet", []));
  });

  it("draws one point per run for each row, in both panels", () => {
    for (const kind of ["ratio", "figure"]) {
      const points = [...svg.matchAll(new RegExp(`<circle class="point ${kind}" data-row="([^"]*)" data-run="([^"]*)"`, "g"))];
      expect(points).toHaveLength(RUNS.length * 2);
      for (const row of ["fleet risk 365 d (500 devices) <&>", "green fleet 30 d (500 devices)"]) {
        const runs = points.filter((p) => p[1] === xmlEscape(row)).map((p) => p[2]);
        expect(runs.sort()).toEqual(RUNS.map((r) => r.startedAt));
      }
    }
    // Rows of other benchmarks are not drawn.
    expect(svg).not.toContain("ingest 1,000");
  });

  it("labels the axes and the runs", () => {
    expect(svg).toContain(">run (start time UTC, commit)</text>");
    expect(svg).toContain(">FDP ÷ baseline time (1 = as fast; lower is better)</text>");
    expect(svg).toContain(">FDP median (ms)</text>");
    // Each run: its date, then its time and commit.
    expect(svg).toContain('>2026-11-24<tspan x="');
    expect(svg).toContain('">10:40 4b2b26d</tspan></text>');
    expect(svg).toContain('class="legend"');
    const ingest = renderHistorySvg("ingest", lines);
    expect(ingest).toContain(">FDP ÷ baseline rate (1 = as fast; higher is better)</text>");
    expect(ingest).toContain(">FDP (rec/s)</text>");
  });
});
