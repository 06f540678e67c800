import type { AuditAction, AuditEventRow } from "@/lib/audit/list-audit-events";
import { SCOPES } from "@/lib/auth/key-format";
import { formatDateTime } from "@/lib/display/format";

const LABELS: Record<AuditAction, string> = {
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "ingest_secret.revealed": "Ingest secret revealed",
  "ingest_secret.rotated": "Ingest secret rotated",
  "signed_ingest.required_changed": "Signed ingest switched",
  "alert.acknowledged": "Alert acknowledged",
  "alert.dismissed": "Alert dismissed as false alarm",
  "webhook.created": "Webhook registered",
  "webhook.deleted": "Webhook deleted",
  "webhook.replayed": "Webhook events sent again",
};

/** What changed, in words (details never hold a secret: lib/audit/record-audit-event.ts). */
function describe(e: AuditEventRow): string {
  const d = e.details;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  switch (e.action) {
    case "api_key.created":
    case "api_key.revoked": {
      const list = Array.isArray(d.scopes) ? (d.scopes as string[]) : null;
      const scopes = d.scopes === "all" || (list && SCOPES.every((s) => list.includes(s))) ? "all scopes" : list ? list.join(", ") : null;
      return [str(d.name) ? `“${str(d.name)}”` : "unnamed", str(d.display_prefix) ? `${str(d.display_prefix)}…` : null, scopes].filter(Boolean).join(" · ");
    }
    case "signed_ingest.required_changed":
      return d.required === true ? "now required" : "no longer required";
    case "alert.dismissed":
      return str(d.reason) ?? "";
    case "webhook.created":
      return [str(d.url), Array.isArray(d.events) ? (d.events as string[]).join(", ") : null].filter(Boolean).join(" · ");
    case "webhook.replayed":
      return typeof d.events === "number" ? `${d.events} event${d.events === 1 ? "" : "s"} since ${str(d.since) ? formatDateTime(new Date(str(d.since)!)) : "then"}` : "";
    default:
      return "";
  }
}

/** The tenant's latest audit events (who, when, what), newest first. */
export function AuditLog({ events, caption }: { events: AuditEventRow[]; caption: string }) {
  if (events.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-600">
        No changes recorded yet. Creating or revoking a key, revealing or rotating the ingest secret, and switching signed ingest appear here.
      </p>
    );
  }
  return (
    <div
      role="region"
      aria-label="Audit log"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="audit-log">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="whitespace-nowrap px-4 py-3 font-semibold">
              When (Helsinki time)
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Who
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              What
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Details
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {events.map((e) => (
            <tr key={e.id} data-audit-action={e.action}>
              <td className="whitespace-nowrap px-4 py-2.5 tabular-nums">
                <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt)}</time>
              </td>
              <td className="px-4 py-2.5" title={e.actorUserId}>
                {e.actorEmail}
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 font-medium">{LABELS[e.action] ?? e.action}</td>
              <td className="px-4 py-2.5 text-slate-700">{describe(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
