import { EmptyState } from "@/components/dashboard/empty-state";
import Link from "next/link";
import { AlertLevelBadge, StatusBadge } from "@/components/dashboard/badges";
import { FleetMap } from "@/components/fleet-map/fleet-map";
import { ScoreCard } from "@/components/dashboard/score-card";
import { DEFAULT_PERIOD_DAYS, fleetScoreQuerySchema, MAX_PERIOD_DAYS } from "@/lib/schemas/scores-fleet";
import { fleetTableViewOf, listFleetTable, viewFleetTable, type FleetSortKey, type FleetTableRow, type FleetTableView } from "@/lib/dashboard/fleet-table";
import { getFleetPageScores } from "@/lib/dashboard/fleet-page-scores";
import { FLEET_STATUSES } from "@/lib/schemas/fleet";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { FLEET_TIME_ZONE_NAME, formatDateTime, formatPct } from "@/lib/display/format";

export const metadata = { title: "Fleet — FDP Dashboard" };

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
  const sp = await searchParams;
  const requested = sp.period;
  const view = fleetTableViewOf(sp);
  // The API's own period rule (GET /scores/fleet-risk?period=): anything else falls back to 30 days, said on the page.
  const parsed = fleetScoreQuerySchema.safeParse({ period: typeof requested === "string" ? requested : undefined });
  const query = parsed.success ? parsed.data : fleetScoreQuerySchema.parse({});
  const rows = await listFleetTable({ ctx });
  // The scores and every listed vehicle's TAS grade: maintained after each ingest for the default period, with the
  // time each was computed (lib/dashboard/fleet-page-scores.ts); other periods through the API's verbs, now.
  const { risk: riskKept, green: greenKept, grades, gradesAsOf } = await getFleetPageScores({ ctx, periodDays: query.period, deviceIds: rows.map((r) => r.device_id) });
  const risk = riskKept.answer;
  const green = greenKept.answer;
  const tableRows = viewFleetTable(
    rows.map((r) => ({ ...r, tas_grade: grades.get(r.device_id) ?? null })),
    view,
  );
  const periodParam = parsed.success && typeof requested === "string" ? requested : undefined;
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Fleet</h1>
          <p className="mt-1 text-slate-600">The latest state of every vehicle, and how the fleet scores over the period you choose.</p>
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
              <label htmlFor="period" className="block text-sm font-medium text-slate-700">
                Score period
              </label>
              <select id="period" name="period" defaultValue={`${query.period}d`} className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
                {(PERIODS.includes(`${query.period}d` as (typeof PERIODS)[number]) ? PERIODS : [...PERIODS, `${query.period}d`]).map((p) => (
                  <option key={p} value={p}>
                    last {p.replace("d", " days")}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="submit"
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Update scores
            </button>
            {!parsed.success && (
              <p className="text-sm text-red-700">
                That period is not valid (1–{MAX_PERIOD_DAYS} days, like <code>30d</code>): showing the last {DEFAULT_PERIOD_DAYS} days.
              </p>
            )}
          </form>
          <div className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
            <ScoreCard
              id="fleet-risk"
              title="Fleet risk"
              score={risk.fleet_risk_score}
              higherMeans="riskier"
              confidence={risk.confidence}
              periodDays={risk.period_days}
              asOf={riskKept.computedAt}
              limitations={risk.limitations}
              methodVersion={risk.score_version}
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
              asOf={greenKept.computedAt}
              limitations={green.limitations}
              methodVersion={green.score_version}
              components={[
                { label: "EV share", value: green.components.ev_share },
                { label: "CO2 intensity", value: green.components.co2_intensity },
                { label: "Energy efficiency", value: green.components.energy_efficiency },
              ]}
            />
          </div>
          <section className="mt-6" aria-labelledby="fleet-map-title">
            <h2 id="fleet-map-title" className="sr-only">
              Fleet map
            </h2>
            {/* Latest positions coloured by alert level, clustered; the offline Natural Earth basemap unless NEXT_PUBLIC_MAP_TILE_URL is set. */}
            <FleetMap
              vehicles={rows.map((r) => ({
                device_id: r.device_id,
                name: r.device_name,
                lat: r.lat,
                lon: r.lon,
                alert_level: r.alert_level,
                status: r.status,
                powertrain: r.powertrain,
                soc_pct: r.soc_pct,
              }))}
              height={440}
              ariaLabel="Map of the fleet's latest positions, coloured by alert level"
            />
          </section>
          <TableFilters view={view} period={periodParam} />
          <FleetTable rows={tableRows} view={view} period={periodParam} total={rows.length} gradesAsOf={gradesAsOf} />
        </>
      )}
    </>
  );
}

type Row = FleetTableRow & { tas_grade: string | null };

/** The page's URL for a view: sorting and filters are query parameters, so a view can be bookmarked and needs no script. */
function hrefOf(view: FleetTableView, period: string | undefined): string {
  const q = new URLSearchParams();
  if (period) q.set("period", period);
  if (view.status) q.set("status", view.status);
  if (view.alert) q.set("alert", view.alert);
  if (view.powertrain) q.set("powertrain", view.powertrain);
  q.set("sort", view.sort);
  q.set("dir", view.dir);
  return `/dashboard?${q.toString()}#fleet-table`;
}

