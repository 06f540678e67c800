/**
 * One call per capability of FDP's API with the typed client, on a vehicle this tour ingests first.
 * CI runs it against the app (tests/transport/typescript-client.test.ts), so it cannot rot.
 *
 *   FDP_BASE_URL=https://fdp.example.com FDP_API_KEY=fdp_live_… npm run tour
 *
 * The key needs every scope (the dashboard's "all scopes"). Against the public sandbox key, ingest is a
 * mock acceptance that stores nothing, so the tour's own vehicle does not exist there: use a key of
 * your own tenant.
 */
import { createFdpClient, eventPages, orThrow, type FdpClient } from "../src/index.js";

export interface TourStep {
  capability: string;
  /** What the answer says, in one line. */
  summary: string;
}

export async function tour(fdp: FdpClient, vin = "TOURVIN0000000001"): Promise<TourStep[]> {
  const steps: TourStep[] = [];
  const step = (capability: string, summary: string) => steps.push({ capability, summary });
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const device_id = `oem-${vin}`;

  // Ingest: SPEC 2.17 records (a signed ingest: samples/node/signed-ingest.mjs).
  const ingested = await orThrow(
    fdp.POST("/oem/ingest", {
      body: {
        vehicles: [50, 40, 30, 20, 10].map((m, i) => ({
          vin,
          timestamp: minutesAgo(m),
          odometer_km: 42_000 + i * 5,
          speed_kmh: i % 2 === 0 ? 0 : 48,
          soc_percent: 70 - i,
          soh_percent: 94,
          battery_voltage: 12.6,
          lat: 60.17,
          lon: 24.94,
          raw_data: { vehicle: { make: "Volvo", model: "EX30", powertrain: "BEV" as const, battery_kwh: 64, year: 2024 } },
        })),
      },
    }),
  );
  step("ingest", `${ingested.device_count} vehicle(s) accepted`);
  // The feeds in their sources' own formats: a Traccar position, a Tesla Fleet Telemetry payload.
  const traccar = await orThrow(
    fdp.POST("/oem/ingest/traccar", {
      body: { position: { fixTime: minutesAgo(5), latitude: 60.2, longitude: 24.9, speed: 20, attributes: { ignition: true } }, device: { uniqueId: "tour-tracker-1" } },
    }),
  );
  step("Traccar feed", `${traccar.device_count} vehicle(s) accepted`);
  const tesla = await orThrow(
    fdp.POST("/oem/ingest/tesla", { body: { vin: "TOURTESLA00000001", createdAt: minutesAgo(5), data: [{ key: "Soc", value: { stringValue: "71.3" } }] } }),
  );
  step("Tesla feed", `${tesla.device_count} vehicle(s) accepted`);

  // Fleet and alerts.
  const fleet = await orThrow(fdp.GET("/fleet", { params: { query: { limit: 100 } } }));
  step("fleet", `${fleet.data.length} vehicle(s); ${device_id} is ${fleet.data.find((v) => v.device_id === device_id)?.status}`);
  const alerts = await orThrow(fdp.GET("/alerts", { params: { query: { severity: "CRITICAL", acknowledged: false } } }));
  step("alerts", `${alerts.data.length} open critical alert(s)`);

  // Scores.
  const risk = await orThrow(fdp.GET("/scores/fleet-risk", { params: { query: { period: "30d" } } }));
  step("fleet risk", `score ${risk.fleet_risk_score}, confidence ${risk.confidence}`);
  const green = await orThrow(fdp.GET("/scores/green-fleet", { params: { query: { period: "90d" } } }));
  step("green fleet", `score ${green.green_fleet_score}, confidence ${green.confidence}`);
  const health = await orThrow(fdp.GET("/scores/vehicle-health/{device_id}", { params: { path: { device_id } } }));
  step("vehicle health", `score ${health.vehicle_health_score}, confidence ${health.confidence}`);
  const snapshot = await orThrow(fdp.GET("/vehicles/{device_id}/battery-health-snapshot", { params: { path: { device_id } } }));
  step("battery snapshot", `state of charge ${snapshot.snapshot.soc_current_pct ?? "not reported"} %`);
  const eol = await orThrow(fdp.GET("/vehicles/{device_id}/eol-summary", { params: { path: { device_id } } }));
  step("end-of-lease summary", `condition grade ${eol.condition_grade}`);
  const batch = await orThrow(fdp.POST("/scores/batch", { body: { device_ids: [device_id], scores: ["vehicle_health"] } }));
  step("scores batch", `${batch.results.length} result(s)`);
  const tas = await orThrow(fdp.GET("/tas/{device_id}", { params: { path: { device_id } } }));
  step("total asset score", `TAS ${tas.tas_score} (${tas.tas_grade})`);
  const tasBatch = await orThrow(fdp.POST("/tas/batch", { body: { device_ids: [device_id] } }));
  step("TAS batch", `${tasBatch.results.length} result(s)`);

  // Leasing.
  const residual = await orThrow(fdp.GET("/vehicles/{device_id}/residual-value", { params: { path: { device_id } } }));
  step("residual value (rules)", `${residual.estimated_residual_pct ?? "not estimated"} % of the original price`);
  const predicted = await orThrow(fdp.GET("/predict/residual-value/{device_id}", { params: { path: { device_id }, query: { original_price_eur: 48_000 } } }));
  step("residual value (model)", `${predicted.estimated_residual_pct} %, ${predicted.estimate_source}`);
  const mileage = await orThrow(fdp.GET("/predict/mileage/{device_id}", { params: { path: { device_id }, query: { contract_km: 100_000, lease_months: 36 } } }));
  step("mileage forecast", `${mileage.predicted_end_km} km at the lease's end`);

  // Energy.
  const prices = await orThrow(fdp.GET("/energy/spot-prices"));
  step("spot prices", `${prices.prices.length} hourly price(s)`);
  const plan = await orThrow(fdp.GET("/charging/recommendation/{device_id}", { params: { path: { device_id } } }));
  step("charging plan", plan.recommendation);

  // Reports: JSON, and CSV as text.
  const today = new Date().toISOString().slice(0, 10);
  // An operation that answers JSON or CSV (PDF) is typed as either: the JSON is an object.
  const emissions = await orThrow(fdp.GET("/reports/emissions", { params: { query: { start_date: today, end_date: today } } }));
  if (typeof emissions === "string") throw new Error("asked for JSON, got text");
  step("emissions report", `${emissions.total_vehicles} vehicle(s)`);
  const csv = await orThrow(fdp.GET("/reports/emissions", { params: { query: { start_date: today, end_date: today, format: "csv" } }, parseAs: "text" }));
  step("emissions CSV", `${csv.split("\n").length} line(s)`);
  const csrd = await orThrow(fdp.POST("/reports/csrd/generate", { params: { query: { start_date: today, end_date: today, format: "json" } } }));
  if (typeof csrd === "string") throw new Error("asked for JSON, got text");
  step("CSRD report", `reporting role ${csrd.reporting_role}`);

  // Calculators.
  const gordonLoeb = await orThrow(
    fdp.POST("/pricing/gordon-loeb", {
      body: { vulnerability: 0.5, potential_loss_eur: 1_000_000, breach_function: { class: "I", alpha: 0.00001, beta: 1 }, proposed_investment_eur: 100_000 },
    }),
  );
  step("Gordon–Loeb", `at most ${gordonLoeb.max_optimal_investment_eur} EUR is worth investing`);
  const carry = await orThrow(
    fdp.POST("/pricing/commission", {
      body: {
        contributed_capital_eur: 100_000_000,
        total_distributions_eur: 180_000_000,
        preferred_return_pct: 8,
        holding_period_years: 5,
        compounding: "annual",
        carry_pct: 20,
        catch_up_pct: 100,
      },
    }),
  );
  step("carried interest", `${carry.totals.gp_carry_eur} EUR to the GP`);

  // Certificates: generate, read, the PDF, and the public verification.
  const certificate = await orThrow(fdp.POST("/certificates/generate/{device_id}", { params: { path: { device_id } } }));
  const certificate_number = certificate.certificate_number;
  const stored = await orThrow(fdp.GET("/certificates/{certificate_number}", { params: { path: { certificate_number } } }));
  step("certificate", `${certificate_number}, grade ${stored.grade}`);
  const pdf = await orThrow(fdp.GET("/certificates/{certificate_number}/pdf", { params: { path: { certificate_number } }, parseAs: "arrayBuffer" }));
  step("certificate PDF", `${pdf.byteLength} bytes`);
  const verified = await orThrow(fdp.GET("/certificates/{certificate_number}/verify", { params: { path: { certificate_number } } }));
  step("verification", `status ${verified.status}`);

  // Webhooks and the changes feed.
  const hook = await orThrow(fdp.POST("/webhooks", { body: { url: "https://93.184.215.14/fdp-webhooks", events: ["alert.created", "certificate.generated"] } }));
  step("webhook created", `${hook.id}; keep its secret: it is shown once`);
  const hooks = await orThrow(fdp.GET("/webhooks"));
  step("webhooks", `${hooks.data.length} endpoint(s)`);
  const one = await orThrow(fdp.GET("/webhooks/{webhook_id}", { params: { path: { webhook_id: hook.id } } }));
  step("webhook", `events ${one.events.join(", ")}`);
  const replay = await orThrow(fdp.POST("/webhooks/{webhook_id}/replay", { params: { path: { webhook_id: hook.id } }, body: { since: minutesAgo(60) } }));
  step("webhook replay", `${replay.events} event(s) queued`);
  let events = 0;
  for await (const page of eventPages(fdp, { limit: 100 })) events += page.data.length;
  step("events", `${events} event(s) in the feed`);
  await orThrow(fdp.DELETE("/webhooks/{webhook_id}", { params: { path: { webhook_id: hook.id } } }));
  step("webhook deleted", hook.id);

  return steps;
}

// Run directly: print each step.
if (import.meta.url === `file://${process.argv[1]}`) {
  const fdp = createFdpClient({ baseUrl: process.env.FDP_BASE_URL ?? "http://localhost:3000", apiKey: process.env.FDP_API_KEY ?? "" });
  for (const { capability, summary } of await tour(fdp)) console.log(`${capability}: ${summary}`);
}
