import { helsinkiClock as helsinkiWallClock } from "@/lib/charging/charging-recommendation";
import { EVENT_TYPES } from "@/lib/vocabulary/events";
import type { ToolAnswer, ToolName } from "./tool-catalogue";

/**
 * The text half of an MCP tool result: one plain line an agent or a person reads before (or instead
 * of) the JSON answer in `structuredContent`. What was asked for and its headline figures with units,
 * then the caveat that matters most for a decision (knockouts, low confidence, stale or missing data).
 *
 * Every summariser is total: the caller has validated the answer against the operation's `output`
 * schema, but a field that is missing anyway is left out of the line (or the whole line falls back to
 * a generic one), never printed as "undefined", "null" or "NaN", and never thrown.
 */

/** The validated JSON answer of a tool (its operation's output). */
type Out<N extends ToolName> = ToolAnswer<N>;

/** Longest summary; a longer one is cut with an ellipsis (the structured answer has everything). */
export const SUMMARY_MAX_CHARS = 240;

/**
 * `input` is the tool's validated input (what was asked): a list that fills its `limit` says so, since
 * it is a page, not the whole fleet.
 */
export function summarizeToolResult(name: ToolName, output: unknown, now: Date, input: Record<string, unknown> = {}): string {
  const summarise = (SUMMARISERS as Record<string, Summariser | undefined>)[name];
  if (summarise && output !== null && typeof output === "object") {
    try {
      const line = oneLine(summarise(output, now, input));
      if (line !== "") return line;
    } catch {
      // An answer of an unexpected shape: fall through to the generic line.
    }
  }
  return `${String(name)}: answer returned; see the structured content.`;
}

type Summariser = (output: unknown, now: Date, input: Record<string, unknown>) => string;

/** "5 vehicles" or, when the page is full, "5 vehicles shown (the limit: more may exist)". */
function pageCount(n: number, noun: string, input: Record<string, unknown>): string {
  const full = typeof input.limit === "number" && n >= input.limit;
  return full ? `${plural(n, noun)} shown (the limit: more may exist)` : plural(n, noun);
}

// ---------------------------------------------------------------------------------------------
// Formatting helpers: each returns null for a value that is not there, so callers can leave it out.

/** A finite number in en-US digits (thousands separators), at most `maxDigits` decimals; else null. */
function fmt(x: unknown, maxDigits = 1, minDigits = 0): string | null {
  if (typeof x !== "number" || !Number.isFinite(x)) return null;
  const s = x.toLocaleString("en-US", { maximumFractionDigits: maxDigits, minimumFractionDigits: minDigits });
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
}

const withUnit = (s: string | null, unit: string) => (s === null ? null : `${s} ${unit}`);
const score = (x: unknown) => fmt(x, 1);
/** "27.9/100", or "unknown". */
const outOf100 = (x: unknown) => (score(x) === null ? "unknown" : `${score(x)}/100`);
const pct = (x: unknown, digits = 1) => withUnit(fmt(x, digits), "%");
const km = (x: unknown) => withUnit(fmt(x, 0), "km");
const eur = (x: unknown) => withUnit(fmt(x, 0), "EUR");
const eurCents = (x: unknown) => withUnit(fmt(x, 2, 2), "EUR");

/** A non-empty string, else null. */
function str(x: unknown): string | null {
  return typeof x === "string" && x.trim() !== "" ? x.trim() : null;
}

/** A device id as given, else "unknown device". */
const dev = (x: unknown) => str(x) ?? "unknown device";

/** An array, else an empty one. */
function arr<T>(x: readonly T[] | null | undefined): readonly T[] {
  return Array.isArray(x) ? (x as readonly T[]) : [];
}

function timeOf(iso: unknown): number | null {
  if (typeof iso !== "string") return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/** YYYY-MM-DD of a date-time (UTC), or null. */
function day(iso: unknown): string | null {
  const t = timeOf(iso);
  return t === null ? null : new Date(t).toISOString().slice(0, 10);
}

/** "< 1 min", "N min", "N h" (under 48 h), "N d": how long before `now` an instant was, rounded down. */
function age(iso: unknown, now: Date): string | null {
  const t = timeOf(iso);
  const n = now.getTime();
  if (t === null || !Number.isFinite(n)) return null;
  const min = Math.floor(Math.max(0, n - t) / 60_000);
  if (min < 1) return "< 1 min";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
}

/** "data 2 h old" from the newest telemetry's time; "no telemetry" when the answer says there was none (null). */
function dataAge(iso: unknown, now: Date, label = "data"): string | null {
  if (iso === null) return "no telemetry";
  const a = age(iso, now);
  return a === null ? null : `${label} ${a} old`;
}

/**
 * Data age of a score that carries no timestamp field of its own but, like every FDP score, the
 * freshness sentence of lib/scores/score-common.ts in its `limitations`.
 */
function dataAgeFromLimitations(limitations: readonly string[] | undefined, now: Date): string | null {
  for (const l of arr(limitations)) {
    if (typeof l !== "string") continue;
    if (l.startsWith("No telemetry was available")) return "no telemetry";
    const m = /^Newest telemetry used is .* old \(([^)]+)\)\.?$/.exec(l);
    if (m) return dataAge(m[1], now);
  }
  return null;
}

