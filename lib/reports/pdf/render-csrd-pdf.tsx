import { Document, Page, Rect, StyleSheet, Svg, Text, View, renderToBuffer } from "@react-pdf/renderer";
// Relative: this module also runs in the PDF worker thread (tsx, no bundler aliases).
import { plainWords } from "../../display/words";
import { BAND_HEIGHT, BRAND, BrandBand, PageFooter, Tile, brandStyles, groupDigits } from "../../pdf/brand";
import { SANS, registerCertificateFonts } from "../../certificates/pdf/certificate-fonts";
import type { CsrdFigure, CsrdReport } from "../csrd";

/**
 * The CSRD report as an A4 PDF: a title block (period, versions, the ESRS text the labels follow; no
 * tenant id), headline tiles, a bar chart of tCO2e by scope and one of the EV share by month (drawn with
 * react-pdf's Svg primitives), then one table per section: emissions by scope with their ESRS
 * datapoints, E1-5 energy, EV metrics, green fleet score, data quality, method notes.
 *
 * The document holds aggregates only (the per-vehicle rows stay in the JSON and the emissions report),
 * so its size and rendering time (200–400 ms) do not grow with the fleet: at most 13 months of trend, a
 * fixed number of rows. The verb renders it on the certificate PDF worker pool
 * (renderCsrdPdfInWorker), off the event loop. Fonts: the certificate's local Geist files (no network).
 */

const BAR = { scope1: "#b45309", scope2: "#0e7490", scope3: "#6d28d9", market: "#0891b2", cat13: "#94a3b8", ev: "#15803d" };

export const CSRD_PDF_SECTION_TITLES = [
  "Emissions by scope (ESRS E1-6)",
  "Energy consumption (ESRS E1-5)",
  "EV metrics",
  "Green fleet score",
  "Data quality",
  "Method notes",
] as const;

const s = StyleSheet.create({
  ...brandStyles,
  page: { fontFamily: SANS, fontSize: 9, color: BRAND.ink, paddingTop: BAND_HEIGHT + 18, paddingBottom: 48, paddingHorizontal: 36 },
  intro: { borderWidth: 1, borderColor: BRAND.line, borderRadius: 6, padding: 10, marginBottom: 12, backgroundColor: BRAND.paper },
  introTitle: { fontSize: 14, fontWeight: 600, marginBottom: 4 },
  introLine: { fontSize: 8.5, color: BRAND.muted, marginTop: 2 },
  head: { flexDirection: "row", borderBottomWidth: 1, borderBottomColor: BRAND.faint, paddingVertical: 3 },
  headCell: { fontSize: 7.5, fontWeight: 600, color: BRAND.muted, textTransform: "uppercase", paddingRight: 6 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: BRAND.line, paddingVertical: 3.5 },
  cell: { paddingRight: 6 },
  num: { textAlign: "right" },
  chartRow: { flexDirection: "row", alignItems: "center", marginVertical: 2 },
  chartLabel: { width: "30%", fontSize: 8, color: BRAND.muted, paddingRight: 6 },
  chartValue: { width: "16%", fontSize: 8, textAlign: "right" },
  para: { fontSize: 8, color: BRAND.ink, marginTop: 3, lineHeight: 1.35 },
  caption: { fontSize: 7.5, color: BRAND.muted, marginTop: 3 },
});

const NA = "not available";
const num = (n: number | null, digits: number) => (n === null ? NA : groupDigits(n, digits));
/** tCO2e and MWh with 3 decimals (kg, kWh); the JSON carries gram and Wh precision. */
const fig = (f: CsrdFigure) => (f.value === null ? NA : `${groupDigits(f.value, 3)} ${f.unit}`);

interface Column {
  title: string;
  width: string;
  numeric?: boolean;
}

function Table({ columns, rows }: { columns: Column[]; rows: string[][] }) {
  return (
    <View>
      <View style={s.head} wrap={false}>
        {columns.map((c, i) => (
          <Text key={i} style={[s.headCell, { width: c.width }, c.numeric ? s.num : {}]}>
            {c.title}
          </Text>
        ))}
      </View>
      {rows.map((r, i) => (
        <View key={i} style={s.row} wrap={false}>
          {r.map((v, j) => (
            <Text key={j} style={[s.cell, { width: columns[j]!.width }, columns[j]!.numeric ? s.num : {}]}>
              {v}
            </Text>
          ))}
        </View>
      ))}
    </View>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <View style={s.section}>
      <Text style={s.sectionTitle} minPresenceAhead={60}>
        {title}
      </Text>
      {children}
    </View>
  );
}

