import { describe, expect, it } from "vitest";
import examplesJson from "@/lib/openapi/examples.json";
import { TOOL_CATALOGUE, type ToolName } from "@/lib/mcp/tool-catalogue";
import { SUMMARY_MAX_CHARS, summarizeToolResult } from "@/lib/mcp/tool-summaries";
import { LEAKED_VALUE } from "@/tests/helpers/leaked-values";

/**
 * The text line of every MCP tool result, summarised from the real sandbox answers of the OpenAPI
 * examples (lib/openapi/examples.json) and from hand-made variants of them. Every expectation is read
 * from the example itself, so a regenerated example keeps the test meaningful.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const EXAMPLES = examplesJson as unknown as Record<string, { response: Json }>;

/** The sandbox's newest telemetry in the examples is 2026-11-24T06:00:00Z: NOW is two hours later. */
const NOW = new Date("2026-11-24T08:00:00.000Z");

function operationId(name: ToolName): string {
  const entry = TOOL_CATALOGUE.find((t) => t.name === name);
  if (!entry) throw new Error(`no tool ${name}`);
  return entry.operation.id;
}

/** A deep copy of the tool's example answer (to edit freely). */
function example(name: ToolName): Json {
  const ex = EXAMPLES[operationId(name)];
  if (!ex) throw new Error(`no example for ${name}`);
  return structuredClone(ex.response);
}

const en = (x: number, digits = 0) => x.toLocaleString("en-US", { maximumFractionDigits: digits });
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

/** Helsinki wall clock `HH:MM` of an instant, computed with the platform's time-zone data (independent of the code under test). */
function helsinkiHHMM(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Helsinki", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));
}