/** "low confidence" / "medium confidence"; nothing for high (the normal case). */
function confidenceCaveat(c: unknown): string | null {
  return c === "low" || c === "medium" ? `${c} confidence` : null;
}

/** `HH:MM` Helsinki time of an instant (the charging reason's own format), or null when there is no instant. */
function helsinkiClock(iso: unknown, now: Date): string | null {
  const t = timeOf(iso);
  return t === null || !Number.isFinite(now.getTime()) ? null : helsinkiWallClock(t, now.getTime());
}

const KNOCKOUT_LABELS: Record<string, string> = {
  soh_below_60: "SoH below 60 %",
  odometer_manipulation: "odometer manipulation",
};
const knockoutLabel = (k: unknown) => (typeof k === "string" ? (KNOCKOUT_LABELS[k] ?? k.replace(/_/g, " ")) : null);

/** "knockouts: none" or their names; nothing when the answer has no knockout list at all. */
function knockoutsText(flags: readonly unknown[] | undefined): string | null {
  if (!Array.isArray(flags)) return null;
  const names = arr(flags)
    .map(knockoutLabel)
    .filter((x): x is string => x !== null);
  return `knockouts: ${names.length > 0 ? names.join(", ") : "none"}`;
}

/** Up to `n` items, with "+k more" when there are more. */
function firstFew(items: readonly string[], n = 3): string {
  const shown = items.slice(0, n).join(", ");
  return items.length > n ? `${shown} +${items.length - n} more` : shown;
}

