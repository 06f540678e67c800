import { formatDateTime, FLEET_TIME_ZONE_NAME } from "@/lib/display/format";
import { keyWords } from "@/lib/display/words";

/**
 * An alert's `technical_data` for a person: each field as a labelled value (keys spelled out as words,
 * values that are vocabulary keys too, date-times in the fleet's time zone, numbers grouped, lists and
 * nested objects readable), in the detector's order. The raw JSON stays available for a specialist in
 * a <details>.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** A value that is itself a key of FDP's vocabulary ("drop_pp", "previous_state"), not prose. */
const KEY_VALUE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const number = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 3 });
function label(key: string): string {
  const w = keyWords(key);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function readable(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "number") return Number.isFinite(value) ? number.format(value) : String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") {
    if (DATE_TIME.test(value)) {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return `${formatDateTime(d)} (${FLEET_TIME_ZONE_NAME})`;
    }
    return KEY_VALUE.test(value) ? keyWords(value) : value;
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
      <details className="mt-2 text-xs text-slate-600" data-raw>
        <summary className="cursor-pointer">Raw evidence (JSON)</summary>
        <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-slate-100">{JSON.stringify(data, null, 2)}</pre>
      </details>
    </div>
  );
}
