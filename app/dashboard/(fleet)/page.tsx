import { EmptyState } from "@/components/dashboard/empty-state";
import Link from "next/link";
import { AlertLevelBadge, StatusBadge } from "@/components/dashboard/badges";
import { FleetMap } from "@/components/fleet-map/fleet-map";
import { listFleetTable, type FleetTableRow } from "@/lib/dashboard/fleet-table";
import { requireDashboardSession } from "@/lib/dashboard/session";

export const metadata = { title: "Fleet — FDP Dashboard" };

const percent = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });

function summary(rows: FleetTableRow[]) {
  return [
    { label: "Vehicles", value: rows.length },
    { label: "Driving", value: rows.filter((r) => r.status === "driving").length },
    { label: "Charging", value: rows.filter((r) => r.status === "charging").length },
    { label: "Critical alerts", value: rows.filter((r) => r.alert_level === "critical").length },
  ];
}

/** The fleet: server-rendered from the fleet verb of GET /api/v1/fleet, for the signed-in user's tenant only. */
export default async function FleetPage() {
  const { ctx } = await requireDashboardSession();
  const rows = await listFleetTable({ ctx });
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Fleet</h1>
          <p className="mt-1 text-slate-600">The latest state of every vehicle, as the API's <code className="rounded bg-slate-100 px-1 text-sm">GET /fleet</code> reports it.</p>
        </div>
      </div>
      {rows.length === 0 ? (
        <EmptyFleet />
      ) : (
        <>
          <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {summary(rows).map((s) => (
              <div key={s.label} className="rounded-lg border border-slate-200 bg-white p-4">
                <dt className="text-sm text-slate-600">{s.label}</dt>
                <dd className="mt-1 text-2xl font-semibold tabular-nums">{s.value}</dd>
              </div>
            ))}
          </dl>
          <section className="mt-6" aria-labelledby="fleet-map-title">
            <h2 id="fleet-map-title" className="sr-only">Fleet map</h2>
            {/* Latest positions coloured by alert level, clustered; the offline Natural Earth basemap unless NEXT_PUBLIC_MAP_TILE_URL is set. */}
            <FleetMap
              vehicles={rows.map((r) => ({ device_id: r.device_id, name: r.device_name, lat: r.lat, lon: r.lon, alert_level: r.alert_level, status: r.status, powertrain: r.powertrain, soc_pct: r.soc_pct }))}
              height={440}
              ariaLabel="Map of the fleet's latest positions, coloured by alert level"
            />
          </section>
          <FleetTable rows={rows} />
        </>
      )}
    </>
  );
}

function FleetTable({ rows }: { rows: FleetTableRow[] }) {
  return (
    <div role="region" aria-label="Fleet table" tabIndex={0} className="mt-6 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
      {/* On a phone the table scrolls sideways inside its frame (names keep two lines at most) rather than squeezing every column. */}
      <table className="min-w-full divide-y divide-slate-200 whitespace-nowrap text-sm [&_td:nth-child(2)]:whitespace-normal" data-testid="fleet-table">
        <caption className="sr-only">Vehicles of the fleet, by device id</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">Device</th>
            <th scope="col" className="px-4 py-3 font-semibold">Name</th>
            <th scope="col" className="px-4 py-3 font-semibold">Status</th>
            <th scope="col" className="px-4 py-3 font-semibold">Alert level</th>
            <th scope="col" className="px-4 py-3 font-semibold">Powertrain</th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">SOC</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.device_id} data-device-row={r.device_id} className="hover:bg-slate-50">
              <td className="whitespace-nowrap px-4 py-2.5 font-mono text-xs">
                <Link href={`/dashboard/vehicles/${encodeURIComponent(r.device_id)}`} className="text-brand-700 underline-offset-2 hover:underline">
                  {r.device_id}
                </Link>
              </td>
              <td className="min-w-44 px-4 py-2.5">{r.device_name}</td>
              <td className="px-4 py-2.5"><StatusBadge status={r.status} /></td>
              <td className="px-4 py-2.5"><AlertLevelBadge level={r.alert_level} /></td>
              <td className="px-4 py-2.5">{r.powertrain ?? <span className="text-slate-500">unknown</span>}</td>
              <td className="px-4 py-2.5 text-right tabular-nums">
                {r.soc_pct === null ? <span className="text-slate-500" aria-label="not reported">—</span> : `${percent.format(r.soc_pct)} %`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EmptyFleet() {
  return (
    <EmptyState id="empty-fleet" title="No vehicles yet" className="mt-8">
      <p className="mx-auto mt-2 max-w-md text-slate-600">
        Vehicles appear here as soon as your telematics provider sends their first records to <code className="rounded bg-slate-100 px-1 text-sm">POST /api/v1/oem/ingest</code>.
        Create an API key with the <code className="rounded bg-slate-100 px-1 text-sm">ingest:write</code> scope to connect one.
      </p>
      <p className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/dashboard/keys" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900">API keys</Link>
        <Link href="/docs" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100">API reference</Link>
      </p>
    </EmptyState>
  );
}
