/**
 * The vehicle page's charts: plain server-rendered SVG (no chart library: the page needs four simple
 * shapes, and SVG keeps them crisp, printable and free of client JavaScript). Every chart is an
 * `role="img"` with an aria-label that says what it shows; the numbers themselves are in the text or
 * a table beside each chart, so nothing is carried by the drawing alone.
 */

import { formatScore, formatTime, NOT_MEASURED } from "@/lib/display/format";

const BRAND = "#1550b0"; // brand-700
const INK = "#334155"; // slate-700: 10:1 on white
const GRID = "#e2e8f0"; // slate-200

const km = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

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

/**
 * Spot prices as steps over time, the recommended windows shaded (the immediate charge amber, the
 * cheapest window green), "now" and the deadline marked.
 */
export function PriceChart({
  slots,
  nowMs,
  deadlineMs,
  windows,
}: {
  slots: PriceSlot[];
  nowMs: number;
  deadlineMs: number;
  windows: { startMs: number; endMs: number; kind: "cheapest" | "immediate" }[];
}) {
  const w = 640;
  const h = 220;
  const pad = { l: 44, r: 12, t: 14, b: 30 };
  const x0 = Math.min(nowMs, ...slots.map((s) => s.startMs));
  const x1 = Math.max(deadlineMs, ...slots.map((s) => s.endMs));
  const prices = slots.map((s) => s.cents);
  const pMax = Math.max(1, ...prices);
  const pMin = Math.min(0, ...prices);
  const x = (ms: number) => pad.l + ((ms - x0) / Math.max(1, x1 - x0)) * (w - pad.l - pad.r);
  const y = (c: number) => pad.t + (h - pad.t - pad.b) * (1 - (c - pMin) / (pMax - pMin));
  const step = slots.map((s) => `M${x(s.startMs).toFixed(1)},${y(s.cents).toFixed(1)}H${x(s.endMs).toFixed(1)}`).join("");
  const ticks: number[] = [];
  const HOUR = 3_600_000;
  const every = (x1 - x0) / HOUR > 24 ? 6 : 3;
  for (let t = Math.ceil(x0 / (every * HOUR)) * every * HOUR; t <= x1; t += every * HOUR) ticks.push(t);
  const cheapest = windows.find((win) => win.kind === "cheapest");
  const summary =
    `Spot prices from ${formatHelsinki(x0)} to ${formatHelsinki(x1)} Helsinki time, between ${Math.min(...prices).toFixed(1)} and ${Math.max(...prices).toFixed(1)} c/kWh.` +
    (cheapest ? ` Recommended window ${formatHelsinki(cheapest.startMs)} to ${formatTime(cheapest.endMs)}.` : " No window chosen.") +
    ` Deadline ${formatHelsinki(deadlineMs)}.`;
  return (
    <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} className="h-auto w-full max-w-3xl" data-chart="spot-prices">
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
      {[pMin, (pMin + pMax) / 2, pMax].map((g) => (
        <g key={g}>
          <line x1={pad.l} x2={w - pad.r} y1={y(g)} y2={y(g)} stroke={GRID} />
          <text x={pad.l - 6} y={y(g) + 4} textAnchor="end" fontSize="11" fill={INK}>
            {g.toFixed(0)}
          </text>
        </g>
      ))}
      <text x={4} y={pad.t - 3} fontSize="10" fill={INK}>
        c/kWh
      </text>
      <path d={step} stroke={BRAND} strokeWidth="2" fill="none" />
      {ticks.map((t) => (
        <text key={t} x={x(t)} y={h - 10} textAnchor="middle" fontSize="11" fill={INK}>
          {formatTime(t)}
        </text>
      ))}
      <line x1={x(nowMs)} x2={x(nowMs)} y1={pad.t} y2={h - pad.b} stroke={INK} strokeDasharray="4 3" />
      <text x={x(nowMs) + 3} y={pad.t + 10} fontSize="11" fill={INK}>
        now
      </text>
      <line x1={x(deadlineMs)} x2={x(deadlineMs)} y1={pad.t} y2={h - pad.b} stroke="#b91c1c" strokeWidth="2" />
      <text x={x(deadlineMs) - 3} y={pad.t + 10} textAnchor="end" fontSize="11" fill="#991b1b">
        deadline
      </text>
    </svg>
  );
}

