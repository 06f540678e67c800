import Form from "next/form";
import { DownloadButton } from "@/components/dashboard/download-button";
import { PendingSubmit } from "@/components/dashboard/pending-submit";
import { checkReportPeriod, defaultReportPeriod } from "@/lib/dashboard/report-period";
import { requireDashboardSession } from "@/lib/dashboard/session";
import type { CsrdFigure, CsrdReport } from "@/lib/reports/csrd";
import type { EmissionsReport } from "@/lib/reports/emissions";
import { generateCsrdReport } from "@/lib/reports/generate-csrd-report";
import { getEmissionsReport } from "@/lib/reports/get-emissions-report";
import { formatNumber } from "@/lib/display/format";

export const metadata = { title: "Reports — FDP Dashboard" };

/**
 * The report's JSON writes 0 kWh for a fuel car and 0 l for a BEV, and null litres where no per-litre factor
 * is registered (lib/reports/emissions.ts); the table says in words which of those is "does not apply" and
 * which is "not in litres", so a 0 on the page is always a measured or estimated zero (issue 30).
 */
function electricityCell(v: EmissionsReport["vehicles"][number]): React.ReactNode {
  if (v.powertrain === "BEV") return formatNumber(v.energy_kwh, 1);
  return <span className="text-slate-600">{v.powertrain === "PHEV" ? "in the per-km factor" : "does not apply"}</span>;
}

function fuelCell(v: EmissionsReport["vehicles"][number]): React.ReactNode {
  if (v.powertrain === "BEV") return <span className="text-slate-600">does not apply</span>;
  return v.fuel_l === null ? <span className="text-slate-600">no per-litre factor</span> : formatNumber(v.fuel_l, 1);
}

type Query = { start_date?: string | string[]; end_date?: string | string[] };
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/**
 * Emissions and CSRD reports of a chosen period for the session's tenant, from the API's own verbs
 * (endpoints 8 and 13) with the API's date rules: bad dates are shown on the form, never a 500.
 * Downloads go through session-checked dashboard routes (CSV, PDF).
 */
export default async function ReportsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { ctx } = await requireDashboardSession();
  const q = await searchParams;
  const chosen = one(q.start_date) !== undefined || one(q.end_date) !== undefined;
  const input = chosen ? { start_date: one(q.start_date) ?? "", end_date: one(q.end_date) ?? "" } : defaultReportPeriod();
  const period = checkReportPeriod(input);
  let reports: { emissions: EmissionsReport; csrd: CsrdReport } | null = null;
  if (period.ok) {
    const dates = { start_date: period.start_date, end_date: period.end_date };
    const [emissions, csrd] = await Promise.all([
      getEmissionsReport({ ctx, input: { ...dates, format: "json" } }) as Promise<EmissionsReport>,
      generateCsrdReport({ ctx, input: { ...dates, format: "json" } }) as Promise<CsrdReport>,
    ]);
    reports = { emissions, csrd };
  }
  const errorFor = (field: string) =>
    period.ok
      ? undefined
      : period.errors
          .filter((e) => e.field === field)
          .map((e) => e.message)
          .join("; ") || undefined;
  const otherErrors = period.ok ? [] : period.errors.filter((e) => e.field !== "start_date" && e.field !== "end_date");
  const qs = period.ok ? `start_date=${period.start_date}&end_date=${period.end_date}` : "";
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Reports</h1>
      <p className="mt-1 max-w-3xl text-slate-600">
        Fleet emissions and the CSRD climate disclosure for a period of up to 366 days (UTC dates, both ends included), with the same figures as the API&apos;s reports.
      </p>

      <Form action="/dashboard/reports" className="mt-6 flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5" aria-label="Report period">
        <DateField name="start_date" label="Start date" value={input.start_date} error={errorFor("start_date")} />
        <DateField name="end_date" label="End date" value={input.end_date} error={errorFor("end_date")} />
        <PendingSubmit label="Show reports" pendingLabel="Preparing reports…" />
        {otherErrors.length > 0 ? (
          <p role="alert" className="w-full text-sm font-medium text-red-700">
            {otherErrors.map((e) => e.message).join("; ")}
          </p>
        ) : null}
      </Form>

      {reports ? (
        <>
          <EmissionsSection report={reports.emissions} qs={qs} />
          <CsrdSection report={reports.csrd} qs={qs} />
        </>
      ) : (
        <p className="mt-6 text-slate-600">Correct the dates above to see the reports.</p>
      )}
    </>
  );
}

