import { EmptyState } from "@/components/dashboard/empty-state";
import Link from "next/link";
import { AlertLevelBadge, StatusBadge } from "@/components/dashboard/badges";
import { FleetMap } from "@/components/fleet-map/fleet-map";
import { ScoreCard } from "@/components/dashboard/score-card";
import { fleetScoreQuerySchema } from "@/lib/schemas/scores-fleet";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
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
const PERIODS = ["7d", "30d", "90d", "365d"] as const;

export default async function FleetPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx } = await requireDashboardSession();
  const requested = (await searchParams).period;
  // The API's own period rule (GET /scores/fleet-risk?period=): anything else falls back to 30 days, said on the page.
  const parsed = fleetScoreQuerySchema.safeParse({ period: typeof requested === "string" ? requested : undefined });
  const query = parsed.success ? parsed.data : fleetScoreQuerySchema.parse({});
  const [rows, risk, green] = await Promise.all([listFleetTable({ ctx }), getFleetRisk({ ctx, input: query }), getGreenFleet({ ctx, input: query })]);
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
          <form method="get" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Period of the fleet scores">
            <div>
              <label htmlFor="period" className="block text-sm font-medium text-slate-700">Score period</label>
              <select id="period" name="period" defaultValue={`${query.period}d`} className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
                {(PERIODS.includes(`${query.period}d` as (typeof PERIODS)[number]) ? PERIODS : [...PERIODS, `${query.period}d`]).map((p) => (
                  <option key={p} value={p}>last {p.replace("d", " days")}</option>
                ))}
              </select>
            </div>
            <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
              Update scores
            </button>
            {!parsed.success && <p className="text-sm text-red-700">That period is not valid (1–365 days, like <code>30d</code>): showing the last 30 days.</p>}
          </form>
          <div className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
            <ScoreCard
              id="fleet-risk"
              title="Fleet risk"
              score={risk.fleet_risk_score}
              higherMeans="riskier"
              confidence={risk.confidence}
              periodDays={risk.period_days}
              limitations={risk.limitations}
              methodHref="docs/methodology/fleet-risk.md"
              components={[
                { label: "Event severity", value: risk.components.event_severity },
                { label: "Weather exposure", value: risk.components.weather_exposure },
                { label: "Time pattern", value: risk.components.time_pattern },
                { label: "Speed compliance", value: risk.components.speed_compliance },
                { label: "EV charging risk", value: risk.components.ev_charging_risk },
              ]}
            />
            <ScoreCard
              id="green-fleet"
              title="Green fleet"
              score={green.green_fleet_score}
              higherMeans="greener"
              confidence={green.confidence}
              periodDays={query.period}
              limitations={green.limitations}
              methodHref="docs/methodology/green-fleet.md"
              components={[
                { label: "EV share", value: green.components.ev_share },
                { label: "CO2 intensity", value: green.components.co2_intensity },
                { label: "Energy efficiency", value: green.components.energy_efficiency },
              ]}
            />
          </div>
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