/** One line, within the limit, nothing that leaks a missing value or an object. */
function expectClean(text: string): void {
  expect(typeof text).toBe("string");
  expect(text.length).toBeGreaterThan(10);
  expect(text.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  expect(text).not.toMatch(/[\r\n]/);
  expect(text).toBe(text.trim());
  expect(text).not.toMatch(LEAKED_VALUE);
  expect(text).not.toMatch(/[*_`#]{2}|^\s*[-*#]/); // no markdown emphasis, lists or headings
}

function summary(name: ToolName, output: Json, now: Date = NOW): string {
  const text = summarizeToolResult(name, output, now);
  expectClean(text);
  return text;
}

/**
 * What each tool's summary of its example must contain, derived from the example. A `Record` over
 * ToolName: a tool added to the catalogue without an entry here fails to compile.
 */
const EXPECTED: Record<ToolName, (ex: Json) => Array<string | RegExp>> = {
  get_tas_score: (ex) => [`TAS ${ex.tas_grade} (${en(ex.tas_score, 1)})`, ex.device_id, "knockouts: none", "data 2 h old"],
  get_battery_health: (ex) => [
    ex.device_id,
    `SoH ${en(ex.data_quality.soh_pct, 1)} %`,
    `SoC ${en(ex.snapshot.soc_current_pct, 1)} %`,
    `${en(ex.snapshot.estimated_range_km)} km`,
    "no battery alert",
    "data 2 h old",
  ],
  get_fleet_risk: (ex) => [
    `Fleet risk ${en(ex.fleet_risk_score, 1)}/100`,
    `${ex.period_days} d`,
    `${ex.device_count} vehicles`,
    `${ex.alerts_period} alerts (${ex.critical_alerts_period} critical)`,
    "data 2 h old",
  ],
  predict_mileage: (ex) => [
    ex.device_id,
    `${en(ex.predicted_end_km)} km by ${ex.forecast_end}`,
    `${en(ex.confidence_interval.lower)}–${en(ex.confidence_interval.upper)} km`,
    `contract ${en(ex.contract_km)} km`,
    `${en(ex.overage_km)} km over`,
    `overrun risk ${en(ex.risk_score, 1)} %`,
  ],
  predict_residual_value: (ex) => [
    ex.device_id,
    `${en(ex.estimated_residual_pct, 1)} %`,
    `${en(ex.prediction_interval.low_pct, 1)}–${en(ex.prediction_interval.high_pct, 1)} %`,
    `${en(ex.estimated_residual_eur)} EUR`,
    `${en(ex.original_price_eur)} EUR`,
    `confidence ${ex.confidence}`,
  ],
  generate_certificate: (ex) => [ex.certificate_number, ex.device_id, `grade ${ex.grade}`, `valid until ${ex.expires_at.slice(0, 10)}`, ex.verify_url],
  get_emissions_report: (ex) => [
    ex.period_start,
    ex.period_end,
    `${en(ex.total_co2_kg_estimate)} kg CO₂e`,
    `${ex.total_vehicles} vehicles`,
    `${ex.ev_count} EV`,
    `no distance data for ${ex.vehicles.filter((v: Json) => v.distance_method === "none").length} vehicles`,
  ],
  get_charging_recommendation: (ex) => [
    `Charge ${ex.device_id} ${ex.recommendation === "charge_later" ? "later" : "now"}`,
    `${en(ex.energy_needed_kwh, 1)} kWh`,
    `to ${ex.soc_target_pct} %`,
    `${en(ex.charging_power_kw, 1)} kW AC`,
    "no spot prices",
    ...(ex.latest_safe_start ? ["start by", "at the latest (no price optimum)"] : []),
    `${helsinkiHHMM(ex.deadline)} Helsinki`,
    "SoC 2 h old",
  ],
  list_fleet: (ex) => [
    `${ex.data.length} vehicles`,
    ...["driving", "idle", "parked", "charging", "offline"].flatMap((s) => {
      const n = ex.data.filter((r: Json) => r.status === s).length;
      return n > 0 ? [`${n} ${s}`] : [];
    }),
    ex.data[0].device_id,
    "newest data 2 h old",
  ],
  list_alerts: (ex) => [`${ex.data.length} alerts`, `${ex.data.filter((a: Json) => !a.acknowledged).length} unacknowledged`, ex.data[0].id, ex.data[0].device_id],
  get_vehicle_health: (ex) => [`Vehicle health ${en(ex.vehicle_health_score, 1)}/100`, ex.device_id, "data 2 h old"],
  get_green_fleet: (ex) => [
    `Green fleet score ${en(ex.green_fleet_score, 1)}/100`,
    `EV share ${en(ex.components.ev_share, 1)}`,
    `CO₂ intensity ${en(ex.components.co2_intensity, 1)}`,
    "data 2 h old",
  ],
  get_eol_summary: (ex) => [`grade ${ex.condition_grade}`, ex.device_id, `vehicle health ${en(ex.vehicle_health_score, 1)}`, "knockouts: none"],
  get_residual_value: (ex) => [ex.device_id, `${en(ex.estimated_residual_pct, 1)} %`, `${en(ex.estimated_residual_eur)} EUR`, `${en(ex.factors.mileage_km)} km`],
  score_devices_batch: (ex) => [
    `${ex.meta.total} devices: ${ex.meta.processed} scored, ${ex.meta.errors} errors`,
    ...ex.results.map((r: Json) => r.device_id),
    `health ${en(ex.results[0].vehicle_health.vehicle_health_score, 1)}`,
    `EOL ${ex.results[0].eol_summary.condition_grade}`,
  ],
  get_tas_batch: (ex) => [
    `${ex.meta.total} devices: ${ex.meta.scored} scored, ${ex.meta.errors} error`,
    ...ex.results.filter((r: Json) => r.error === null).map((r: Json) => `${r.device_id} ${r.tas_grade} (${en(r.tas_score, 1)})`),
    `failed: ${ex.results
      .filter((r: Json) => r.error !== null)
      .map((r: Json) => r.device_id)
      .join(", ")}`,
  ],
  get_certificate: (ex) => [ex.certificate_number, ex.device_id, `grade ${ex.grade}`, `valid until ${ex.expires_at.slice(0, 10)}`],
  verify_certificate: (ex) => [`${ex.certificate_number} is ${ex.status.toUpperCase()}`, ex.device_id, `grade ${ex.grade}`, `valid until ${ex.expires_at.slice(0, 10)}`],
  generate_csrd_report: (ex) => [
    ex.period.start_date,
    ex.period.end_date,
    `as ${ex.reporting_role}`,
    `${en(ex.emissions.total_location_based.value, 2)} tCO₂e location-based`,
    `${ex.fleet_summary.total_vehicles} vehicles`,
    `EV share ${en(ex.ev_metrics.ev_share_pct)} %`,
    ex.emissions.total_market_based.value === null ? "market-based unknown" : "market-based",
  ],
  list_events: (ex) => [`${ex.data.length} events`, `newest ${ex.data.at(-1).type} for ${ex.data.at(-1).data.device_id}`, ex.has_more ? "more follow" : "up to date"],
  get_spot_prices: (ex) => {
    const prices = ex.prices.map((p: Json) => p.price_cents_kwh);
    const current = ex.prices.find((p: Json) => Date.parse(p.start) <= NOW.getTime() && NOW.getTime() < Date.parse(p.end));
    return [
      `${ex.prices.length} hourly slots`,
      `min ${en(Math.min(...prices), 2)}`,
      `max ${en(Math.max(...prices), 2)}`,
      // The sandbox example is the recorded day (no network in tests): its slots are in 2024, none is "now".
      current ? `now ${en(current.price_cents_kwh, 2)}` : /^(?!.*\bnow \d)/,
      ex.source.startsWith("recorded:") ? `recorded day ${ex.source.replace("recorded:", "")}, not live` : ex.source,
      ...(ex.stale ? ["STALE since"] : []),
    ];
  },
};

describe("summarizeToolResult on the sandbox example of every tool", () => {
  it("every catalogue tool has an example answer to summarise", () => {
    for (const t of TOOL_CATALOGUE) expect(EXAMPLES[t.operation.id]?.response, t.name).toBeTruthy();
  });

  for (const tool of TOOL_CATALOGUE) {
    it(`${tool.name}: one clean line with the example's own figures`, () => {
      const ex = example(tool.name);
      const text = summary(tool.name, ex);
      for (const part of EXPECTED[tool.name](ex)) {
        if (typeof part === "string") expect(text, tool.name).toContain(part);
        else expect(text, tool.name).toMatch(part);
      }
    });
  }

  it("generate_certificate never carries the base64 PDF", () => {
    const ex = example("generate_certificate");
    expect(typeof ex.pdf_base64).toBe("string");
    const text = summary("generate_certificate", ex);
    expect(text).not.toContain(ex.pdf_base64.slice(0, 16));
    expect(text).not.toContain("JVBERi");
  });

  it("the same answer and clock give the same line (no dependence on the machine's locale or time)", () => {
    for (const t of TOOL_CATALOGUE) expect(summarizeToolResult(t.name, example(t.name), NOW)).toBe(summarizeToolResult(t.name, example(t.name), NOW));
  });
});

