import { EmptyState } from "@/components/dashboard/empty-state";
import Link from "next/link";
import { Evidence } from "@/components/dashboard/evidence";
import { alertDismissals } from "@/lib/alerts/alert-dismissals";
import { DISMISSAL_REASON_MAX, DISMISSAL_REASON_MIN } from "@/lib/alerts/dismiss-alert";
import { listAlerts } from "@/lib/alerts/list-alerts";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { alertsQuerySchema, type AlertList } from "@/lib/schemas/alerts";
import { deviceNames } from "@/lib/dashboard/device-names";
import { formatDateTime, FLEET_TIME_ZONE_NAME } from "@/lib/display/format";
import { AGENT_NAMES, plainWords, wordsFor } from "@/lib/display/words";
import { SEVERITIES, type Severity } from "@/lib/vocabulary/alerts";
import { acknowledgeAlertAction, dismissAlertAction } from "./actions";

export const metadata = { title: "Alerts — FDP Dashboard" };

const SEVERITY_STYLE: Record<Severity, string> = {
  CRITICAL: "bg-red-100 text-red-800",
  WARNING: "bg-amber-100 text-amber-900",
  INFO: "bg-sky-100 text-sky-800",
};
const ACK_CHOICES = [
  { value: "false", label: "Open" },
  { value: "true", label: "Acknowledged" },
  { value: "", label: "All" },
] as const;

type Alert = AlertList["data"][number];
type Dismissals = Awaited<ReturnType<typeof alertDismissals>>;

/**
 * Repeats of one problem on one vehicle (same vehicle, detector and severity) in one group, newest
 * first: seven near-identical critical odometer alerts read as one problem raised seven times.
 */
function groupRepeats(data: readonly Alert[]): Alert[][] {
  const groups = new Map<string, Alert[]>();
  for (const a of data) {
    const k = `${a.device_id}\u0000${a.agent}\u0000${a.severity}\u0000${a.acknowledged}`;
    const g = groups.get(k);
    if (g) g.push(a);
    else groups.set(k, [a]);
  }
  return [...groups.values()];
}

/**
 * The tenant's alerts, newest first, through the same verb as GET /api/v1/alerts (severity and
 * acknowledged filters, at most 200), with the evidence readable by a person and an "Acknowledge"
 * action the API does not have. Filters are a plain GET form: the URL can be shared and bookmarked.
 */
