import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import type { TenantCtx } from "@/lib/context";
import { StatusBadge } from "@/components/dashboard/badges";
import { FleetMap } from "@/components/fleet-map/fleet-map";
import { formatHelsinki, MileageChart, PriceChart, ScoreBars, type PriceSlot } from "@/components/vehicle/charts";
import { getChargingRecommendation } from "@/lib/charging/get-charging-recommendation";
import { getVehicleSummary, type VehicleSummary } from "@/lib/dashboard/get-vehicle-summary";
import { getOdometerHistory } from "@/lib/dashboard/odometer-history";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { listVehicleAlerts, VEHICLE_ALERTS_LIMIT } from "@/lib/dashboard/vehicle-alerts";
import { getVehicleTrack, TRACK_DAYS } from "@/lib/dashboard/vehicle-track";
import { getSpotPrices } from "@/lib/energy/get-spot-prices";
import { UnprocessableError } from "@/lib/errors";
import { getResidualValue } from "@/lib/leasing/get-residual-value";
import { predictMileage } from "@/lib/leasing/mileage-prediction";
import { predictResidualValue } from "@/lib/leasing/predict-residual-value";
import { chargingQuerySchema } from "@/lib/schemas/charging";
import { mileageForecastQuerySchema } from "@/lib/schemas/leasing-mileage";
import { residualModelQuerySchema } from "@/lib/schemas/leasing-residual-model";
import { getBatterySnapshot } from "@/lib/scores/get-battery-snapshot";
import { getTas } from "@/lib/scores/get-tas";
import { getVehicleHealth } from "@/lib/scores/get-vehicle-health";
import { readDeviceSnapshots } from "@/lib/dashboard/score-snapshots/read-score-snapshots";
import { isPlugIn, type Powertrain } from "@/lib/vocabulary/powertrain";
import type { Severity } from "@/lib/vocabulary/alerts";
import {
  formatCentsPerKwh,
  formatDate,
  formatDateTime,
  formatEur,
  formatEurCents,
  formatKm,
  formatKw,
  formatKwh,
  formatNumber,
  formatPct,
  formatScore,
  formatVolts,
  FLEET_TIME_ZONE_NAME,
  NOT_MEASURED,
} from "@/lib/display/format";
import { AGENT_NAMES, CONFIDENCE_WORDS, KNOCKOUT_NAMES, PILLAR_NAMES, PILLAR_SOURCES, POWERTRAIN_NAMES, keyWords, plainWords, wordsFor } from "@/lib/display/words";
import { TAS_PILLARS } from "@/lib/vocabulary/scores";

export const metadata = { title: "Vehicle — FDP Dashboard" };

const DAY_MS = 86_400_000;

const SEVERITY_STYLE: Record<Severity, string> = {
  CRITICAL: "bg-red-100 text-red-800",
  WARNING: "bg-amber-100 text-amber-900",
  INFO: "bg-sky-100 text-sky-800",
};

/**
 * A vehicle of the signed-in user's tenant; any other id (unknown, or another tenant's) is the 404 page.
 * The summary query runs first and decides the 404 before anything renders (no loading boundary above
 * this page: a streamed shell would send the 404 with status 200). Then every section's verb, the
 * same ones the API's endpoints call, runs in parallel; each section shows its own designed note when
 * its verb does not apply (a 422 in the API) or fails, and the rest of the page stands.
 */