/**
 * The odometer: the daily history, the forecast to the lease end and its interval as a widening band,
 * the contract limit as a horizontal line.
 */
export function MileageChart({
  history,
  current,
  end,
  lower,
  upper,
  contractKm,
  levelPct,
}: {
  history: { ms: number; km: number }[];
  current: { ms: number; km: number };
  end: { ms: number; km: number };
  lower: number;
  upper: number;
  contractKm: number | null;
  levelPct: number;
}) {
  const w = 640;
  const h = 220;
  const pad = { l: 64, r: 12, t: 14, b: 30 };
  const xs = [...history.map((p) => p.ms), current.ms, end.ms];
  const ys = [...history.map((p) => p.km), current.km, lower, upper, ...(contractKm !== null ? [contractKm] : [])];
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const yMin = Math.min(...ys);
  const yMax = Math.max(...ys);
  const x = (ms: number) => pad.l + ((ms - x0) / Math.max(1, x1 - x0)) * (w - pad.l - pad.r);
  const y = (v: number) => pad.t + (h - pad.t - pad.b) * (1 - (v - yMin) / Math.max(1, yMax - yMin));
  const line = history.map((p, i) => `${i === 0 ? "M" : "L"}${x(p.ms).toFixed(1)},${y(p.km).toFixed(1)}`).join("");
  const band = `M${x(current.ms)},${y(current.km)}L${x(end.ms)},${y(upper)}L${x(end.ms)},${y(lower)}Z`;
  const year = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
  const summary =
    `Odometer ${km.format(current.km)} km now; forecast ${km.format(end.km)} km by ${year.format(end.ms)}, ` +
    `${levelPct} % interval ${km.format(lower)} to ${km.format(upper)} km` +
    (contractKm !== null ? `; contract limit ${km.format(contractKm)} km.` : ".");
  return (
    <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} className="h-auto w-full max-w-3xl" data-chart="mileage">
      {[yMin, (yMin + yMax) / 2, yMax].map((g) => (
        <g key={g}>
          <line x1={pad.l} x2={w - pad.r} y1={y(g)} y2={y(g)} stroke={GRID} />
          <text x={pad.l - 6} y={y(g) + 4} textAnchor="end" fontSize="11" fill={INK}>
            {km.format(g)}
          </text>
        </g>
      ))}
      <path d={band} fill="#bfdbfe" opacity="0.8" />
      {contractKm !== null ? <line x1={pad.l} x2={w - pad.r} y1={y(contractKm)} y2={y(contractKm)} stroke="#b91c1c" strokeDasharray="6 4" /> : null}
      {contractKm !== null ? (
        <text x={pad.l + 4} y={y(contractKm) - 4} fontSize="11" fill="#991b1b">
          contract limit
        </text>
      ) : null}
      {history.length > 1 ? <path d={line} stroke={INK} strokeWidth="2" fill="none" /> : null}
      <line x1={x(current.ms)} y1={y(current.km)} x2={x(end.ms)} y2={y(end.km)} stroke={BRAND} strokeWidth="2" strokeDasharray="6 3" />
      <circle cx={x(current.ms)} cy={y(current.km)} r="3.5" fill={INK} />
      <circle cx={x(end.ms)} cy={y(end.km)} r="3.5" fill={BRAND} />
      <text x={pad.l} y={h - 10} fontSize="11" fill={INK}>
        {year.format(x0)}
      </text>
      {/* "today" only where it does not collide with the first or last date label (a short history puts it at the left edge). */}
      {x(current.ms) - pad.l > 80 && w - pad.r - x(current.ms) > 80 ? (
        <text x={x(current.ms)} y={h - 10} textAnchor="middle" fontSize="11" fill={INK}>
          today
        </text>
      ) : null}
      <text x={w - pad.r} y={h - 10} textAnchor="end" fontSize="11" fill={INK}>
        {year.format(x1)}
      </text>
    </svg>
  );
}