describe("data age", () => {
  const tasAt = (ms: number) => {
    const ex = example("get_tas_score");
    return summary("get_tas_score", ex, shift(ex.data_quality.latest_telemetry_at, ms));
  };

  it("under a minute, minutes, hours, days", () => {
    expect(tasAt(30_000)).toContain("data < 1 min old");
    expect(tasAt(5 * MIN + 59_000)).toContain("data 5 min old");
    expect(tasAt(59 * MIN)).toContain("data 59 min old");
    expect(tasAt(3 * HOUR + 20 * MIN)).toContain("data 3 h old");
    expect(tasAt(30 * HOUR)).toContain("data 30 h old");
    expect(tasAt(50 * HOUR)).toContain("data 2 d old");
    expect(tasAt(10 * 24 * HOUR + 5 * HOUR)).toContain("data 10 d old");
  });

  it("a timestamp after now (clock skew) is < 1 min, never negative", () => {
    const text = tasAt(-5 * MIN);
    expect(text).toContain("data < 1 min old");
    expect(text).not.toMatch(/-\d+ (min|h|d)\b/);
  });

  it("no telemetry at all is said, not aged", () => {
    const ex = example("get_tas_score");
    ex.data_quality.latest_telemetry_at = null;
    ex.data_quality.data_age_seconds = null;
    const text = summary("get_tas_score", ex);
    expect(text).toContain("no telemetry");
    expect(text).not.toContain(" old");
  });

  it("scores without a timestamp field read the age from their freshness sentence", () => {
    const ex = example("get_vehicle_health");
    ex.limitations[0] = "Newest telemetry used is 3 days old (2026-11-20T06:00:00.000Z).";
    expect(summary("get_vehicle_health", ex)).toContain("data 4 d old");
    ex.limitations[0] = "No telemetry was available for this score.";
    expect(summary("get_vehicle_health", ex)).toContain("no telemetry");
  });
});