export default async function VehiclePage({ params }: { params: Promise<{ device_id: string }> }) {
  const { ctx } = await requireDashboardSession();
  const { device_id } = await params;
  const vehicle = await getVehicleSummary({ ctx, input: { device_id } });
  if (!vehicle) notFound();
  const input = { device_id };
  const now = new Date();

  // The scores and both residual values from the maintained snapshots (computed after each ingest; lib/dashboard/score-snapshots/),
  // each shown with the time it was computed; one not maintained yet is computed now by the API's verb.
  const kept = await readDeviceSnapshots({ ctx, deviceId: device_id, now });
  const asOf = {
    health: kept.vehicleHealth?.computedAt ?? now,
    tas: kept.tas?.computedAt ?? now,
    battery: kept.battery?.computedAt ?? now,
    // The section's two values: the older of the two times.
    residual: new Date(Math.min((kept.residualValue?.computedAt ?? now).getTime(), (kept.residualModel?.computedAt ?? now).getTime())),
  };
  const logFailures = (results: PromiseSettledResult<unknown>[]) => {
    for (const r of results) {
      if (r.status === "rejected" && !(r.reason instanceof UnprocessableError)) ctx.log.error({ err: r.reason, device_id }, "vehicle page: a section failed");
    }
  };
  // What the first screen shows (scores, battery, residual values) is awaited; the sections below it (charging,
  // mileage, alerts, track) stream in after it (one Suspense boundary), so the top of the page does not wait for
  // them. Their verbs start once the top's have answered: started together, their statements interleaved with the
  // top's (on the embedded database's one connection, and for the pool's connections on Postgres) and the top waited
  // for all of them.
  const top = Promise.allSettled([
    kept.vehicleHealth?.answer ?? getVehicleHealth({ ctx, input, now }),
    kept.tas?.answer ?? getTas({ ctx, input, now }),
    kept.battery?.answer ?? getBatterySnapshot({ ctx, input, now }),
    kept.residualValue?.answer ?? getResidualValue({ ctx, input, now }),
    kept.residualModel?.answer ?? predictResidualValue({ ctx, input: { ...input, ...residualModelQuerySchema.parse({}) }, now }),
  ]);
  const [health, tas, battery, residualRules, residualModel] = await top;
  const lower = startLowerSections(ctx, vehicle, now, logFailures);
  logFailures([health, tas, battery, residualRules, residualModel]);

  const description = [vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(" ");
  const plugIn = isPlugIn(vehicle.powertrain);
  // No traction battery (ICE, HEV): no battery section, no state of charge (issue 30: a diesel showed "State of charge: not reported").
  const tractionBattery = !(battery.status === "fulfilled" && battery.value.data_quality.has_traction_battery === false);
  const knockouts = tas.status === "fulfilled" ? tas.value.knockout_flags : [];
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard" className="text-brand-700 underline">
          Fleet
        </Link>
        <span aria-hidden="true" className="mx-2 text-slate-400">
          /
        </span>
        <span className="font-mono text-slate-600">{vehicle.deviceId}</span>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{vehicle.name}</h1>
        {vehicle.status ? <StatusBadge status={vehicle.status} /> : <span className="text-sm text-slate-600">no data received yet</span>}
        <Link
          href={`/dashboard/certificates?device=${encodeURIComponent(vehicle.deviceId)}`}
          className="ml-auto rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
        >
          Generate certificate
        </Link>
      </div>
      <dl className={`mt-6 grid grid-cols-1 gap-3 ${plugIn ? "sm:grid-cols-4" : "sm:grid-cols-3"}`}>
        <Fact label="Vehicle" value={description || "not declared"} />
        <Fact label="Powertrain" value={vehicle.powertrain ? POWERTRAIN_NAMES[vehicle.powertrain] : "not declared"} />
        {plugIn ? <Fact label="State of charge" value={formatPct(vehicle.socPct, 0, "not reported")} /> : null}
        <Fact label={`Last update (${FLEET_TIME_ZONE_NAME})`} value={formatDateTime(vehicle.updatedAt)} />
      </dl>
      {knockouts.length > 0 ? <KnockoutBanner knockouts={knockouts} grade={tas.status === "fulfilled" ? tas.value.tas_grade : null} /> : null}

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Section id="health" title="Vehicle health" asOf={asOf.health}>
          {health.status === "fulfilled" ? (
            <>
              <Headline value={formatScore(health.value.vehicle_health_score)} note={`${CONFIDENCE_WORDS[health.value.confidence]}; higher is healthier`} />
              <ScoreBars
                label="Health components, each out of 100"
                items={[
                  { name: "Traction battery", value: health.value.components.battery, note: tractionBattery ? NOT_MEASURED : "does not apply" },
                  { name: "Diagnostics", value: health.value.components.diagnostics },
                  { name: "12 V battery", value: health.value.components.electrical_12v },
                  { name: "Odometer", value: health.value.components.odometer_integrity },
                  { name: "Wear (distance driven)", value: health.value.components.usage },
                ]}
              />
              <Limitations items={health.value.limitations} />
            </>
          ) : (
            <Failed result={health} />
          )}
        </Section>

        <Section id="tas" title="Total Asset Score" asOf={asOf.tas}>
          {tas.status === "fulfilled" ? (
            <>
              <Headline value={`Grade ${tas.value.tas_grade}`} note={`${formatScore(tas.value.tas_score)}, ${CONFIDENCE_WORDS[tas.value.confidence]}`} />
              {knockouts.length > 0 ? (
                <p className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">Grade F is forced by the knockout above, whatever the pillars score.</p>
              ) : null}
              <ScoreBars
                label="Pillar scores, each out of 100"
                items={TAS_PILLARS.map((name) => {
                  const p = tas.value.pillars[name];
                  return p.source === "not_applicable"
                    ? { name: PILLAR_NAMES[name], value: null, note: "does not apply" }
                    : { name: PILLAR_NAMES[name], value: p.score, detail: wordsFor(PILLAR_SOURCES, p.source) };
                })}
              />
            </>
          ) : (
            <Failed result={tas} />
          )}
        </Section>

        {tractionBattery ? (
          <Section id="battery" title="Battery" asOf={asOf.battery}>
            {battery.status === "fulfilled" ? (
              <BatteryFacts
                b={battery.value}
                healthComponent={health.status === "fulfilled" ? health.value.components.battery : null}
                tasPillar={tas.status === "fulfilled" && tas.value.pillars.battery_health.source === "oem_bms" ? tas.value.pillars.battery_health.score : null}
              />
            ) : (
              <Failed result={battery} />
            )}
          </Section>
        ) : null}

        <Section id="residual" title="Residual value" asOf={asOf.residual}>
          <ResidualValues rules={residualRules} model={residualModel} />
        </Section>
      </div>

      <Suspense
        fallback={
          <div role="status" className="mt-6 h-96 animate-pulse rounded-xl border border-slate-200 bg-slate-100">
            <span className="sr-only">Loading the charging, mileage, alerts and track sections…</span>
          </div>
        }
      >
        <LowerSections pending={lower} vehicle={vehicle} nowMs={now.getTime()} />
      </Suspense>
    </>
  );
}

