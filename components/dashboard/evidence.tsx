/**
 * An alert's `technical_data` for a person: each field as a labelled value (snake_case words spelled
 * out, date-times in UTC, numbers grouped, lists and nested objects readable), in the detector's
 * order. The raw JSON stays available for a specialist in a <details>.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const number = new Intl.NumberFormat("en", { maximumFractionDigits: 3 });

function label(key: string): string {
  const words = key.replace(/_/g, " ").replace(/\b(soc|soh|dtc|pct|kw|kwh|km|id)\b/gi, (w) => ({ pct: "%", kw: "kW", kwh: "kWh" })[w.toLowerCase()] ?? w.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function readable(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") return Number.isFinite(value) ? number.format(value) : String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") {
    if (DATE_TIME.test(value)) {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
    }
    return value;
  }
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(readable).join(value.every((v) => typeof v !== "object" || v === null) ? ", " : "; ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${label(k)}: ${readable(v)}`)
      .join(", ");
  }
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects were handled above: a bigint or a symbol
  return String(value);
}

export function Evidence({ data }: { data: Record<string, unknown> }) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <p className="text-sm text-slate-600">No evidence recorded.</p>;
  return (
    <div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[minmax(10rem,auto)_1fr]">
        {entries.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-600">{label(k)}</dt>
            <dd className="break-words text-slate-900">{readable(v)}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-2 text-xs text-slate-600">
        <summary className="cursor-pointer">Raw evidence (JSON)</summary>
        <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-slate-100">{JSON.stringify(data, null, 2)}</pre>
      </details>
    </div>
  );
}
