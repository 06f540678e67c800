import { FLEET_TIME_ZONE_NAME, formatDateTime, formatNumber } from "@/lib/display/format";
import { plainWords } from "@/lib/display/words";

/**
 * A fleet score as a headline card: the 0–100 figure, what "higher" means, its confidence, and each
 * component as a labelled bar (the number is always printed; the bar only illustrates it). A null
 * component ("cannot be computed") says so instead of drawing a zero.
 */
interface ScoreCardProps {
  id: string;
  title: string;
  score: number;
  higherMeans: string;
  confidence: "high" | "medium" | "low";
  components: { label: string; value: number | null }[];
  periodDays: number;
  /** When the figure was computed: the maintained snapshot's time, or now (lib/dashboard/fleet-page-scores.ts). */
  asOf: Date;
  limitations: string[];
  /** The method's version (`score_version`), which names the methodology note that describes it. */
  methodVersion: string;
}

export function ScoreCard({ id, title, score, higherMeans, confidence, components, periodDays, asOf, limitations, methodVersion }: ScoreCardProps) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4" data-score-card={id}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={id} className="font-semibold">
          {title}
        </h2>
        <span className="text-right text-xs text-slate-600">
          last {periodDays} days · confidence {confidence} ·{" "}
          <span data-as-of={id}>
            as of <time dateTime={asOf.toISOString()}>{formatDateTime(asOf)}</time> {FLEET_TIME_ZONE_NAME}
          </span>
        </span>
      </div>
      <p className="mt-2">
        <span className="text-3xl font-bold tabular-nums" data-score>
          {formatNumber(score, 1)}
        </span>
        <span className="ml-1 text-sm text-slate-600">/ 100, higher = {higherMeans}</span>
      </p>
      <dl className="mt-3 space-y-1.5 text-sm">
        {components.map((c) => (
          <div key={c.label} className="grid grid-cols-[minmax(8rem,11rem)_1fr_3rem] items-center gap-2">
            <dt className="text-slate-700">{c.label}</dt>
            <dd className="h-2 overflow-hidden rounded bg-slate-100" aria-hidden="true">
              {c.value !== null && <div className="h-2 rounded bg-brand-700" style={{ width: `${Math.max(0, Math.min(100, c.value))}%` }} />}
            </dd>
            <dd className="text-right tabular-nums text-slate-900">{c.value === null ? <span className="text-slate-600">n/a</span> : formatNumber(c.value, 1)}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-brand-700">{limitations.length === 0 ? "Method" : `Limitations (${limitations.length}) and method`}</summary>
        {limitations.length > 0 && (
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
            {limitations.map((l) => (
              <li key={l}>{plainWords(l)}</li>
            ))}
          </ul>
        )}
        <p className="mt-2 text-slate-600">
          Method version <span className="font-mono">{methodVersion}</span>. FDP&apos;s methodology note of that version sets out its inputs, weights, limits and sources.
        </p>
      </details>
    </section>
  );
}
