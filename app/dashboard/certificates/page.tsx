import { EmptyState } from "@/components/dashboard/empty-state";
import Link from "next/link";
import { DownloadButton } from "@/components/dashboard/download-button";
import { GenerateCertificateForm } from "@/components/dashboard/generate-certificate-form";
import { listCertifiableVehicles, listCertificates, type CertificateListRow } from "@/lib/certificates/queries/list-certificates";
import { requireDashboardSession } from "@/lib/dashboard/session";
import type { CertificateStatus } from "@/lib/schemas/certificates";
import { generateCertificateAction } from "./actions";
import { formatDate } from "@/lib/display/format";

export const metadata = { title: "Certificates — FDP Dashboard" };

const STATUS_STYLE: Record<CertificateStatus, { word: string; tone: string }> = {
  valid: { word: "Valid", tone: "bg-emerald-100 text-emerald-800" },
  expired: { word: "Expired", tone: "bg-amber-100 text-amber-900" },
  revoked: { word: "Revoked", tone: "bg-red-100 text-red-800" },
  invalid: { word: "Not valid", tone: "bg-red-100 text-red-800" },
};

const day = (d: Date) => formatDate(d);
const pdfHref = (number: string) => `/dashboard/certificates/${encodeURIComponent(number)}/pdf`;

/**
 * The tenant's vehicle health certificates: generate one (endpoint 11's verb), the list (newest first),
 * the PDF in the page (`?view=<number>`), its download and the public verify page. `?device=<id>`
 * preselects a vehicle (for a "generate certificate" link from the vehicle page).
 */
export default async function CertificatesPage({ searchParams }: { searchParams: Promise<{ view?: string | string[]; generated?: string; device?: string | string[] }> }) {
  const { ctx } = await requireDashboardSession();
  const [rows, vehicles, query] = await Promise.all([listCertificates({ ctx }), listCertifiableVehicles({ ctx }), searchParams]);
  const view = typeof query.view === "string" ? rows.find((r) => r.number === query.view) : undefined;
  // `?device=<id>` (the vehicle page's "generate certificate" link) preselects one of the tenant's own vehicles.
  const preselected = typeof query.device === "string" && vehicles.some((v) => v.device_id === query.device) ? query.device : undefined;
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Certificates</h1>
      <p className="mt-1 max-w-3xl text-slate-600">
        Signed vehicle health certificates: the condition grade, battery and residual value at the time of issue. Anyone can check one on its public verify page; what it certifies
        never changes.
      </p>

      <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-5" aria-labelledby="generate-title">
        <h2 id="generate-title" className="text-lg font-semibold">
          Generate a certificate
        </h2>
        {vehicles.length === 0 ? (
          <p className="mt-2 text-slate-600">No vehicles yet: a certificate describes one of your vehicles once it has sent data.</p>
        ) : (
          <div className="mt-3">
            <GenerateCertificateForm vehicles={vehicles} selected={preselected} action={generateCertificateAction} />
          </div>
        )}
      </section>

      {view ? <Viewer row={view} justGenerated={query.generated === "1"} /> : null}

      {rows.length === 0 ? <NoCertificates /> : <CertificateTable rows={rows} viewing={view?.number} />}
    </>
  );
}