const BAR_WIDTH = 270;

/** Horizontal bars, one per scope figure, scaled to the largest (a figure that is null is left out). */
function ScopeChart({ report }: { report: CsrdReport }) {
  const e = report.emissions;
  const bars = [
    { label: "Scope 1 (fuel, tank-to-wheel)", value: e.scope_1.value, colour: BAR.scope1 },
    { label: "Scope 2 location-based (charging)", value: e.scope_2_location_based.value, colour: BAR.scope2 },
    { label: "Scope 2 market-based (contract)", value: e.scope_2_market_based.value, colour: BAR.market },
    { label: "Scope 3 cat. 3 (well-to-tank, upstream)", value: e.scope_3_categories.cat_3_fuel_and_energy_related.value, colour: BAR.scope3 },
    { label: "Scope 3 cat. 13 (leased-out days)", value: e.scope_3_categories.cat_13_downstream_leased_assets.value, colour: BAR.cat13 },
  ].filter((b): b is { label: string; value: number; colour: string } => b.value !== null);
  const max = Math.max(...bars.map((b) => b.value), 0);
  return (
    <View wrap={false}>
      {bars.map((b, i) => (
        <View key={i} style={s.chartRow}>
          <Text style={s.chartLabel}>{b.label}</Text>
          <Svg width={BAR_WIDTH} height={12} viewBox={`0 0 ${BAR_WIDTH} 12`}>
            <Rect x={0} y={0} width={BAR_WIDTH} height={12} fill={BRAND.paper} />
            <Rect x={0} y={0} width={max > 0 ? Math.max(0.5, (BAR_WIDTH * b.value) / max) : 0.5} height={12} fill={b.colour} />
          </Svg>
          <Text style={s.chartValue}>{groupDigits(b.value, 3)} t</Text>
        </View>
      ))}
      <Text style={s.caption}>Chart: gross GHG emissions by scope, tCO2e, bars scaled to the largest figure.</Text>
    </View>
  );
}

const TREND_HEIGHT = 70;

/** Vertical bars: EV share of the active vehicles of known powertrain, per month (0–100 %). */
function TrendChart({ report }: { report: CsrdReport }) {
  const trend = report.ev_metrics.trend;
  const slot = Math.min(40, Math.floor(460 / Math.max(1, trend.length)));
  const width = slot * trend.length;
  return (
    <View wrap={false} style={{ marginTop: 6 }}>
      <Svg width={width} height={TREND_HEIGHT} viewBox={`0 0 ${width} ${TREND_HEIGHT}`}>
        <Rect x={0} y={0} width={width} height={TREND_HEIGHT} fill={BRAND.paper} />
        {trend.map((p, i) => {
          const h = p.ev_share_pct === null ? 0 : (TREND_HEIGHT * p.ev_share_pct) / 100;
          return <Rect key={i} x={i * slot + slot * 0.15} y={TREND_HEIGHT - h} width={slot * 0.7} height={h} fill={BAR.ev} />;
        })}
      </Svg>
      <View style={{ flexDirection: "row", width }}>
        {trend.map((p, i) => (
          <Text key={i} style={{ width: slot, fontSize: 6, color: BRAND.muted, textAlign: "center" }}>
            {p.month.slice(2)}
          </Text>
        ))}
      </View>
      <Text style={s.caption}>Chart: EV share (BEV + PHEV) of the vehicles that reported in each month, 0–100 %.</Text>
    </View>
  );
}