/** "3 parked, 1 driving": the non-zero counts of `keys` (in that order) among `values`. */
function breakdown(values: readonly unknown[], keys: readonly string[], label: (k: string) => string = (k) => k): string[] {
  const counts = new Map<string, number>();
  for (const v of values) if (typeof v === "string") counts.set(v, (counts.get(v) ?? 0) + 1);
  const known = keys.filter((k) => (counts.get(k) ?? 0) > 0).map((k) => `${counts.get(k)} ${label(k)}`);
  const other = [...counts.entries()].filter(([k]) => !keys.includes(k)).reduce((s, [, c]) => s + c, 0);
  return other > 0 ? [...known, `${other} other`] : known;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const countOf = (x: unknown, fallback: number) => (typeof x === "number" && Number.isInteger(x) && x >= 0 ? x : fallback);

/** Parts that are there, joined with "; ". */
const join = (...parts: Array<string | null | undefined | false>) => parts.filter((p): p is string => typeof p === "string" && p !== "").join("; ");

/** One line of plain text, within SUMMARY_MAX_CHARS. */
function oneLine(s: string): string {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1).trimEnd()}…` : line;
}

const newest = (isos: readonly unknown[]): string | null => {
  let best: number | null = null;
  for (const iso of isos) {
    const t = timeOf(iso);
    if (t !== null && (best === null || t > best)) best = t;
  }
  return best === null ? null : new Date(best).toISOString();
};

// ---------------------------------------------------------------------------------------------
// Scores of one vehicle

function tasScore(o: Out<"get_tas_score">, now: Date): string {
  const dq = o.data_quality;
  const coverage = dq?.coverage_pct;
  return join(
    `TAS ${str(o.tas_grade) ?? "grade unknown"}${score(o.tas_score) !== null ? ` (${score(o.tas_score)})` : ""} for ${dev(o.device_id)}`,
    knockoutsText(o.knockout_flags),
    confidenceCaveat(o.confidence),
    typeof coverage === "number" && coverage < 100 ? `data coverage ${pct(coverage, 0)}` : null,
    dq ? dataAge(dq.latest_telemetry_at, now) : null,
  );
}

function batteryHealth(o: Out<"get_battery_health">, now: Date): string {
  const dq = o.data_quality;
  const snap = o.snapshot;
  const powertrain = str(dq?.powertrain);
  const head = `Battery of ${dev(o.device_id)}${powertrain ? ` (${powertrain})` : ""}`;
  const alert = o.last_battery_alert;
  const alertText = alert
    ? `last battery alert ${str(alert.severity) ?? "raised"}${age(alert.created_at, now) ? ` ${age(alert.created_at, now)} ago` : ""}`
    : alert === null
      ? "no battery alert"
      : null;
  const freshness = dq?.freshness === "stale" ? "stale" : null;
  const ageText = dq ? dataAge(dq.latest_telemetry_at, now) : null;
  if (dq?.has_traction_battery === false) {
    const v = withUnit(fmt(snap?.battery_voltage, 2), "V");
    return join(`${head}: no traction battery${v ? `, 12 V battery at ${v}` : ""}`, alertText, ageText);
  }
  const status = str(snap?.charging_status);
  const power = fmt(snap?.charging_power_kw, 1);
  const charging = status === null ? null : status === "charging" && power !== null && snap?.charging_power_kw !== 0 ? `charging at ${power} kW` : status.replace(/_/g, " ");
  const range = km(snap?.estimated_range_km);
  const figures = [`SoH ${pct(dq?.soh_pct) ?? "unknown"}`, `SoC ${pct(snap?.soc_current_pct) ?? "unknown"}`, range ? `range ~${range}` : null, charging].filter(Boolean);
  const excluded = arr(dq?.excluded_readings).length;
  return join(
    `${head}: ${figures.join(", ")}`,
    alertText,
    excluded > 0 ? `${plural(excluded, "SoH reading")} set aside` : null,
    freshness && ageText ? `${ageText} (${freshness})` : ageText,
  );
}

function vehicleHealth(o: Out<"get_vehicle_health">, now: Date): string {
  const components = Object.entries<number | null>(o.components ?? {});
  const known = components.filter((c): c is [string, number] => typeof c[1] === "number" && Number.isFinite(c[1]));
  const unknown = components.filter(([, v]) => !(typeof v === "number" && Number.isFinite(v))).map(([k]) => k.replace(/_/g, " "));
  const weakest = known.reduce<[string, number] | null>((w, c) => (w === null || c[1] < w[1] ? c : w), null);
  const missing = arr(o.missing_signals);
  return join(
    `Vehicle health ${outOf100(o.vehicle_health_score)} for ${dev(o.device_id)} (higher = healthier)`,
    weakest ? `weakest: ${weakest[0].replace(/_/g, " ")} ${score(weakest[1])}` : null,
    unknown.length > 0 ? `unknown: ${firstFew(unknown)}` : null,
    missing.length > 0 ? `missing signals: ${firstFew(missing)}` : null,
    confidenceCaveat(o.confidence),
    dataAgeFromLimitations(o.limitations, now),
  );
}

function eolSummary(o: Out<"get_eol_summary">): string {
  const health = score(o.vehicle_health_score);
  const knockouts = Array.isArray(o.knockout_evidence) ? o.knockout_evidence.map((e) => e?.knockout) : undefined;
  const excluded = arr(o.excluded_readings).length;
  return join(
    `EOL condition grade ${str(o.condition_grade) ?? "unknown"} for ${dev(o.device_id)}`,
    health !== null ? `vehicle health ${health}` : o.vehicle_health_score === null ? "no health signal measured (placeholder grade)" : null,
    knockoutsText(knockouts),
    excluded > 0 ? `${plural(excluded, "reading")} set aside` : null,
    confidenceCaveat(o.confidence),
  );
}

// ---------------------------------------------------------------------------------------------
// Fleet scores

function fleetRisk(o: Out<"get_fleet_risk">, now: Date): string {
  const period = fmt(o.period_days, 0);
  const devices = typeof o.device_count === "number" ? plural(o.device_count, "vehicle") : null;
  const alerts =
    typeof o.alerts_period === "number"
      ? `${plural(o.alerts_period, "alert")}${typeof o.critical_alerts_period === "number" ? ` (${fmt(o.critical_alerts_period, 0)} critical)` : ""}`
      : null;
  return join(
    `Fleet risk ${outOf100(o.fleet_risk_score)} (higher = riskier)${period ? ` over ${period} d` : ""}${devices ? `, ${devices}` : ""}`,
    alerts,
    confidenceCaveat(o.confidence),
    dataAgeFromLimitations(o.limitations, now),
  );
}

function greenFleet(o: Out<"get_green_fleet">, now: Date): string {
  const c = o.components;
  const part = (label: string, v: unknown) => `${label} ${score(v) ?? "unknown"}`;
  return join(
    `Green fleet score ${outOf100(o.green_fleet_score)} (higher = greener)`,
    c ? [part("EV share", c.ev_share), part("CO₂ intensity", c.co2_intensity), part("energy efficiency", c.energy_efficiency)].join(", ") : null,
    confidenceCaveat(o.confidence),
    dataAgeFromLimitations(o.limitations, now),
  );
}

// ---------------------------------------------------------------------------------------------
// Leasing

function predictMileage(o: Out<"predict_mileage">): string {
  const ci = o.confidence_interval;
  const level = fmt(o.interval_level_pct, 0);
  const lower = fmt(ci?.lower, 0);
  const upper = fmt(ci?.upper, 0);
  const interval = lower !== null && upper !== null ? ` (${level ? `${level} % ` : ""}interval ${lower}–${upper} km)` : "";
  const end = str(o.forecast_end);
  const contract = km(o.contract_km);
  const overage = o.overage_km;
  const contractText =
    contract === null
      ? "no contract km limit"
      : `contract ${contract}: ${typeof overage === "number" && overage > 0 ? `${km(overage)} over` : "within limit"}${score(o.risk_score) !== null ? `, overrun risk ${score(o.risk_score)} %` : ""}`;
  const current = km(o.current_km);
  return join(
    `Mileage forecast for ${dev(o.device_id)}: ${km(o.predicted_end_km) ?? "unknown"}${end ? ` by ${end}` : ""}${interval}${current && o.current_km_at ? `, now ${current}` : ""}`,
    contractText,
    o.forecast_basis === "population_prior" ? "no odometer history: Finnish average used" : null,
    typeof o.rolled_back_km === "number" && o.rolled_back_km > 0 ? `odometer rolled back ${km(o.rolled_back_km)}: forecast from the plausible series` : null,
    o.data_quality && o.data_quality !== "high" ? `data quality ${o.data_quality}` : null,
  );
}

function predictResidualValue(o: Out<"predict_residual_value">): string {
  const pi = o.prediction_interval;
  const level = typeof pi?.level === "number" ? fmt(pi.level * 100, 0) : null;
  const low = fmt(pi?.low_pct, 1);
  const high = fmt(pi?.high_pct, 1);
  const interval = low !== null && high !== null ? ` (${level ? `${level} % ` : ""}interval ${low}–${high} %)` : "";
  const value = eur(o.estimated_residual_eur);
  const price = eur(o.original_price_eur);
  const missing = Object.entries(o.inputs ?? {})
    .filter(([, i]) => i?.status === "missing" && i.used_by_model)
    .map(([k]) => k);
  return join(
    `Predicted residual value of ${dev(o.device_id)}: ${pct(o.estimated_residual_pct) ?? "unknown"}${interval}`,
    value ? `≈ ${value}${price ? ` of ${price}` : ""}` : "EUR unknown (no original price)",
    o.estimate_source === "rule_based" ? "rule-based value (the model did not beat it out of sample)" : null,
    str(o.confidence) ? `confidence ${o.confidence}` : null,
    o.inputs?.battery_soh_pct?.source === "not_measured" ? "battery SoH not measured" : null,
    str(o.data_quality) ? `data quality ${o.data_quality}${missing.length > 0 ? ` (missing: ${firstFew(missing)})` : ""}` : null,
  );
}

function residualValue(o: Out<"get_residual_value">): string {
  const f = o.factors;
  const value = eur(o.estimated_residual_eur);
  const age = typeof f?.age_months === "number" ? `${fmt(f.age_months, 0)} months` : null;
  const inputs = [age, km(f?.mileage_km), f?.battery_soh_pct != null ? `SoH ${pct(f.battery_soh_pct)}` : null, str(f?.eol_grade) ? `EOL ${f?.eol_grade}` : null].filter(Boolean);
  const missing = arr(o.data_quality?.missing_fields);
  return join(
    `Residual value of ${dev(o.device_id)}: ${pct(o.estimated_residual_pct) ?? "unknown"} of list price${value ? ` ≈ ${value}` : ", EUR unknown (no list price)"} (rule-based, indicative)`,
    inputs.length > 0 ? inputs.join(", ") : null,
    o.data_quality?.battery_soh_status === "not_measured" ? "battery SoH not measured (no battery adjustment)" : null,
    knockoutsText(o.knockouts),
    confidenceCaveat(o.confidence),
    missing.length > 0 ? `unknown: ${firstFew(missing)}` : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Certificates

type CertificateCore = Out<"get_certificate"> | Out<"generate_certificate"> | Out<"verify_certificate">;

/** "grade A, health 96.3, residual 59.4 %, knockouts: …" of a certificate. */
function certificateFigures(o: CertificateCore): string {
  const knockouts = arr(o.data_snapshot?.condition?.knockouts).map((k) => k?.knockout);
  return [
    `grade ${str(o.grade) ?? "unknown"}`,
    `health ${score(o.vehicle_health_score) ?? "unknown"}`,
    `residual ${pct(o.residual_value_pct) ?? "unknown"}`,
    knockouts.length > 0 ? knockoutsText(knockouts) : null,
  ]
    .filter(Boolean)
    .join(", ");
}

function generateCertificate(o: Out<"generate_certificate">, now: Date): string {
  const until = day(o.expires_at);
  const url = str(o.verify_url);
  return join(
    `Certificate ${str(o.certificate_number) ?? "(number unknown)"} issued for ${dev(o.device_id)}: ${certificateFigures(o)}`,
    until ? `valid until ${until}` : null,
    confidenceCaveat(o.confidence),
    o.data_snapshot ? dataAge(o.data_snapshot.data_as_of, now) : null,
    url ? `verify: ${url}` : null,
  );
}

/** valid / expired (date) / revoked (date: reason, or its key's revocation) / invalid (why). */
function certificateStatus(
  status: string | null,
  o: { expires_at?: string; revoked_at?: string | null; revocation_reason?: string | null; status_reason?: string | null },
): string | null {
  if (status === "revoked" && !o.revoked_at && str(o.status_reason)) return `REVOKED: ${str(o.status_reason)}`;
  if (status === "revoked") {
    const when = day(o.revoked_at);
    const reason = str(o.revocation_reason);
    return `REVOKED${when ? ` on ${when}` : ""}${reason ? ` (${reason})` : ""}`;
  }
  if (status === "invalid") return `NOT VALID${str(o.status_reason) ? `: ${str(o.status_reason)}` : ""}`;
  if (status === "expired") return `EXPIRED${day(o.expires_at) ? ` on ${day(o.expires_at)}` : ""}`;
  if (status === "valid") return `valid until ${day(o.expires_at) ?? "unknown"}`;
  return null;
}

function getCertificate(o: Out<"get_certificate">): string {
  const status = o.revoked_at ? "revoked" : o.is_expired === true ? "expired" : o.is_expired === false ? "valid" : null;
  return join(
    `Certificate ${str(o.certificate_number) ?? "(number unknown)"} for ${dev(o.device_id)}: ${certificateFigures(o)}`,
    certificateStatus(status, o),
    day(o.generated_at) ? `issued ${day(o.generated_at)}` : null,
  );
}

function verifyCertificate(o: Out<"verify_certificate">): string {
  const status = str(o.status);
  return join(
    `Certificate ${str(o.certificate_number) ?? "(number unknown)"} is ${status ? status.toUpperCase() : "of unknown status"}: ${dev(o.device_id)}, ${certificateFigures(o)}`,
    status === "valid" ? (day(o.expires_at) ? `valid until ${day(o.expires_at)}` : null) : certificateStatus(status, o),
    day(o.generated_at) ? `issued ${day(o.generated_at)}` : null,
    o.jws ? `JWS (EdDSA) by key ${str(o.key_id) ?? "?"}` : o.signature?.alg ? `${o.signature.alg} signature` : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Reports

/** "2026-01-01 to 2026-01-31", or "(period unknown)". */
function periodText(start: unknown, end: unknown): string {
  const a = str(start);
  const b = str(end);
  return a && b ? `${a} to ${b}` : "(period unknown)";
}

/** "1,234 kg CO₂e (1.2 tCO₂e)" from kilograms. */
function co2Kg(kg: unknown): string | null {
  const k = fmt(kg, 0);
  if (k === null) return null;
  return typeof kg === "number" && kg >= 1000 ? `${k} kg CO₂e (${fmt(kg / 1000, 1)} tCO₂e)` : `${k} kg CO₂e`;
}

function emissionsReport(o: Out<"get_emissions_report">): string {
  const vehicles = arr(o.vehicles);
  const total = countOf(o.total_vehicles, vehicles.length);
  const distance = vehicles.reduce((s, v) => s + (typeof v?.distance_km === "number" && Number.isFinite(v.distance_km) ? v.distance_km : 0), 0);
  const noData = vehicles.filter((v) => v?.distance_method === "none").length;
  const rolledBack = vehicles.filter((v) => (v?.distance_evidence?.odometer_rollbacks?.length ?? 0) > 0).length;
  const top = vehicles.reduce<(typeof vehicles)[number] | null>((b, v) => (typeof v?.co2_kg === "number" && v.co2_kg > 0 && (b === null || v.co2_kg > b.co2_kg) ? v : b), null);
  const mix = typeof o.ev_count === "number" && typeof o.ice_count === "number" ? ` (${fmt(o.ev_count, 0)} EV, ${fmt(o.ice_count, 0)} ICE/HEV)` : "";
  return join(
    `Emissions ${periodText(o.period_start, o.period_end)}: ${co2Kg(o.total_co2_kg_estimate) ?? "total unknown"} for ${plural(total, "vehicle")}${mix}, ${km(distance)}`,
    top ? `top ${dev(top.device_id)} ${co2Kg(top.co2_kg)}` : null,
    noData > 0 ? `no distance data for ${plural(noData, "vehicle")}` : null,
    rolledBack > 0 ? `odometer rollback for ${plural(rolledBack, "vehicle")} (distance summed over plausible increases)` : null,
  );
}

function csrdReport(o: Out<"generate_csrd_report">): string {
  const e = o.emissions;
  const t = (x: unknown) => fmt(x, 2);
  const fs = o.fleet_summary;
  const period = o.period;
  const totalLoc = t(e?.total_location_based?.value);
  const cat13 = e?.scope_3_categories?.cat_13_downstream_leased_assets;
  const cat13Text = cat13?.reported === true && t(cat13.value) !== null ? ` incl. cat. 13 ${t(cat13.value)}` : "";
  const scopes = [
    `Scope 1 ${t(e?.scope_1?.value) ?? "unknown"}`,
    `Scope 2 ${t(e?.scope_2_location_based?.value) ?? "unknown"}`,
    `Scope 3 ${t(e?.scope_3?.value) ?? "unknown"}${cat13Text}`,
  ];
  const market = t(e?.total_market_based?.value);
  const evShare = pct(o.ev_metrics?.ev_share_pct, 0);
  const energy = withUnit(fmt(fs?.energy_consumption?.total?.value, 1), "MWh");
  const noData = o.data_quality?.vehicles_without_data;
  const role = o.reporting_role === "lessor" || o.reporting_role === "operator" ? ` as ${o.reporting_role}` : "";
  return join(
    `CSRD E1 ${periodText(period?.start_date, period?.end_date)}${role}: ${totalLoc !== null ? `${totalLoc} tCO₂e` : "total unknown"} location-based (${scopes.join(", ")})`,
    `market-based ${market !== null ? `${market} tCO₂e` : "unknown"}`,
    [typeof fs?.total_vehicles === "number" ? plural(fs.total_vehicles, "vehicle") : null, evShare ? `EV share ${evShare}` : null, energy ? `energy ${energy}` : null]
      .filter(Boolean)
      .join(", ") || null,
    typeof noData === "number" && noData > 0 ? `${plural(noData, "vehicle")} without data` : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Energy

const MODE_LABEL: Record<string, string> = { ac: "AC", dc: "DC" };

function chargingRecommendation(o: Out<"get_charging_recommendation">, now: Date): string {
  const soc = pct(o.soc_current_pct);
  const target = pct(o.soc_target_pct, 0);
  const deadline = helsinkiClock(o.deadline, now);
  const deadlineText = deadline ? `deadline ${deadline} Helsinki` : null;
  const socAge = dataAge(o.soc_reported_at, now, "SoC");
  if (o.recommendation === "no_charging_needed") {
    return join(`No charging needed for ${dev(o.device_id)}: SoC ${soc ?? "unknown"}${target ? `, target ${target}` : ""}`, deadlineText, socAge);
  }
  const energy = withUnit(fmt(o.energy_needed_kwh, 1), "kWh");
  const power = withUnit(fmt(o.charging_power_kw, 1), "kW");
  const mode = MODE_LABEL[o.charging_mode] ?? null;
  const minutes = fmt(o.charging_duration_minutes, 0);
  const how = [
    [energy, target ? `to ${target}` : null, soc ? `from ${soc}` : null].filter(Boolean).join(" "),
    power ? `${power}${mode ? ` ${mode}` : ""}` : null,
    minutes ? `${minutes} min` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const head =
    o.recommendation === "charge_later"
      ? `Charge ${dev(o.device_id)} later`
      : o.recommendation === "charge_now"
        ? `Charge ${dev(o.device_id)} now`
        : `Charging plan for ${dev(o.device_id)}`;
  const w = o.cheapest_window;
  let windowText: string | null;
  if (w) {
    const from = helsinkiClock(w.start, now);
    // The end with its date only when it falls on another day than the start.
    const startMs = timeOf(w.start);
    const to = helsinkiClock(w.end, startMs === null ? now : new Date(startMs));
    const avg = fmt(w.avg_price_cents_kwh, 2);
    windowText = from && to ? `window ${from}–${to} Helsinki time${avg ? ` at ${avg} c/kWh avg` : ""}` : null;
  } else {
    // Without usable prices the plan starts at the latest safe start (docs/methodology/charging.md).
    const by = helsinkiClock(o.latest_safe_start, now);
    if (by) windowText = `${o.price_source === null ? "no spot prices" : "known prices too short"}: start by ${by} Helsinki at the latest (no price optimum)`;
    else if (o.price_source === null) windowText = "no spot prices, so no cheaper window";
    else if (o.immediate_charge) windowText = "all charged at once to the minimum level, no window needed";
    else windowText = "no cheaper window on the known prices";
  }
  const cheapest = eurCents(o.estimated_cost_cheapest_eur);
  const nowCost = eurCents(o.estimated_cost_now_eur);
  const savings = fmt(o.savings_pct, 1);
  const cost =
    cheapest !== null
      ? `cost ${cheapest}${nowCost && nowCost !== cheapest ? ` vs ${nowCost} now` : ""}${savings !== null && o.savings_pct !== 0 ? ` (${savings} % saved)` : ""}`
      : nowCost !== null
        ? `cost now ${nowCost}`
        : null;
  const immediate = o.immediate_charge ? withUnit(fmt(o.immediate_charge.energy_kwh, 1), "kWh") : null;
  return join(how ? `${head}: ${how}` : head, immediate ? `${immediate} at once to ${pct(o.soc_min_pct, 0) ?? "the minimum"}` : null, windowText, cost, deadlineText, socAge);
}

function spotPrices(o: Out<"get_spot_prices">, now: Date): string {
  const prices = arr(o.prices).filter((p) => typeof p?.price_cents_kwh === "number" && Number.isFinite(p.price_cents_kwh));
  const resolution = o.resolution === "PT15M" ? "15-min" : o.resolution === "PT60M" ? "hourly" : null;
  const source = str(o.source);
  const recorded = source?.startsWith("recorded:") ? source.slice("recorded:".length) : null;
  const sourceText = recorded ? `recorded day ${recorded}, not live` : source ? `source ${source}` : null;
  const staleText = o.stale ? `STALE${helsinkiClock(o.stale_since, now) ? ` since ${helsinkiClock(o.stale_since, now)} Helsinki` : ""}` : null;
  const fetched = age(o.fetched_at, now);
  const fetchedText = fetched ? `fetched ${fetched} ago` : null;
  if (prices.length === 0) return join(`FI spot prices: no prices`, sourceText, staleText, fetchedText);
  const n = now.getTime();
  const current = prices.find((p) => {
    const s = timeOf(p.start);
    const e = timeOf(p.end);
    return s !== null && e !== null && s <= n && n < e;
  });
  const min = prices.reduce((b, p) => (p.price_cents_kwh < b.price_cents_kwh ? p : b));
  const max = prices.reduce((b, p) => (p.price_cents_kwh > b.price_cents_kwh ? p : b));
  const at = (p: { start: string }) => {
    const c = helsinkiClock(p.start, now);
    return c ? ` at ${c}` : "";
  };
  const from = helsinkiClock(prices[0]?.start, now);
  const to = helsinkiClock(prices[prices.length - 1]?.end, now);
  return join(
    `FI spot prices incl. VAT, ${plural(prices.length, `${resolution ? `${resolution} ` : ""}slot`)}${from && to ? ` ${from}–${to} Helsinki` : ""}: ${current ? `now ${fmt(current.price_cents_kwh, 2)}, ` : ""}min ${fmt(min.price_cents_kwh, 2)}${at(min)}, max ${fmt(max.price_cents_kwh, 2)}${at(max)} (c/kWh)`,
    staleText,
    sourceText,
    fetchedText,
  );
}

// ---------------------------------------------------------------------------------------------
// Lists and batches

const FLEET_STATUS_ORDER = ["driving", "idle", "parked", "charging", "offline"] as const;
const ALERT_LEVEL_ORDER = ["critical", "warning", "info"] as const;
const SEVERITY_ORDER = ["CRITICAL", "WARNING", "INFO"] as const;

function listFleet(o: Out<"list_fleet">, now: Date, input: Record<string, unknown>): string {
  if (!Array.isArray(o.data)) return "Fleet snapshot: the answer holds no vehicle list";
  const data = arr(o.data);
  if (data.length === 0) return "0 vehicles: the fleet snapshot is empty (no vehicle has reported a state)";
  const statuses = breakdown(
    data.map((r) => r?.status),
    FLEET_STATUS_ORDER,
  );
  const alerts = breakdown(
    data.map((r) => r?.alert_level),
    ALERT_LEVEL_ORDER,
  ).filter((s) => !s.endsWith(" other"));
  const fresh = age(newest(data.map((r) => r?.updated_at)), now);
  return join(
    `${pageCount(data.length, "vehicle", input)}${statuses.length > 0 ? `: ${statuses.join(", ")}` : ""}`,
    alerts.length > 0 ? `with open alerts: ${alerts.join(", ")}` : "no open alerts",
    `e.g. ${firstFew(data.map((r) => dev(r?.device_id)))}`,
    fresh ? `newest data ${fresh} old` : null,
  );
}

function listAlerts(o: Out<"list_alerts">, now: Date, input: Record<string, unknown>): string {
  if (!Array.isArray(o.data)) return "Alerts: the answer holds no alert list";
  const data = arr(o.data);
  if (data.length === 0) return "0 alerts match the filters";
  const severities = breakdown(
    data.map((a) => a?.severity),
    SEVERITY_ORDER,
    (k) => k.toLowerCase(),
  );
  const open = data.filter((a) => a?.acknowledged === false).length;
  const first = data[0];
  const firstAge = first ? age(first.created_at, now) : null;
  const devices = [...new Set(data.map((a) => a?.device_id).filter((d): d is string => typeof d === "string"))];
  return join(
    `${pageCount(data.length, "alert", input)}: ${severities.join(", ")}`,
    `${fmt(open, 0)} unacknowledged`,
    first
      ? `newest ${[str(first.id) ? `${first.id}:` : null, dev(first.device_id), str(first.severity), str(first.agent) ? `(${first.agent})` : null, firstAge ? `${firstAge} ago` : null].filter(Boolean).join(" ")}`
      : null,
    `devices ${firstFew(devices)}`,
  );
}

/** "health 96.3, EOL A" of one batch item. */
function batchItemScores(item: Out<"score_devices_batch">["results"][number]): string {
  return [
    item.vehicle_health ? `health ${score(item.vehicle_health.vehicle_health_score) ?? "unknown"}` : null,
    item.eol_summary ? `EOL ${str(item.eol_summary.condition_grade) ?? "unknown"}` : null,
    item.battery_health ? `SoH ${pct(item.battery_health.data_quality?.soh_pct) ?? "unknown"}` : null,
    item.fleet_risk ? `risk ${score(item.fleet_risk.fleet_risk_score) ?? "unknown"}` : null,
    item.green_fleet ? `green ${score(item.green_fleet.green_fleet_score) ?? "unknown"}` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

function scoresBatch(o: Out<"score_devices_batch">): string {
  const results = arr(o.results);
  const failed = results.filter((r) => r?.error);
  const ok = results.filter((r) => r && !r.error);
  const total = countOf(o.meta?.total, results.length);
  const processed = countOf(o.meta?.processed, ok.length);
  const errors = countOf(o.meta?.errors, failed.length);
  const requested = arr(o.meta?.scores_requested);
  const shown = ok.slice(0, 2).map((r) => `${dev(r.device_id)}: ${batchItemScores(r) || "no scores"}`);
  return join(
    `${requested.length > 0 ? `${requested.join(", ")} for ` : ""}${plural(total, "device")}: ${fmt(processed, 0)} scored, ${plural(errors, "error")}`,
    ...shown,
    ok.length > shown.length ? `+${ok.length - shown.length} more scored` : null,
    failed.length > 0 ? `failed: ${firstFew(failed.map((r) => `${dev(r.device_id)}${str(r.error?.error) ? ` (${r.error?.error})` : ""}`))}` : null,
  );
}

function listEvents(o: Out<"list_events">): string {
  const events = arr(o.data);
  const types = breakdown(
    events.map((e) => e.type),
    EVENT_TYPES,
    (t) => t,
  );
  const last = events.at(-1);
  return join(
    plural(events.length, "event"),
    types.length > 0 ? types.join(", ") : null,
    last ? `newest ${str(last.type) ?? "event"} for ${dev((last.data as { device_id?: unknown } | undefined)?.device_id)}` : null,
    o.has_more ? "more follow: call again with after = next_cursor" : "up to date: poll later with after = next_cursor",
  );
}

function tasBatch(o: Out<"get_tas_batch">): string {
  const results = arr(o.results);
  const scored = results.filter((r) => r && r.error === null && r.tas_grade !== null);
  const failed = results.filter((r) => r && (r.error !== null || r.tas_grade === null));
  const total = countOf(o.meta?.total, results.length);
  const nScored = countOf(o.meta?.scored, scored.length);
  const errors = countOf(o.meta?.errors, failed.length);
  const grades = breakdown(
    scored.map((r) => r.tas_grade),
    ["A", "B", "C", "D", "E", "F"],
    (g) => `${g}`,
  ).map((s) => s.replace(/^(\d[\d,]*) (\S+)$/, "$2 $1"));
  const shown = firstFew(
    scored.map((r) => `${dev(r.device_id)} ${r.tas_grade}${score(r.tas_score) !== null ? ` (${score(r.tas_score)})` : ""}`),
    2,
  );
  return join(
    `TAS for ${plural(total, "device")}: ${fmt(nScored, 0)} scored, ${plural(errors, "error")}`,
    grades.length > 0 ? `grades ${grades.join(", ")}` : null,
    shown || null,
    failed.length > 0 ? `failed: ${firstFew(failed.map((r) => dev(r.device_id)))}` : null,
  );
}

// ---------------------------------------------------------------------------------------------

/** One summariser per tool, each typed by its tool's answer: a tool without one fails to compile. */
const SUMMARISERS: { [N in ToolName]: (output: Out<N>, now: Date, input: Record<string, unknown>) => string } = {
  get_tas_score: tasScore,
  get_battery_health: batteryHealth,
  get_fleet_risk: fleetRisk,
  predict_mileage: predictMileage,
  predict_residual_value: predictResidualValue,
  generate_certificate: generateCertificate,
  get_emissions_report: emissionsReport,
  get_charging_recommendation: chargingRecommendation,
  list_fleet: listFleet,
  list_alerts: listAlerts,
  get_vehicle_health: vehicleHealth,
  get_green_fleet: greenFleet,
  get_eol_summary: eolSummary,
  get_residual_value: residualValue,
  score_devices_batch: scoresBatch,
  get_tas_batch: tasBatch,
  get_certificate: getCertificate,
  verify_certificate: verifyCertificate,
  generate_csrd_report: csrdReport,
  get_spot_prices: spotPrices,
  list_events: listEvents,
};