describe("caveats", () => {
  it("a TAS knockout is named (and the summary no longer says none)", () => {
    const ex = example("get_tas_score");
    ex.tas_grade = "F";
    ex.tas_score = 12.5;
    ex.knockout_flags = ["soh_below_60"];
    const text = summary("get_tas_score", ex);
    expect(text).toContain("TAS F (12.5)");
    expect(text).toContain("SoH below 60 %");
    expect(text).not.toContain("knockouts: none");

    ex.knockout_flags = ["soh_below_60", "odometer_manipulation"];
    expect(summary("get_tas_score", ex)).toMatch(/knockouts: SoH below 60 %, odometer manipulation/);
  });

  it("low confidence is said; high is not", () => {
    const ex = example("get_tas_score");
    expect(summary("get_tas_score", ex)).not.toContain("confidence");
    ex.confidence = "low";
    expect(summary("get_tas_score", ex)).toContain("low confidence");
  });

  it("a null state of health says unknown", () => {
    const ex = example("get_battery_health");
    ex.data_quality.soh_pct = null;
    ex.data_quality.soh_source = null;
    ex.snapshot.estimated_range_km = null;
    ex.data_quality.missing_fields = ["soh_pct", "estimated_range_km"];
    const text = summary("get_battery_health", ex);
    expect(text).toContain("SoH unknown");
    expect(text).not.toContain("range");
  });

  it("a battery alert is reported with its severity and age", () => {
    const ex = example("get_battery_health");
    ex.last_battery_alert = { severity: "CRITICAL", prediction: "SoH dropped", confidence: 0.9, created_at: "2026-11-21T08:00:00.000Z" };
    expect(summary("get_battery_health", ex)).toContain("last battery alert CRITICAL 3 d ago");
  });

  it("a vehicle without a traction battery says so instead of an unknown SoH", () => {
    const ex = example("get_battery_health");
    ex.data_quality.has_traction_battery = false;
    ex.data_quality.powertrain = "ICE";
    ex.data_quality.soh_pct = null;
    const text = summary("get_battery_health", ex);
    expect(text).toContain("no traction battery");
    expect(text).toContain("(ICE)");
  });

  it("an EOL grade without a measured health score is flagged as a placeholder", () => {
    const ex = example("get_eol_summary");
    ex.vehicle_health_score = null;
    ex.confidence = "low";
    const text = summary("get_eol_summary", ex);
    expect(text).toContain("placeholder");
    expect(text).toContain("low confidence");
  });

  it("residual values without a known price say EUR unknown", () => {
    const rule = example("get_residual_value");
    rule.estimated_residual_eur = null;
    rule.data_quality.missing_fields = ["original_price_eur"];
    const ruleText = summary("get_residual_value", rule);
    expect(ruleText).toContain("EUR unknown");
    expect(ruleText).toContain("unknown: original_price_eur");

    const model = example("predict_residual_value");
    model.estimated_residual_eur = null;
    model.original_price_eur = null;
    expect(summary("predict_residual_value", model)).toContain("EUR unknown");
  });

  it("a mileage forecast without a contract limit says so", () => {
    const ex = example("predict_mileage");
    ex.contract_km = null;
    ex.overage_km = null;
    ex.risk_score = 0;
    ex.risk_basis = "no_contract_limit";
    const text = summary("predict_mileage", ex);
    expect(text).toContain("no contract km limit");
    expect(text).not.toContain("overrun risk");
  });

  it("certificate status: revoked with its reason, expired", () => {
    const v = example("verify_certificate");
    v.status = "revoked";
    v.revoked_at = "2026-12-01T10:00:00.000Z";
    v.revocation_reason = "odometer replaced";
    const text = summary("verify_certificate", v);
    expect(text).toContain("is REVOKED");
    expect(text).toContain("2026-12-01");
    expect(text).toContain("odometer replaced");

    const g = example("get_certificate");
    g.is_expired = true;
    expect(summary("get_certificate", g)).toContain(`EXPIRED on ${g.expires_at.slice(0, 10)}`);
  });

  it("stale spot prices are flagged", () => {
    const ex = example("get_spot_prices");
    ex.stale = true;
    ex.cached = true;
    ex.source = "porssisahko.net";
    ex.stale_since = "2026-11-24T06:15:00.000Z";
    const text = summary("get_spot_prices", ex);
    expect(text).toContain(`STALE since ${helsinkiHHMM(ex.stale_since)}`);
    expect(text).toContain("source porssisahko.net");
  });
});