function DateField({ name, label, value, error }: { name: string; label: string; value: string; error?: string }) {
  const id = `report-${name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="date"
        defaultValue={value}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`mt-1 block rounded-md border bg-white px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${error ? "border-red-600" : "border-slate-300"}`}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function EmissionsSection({ report, qs }: { report: EmissionsReport; qs: string }) {
  const totals = report.vehicles.reduce((t, v) => ({ distance: t.distance + v.distance_km, energy: t.energy + v.energy_kwh, fuel: t.fuel + (v.fuel_l ?? 0) }), {
    distance: 0,
    energy: 0,
    fuel: 0,
  });
  const moved = report.vehicles.some((v) => v.distance_km > 0);
  return (
    <section className="mt-8" aria-labelledby="emissions-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="emissions-title" className="text-xl font-semibold">
          Emissions, {report.period_start} to {report.period_end}
        </h2>
        <DownloadButton
          href={`/dashboard/reports/emissions-csv?${qs}`}
          label="Download CSV"
          busyLabel="Preparing CSV…"
          fallbackName={`emissions-${report.period_start}-${report.period_end}.csv`}
          testId="download-emissions-csv"
        />
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Tile label="Vehicles" value={String(report.total_vehicles)} />
        <Tile label="EV (BEV + PHEV)" value={String(report.ev_count)} />
        <Tile label="ICE and HEV" value={String(report.ice_count)} />
        <Tile label="CO₂e, kg (estimate)" value={formatNumber(report.total_co2_kg_estimate, 1)} />
      </dl>
      {report.vehicles.length === 0 ? (
        <Empty title="No vehicles yet" text="The emissions report lists every vehicle of the fleet; none has sent data yet." />
      ) : (
        <>
          {!moved ? (
            <p role="note" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
              No vehicle moved in this period: every row is zero. Choose dates when the fleet was driving.
            </p>
          ) : null}
          <div
            role="region"
            aria-label="Emissions per vehicle"
            tabIndex={0}
            className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <table className="min-w-full divide-y divide-slate-200 whitespace-nowrap text-sm" data-testid="emissions-table">
              <caption className="sr-only">Emissions per vehicle and the fleet total</caption>
              <thead className="bg-slate-50 text-left text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Vehicle
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Powertrain
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Distance, km
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Electricity, kWh
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Fuel, l
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    CO₂e, kg
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {report.vehicles.map((v) => (
                  <tr key={v.device_id} data-emissions-row={v.device_id}>
                    <th scope="row" className="px-4 py-2.5 text-left font-normal">
                      {v.device_name} <span className="ml-1 font-mono text-xs text-slate-600">{v.device_id}</span>
                    </th>
                    <td className="px-4 py-2.5">{v.powertrain}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(v.distance_km, 1)}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums" data-energy-cell>
                      {electricityCell(v)}
                    </td>
                    <td className="px-4 py-2.5 text-right tabular-nums" data-fuel-cell>
                      {fuelCell(v)}
                    </td>
                    <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(v.co2_kg, 1)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot className="border-t-2 border-slate-300 bg-slate-50 font-semibold">
                <tr data-emissions-total>
                  <th scope="row" className="px-4 py-2.5 text-left">
                    Total
                  </th>
                  <td className="px-4 py-2.5" />
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(totals.distance, 1)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(totals.energy, 1)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(totals.fuel, 1)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(report.total_co2_kg_estimate, 1)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function CsrdSection({ report, qs }: { report: CsrdReport; qs: string }) {
  const e = report.emissions;
  const cat13 = e.scope_3_categories.cat_13_downstream_leased_assets;
  const figures: CsrdFigure[] = [
    e.scope_1,
    e.scope_2_location_based,
    e.scope_2_market_based,
    e.scope_3,
    e.total_location_based,
    e.total_market_based,
    report.fleet_summary.energy_consumption.total,
  ];
  return (
    <section className="mt-10" aria-labelledby="csrd-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="csrd-title" className="text-xl font-semibold">
          CSRD climate disclosure (ESRS E1)
        </h2>
        <DownloadButton
          href={`/dashboard/reports/csrd-pdf?${qs}`}
          label="Download PDF"
          busyLabel="Preparing PDF…"
          fallbackName={`csrd-${report.period.start_date}-${report.period.end_date}.pdf`}
          testId="download-csrd-pdf"
        />
      </div>
      <p className="mt-3 text-sm text-slate-700" data-testid="csrd-role">
        <span className="font-semibold">Reporting role: {report.reporting_role}.</span> {report.consolidation_basis}
      </p>
      <div
        role="region"
        aria-label="CSRD key figures"
        tabIndex={0}
        className="relative mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="csrd-table">
          <caption className="sr-only">Key figures of the CSRD report</caption>
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Figure
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                ESRS datapoint
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Value
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {figures.map((f) => (
              <tr key={`${f.datapoint}-${f.label}`}>
                <th scope="row" className="px-4 py-2.5 text-left font-normal">
                  {f.label}
                </th>
                <td className="px-4 py-2.5 text-slate-700">{f.datapoint}</td>
                <td className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">
                  {f.value === null ? <span className="text-slate-600">not available</span> : `${formatNumber(f.value, 3)} ${f.unit}`}
                </td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="px-4 py-2.5 text-left font-normal">
                {cat13.label}
              </th>
              <td className="px-4 py-2.5 text-slate-700">{cat13.datapoint}</td>
              <td className="whitespace-nowrap px-4 py-2.5 text-right tabular-nums">
                {cat13.value === null ? <span className="text-slate-600">not reported ({report.reporting_role})</span> : `${formatNumber(cat13.value, 3)} ${cat13.unit}`}
              </td>
            </tr>
            <tr>
              <th scope="row" className="px-4 py-2.5 text-left font-normal">
                Green fleet score (0–100)
              </th>
              <td className="px-4 py-2.5 text-slate-700">FDP</td>
              <td className="px-4 py-2.5 text-right tabular-nums">{formatNumber(report.green_fleet_score.green_fleet_score, 1)}</td>
            </tr>
            <tr>
              <th scope="row" className="px-4 py-2.5 text-left font-normal">
                EV share of the fleet
              </th>
              <td className="px-4 py-2.5 text-slate-700">FDP</td>
              <td className="px-4 py-2.5 text-right tabular-nums">
                {report.ev_metrics.ev_share_pct === null ? "not available" : `${formatNumber(report.ev_metrics.ev_share_pct, 1)} %`}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <details className="mt-4 rounded-lg border border-slate-200 bg-white" data-testid="csrd-json" data-raw>
        <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
          The full report as data (JSON), for your reporting tools
        </summary>
        <pre className="max-h-[32rem] overflow-auto border-t border-slate-200 bg-slate-50 p-4 text-xs leading-relaxed text-slate-800" tabIndex={0} aria-label="CSRD report JSON">
          {JSON.stringify(report, null, 2)}
        </pre>
      </details>
    </section>
  );
}

function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="mx-auto mt-2 max-w-md text-slate-600">{text}</p>
    </div>
  );
}