export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx } = await requireDashboardSession();
  const sp = await searchParams;
  const one = (k: string) => (typeof sp[k] === "string" && sp[k] !== "" ? sp[k] : undefined);
  // Open alerts by default: what a reviewer works through.
  const ackParam = sp.acknowledged === undefined ? "false" : one("acknowledged");
  const parsed = alertsQuerySchema.safeParse({ limit: "200", severity: one("severity"), acknowledged: ackParam });
  const query = parsed.success ? parsed.data : alertsQuerySchema.parse({ limit: "200", acknowledged: "false" });
  const { data } = await listAlerts({ ctx, input: query });
  // Dismissals are dashboard-only (the API's alert shape does not carry them): one query for the page.
  const [dismissals, names] = await Promise.all([
    alertDismissals({ ctx, input: { alert_ids: data.map((a) => a.id) } }),
    deviceNames({ ctx, input: { device_ids: data.map((a) => a.device_id) } }),
  ]);
  const dismissError = one("dismiss_error");
  const ackValue = query.acknowledged === undefined ? "" : String(query.acknowledged);

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Alerts</h1>
      <p className="mt-1 text-slate-600">
        What FDP&apos;s checks found in the fleet&apos;s data, newest first, with their evidence. Repeats of one problem on one vehicle are grouped. Times are{" "}
        {FLEET_TIME_ZONE_NAME}.
      </p>

      <form method="get" className="mt-6 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-4" aria-label="Filter alerts">
        <div>
          <label htmlFor="severity" className="block text-sm font-medium text-slate-700">
            Severity
          </label>
          <select id="severity" name="severity" defaultValue={query.severity ?? ""} className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
            <option value="">All severities</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s.charAt(0) + s.slice(1).toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="acknowledged" className="block text-sm font-medium text-slate-700">
            State
          </label>
          <select id="acknowledged" name="acknowledged" defaultValue={ackValue} className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
            {ACK_CHOICES.map((c) => (
              <option key={c.label} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
        >
          Apply
        </button>
        {!parsed.success && (
          <p role="alert" className="text-sm text-red-700">
            Unknown filter values were ignored.
          </p>
        )}
      </form>

      {dismissError !== undefined && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          The alert {dismissError} was not dismissed: the reason must be {DISMISSAL_REASON_MIN} to {DISMISSAL_REASON_MAX} characters of plain text.
        </p>
      )}

      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {data.length === 200 ? "The 200 newest matching alerts." : `${data.length} alert${data.length === 1 ? "" : "s"}.`}
      </p>

      {data.length === 0 ? (
        <EmptyState id="no-alerts" title="No alerts match" className="mt-4">
          <p className="mx-auto mt-2 max-w-md text-slate-600">Nothing the detectors raised matches these filters. Choose “All” to see acknowledged alerts too.</p>
        </EmptyState>
      ) : (
        <ul className="mt-4 space-y-3" data-testid="alert-list">
          {groupRepeats(data).map(([first, ...repeats]) => (
            <li key={first!.id} className="rounded-lg border border-slate-200 bg-white p-4" data-alert-group={repeats.length + 1}>
              <AlertCard a={first!} name={names.get(first!.device_id)} dismissals={dismissals} />
              {repeats.length > 0 ? (
                <details className="mt-3 border-t border-slate-100 pt-3" data-testid="alert-repeats">
                  <summary className="cursor-pointer text-sm font-medium text-brand-700">
                    {repeats.length} earlier alert{repeats.length === 1 ? "" : "s"} like this on the same vehicle
                  </summary>
                  <ul className="mt-2 space-y-3">
                    {repeats.map((a) => (
                      <li key={a.id} className="rounded-md border border-slate-100 bg-slate-50 p-3">
                        <AlertCard a={a} name={names.get(a.device_id)} dismissals={dismissals} />
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The resolution FDP recorded when later data contradicted the alert (docs/methodology/alerts.md, "Resolved by the data"). */
function resolutionOf(technicalData: Record<string, unknown>): Record<string, unknown> | null {
  const r = technicalData.resolution;
  return r !== null && typeof r === "object" && !Array.isArray(r) ? (r as Record<string, unknown>) : null;
}

/** One alert: what, on which vehicle, when; its action at a fixed place (top right); its evidence in words. */
function AlertCard({ a, name, dismissals }: { a: Alert; name: string | undefined; dismissals: Dismissals }) {
  const vehicle = name ?? a.device_id;
  const dismissal = dismissals.get(a.id);
  const resolution = resolutionOf(a.technical_data);
  return (
    <div data-alert-id={a.id} data-device-id-ref={a.device_id}>
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${SEVERITY_STYLE[a.severity]}`}>{a.severity}</span>
            <Link href={`/dashboard/vehicles/${encodeURIComponent(a.device_id)}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
              {vehicle}
            </Link>
            {name ? <span className="font-mono text-xs text-slate-600">{a.device_id}</span> : null}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {wordsFor(AGENT_NAMES, a.agent)} check · raised {formatDateTime(a.created_at)} · confidence {Math.round(a.confidence * 100)} %
          </p>
          <h2 className="mt-1.5 font-semibold text-slate-900">{plainWords(a.prediction)}</h2>
        </div>
        {a.acknowledged ? (
          <p className="max-w-48 text-right text-sm text-slate-600">
            {a.acknowledged_by?.startsWith("fdp:") ? "Resolved by FDP" : `Acknowledged by ${a.acknowledged_by ?? "unknown"}`}
            {a.acknowledged_at ? ` on ${formatDateTime(a.acknowledged_at)}` : ""}
          </p>
        ) : (
          <form action={acknowledgeAlertAction}>
            <input type="hidden" name="alert_id" value={a.id} />
            <button
              type="submit"
              aria-label={`Acknowledge the ${a.severity.toLowerCase()} alert on ${vehicle}: ${a.prediction}`}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Acknowledge
            </button>
          </form>
        )}
      </div>
      {typeof resolution?.reason === "string" ? (
        <p className="mt-2 rounded-md bg-slate-100 p-2 text-sm text-slate-800" data-testid="resolution">
          {plainWords(resolution.reason)}
        </p>
      ) : null}
      {dismissal ? (
        <p className="mt-2 rounded-md bg-slate-100 p-2 text-sm text-slate-800" data-testid="dismissal">
          Dismissed as a false alarm by {dismissal.dismissed_by} on {formatDateTime(dismissal.dismissed_at)}: {dismissal.reason}
        </p>
      ) : (
        <details className="mt-3" data-testid="dismiss">
          <summary className="cursor-pointer text-sm font-medium text-brand-700">Dismiss as false alarm</summary>
          <form action={dismissAlertAction} className="mt-2 space-y-2">
            <input type="hidden" name="alert_id" value={a.id} />
            <label htmlFor={`reason-${a.id}`} className="block text-sm font-medium text-slate-700">
              Why is this a false alarm? (recorded in the audit log; a dismissed odometer or state-of-health alert no longer counts as knockout evidence)
            </label>
            <textarea
              id={`reason-${a.id}`}
              name="reason"
              required
              minLength={DISMISSAL_REASON_MIN}
              maxLength={DISMISSAL_REASON_MAX}
              rows={2}
              className="block w-full max-w-xl rounded-md border border-slate-300 px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            />
            <button
              type="submit"
              aria-label={`Confirm dismissal of the ${a.severity.toLowerCase()} alert on ${vehicle} as a false alarm`}
              className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
            >
              Confirm dismissal
            </button>
          </form>
        </details>
      )}
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">Evidence</summary>
        <div className="mt-2">
          <Evidence data={a.technical_data} />
        </div>
      </details>
    </div>
  );
}