describe("charging recommendation", () => {
  it("null window without prices: says why", () => {
    const ex = example("get_charging_recommendation");
    expect(ex.cheapest_window).toBeNull();
    expect(ex.price_source).toBeNull();
    const text = summary("get_charging_recommendation", ex);
    expect(text).not.toContain("cost");
    // …and the latest safe start the plan rests on instead of "now".
    expect(ex.latest_safe_start).not.toBeNull();
    expect(text).toMatch(new RegExp(`no spot prices: start by (\\d{4}-\\d\\d-\\d\\d )?${helsinkiHHMM(ex.latest_safe_start)} Helsinki at the latest \\(no price optimum\\)`));
    ex.latest_safe_start = null;
    expect(summary("get_charging_recommendation", ex)).toContain("no spot prices, so no cheaper window");
  });

  it("null window with prices: the known prices gave no cheaper window", () => {
    const ex = example("get_charging_recommendation");
    ex.price_source = "porssisahko.net";
    ex.current_price_cents_kwh = 6.7;
    ex.estimated_cost_now_eur = 0.56;
    // Known prices that do not cover a window: the latest safe start, as without prices.
    expect(summary("get_charging_recommendation", ex)).toContain("known prices too short: start by");
    ex.latest_safe_start = null;
    const text = summary("get_charging_recommendation", ex);
    expect(text).toContain("no cheaper window on the known prices");
    expect(text).toContain("cost now 0.56 EUR");
  });

  it("a later window: Helsinki start and end, average price, costs and savings", () => {
    const ex = example("get_charging_recommendation");
    Object.assign(ex, {
      recommendation: "charge_later",
      price_source: "porssisahko.net",
      cheapest_window: { start: "2026-11-25T00:00:00.000Z", end: "2026-11-25T00:46:00.000Z", avg_price_cents_kwh: 3.214 },
      current_price_cents_kwh: 6.7,
      estimated_cost_cheapest_eur: 0.27,
      estimated_cost_now_eur: 0.56,
      savings_pct: 51.8,
    });
    const text = summary("get_charging_recommendation", ex);
    expect(text).toContain(`Charge ${ex.device_id} later`);
    expect(text).toContain(`${helsinkiHHMM(ex.cheapest_window.start)}–${helsinkiHHMM(ex.cheapest_window.end)} Helsinki time`);
    expect(text).toContain("3.21 c/kWh");
    expect(text).toContain("cost 0.27 EUR vs 0.56 EUR now (51.8 % saved)");
  });

  it("no charging needed", () => {
    const ex = example("get_charging_recommendation");
    Object.assign(ex, { recommendation: "no_charging_needed", soc_current_pct: 85, energy_needed_kwh: 0, energy_to_battery_kwh: 0, charging_duration_minutes: 0 });
    const text = summary("get_charging_recommendation", ex);
    expect(text).toMatch(new RegExp(`^No charging needed for ${ex.device_id}: SoC 85 %`));
    expect(text).not.toContain("kWh");
  });
});

