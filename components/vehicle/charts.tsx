/**
 * The vehicle page's charts: server-rendered SVG, free of client JavaScript, with d3-scale for the
 * axes ("nice" round ticks: 0/10/20 c/kWh, 40,000/60,000 km, not 0/3/7 or 38,350/99,108). Each chart is
 * drawn twice, for a phone and for a wider screen, and CSS shows the one that fits: an SVG scales its
 * text with its width, so one drawing is either unreadable at 390 px (5 px labels) or oversized on a
 * desktop card. Every chart is an `role="img"` with an aria-label that says what it shows; the numbers
 * themselves are in the text beside each chart, so nothing is carried by the drawing alone.
 */

import { scaleLinear, scaleUtc } from "d3-scale";
import { formatDate, formatKm, formatMonth, formatNumber, formatScore, formatTime, FLEET_TIME_ZONE_NAME, NOT_MEASURED } from "@/lib/display/format";

const BRAND = "#1550b0"; // brand-700
const INK = "#334155"; // slate-700: 10:1 on white
const GRID = "#e2e8f0"; // slate-200

export const formatHelsinki = (ms: number) => formatTime(ms, true);

/**
 * 0–100 scores as labelled bars: the name and the value on one line, the bar full width below it, so
 * the bar keeps its length on a phone. A null value draws no bar and says why in words ("does not
 * apply", "not measured"), never a zero.
 */