function CsrdDocument({ report }: { report: CsrdReport }) {
  const { period, emissions: e, fleet_summary: f, ev_metrics: ev, green_fleet_score: g, data_quality: q } = report;
  const energy = f.energy_consumption;
  const cat13 = e.scope_3_categories.cat_13_downstream_leased_assets;
  const cat3 = e.scope_3_categories.cat_3_fuel_and_energy_related;
  const grid = e.scope_2_location_based.grid_factor;
  const bio = energy.fuel_bio_share;
  const figureRow = (x: CsrdFigure, extra = "") => [x.datapoint, x.label + extra, fig(x)];
  const figureColumns: Column[] = [
    { title: "ESRS datapoint", width: "22%" },
    { title: "Disclosure", width: "55%" },
    { title: "Value", width: "23%", numeric: true },
  ];
  const title = `CSRD climate disclosure ${period.start_date} to ${period.end_date}`;
  return (
    <Document
      title={`FDP ${title}`}
      author="FDP - Fleet Data Products"
      subject={`ESRS E1-style fleet disclosure, ${report.method_version}`}
      creator="FDP report service"
      producer="FDP report service (@react-pdf/renderer)"
      creationDate={new Date(report.generated_at)}
      language="en"
    >
      <Page size="A4" style={s.page}>
        <BrandBand title="CSRD climate disclosure (ESRS E1)" sub={`${period.start_date} to ${period.end_date}`} />

        <View style={s.intro} wrap={false}>
          <Text style={s.introTitle}>Fleet climate disclosure, {period.days} day(s)</Text>
          <Text style={s.introLine}>
            Period: {period.start_date} to {period.end_date} (UTC, both days included). Generated {report.generated_at.slice(0, 16).replace("T", " ")} UTC.
          </Text>
          <Text style={s.introLine}>Datapoint labels follow: {report.esrs_version}.</Text>
          <Text style={s.introLine}>
            Method {report.method_version}; emissions report {e.emissions_report.method_version}, factors {e.emissions_report.factors_version}; green fleet {g.score_version}.
          </Text>
          <Text style={s.introLine}>
            Reporting role: {report.reporting_role}. Consolidation basis: {report.consolidation_basis}
          </Text>
        </View>

        <View style={s.tiles} wrap={false}>
          <Tile missing={NA} label="Total GHG (location-based)" value={num(e.total_location_based.value, 3)} unit="tCO2e" />
          <Tile missing={NA} label="Energy consumption" value={num(energy.total.value, 3)} unit="MWh" />
          <Tile missing={NA} label="EV share" value={num(ev.ev_share_pct, 1)} unit="%" />
          <Tile missing={NA} label="Green fleet score" value={num(g.green_fleet_score, 1)} unit="/ 100" last />
        </View>

        <Section title={CSRD_PDF_SECTION_TITLES[0]}>
          <ScopeChart report={report} />
          <Table
            columns={figureColumns}
            rows={[
              figureRow(e.scope_1),
              figureRow(e.scope_2_location_based, ` [grid factor: ${grid.basis}; ${grid.value} ${grid.unit}, ${grid.year}${grid.verified ? "" : ", not verified"}]`),
              [
                e.scope_2_market_based.datapoint,
                e.scope_2_market_based.label +
                  (e.scope_2_market_based.contract_factor_g_per_kwh === null
                    ? " (no contract factor configured)"
                    : ` (${e.scope_2_market_based.contract_factor_g_per_kwh} g CO2e/kWh)`),
                fig(e.scope_2_market_based),
              ],
              figureRow(e.scope_3),
              figureRow(cat3, ` (fuel well-to-tank ${groupDigits(cat3.fuel_well_to_tank, 3)} t, electricity upstream ${groupDigits(cat3.electricity_upstream, 3)} t)`),
              cat13.reported
                ? figureRow(
                    cat13,
                    ` (${cat13.vehicles} vehicle(s); lessees' Scope 1 and 2 ${groupDigits(cat13.lessee_scope_1_and_2 ?? 0, 3)} t, upstream ${groupDigits(cat13.fuel_and_energy_upstream ?? 0, 3)} t; included in the total)`,
                  )
                : [cat13.datapoint, `${cat13.label}. ${cat13.reason ?? ""}`, "not reported"],
              figureRow(e.total_location_based),
              figureRow(e.total_market_based),
            ]}
          />
          <Text style={s.caption}>
            Reconciles to the emissions report of the same dates: Scope 1 + Scope 2 (location-based) + Scope 3 = total_co2_kg_estimate{" "}
            {groupDigits(e.emissions_report.total_co2_kg_estimate, 3)} kg CO2e, to the gram.
          </Text>
          {grid.verified ? null : <Text style={s.caption}>Grid factor: {grid.note}</Text>}
        </Section>

        <Section title={CSRD_PDF_SECTION_TITLES[1]}>
          <Table columns={figureColumns} rows={[figureRow(energy.total), figureRow(energy.fossil), figureRow(energy.nuclear), figureRow(energy.renewable)]} />
          <Text style={s.caption}>
            Fuel {groupDigits(energy.fuel_mwh, 3)} MWh: fossil {groupDigits(energy.fuel_fossil_mwh, 3)}, renewable {groupDigits(energy.fuel_renewable_mwh, 3)} by the Finnish
            distribution obligation&apos;s bio share (
            {bio.years.map((y) => `${y.year} ${groupDigits(y.share * 100, 1)} % ${y.status}${y.verified ? "" : ", not verified"}`).join("; ")}): a statutory minimum, not a measured
            blend. Electricity {groupDigits(energy.electricity_mwh, 3)} MWh split by the Finnish generation mix {energy.electricity_mix.year}: renewable{" "}
            {Math.round(energy.electricity_mix.renewable_share * 100)} %, nuclear {Math.round(energy.electricity_mix.nuclear_share * 100)} %, fossil{" "}
            {Math.round(energy.electricity_mix.fossil_share * 100)} %.
            {report.reporting_role === "lessor" ? ` Own operation only: the leased-out days' ${groupDigits(energy.leased_out_mwh, 3)} MWh are the lessees' consumption.` : ""}
          </Text>
        </Section>

        <Section title={CSRD_PDF_SECTION_TITLES[2]}>
          <Table
            columns={[
              { title: "Metric", width: "60%" },
              { title: "Value", width: "40%", numeric: true },
            ]}
            rows={[
              ["Vehicles (total)", String(f.total_vehicles)],
              [
                "BEV / PHEV / HEV / ICE / unknown",
                `${f.by_powertrain.BEV} / ${f.by_powertrain.PHEV} / ${f.by_powertrain.HEV} / ${f.by_powertrain.ICE} / ${f.by_powertrain.unknown}`,
              ],
              ["EV share (BEV + PHEV of known powertrains)", ev.ev_share_pct === null ? NA : `${num(ev.ev_share_pct, 1)} %`],
              ["Distance driven (fleet / EVs)", `${num(f.distance_km, 1)} / ${num(ev.ev_distance_km, 1)} km`],
              ["EV distance share", ev.ev_distance_share_pct === null ? NA : `${num(ev.ev_distance_share_pct, 1)} %`],
              ["Electricity at the plug", `${num(ev.electricity_mwh, 3)} MWh`],
              ["Vehicles with a lease covering days of the period", String(f.leased_vehicles_in_period)],
            ]}
          />
          <TrendChart report={report} />
          <Table
            columns={[
              { title: "Month", width: "25%" },
              { title: "Vehicles reporting", width: "25%", numeric: true },
              { title: "EVs reporting", width: "25%", numeric: true },
              { title: "EV share", width: "25%", numeric: true },
            ]}
            rows={ev.trend.map((p) => [p.month, String(p.active_vehicles), String(p.ev_active_vehicles), p.ev_share_pct === null ? NA : `${num(p.ev_share_pct, 1)} %`])}
          />
        </Section>

        <Section title={CSRD_PDF_SECTION_TITLES[3]}>
          <Table
            columns={[
              { title: "Component", width: "50%" },
              { title: "Weight", width: "20%", numeric: true },
              { title: "Score (0-100)", width: "30%", numeric: true },
            ]}
            rows={[
              ["Green fleet score", "", `${num(g.green_fleet_score, 1)} (confidence ${g.confidence})`],
              ["EV share", String(g.weights.ev_share), num(g.components.ev_share, 0)],
              ["CO2 intensity", String(g.weights.co2_intensity), num(g.components.co2_intensity, 0)],
              ["Energy efficiency", String(g.weights.energy_efficiency), num(g.components.energy_efficiency, 0)],
            ]}
          />
        </Section>

        <Section title={CSRD_PDF_SECTION_TITLES[4]}>
          <Table
            columns={[
              { title: "Method", width: "60%" },
              { title: "Vehicles", width: "40%", numeric: true },
            ]}
            rows={[
              ["Distance measured by the odometer (no reading set aside)", String(q.distance_method.odometer)],
              ["Distance from the odometer's plausible increases (readings set aside)", String(q.distance_method.odometer_plausible_increases)],
              ["  of which with an odometer rollback or reset", String(q.odometer_rollback_vehicles.length)],
              ["Distance GPS great-circle (odometer unusable)", String(q.distance_method.gps_great_circle)],
              ["No distance data in the period", String(q.distance_method.none)],
              ["Energy measured (SOC telemetry)", String(q.energy_method.telemetry_soc)],
              ["Energy from consumption factors", String(q.energy_method.consumption_factor)],
            ]}
          />
          {q.limitations.map((l, i) => (
            <Text key={i} style={s.para}>
              - {plainWords(l)}
            </Text>
          ))}
        </Section>

        <Section title={CSRD_PDF_SECTION_TITLES[5]}>
          {report.notes.map((n, i) => (
            <Text key={i} style={s.para}>
              - {plainWords(n)}
            </Text>
          ))}
        </Section>

        <PageFooter label={title} />
      </Page>
    </Document>
  );
}

/** The report as PDF bytes, in this thread (the worker pool calls this; the verb uses the pool). */
export async function renderCsrdPdf(report: CsrdReport): Promise<Buffer> {
  registerCertificateFonts();
  return renderToBuffer(<CsrdDocument report={report} />);
}