describe("lists and batches", () => {
  it("an empty fleet list", () => {
    const ex = example("list_fleet");
    ex.data = [];
    ex.count = 0;
    const text = summary("list_fleet", ex);
    expect(text).toMatch(/^0 vehicles/);
    expect(text).toContain("empty");
  });

  it("a fleet list counts statuses and critical alerts, and names at most a few ids", () => {
    const base = example("list_fleet").data[0];
    const rec = (i: number, status: string, alert_level: string) => ({ ...base, device_id: `dev-${String(i).padStart(3, "0")}`, status, alert_level });
    const data = [
      ...Array.from({ length: 30 }, (_, i) => rec(i, "parked", "none")),
      ...Array.from({ length: 5 }, (_, i) => rec(30 + i, "driving", "critical")),
      ...Array.from({ length: 7 }, (_, i) => rec(35 + i, "offline", "warning")),
    ];
    const text = summary("list_fleet", { data, count: data.length, tenant_id: "t" });
    expect(text).toContain("42 vehicles: 5 driving, 30 parked, 7 offline");
    expect(text).toContain("5 critical, 7 warning");
    expect(text).toContain("dev-000, dev-001, dev-002 +39 more");
    expect(text).not.toContain("dev-003");
  });

  it("an empty alert list, and a long one stays short", () => {
    const ex = example("list_alerts");
    expect(summary("list_alerts", { ...ex, data: [], count: 0 })).toMatch(/^0 alerts/);

    const many = Array.from({ length: 200 }, (_, i) => ({
      ...ex.data[0],
      id: `alt_${i}`,
      device_id: `dev-${i}`,
      severity: i % 4 === 0 ? "CRITICAL" : "INFO",
      acknowledged: i % 2 === 0,
    }));
    const text = summary("list_alerts", { ...ex, data: many, count: many.length });
    expect(text).toContain("200 alerts: 50 critical, 150 info");
    expect(text).toContain("100 unacknowledged");
  });

  it("a scores batch with errors counts and names them", () => {
    const ex = example("score_devices_batch");
    ex.results[1] = { device_id: "sbx-404", error: { error: "not_found", message: "No device sbx-404." } };
    ex.meta = { ...ex.meta, processed: 1, errors: 1 };
    const text = summary("score_devices_batch", ex);
    expect(text).toContain(`${ex.meta.total} devices: 1 scored, 1 error`);
    expect(text).toContain("failed: sbx-404 (not_found)");
  });

  it("a TAS batch where everything failed", () => {
    const ex = example("get_tas_batch");
    ex.results = ex.results.map((r: Json) => ({ ...r, tas_grade: null, tas_score: null, confidence: null, error: "boom" }));
    ex.meta = { ...ex.meta, scored: 0, errors: ex.results.length };
    const text = summary("get_tas_batch", ex);
    expect(text).toContain(`0 scored, ${ex.results.length} errors`);
    expect(text).not.toContain("grades");
  });
});

describe("totality: a malformed answer never throws and never prints a missing value", () => {
  const garbage: Json[] = [{}, null, undefined, 42, "text", [], { data: null }, { results: [null] }];

  for (const tool of TOOL_CATALOGUE) {
    it(tool.name, () => {
      for (const g of garbage) summary(tool.name, g);
      const ex = example(tool.name);
      for (const key of Object.keys(ex)) {
        const without = structuredClone(ex);
        delete without[key];
        summary(tool.name, without);
        summary(tool.name, { ...structuredClone(ex), [key]: null });
      }
      // An invalid clock leaves the ages out rather than printing NaN.
      summary(tool.name, ex, new Date(Number.NaN));
    });
  }

  it("an unknown tool name gets the generic line", () => {
    expect(summarizeToolResult("no_such_tool" as ToolName, {}, NOW)).toContain("no_such_tool");
  });
});