export function ScoreBars({ label, items }: { label: string; items: { name: string; value: number | null; note?: string; detail?: string }[] }) {
  return (
    <ul className="mt-3 space-y-2.5" aria-label={label} data-score-bars>
      {items.map((it) => (
        <li key={it.name} className="text-sm" data-score-bar={it.name}>
          <div className="flex items-baseline justify-between gap-3">
            <span className="text-slate-700">
              {it.name}
              {it.detail ? <span className="ml-1 text-xs text-slate-600">({it.detail})</span> : null}
            </span>
            <span className="shrink-0 text-right font-medium tabular-nums">
              {it.value === null ? <span className="font-normal text-slate-600">{it.note ?? NOT_MEASURED}</span> : formatScore(it.value)}
            </span>
          </div>
          <span aria-hidden="true" className="mt-1 block h-2 overflow-hidden rounded-full bg-slate-100">
            {it.value !== null ? <span className="block h-full rounded-full bg-brand-700" style={{ width: `${Math.max(0, Math.min(100, it.value))}%` }} /> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

export interface PriceSlot {
  startMs: number;
  endMs: number;
  cents: number;
}

/** The two drawings of a chart: a phone's (narrow, larger type relative to its width) and a wider screen's. */
const LAYOUTS = [
  { key: "narrow", w: 360, h: 230, font: 12, className: "block h-auto w-full sm:hidden" },
  { key: "wide", w: 760, h: 240, font: 12, className: "hidden h-auto w-full sm:block" },
] as const;
type Layout = (typeof LAYOUTS)[number];

const HOUR = 3_600_000;

/** Hour ticks on whole Helsinki hours divisible by `every` (UTC ticks would land on 02:00, 05:00 local). */
function helsinkiHourTicks(x0: number, x1: number, every: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(x0 / HOUR) * HOUR; t <= x1; t += HOUR) {
    if (Number(formatTime(t).slice(0, 2)) % every === 0) out.push(t);
  }
  return out;
}

/**
 * Spot prices as steps over time, the windows the plan uses shaded (the immediate charge amber, the
 * cheapest window green), "now" and the deadline marked. Hours before the deadline with no published
 * price (day-ahead prices for tomorrow come out in the afternoon) are shaded grey and labelled, so the
 * curve ending before the deadline reads as "not known yet", not as a gap in the data.
 */
export function PriceChart(props: { slots: PriceSlot[]; nowMs: number; deadlineMs: number; windows: { startMs: number; endMs: number; kind: "cheapest" | "immediate" }[] }) {
  const { slots, nowMs, deadlineMs, windows } = props;
  const prices = slots.map((s) => s.cents);
  const x0 = Math.min(nowMs, ...slots.map((s) => s.startMs));
  const x1 = Math.max(deadlineMs, ...slots.map((s) => s.endMs));
  const cheapest = windows.find((win) => win.kind === "cheapest");
  const summary =
    `Spot prices from ${formatHelsinki(x0)} to ${formatHelsinki(x1)} ${FLEET_TIME_ZONE_NAME}, between ${formatNumber(Math.min(...prices), 1)} and ${formatNumber(Math.max(...prices), 1)} c/kWh.` +
    (cheapest ? ` Recommended window ${formatHelsinki(cheapest.startMs)} to ${formatTime(cheapest.endMs)}.` : " No window chosen.") +
    ` Deadline ${formatHelsinki(deadlineMs)}.`;
  return (
    <div data-chart="spot-prices">
      {LAYOUTS.map((l) => (
        <PriceDrawing key={l.key} layout={l} summary={summary} x0={x0} x1={x1} {...props} />
      ))}
    </div>
  );
}

function PriceDrawing({
  layout,
  summary,
  x0,
  x1,
  slots,
  nowMs,
  deadlineMs,
  windows,
}: { layout: Layout; summary: string; x0: number; x1: number } & Parameters<typeof PriceChart>[0]) {
  const { w, h, font } = layout;
  const pad = { l: 40, r: 12, t: 26, b: 30 };
  const x = scaleLinear()
    .domain([x0, x1])
    .range([pad.l, w - pad.r]);
  const y = scaleLinear()
    .domain([Math.min(0, ...slots.map((s) => s.cents)), Math.max(1, ...slots.map((s) => s.cents))])
    .range([h - pad.b, pad.t])
    .nice(4);
  const step = slots.map((s) => `M${x(s.startMs).toFixed(1)},${y(s.cents).toFixed(1)}H${x(s.endMs).toFixed(1)}`).join("");
  const spanHours = (x1 - x0) / HOUR;
  const every = layout.key === "narrow" ? (spanHours > 18 ? 6 : 4) : spanHours > 30 ? 6 : 3;
  const lastPriced = Math.max(...slots.map((s) => s.endMs));
  return (
    <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} className={layout.className}>
      {windows.map((win) => (
        <rect
          key={win.kind}
          data-window={win.kind}
          x={x(win.startMs)}
          y={pad.t}
          width={Math.max(2, x(win.endMs) - x(win.startMs))}
          height={h - pad.t - pad.b}
          fill={win.kind === "cheapest" ? "#bbf7d0" : "#fde68a"}
          opacity="0.8"
        />
      ))}
      {lastPriced < deadlineMs ? (
        <g data-unpriced>
          <rect x={x(lastPriced)} y={pad.t} width={x(x1) - x(lastPriced)} height={h - pad.t - pad.b} fill="#f1f5f9" />
          <text x={(x(lastPriced) + x(x1)) / 2} y={(pad.t + h - pad.b) / 2} textAnchor="middle" fontSize={font - 1} fill={INK}>
            not published yet
          </text>
        </g>
      ) : null}
      {y.ticks(4).map((g) => (
        <g key={g}>
          <line x1={pad.l} x2={w - pad.r} y1={y(g)} y2={y(g)} stroke={GRID} />
          <text x={pad.l - 6} y={y(g) + 4} textAnchor="end" fontSize={font} fill={INK}>
            {formatNumber(g)}
          </text>
        </g>
      ))}
      {/* The unit above the axis, clear of the top tick. */}
      <text x={4} y={12} fontSize={font} fill={INK}>
        c/kWh incl. VAT
      </text>
      <path d={step} stroke={BRAND} strokeWidth="2" fill="none" />
      {helsinkiHourTicks(x0, x1, every).map((t) => (
        <text key={t} x={x(t)} y={h - 10} textAnchor="middle" fontSize={font} fill={INK}>
          {formatTime(t)}
        </text>
      ))}
      <line x1={x(nowMs)} x2={x(nowMs)} y1={pad.t} y2={h - pad.b} stroke={INK} strokeDasharray="4 3" />
      <text x={x(nowMs) + 3} y={pad.t - 4} fontSize={font} fill={INK}>
        now
      </text>
      <line x1={x(deadlineMs)} x2={x(deadlineMs)} y1={pad.t} y2={h - pad.b} stroke="#b91c1c" strokeWidth="2" />
      <text x={x(deadlineMs) - 3} y={pad.t - 4} textAnchor="end" fontSize={font} fill="#991b1b">
        deadline
      </text>
    </svg>
  );
}

interface MileageProps {
  history: { ms: number; km: number }[];
  current: { ms: number; km: number };
  end: { ms: number; km: number };
  lower: number;
  upper: number;
  contractKm: number | null;
  levelPct: number;
}

/**
 * The odometer: the daily history, the forecast to the lease end and its interval as a widening band,
 * the contract limit as a horizontal line.
 */
export function MileageChart(props: MileageProps) {
  const { current, end, lower, upper, contractKm, levelPct } = props;
  const summary =
    `Odometer ${formatKm(current.km)} now; forecast ${formatKm(end.km)} by ${formatDate(end.ms)}, ` +
    `${levelPct} % interval ${formatNumber(lower)} to ${formatKm(upper)}` +
    (contractKm !== null ? `; contract limit ${formatKm(contractKm)}.` : ".");
  return (
    <div data-chart="mileage">
      {LAYOUTS.map((l) => (
        <MileageDrawing key={l.key} layout={l} summary={summary} {...props} />
      ))}
    </div>
  );
}

function MileageDrawing({ layout, summary, history, current, end, lower, upper, contractKm }: MileageProps & { layout: Layout; summary: string }) {
  const { w, h, font } = layout;
  const pad = { l: layout.key === "narrow" ? 52 : 64, r: 14, t: 14, b: 30 };
  const xs = [...history.map((p) => p.ms), current.ms, end.ms];
  const ys = [...history.map((p) => p.km), current.km, lower, upper, ...(contractKm !== null ? [contractKm] : [])];
  const x = scaleUtc()
    .domain([new Date(Math.min(...xs)), new Date(Math.max(...xs))])
    .range([pad.l, w - pad.r]);
  const y = scaleLinear()
    .domain([Math.min(...ys), Math.max(...ys)])
    .range([h - pad.b, pad.t])
    .nice(4);
  const line = history.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.ms).toFixed(1)},${y(p.km).toFixed(1)}`).join("");
  const band = `M${x(current.ms)},${y(current.km)}L${x(end.ms)},${y(upper)}L${x(end.ms)},${y(lower)}Z`;
  // Thousands on a phone ("40k"), full figures on a wider screen.
  const kmTick = (v: number) => (layout.key === "narrow" ? `${formatNumber(v / 1000)}k` : formatNumber(v));
  return (
    <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} className={layout.className}>
      {y.ticks(4).map((g) => (
        <g key={g}>
          <line x1={pad.l} x2={w - pad.r} y1={y(g)} y2={y(g)} stroke={GRID} />
          <text x={pad.l - 6} y={y(g) + 4} textAnchor="end" fontSize={font} fill={INK}>
            {kmTick(g)}
          </text>
        </g>
      ))}
      <path d={band} fill="#bfdbfe" opacity="0.8" />
      {contractKm !== null ? <line x1={pad.l} x2={w - pad.r} y1={y(contractKm)} y2={y(contractKm)} stroke="#b91c1c" strokeDasharray="6 4" /> : null}
      {contractKm !== null ? (
        <text x={pad.l + 4} y={y(contractKm) - 4} fontSize={font} fill="#991b1b">
          contract limit
        </text>
      ) : null}
      {history.length > 1 ? <path d={line} stroke={INK} strokeWidth="2" fill="none" /> : null}
      <line x1={x(current.ms)} y1={y(current.km)} x2={x(end.ms)} y2={y(end.km)} stroke={BRAND} strokeWidth="2" strokeDasharray="6 3" />
      <circle cx={x(current.ms)} cy={y(current.km)} r="3.5" fill={INK} />
      <circle cx={x(end.ms)} cy={y(end.km)} r="3.5" fill={BRAND} />
      {x.ticks(layout.key === "narrow" ? 3 : 6).map((t) => (
        <text key={t.getTime()} x={x(t)} y={h - 10} textAnchor="middle" fontSize={font} fill={INK}>
          {formatMonth(t)}
        </text>
      ))}
    </svg>
  );
}