function SortHeader({ label, sortKey, view, period, numeric }: { label: string; sortKey: FleetSortKey; view: FleetTableView; period?: string; numeric?: boolean }) {
  const active = view.sort === sortKey;
  const next: FleetTableView = { ...view, sort: sortKey, dir: active && view.dir === "asc" ? "desc" : "asc" };
  return (
    <th scope="col" aria-sort={active ? (view.dir === "asc" ? "ascending" : "descending") : "none"} className={`px-4 py-3 font-semibold ${numeric ? "text-right" : ""}`}>
      <Link href={hrefOf(next, period)} className="inline-flex items-center gap-1 underline-offset-2 hover:underline" data-sort-key={sortKey}>
        {label}
        <span aria-hidden="true" className="text-slate-500">
          {active ? (view.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
        <span className="sr-only">{active ? `, sorted ${view.dir === "asc" ? "ascending" : "descending"}; activate to reverse` : ", activate to sort"}</span>
      </Link>
    </th>
  );
}

function TableFilters({ view, period }: { view: FleetTableView; period?: string }) {
  const select = "mt-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";
  return (
    <form method="get" action="/dashboard#fleet-table" className="mt-6 flex flex-wrap items-end gap-3" aria-label="Filter the fleet table">
      {period && <input type="hidden" name="period" value={period} />}
      <input type="hidden" name="sort" value={view.sort} />
      <input type="hidden" name="dir" value={view.dir} />
      <div>
        <label htmlFor="filter-status" className="block text-sm font-medium text-slate-700">
          Status
        </label>
        <select id="filter-status" name="status" defaultValue={view.status ?? ""} className={select}>
          <option value="">Any status</option>
          {FLEET_STATUSES.map((st) => (
            <option key={st} value={st}>
              {st}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="filter-alert" className="block text-sm font-medium text-slate-700">
          Alert level
        </label>
        <select id="filter-alert" name="alert" defaultValue={view.alert ?? ""} className={select}>
          <option value="">Any level</option>
          {["critical", "warning", "info", "none"].map((a) => (
            <option key={a} value={a}>
              {a === "none" ? "no alerts" : a}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="filter-powertrain" className="block text-sm font-medium text-slate-700">
          Powertrain
        </label>
        <select id="filter-powertrain" name="powertrain" defaultValue={view.powertrain ?? ""} className={select}>
          <option value="">Any powertrain</option>
          {["BEV", "PHEV", "HEV", "ICE", "unknown"].map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        Filter table
      </button>
    </form>
  );
}

function FleetTable({ rows, view, period, total, gradesAsOf }: { rows: Row[]; view: FleetTableView; period?: string; total: number; gradesAsOf: Date }) {
  return (
    <div
      id="fleet-table"
      role="region"
      aria-label="Fleet table"
      tabIndex={0}
      className="relative mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      {/* On a phone the table scrolls sideways inside its frame (names keep two lines at most) rather than squeezing every column. */}
      <table className="min-w-full divide-y divide-slate-200 whitespace-nowrap text-sm [&_td:nth-child(2)]:whitespace-normal" data-testid="fleet-table">
        <caption className="px-4 py-2 text-left text-sm text-slate-600">
          {rows.length === total ? `${total} vehicles` : `${rows.length} of ${total} vehicles match the filters`}; the map above shows them all. Status and state of charge are the
          latest received; TAS grades are{" "}
          <span data-as-of="tas-grades">
            as of <time dateTime={gradesAsOf.toISOString()}>{formatDateTime(gradesAsOf)}</time> {FLEET_TIME_ZONE_NAME}
          </span>
          .
        </caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <SortHeader label="Device" sortKey="device" view={view} period={period} />
            <SortHeader label="Name" sortKey="name" view={view} period={period} />
            <SortHeader label="Status" sortKey="status" view={view} period={period} />
            <SortHeader label="Alert level" sortKey="alert" view={view} period={period} />
            <SortHeader label="Powertrain" sortKey="powertrain" view={view} period={period} />
            <SortHeader label="SOC" sortKey="soc" view={view} period={period} numeric />
            <SortHeader label="TAS grade" sortKey="tas" view={view} period={period} />
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
              <td className="px-4 py-2.5">
                <StatusBadge status={r.status} />
              </td>
              <td className="px-4 py-2.5">
                <AlertLevelBadge level={r.alert_level} />
              </td>
              <td className="px-4 py-2.5">{r.powertrain ?? <span className="text-slate-500">unknown</span>}</td>
              <td className="px-4 py-2.5 text-right tabular-nums">
                {r.soc_pct === null ? (
                  <span className="text-slate-500" aria-label="not reported">
                    —
                  </span>
                ) : (
                  formatPct(r.soc_pct, 0)
                )}
              </td>
              <td className="px-4 py-2.5 font-semibold" data-tas-grade={r.tas_grade ?? ""}>
                {r.tas_grade ?? (
                  <span className="font-normal text-slate-500" aria-label="not graded">
                    —
                  </span>
                )}
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
        <Link href="/dashboard/keys" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900">
          API keys
        </Link>
        <Link href="/docs" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100">
          API reference
        </Link>
      </p>
    </EmptyState>
  );
}