/** The verbs of the sections below the first screen, started at once; failures are logged when they have all settled. */
function startLowerSections(ctx: TenantCtx, vehicle: VehicleSummary, now: Date, logFailures: (results: PromiseSettledResult<unknown>[]) => void) {
  const input = { device_id: vehicle.deviceId };
  return Promise.allSettled([
    getChargingRecommendation({ ctx, input: { ...input, ...chargingQuerySchema.parse({}) }, now }),
    // The curve behind the recommendation: the public prices endpoint's verb (it may answer the recorded day when the source is down; labelled below).
    isPlugIn(vehicle.powertrain) ? getSpotPrices({ ctx, now: now.getTime() }) : Promise.resolve(null),
    predictMileage({ ctx, input: { ...input, ...mileageForecastQuerySchema.parse({}) }, now }),
    getOdometerHistory({ ctx, input }),
    listVehicleAlerts({ ctx, input }),
    getVehicleTrack({ ctx, input }),
  ]).then((results) => {
    logFailures(results);
    return results;
  });
}
type LowerResults = Awaited<ReturnType<typeof startLowerSections>>;

/** The sections below the first screen, rendered when their verbs have answered (streamed; see the page). */
async function LowerSections({ pending, vehicle, nowMs }: { pending: Promise<LowerResults>; vehicle: VehicleSummary; nowMs: number }) {
  const [charging, spot, mileage, history, alerts, track] = await pending;
  return (
    <>
      <Section id="charging" title="Charging recommendation" className="mt-6">
        <Charging result={charging} spot={spot} nowMs={nowMs} name={vehicle.name} powertrain={vehicle.powertrain} />
      </Section>

      <Section id="mileage" title="Mileage forecast" className="mt-6">
        <Mileage result={mileage} history={history.status === "fulfilled" ? history.value : []} />
      </Section>

      <Section id="alerts" title="Recent alerts" className="mt-6">
        {alerts.status === "fulfilled" ? (
          alerts.value.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No alerts for this vehicle.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100" data-testid="vehicle-alerts">
              {alerts.value.map((a) => (
                // On a phone: the severity and the meta on one line, the sentence below; side by side from sm up.
                <li key={a.id} className="grid grid-cols-[auto_1fr] items-baseline gap-x-3 gap-y-1 py-2 text-sm sm:grid-cols-[auto_1fr_auto]">
                  <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${SEVERITY_STYLE[a.severity]}`}>{a.severity}</span>
                  <span className="text-slate-600 sm:order-last">
                    {wordsFor(AGENT_NAMES, a.agent)} · {formatDateTime(a.created_at)}
                    {a.acknowledged ? " · acknowledged" : ""}
                  </span>
                  <span className="col-span-2 min-w-0 sm:col-span-1">{plainWords(a.prediction)}</span>
                </li>
              ))}
            </ul>
          )
        ) : (
          <Failed result={alerts} />
        )}
        <p className="mt-3 text-sm">
          <Link href="/dashboard/alerts?acknowledged=" className="text-brand-700 underline">
            All alerts of the fleet
          </Link>
          <span className="text-slate-600"> (the latest {VEHICLE_ALERTS_LIMIT} of this vehicle are shown here)</span>
        </p>
      </Section>

      <Section id="track" title={`Track of the last ${TRACK_DAYS} days`} className="mt-6">
        {track.status === "fulfilled" ? (
          <>
            <p className="mt-1 text-sm text-slate-600">
              {track.value.points.length < 2
                ? "No positions reported in the last days."
                : `${formatNumber(track.value.total_points)} positions from ${formatDateTime(track.value.from)} to ${formatDateTime(track.value.to)}` +
                  (track.value.points.length < track.value.total_points ? `, drawn with ${track.value.points.length}.` : ".")}
            </p>
            <FleetMap
              className="mt-3"
              vehicles={[
                {
                  device_id: vehicle.deviceId,
                  name: vehicle.name,
                  lat: vehicle.lat,
                  lon: vehicle.lon,
                  alert_level: vehicle.alertLevel,
                  status: vehicle.status ?? "no data yet",
                  powertrain: vehicle.powertrain,
                  soc_pct: vehicle.socPct,
                },
              ]}
              tracks={[{ device_id: track.value.device_id, points: track.value.points }]}
              height={360}
              ariaLabel={`Map of ${vehicle.name}'s latest position and its track of the last ${TRACK_DAYS} days`}
            />
          </>
        ) : (
          <Failed result={track} />
        )}
      </Section>
    </>
  );
}

/** A card of the page; `asOf` names when its figures were computed (the maintained scores). */
function Section({ id, title, asOf, className = "", children }: { id: string; title: string; asOf?: Date; className?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} data-section={id} className={`${className} min-w-0 rounded-xl border border-slate-200 bg-white p-5`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {asOf ? (
          <span className="text-xs text-slate-600" data-as-of={id}>
            as of <time dateTime={asOf.toISOString()}>{formatDateTime(asOf)}</time> {FLEET_TIME_ZONE_NAME}
          </span>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/**
 * A knockout (a rolled-back odometer, a battery below 60 %) is the first thing on the page: it overrides
 * the grade, and a manager must not read a good vehicle-health figure without it (issue 30: the rollback
 * was folded inside "Limitations (2)" beside health 83.2).
 */
function KnockoutBanner({ knockouts, grade }: { knockouts: readonly string[]; grade: string | null }) {
  return (
    <div role="note" className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900" data-knockout-banner>
      <p className="font-semibold">Knockout: {knockouts.map((k) => wordsFor(KNOCKOUT_NAMES, k)).join("; ")}.</p>
      <p className="mt-1">
        {grade ? `The Total Asset Score is grade ${grade} because of it. ` : ""}Vehicle health below still scores the parts it measures one by one; read it, and the residual
        values, with this finding in mind. The alerts further down give the evidence.
      </p>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 font-semibold">{value}</dd>
    </div>
  );
}

function Headline({ value, note }: { value: string; note?: string }) {
  return (
    <p className="mt-2">
      <span className="text-3xl font-bold tabular-nums">{value}</span>
      {note ? <span className="ml-2 text-sm text-slate-600">{note}</span> : null}
    </p>
  );
}

function Limitations({ items }: { items: string[] }) {
  if (items.length === 0) return null;
  return (
    <details className="mt-3 text-sm text-slate-700">
      <summary className="cursor-pointer font-medium">Limitations ({items.length})</summary>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {items.map((l) => (
          <li key={l}>{plainWords(l)}</li>
        ))}
      </ul>
    </details>
  );
}

/** A verb's "does not apply" (the API's 422) reads as a note; anything else as a short failure notice (logged above). */
function Failed({ result }: { result: PromiseRejectedResult }) {
  const reason: unknown = result.reason;
  if (reason instanceof UnprocessableError)
    return (
      <p className="mt-2 text-sm text-slate-700" data-note="not-applicable">
        {reason.message}
      </p>
    );
  return (
    <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status" data-note="failed">
      This section could not be computed just now; the rest of the page is unaffected. Reload to try again.
    </p>
  );
}

function BatteryFacts({ b, healthComponent, tasPillar }: { b: Awaited<ReturnType<typeof getBatterySnapshot>>; healthComponent: number | null; tasPillar: number | null }) {
  const s = b.snapshot;
  const q = b.data_quality;
  const soh =
    q.soh_pct !== null
      ? `${formatPct(q.soh_pct)} (${q.soh_source === "oem_bms" ? "reported by the battery management system" : "source unknown"}${q.soh_reported_at ? `, ${formatDateTime(q.soh_reported_at)}` : ""})`
      : q.soh_evidence.status === "outdated"
        ? `not measured in the last ${q.soh_evidence.max_age_days} days (last reading ${formatPct(q.soh_evidence.last_reading_pct)}, ${q.soh_evidence.age_days} days ago: not used)`
        : NOT_MEASURED;
  const facts: [string, string][] = [
    ["State of charge", formatPct(s.soc_current_pct, 0, "not reported")],
    ["State of health", soh],
    [
      "Estimated range",
      s.estimated_range_km === null
        ? "unknown"
        : `${formatKm(s.estimated_range_km)}${q.range_model?.temperature_c != null ? ` at ${formatNumber(q.range_model.temperature_c)} °C` : ""}`,
    ],
    ["Charging", s.charging_status === null ? "not reported" : `${keyWords(s.charging_status)}${s.charging_power_kw ? `, ${formatNumber(s.charging_power_kw, 1)} kW` : ""}`],
    ["12 V battery", formatVolts(s.battery_voltage, "not reported")],
    ["Data", `${q.freshness}${q.latest_telemetry_at ? `, latest ${formatDateTime(q.latest_telemetry_at)}` : ""}`],
  ];
  return (
    <>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt className="text-slate-600">{k}</dt>
            <dd className="font-medium">{v}</dd>
          </div>
        ))}
      </dl>
      {/* One battery story: the state of health above is what both scores' battery figures rest on. */}
      <p className="mt-3 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700" data-battery-story>
        {q.soh_pct !== null
          ? `Both scores read this state of health: vehicle health's battery component is ${formatScore(healthComponent, NOT_MEASURED)} and the Total Asset Score's battery pillar ${formatScore(tasPillar, NOT_MEASURED)}. Each turns the same ${formatPct(q.soh_pct)} into points on its own scale (the methods are linked from the API reference).`
          : "Without a recent state-of-health reading, neither score rates the battery: vehicle health leaves its battery component out and the Total Asset Score gives its battery pillar the neutral 50."}
      </p>
      {b.last_battery_alert ? (
        <p className="mt-3 text-sm text-slate-700">
          Last battery alert ({b.last_battery_alert.severity.toLowerCase()}): {plainWords(b.last_battery_alert.prediction)}
        </p>
      ) : null}
      {q.missing_fields.length > 0 ? <p className="mt-2 text-xs text-slate-600">Not known: {q.missing_fields.map(keyWords).join(", ")}.</p> : null}
    </>
  );
}

/** A residual value's headline: the share kept, in euros where the list price is known, and its confidence. */
function ResidualFigure({ value }: { value: { estimated_residual_pct: number; estimated_residual_eur: number | null; confidence: "high" | "medium" | "low" } }) {
  return (
    <>
      <p className="mt-1 text-2xl font-bold tabular-nums">{formatPct(value.estimated_residual_pct)}</p>
      <p className="text-sm text-slate-700">
        {formatEur(value.estimated_residual_eur, "no list price known")} · {CONFIDENCE_WORDS[value.confidence]}
      </p>
    </>
  );
}

function ResidualValues({
  rules,
  model,
}: {
  rules: PromiseSettledResult<Awaited<ReturnType<typeof getResidualValue>>>;
  model: PromiseSettledResult<Awaited<ReturnType<typeof predictResidualValue>>>;
}) {
  return (
    <>
      <p className="mt-1 text-sm text-slate-700" data-residual-guidance>
        Two methods for one question. The rule-based value applies published depreciation rules to this vehicle&apos;s age, distance and scores; the model-based value starts from
        it and moves it only as far as published sale prices support, with an interval for how far the market may differ. For a decision, take the interval as the range and the
        rule-based value to explain it.
      </p>
      <div className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div data-residual="rules">
          <h3 className="text-sm font-semibold text-slate-700">Rule-based</h3>
          {rules.status === "fulfilled" ? (
            <>
              <ResidualFigure value={rules.value} />
              {rules.value.knockouts.length > 0 ? (
                <p className="mt-1 text-sm text-red-800">Reflects the knockout: {rules.value.knockouts.map((k) => wordsFor(KNOCKOUT_NAMES, k)).join(", ")}</p>
              ) : null}
              {rules.value.data_quality.missing_fields.length > 0 ? (
                <p className="mt-1 text-xs text-slate-600">Not known: {rules.value.data_quality.missing_fields.map(keyWords).join(", ")}</p>
              ) : null}
              <p className="mt-2 text-xs text-slate-600">{plainWords(rules.value.disclaimer)}</p>
            </>
          ) : (
            <Failed result={rules} />
          )}
        </div>
        <div data-residual="model">
          <h3 className="text-sm font-semibold text-slate-700">Model-based</h3>
          {model.status === "fulfilled" ? (
            <>
              <ResidualFigure value={model.value} />
              <p className="mt-1 text-sm text-slate-700">
                {Math.round(model.value.prediction_interval.level * 100)} % interval: {formatNumber(model.value.prediction_interval.low_pct, 1)}–
                {formatPct(model.value.prediction_interval.high_pct)}
              </p>
              <p className="mt-1 text-xs text-slate-600">
                Input completeness: {model.value.data_quality}; model {model.value.model_version}.
              </p>
              <Limitations items={model.value.limitations} />
            </>
          ) : (
            <Failed result={model} />
          )}
        </div>
      </div>
    </>
  );
}

function Charging({
  result,
  spot,
  nowMs,
  name,
  powertrain,
}: {
  result: PromiseSettledResult<Awaited<ReturnType<typeof getChargingRecommendation>>>;
  spot: PromiseSettledResult<Awaited<ReturnType<typeof getSpotPrices>> | null>;
  nowMs: number;
  name: string;
  powertrain: Powertrain | null;
}) {
  if (result.status === "rejected") {
    if (result.reason instanceof UnprocessableError && !isPlugIn(powertrain)) {
      return (
        <p className="mt-2 text-sm text-slate-700" data-note="not-applicable">
          Charging does not apply: {name} is not an electric vehicle ({powertrain ? `powertrain ${powertrain}` : "no powertrain declared"}).
        </p>
      );
    }
    return <Failed result={result} />;
  }
  const r = result.value;
  const deadlineMs = Date.parse(r.deadline);
  const windows: { startMs: number; endMs: number; kind: "cheapest" | "immediate" }[] = [];
  if (r.immediate_charge) windows.push({ startMs: Date.parse(r.immediate_charge.start), endMs: Date.parse(r.immediate_charge.end), kind: "immediate" });
  if (r.cheapest_window) windows.push({ startMs: Date.parse(r.cheapest_window.start), endMs: Date.parse(r.cheapest_window.end), kind: "cheapest" });
  const prices = spot.status === "fulfilled" && spot.value ? spot.value : null;
  // The chart spans from an hour before now to a little past the deadline: the part of the day the plan is about.
  const slots: PriceSlot[] = (prices?.prices ?? [])
    .map((p) => ({ startMs: Date.parse(p.start), endMs: Date.parse(p.end), cents: p.price_cents_kwh }))
    .filter((s) => s.endMs > nowMs - 3_600_000 && s.startMs < deadlineMs + 3 * 3_600_000);
  const recorded = prices?.source.startsWith("recorded:") ?? false;
  const verdict = {
    charge_now: "Charge now",
    charge_later: r.cheapest_window ? "Charge later, in the cheapest window" : "Charge later, by the latest safe start (no prices known)",
    no_charging_needed: "No charging needed",
  }[r.recommendation];
  return (
    <>
      <Headline value={verdict} />
      <p className="mt-1 text-sm text-slate-700">{plainWords(r.reason)}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        <Item k="State of charge" v={`${formatPct(r.soc_current_pct, 0)} → ${formatPct(r.soc_target_pct, 0)}`} />
        <Item k="Energy at the plug" v={formatKwh(r.energy_needed_kwh)} />
        <Item k="Charging" v={`${r.charging_mode.toUpperCase()} ${formatKw(r.charging_power_kw)}, ${formatNumber(r.charging_duration_minutes)} min`} />
        <Item k="Deadline" v={`${formatHelsinki(deadlineMs)} (Helsinki)`} />
        {r.cheapest_window ? (
          <Item
            k="Cheapest window"
            v={`${formatHelsinki(Date.parse(r.cheapest_window.start))}–${formatHelsinki(Date.parse(r.cheapest_window.end)).slice(-5)}, ${formatCentsPerKwh(r.cheapest_window.avg_price_cents_kwh)}`}
          />
        ) : null}
        {r.latest_safe_start ? <Item k="Start by (latest safe start)" v={`${formatHelsinki(Date.parse(r.latest_safe_start))} (Helsinki)`} /> : null}
        {r.estimated_cost_cheapest_eur !== null ? <Item k="Cost in the window" v={formatEurCents(r.estimated_cost_cheapest_eur)} /> : null}
        {r.estimated_cost_now_eur !== null ? <Item k="Cost if charged now" v={formatEurCents(r.estimated_cost_now_eur)} /> : null}
        {r.savings_pct !== null ? <Item k="Saving" v={formatPct(r.savings_pct)} /> : null}
      </dl>
      {slots.length > 0 ? (
        <figure className="mt-4">
          <PriceChart slots={slots} nowMs={nowMs} deadlineMs={deadlineMs} windows={windows} />
          <figcaption className="mt-1 text-xs text-slate-600">
            Finnish day-ahead spot prices incl. VAT, {FLEET_TIME_ZONE_NAME}
            {windows.some((w) => w.kind === "cheapest") ? "; green: the cheapest window" : ""}
            {windows.some((w) => w.kind === "immediate") ? "; amber: charged at once" : ""}
            {slots.length > 0 && Math.max(...slots.map((s) => s.endMs)) < deadlineMs ? "; grey: prices not published yet" : ""}; source {prices?.source}
            {prices?.stale ? " (last fetched prices, stale)." : "."}
          </figcaption>
        </figure>
      ) : (
        <p className="mt-3 text-sm text-slate-600">
          {recorded
            ? `The live spot-price source cannot be reached and nothing fetched in the last 24 hours is cached: no prices for today are known (the shipped recorded day, ${prices?.source.slice("recorded:".length)}, is not today's market and is not drawn), so the plan rests on the state of charge.`
            : "No spot prices are available just now, so no price curve is shown; the plan rests on the state of charge."}
        </p>
      )}
    </>
  );
}

function Item({ k, v }: { k: string; v: string }) {
  return (
    <div>
      <dt className="text-slate-600">{k}</dt>
      <dd className="font-medium">{v}</dd>
    </div>
  );
}

function Mileage({ result, history }: { result: PromiseSettledResult<Awaited<ReturnType<typeof predictMileage>>>; history: { day: string; km: number }[] }) {
  if (result.status === "rejected") return <Failed result={result} />;
  const m = result.value;
  const endMs = Date.parse(`${m.forecast_end}T12:00:00Z`);
  // eslint-disable-next-line react-hooks/purity -- a server component renders once per request: now is the request's time
  const currentMs = m.current_km_at ? Date.parse(m.current_km_at) : Date.now();
  return (
    <>
      <Headline
        value={formatKm(m.predicted_end_km)}
        note={`forecast for ${formatDate(m.forecast_end)}${m.forecast_end_basis === "lease_end" ? " (lease end)" : " (a year ahead: no lease end known)"}`}
      />
      <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        <Item
          k={m.distance_method === "odometer_plausible_increases" && m.rolled_back_km > 0 ? "Distance series now (odometer rolled back)" : "Odometer now"}
          v={`${formatKm(m.current_km)}${m.current_km_at ? ` (${formatDate(m.current_km_at)})` : ""}${m.rolled_back_km > 0 && m.odometer_reading_km !== null ? `; the odometer shows ${formatKm(m.odometer_reading_km)}` : ""}`}
        />
        <Item k={`${m.interval_level_pct} % interval`} v={`${formatNumber(m.confidence_interval.lower)}–${formatKm(m.confidence_interval.upper)}`} />
        <Item k="Contract limit" v={formatKm(m.contract_km, "not known")} />
        <Item
          k="Overrun risk"
          v={m.risk_basis === "no_contract_limit" ? "no limit known" : `${formatPct(m.risk_score, 0)}${m.overage_km ? `, ${formatKm(m.overage_km)} over` : ""}`}
        />
        <Item k="Daily rate" v={`${formatNumber(m.daily_rate_km, 1)} km/day`} />
        <Item k="Data quality" v={`${m.data_quality} (${m.reading_days} days of readings)`} />
      </dl>
      <figure className="mt-4">
        <MileageChart
          history={history.map((h) => ({ ms: Date.parse(`${h.day}T12:00:00Z`), km: h.km })).filter((h) => h.ms <= currentMs + DAY_MS)}
          current={{ ms: currentMs, km: m.current_km }}
          end={{ ms: endMs, km: m.predicted_end_km }}
          lower={m.confidence_interval.lower}
          upper={m.confidence_interval.upper}
          contractKm={m.contract_km}
          levelPct={m.interval_level_pct}
        />
        <figcaption className="mt-1 text-xs text-slate-600">
          Grey: the highest odometer reading of each day; blue dashed: the forecast; shaded: its {m.interval_level_pct} % interval
          {m.contract_km !== null ? "; red dashed: the contract limit." : "."}
        </figcaption>
      </figure>
      <Limitations items={m.limitations} />
    </>
  );
}