function StatusPill({ status }: { status: CertificateStatus }) {
  const s = STATUS_STYLE[status];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${s.tone}`}>{s.word}</span>;
}

function Viewer({ row, justGenerated }: { row: CertificateListRow; justGenerated: boolean }) {
  return (
    <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-5" aria-labelledby="viewer-title" data-testid="certificate-viewer">
      {justGenerated ? (
        <p role="status" className="mb-3 rounded-md bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900">
          Certificate {row.number} generated.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="viewer-title" className="text-lg font-semibold">
          <span className="font-mono">{row.number}</span> <StatusPill status={row.status} />
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <DownloadButton href={`${pdfHref(row.number)}?download=1`} label="Download PDF" busyLabel="Preparing PDF…" fallbackName={`${row.number}.pdf`} testId="viewer-download" />
          <Link href={`/verify/${encodeURIComponent(row.number)}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100">
            Public verify page
          </Link>
          <Link href="/dashboard/certificates" className="rounded-md px-3 py-1.5 text-sm font-medium text-brand-700 underline">
            Close
          </Link>
        </div>
      </div>
      {/* The stored PDF as issued, from the dashboard route (session-checked, same verb as the API). An
          iframe, not <object>: the pages' Content-Security-Policy has `object-src 'none'` (plugins), while
          frames of this origin are allowed (lib/http/security-headers.ts). */}
      <iframe src={pdfHref(row.number)} title={`Certificate ${row.number} (PDF)`} className="mt-4 block h-[70vh] min-h-96 w-full rounded border border-slate-200 bg-slate-50" />
      <p className="mt-2 text-sm text-slate-700">
        No PDF above? This browser does not show PDFs in the page:{" "}
        <a className="text-brand-700 underline" href={`${pdfHref(row.number)}?download=1`}>
          download the PDF
        </a>{" "}
        instead.
      </p>
    </section>
  );
}

function CertificateTable({ rows, viewing }: { rows: CertificateListRow[]; viewing?: string }) {
  // `relative`: the screen-reader-only header text is absolutely positioned; without a positioned
  // frame it escapes the scrolling frame and widens the whole page on a phone.
  return (
    <div
      role="region"
      aria-label="Certificates"
      tabIndex={0}
      className="relative mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="min-w-full divide-y divide-slate-200 whitespace-nowrap text-sm" data-testid="certificate-table">
        <caption className="sr-only">Certificates of the fleet, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Number
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Vehicle
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Grade
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Generated
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Expires
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr
              key={r.number}
              data-certificate-row={r.number}
              aria-current={r.number === viewing ? "true" : undefined}
              className={r.number === viewing ? "bg-brand-50" : "hover:bg-slate-50"}
            >
              <td className="px-4 py-2.5 font-mono text-xs">{r.number}</td>
              <td className="px-4 py-2.5">
                <Link href={`/dashboard/vehicles/${encodeURIComponent(r.device_id)}`} className="text-brand-700 underline-offset-2 hover:underline">
                  {r.device_name ?? r.device_id}
                </Link>
                <span className="ml-2 font-mono text-xs text-slate-600">{r.device_id}</span>
              </td>
              <td className="px-4 py-2.5 font-semibold">{r.grade}</td>
              <td className="px-4 py-2.5 tabular-nums">
                <time dateTime={r.generated_at.toISOString()}>{day(r.generated_at)}</time>
              </td>
              <td className="px-4 py-2.5 tabular-nums">
                <time dateTime={r.expires_at.toISOString()}>{day(r.expires_at)}</time>
              </td>
              <td className="px-4 py-2.5">
                <StatusPill status={r.status} />
              </td>
              <td className="px-4 py-2.5">
                <span className="flex gap-3">
                  <Link href={`/dashboard/certificates?view=${encodeURIComponent(r.number)}`} className="text-brand-700 underline" aria-label={`View ${r.number}`}>
                    View
                  </Link>
                  <a href={`${pdfHref(r.number)}?download=1`} className="text-brand-700 underline" aria-label={`Download ${r.number} as PDF`} download>
                    Download
                  </a>
                  <Link href={`/verify/${encodeURIComponent(r.number)}`} className="text-brand-700 underline" aria-label={`Verify page of ${r.number}`}>
                    Verify
                  </Link>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NoCertificates() {
  return (
    <EmptyState id="no-certificates" title="No certificates yet">
      <p className="mx-auto mt-2 max-w-md text-slate-600">
        Choose a vehicle above to issue its first certificate. Each one is signed, stored unchanged, and checkable by anyone at its public verify page.
      </p>
    </EmptyState>
  );
}
