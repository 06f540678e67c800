import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { EMISSION_FACTORS, ENERGY_FACTORS } from "@/lib/reports/emission-factors";
import { CSRD_PDF_SECTION_TITLES } from "@/lib/reports/pdf/render-csrd-pdf";
import { csrdReportSchema } from "@/lib/schemas/reports-csrd";
import { emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { DAY, iso, MIN, useIngestServer, type Rec } from "../helpers/ingest-api";

/**
 * Endpoint 13 end to end on a constructed fleet ingested over HTTP: a BEV (measured consumption), a
 * diesel car (odometer, tank-to-wheel + well-to-tank) leased out during the period, and a petrol car
 * seen only by its positions. The JSON must reconcile with the emissions report of the same dates; the
 * PDF must be a real document (pdfinfo, qpdf --check, pdftotext).
 */
const server = useIngestServer();
let t: Awaited<ReturnType<typeof createTenantWithKey>>;

const todayMs = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const day = (offset: number) => new Date(todayMs + offset * DAY).toISOString().slice(0, 10);
const START = day(-10);
const END = day(-1);
const drive = todayMs - 5 * DAY + 10 * 60 * MIN;
const at = (minutes: number) => iso(drive + minutes * MIN);

const bevMaster = { vehicle: { make: "Kia", model: "EV6", powertrain: "BEV", battery_kwh: 60 } };
const dieselMaster = { vehicle: { make: "Skoda", model: "Octavia", powertrain: "ICE", fuel_type: "diesel", lease_start: day(-40), lease_months: 36 } };
const petrolMaster = { vehicle: { make: "Toyota", model: "Yaris", powertrain: "ICE", fuel_type: "petrol" } };

const bev: Rec[] = [0, 30, 60].map((m, i) => ({
  vin: "CSRDBEV0000000001",
  timestamp: at(m),
  odometer_km: 1000 + 30 * i,
  soc_percent: 80 - 6 * i,
  speed_kmh: 60,
  charging_status: "not_charging",
  lat: 60.17 + 0.01 * i,
  lon: 24.94,
  raw_data: bevMaster,
}));
const diesel: Rec[] = [
  { vin: "CSRDDSL0000000001", timestamp: at(0), odometer_km: 5000, lat: 60.0, lon: 25.0, speed_kmh: 80, raw_data: dieselMaster },
  { vin: "CSRDDSL0000000001", timestamp: at(90), odometer_km: 5100, lat: 60.1, lon: 25.0, speed_kmh: 80, raw_data: dieselMaster },
];
const positionsOnly: Rec[] = [
  [60.0, 25.0],
  [60.1, 25.0],
].map(([lat, lon], i) => ({ vin: "CSRDPOS0000000001", timestamp: at(20 * i), lat, lon, speed_kmh: 50, raw_data: petrolMaster }));

const grams = (x: number) => Math.round(x * 1_000_000);

function post(key: string | null, query: string): Promise<Response> {
  return server.app.fetch(`/api/v1/reports/csrd/generate?${query}`, { method: "POST", key });
}

beforeAll(async () => {
  t = await createTenantWithKey(server.tdb.handle.db, { name: "csrd" });
  await server.ingestAs(t, [...bev, ...diesel, ...positionsOnly]);
}, 120_000);

describe("POST /reports/csrd/generate", () => {
  it("JSON: the scope figures add up to the emissions report's total of the same dates, to the gram", async () => {
    const res = await post(t.key, `start_date=${START}&end_date=${END}&format=json`);
    expect(res.status, await res.clone().text()).toBe(200);
    const r = csrdReportSchema.parse(await res.json());
    const er = emissionsReportSchema.parse(await (await server.app.fetch(`/api/v1/reports/emissions?start_date=${START}&end_date=${END}`, { key: t.key })).json());
    expect(er.total_co2_kg_estimate).toBeGreaterThan(0);

    const e = r.emissions;
    // THE total: exactly the emissions report's ÷ 1000, and the scopes add up to it to the gram.
    expect(e.total_location_based.value).toBe(er.total_co2_kg_estimate / 1000);
    expect(e.emissions_report.total_co2_kg_estimate).toBe(er.total_co2_kg_estimate);
    expect(grams(e.scope_1.value!) + grams(e.scope_2_location_based.value!) + grams(e.scope_3_categories.cat_3_fuel_and_energy_related.value!)).toBe(
      Math.round(er.total_co2_kg_estimate * 1000),
    );

    // By scope, from the emissions report's own rows: the BEV is Scope 2, the fuel cars Scope 1 + category 3.
    const by = Object.fromEntries(er.vehicles.map((v) => [v.device_id, v]));
    const bevRow = by["oem-CSRDBEV0000000001"]!;
    const dslRow = by["oem-CSRDDSL0000000001"]!;
    const posRow = by["oem-CSRDPOS0000000001"]!;
    expect(e.scope_2_location_based.value).toBe(bevRow.co2_kg / 1000);
    const dslTtwG = Math.round(100 * EMISSION_FACTORS.car_diesel_ttw.value * 1000); // 100 km × 0.17304 kg/km
    const posTtwG = Math.round(posRow.distance_km * EMISSION_FACTORS.car_petrol_ttw.value * 1000);
    expect(grams(e.scope_1.value!)).toBe(dslTtwG + posTtwG);
    expect(e.scope_2_market_based.value).toBeNull();
    expect(e.total_market_based.value).toBeNull();
    expect(e.scope_1.datapoint).toBe("E1-6 §44(a)");
    // Category 13: the leased diesel only, its tank-to-wheel (the lessee's Scope 1), not added to the total.
    expect(dslRow.co2_kg).toBe(21.45);
    expect(e.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({ vehicles: 1, included_in_total: false, value: dslTtwG / 1e6 });

    // E1-5: electricity = the BEV's kWh at the plug; fuel energy = tank-to-wheel ÷ CO2 per kWh.
    const en = r.fleet_summary.energy_consumption;
    expect(en.electricity_mwh).toBe(bevRow.energy_kwh / 1000);
    const fuelWh = Math.round(dslTtwG / ENERGY_FACTORS.diesel_co2_per_kwh.value) + Math.round(posTtwG / ENERGY_FACTORS.petrol_co2_per_kwh.value);
    expect(en.fuel_mwh).toBe(fuelWh / 1e6);
    expect(grams(en.fossil.value!) + grams(en.nuclear.value!) + grams(en.renewable.value!)).toBe(grams(en.total.value!));

    expect(r.fleet_summary).toMatchObject({ total_vehicles: 3, ev_count: 1, ice_count: 2, leased_vehicles_in_period: 1 });
    expect(r.ev_metrics).toMatchObject({ bev_count: 1, phev_count: 0, ev_share_pct: 33.3 });
    const driveMonth = iso(drive).slice(0, 7);
    expect(r.ev_metrics.trend.find((p) => p.month === driveMonth)).toMatchObject({ active_vehicles: 3, ev_active_vehicles: 1, ev_share_pct: 33.3 });
    expect(r.data_quality.distance_method).toEqual({ odometer: 2, odometer_plausible_increases: 0, gps_great_circle: 1, none: 0 });
    expect(r.green_fleet_score.period_days).toBe(10);
    expect(r.period).toEqual({ start_date: START, end_date: END, days: 10 });
  });

  it("market-based Scope 2 once the tenant has a contract factor (admin tenant:update)", async () => {
    await updateTenant({ ctx: { db: server.tdb.handle.db }, input: { tenantId: t.tenantId, electricityContractGPerKwh: 20 } });
    try {
      const r = csrdReportSchema.parse(await (await post(t.key, `start_date=${START}&end_date=${END}&format=json`)).json());
      const kwh = r.fleet_summary.energy_consumption.electricity_mwh * 1000;
      expect(r.emissions.scope_2_market_based.contract_factor_g_per_kwh).toBe(20);
      expect(grams(r.emissions.scope_2_market_based.value!)).toBe(Math.round(kwh * 20));
      expect(grams(r.emissions.total_market_based.value!)).toBe(
        grams(r.emissions.scope_1.value!) + grams(r.emissions.scope_2_market_based.value!) + grams(r.emissions.scope_3.value!),
      );
    } finally {
      await updateTenant({ ctx: { db: server.tdb.handle.db }, input: { tenantId: t.tenantId, electricityContractGPerKwh: null } });
    }
  });

  it("PDF by default: an attachment that pdfinfo and qpdf --check accept, with every section title", async () => {
    const res = await post(t.key, `start_date=${START}&end_date=${END}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="csrd-${START}-${END}.pdf"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-sandbox")).toBeNull();
    const pdf = Buffer.from(await res.arrayBuffer());
    const file = path.join(mkdtempSync(path.join(tmpdir(), "csrd-")), "report.pdf");
    writeFileSync(file, pdf);
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBeGreaterThanOrEqual(1);
    expect(info).toContain(`CSRD climate disclosure ${START} to ${END}`);
    execFileSync("qpdf", ["--check", file]); // throws on a damaged file
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    for (const title of CSRD_PDF_SECTION_TITLES) expect(text).toContain(title);
    expect(text).toContain("E1-6 §44(a)");
    expect(text).not.toContain(t.tenantId);
  }, 60_000);

  it.each([
    ["missing start_date", `end_date=${END}`, "start_date"],
    ["missing end_date", `start_date=${START}`, "end_date"],
    ["bad date", `start_date=2026-1-01&end_date=${END}`, "start_date"],
    ["2026-02-30", `start_date=2026-02-01&end_date=2026-02-30`, "end_date"],
    ["year 0000 (Postgres has no year 0)", `start_date=0000-01-01&end_date=0000-01-31`, "start_date"],
    ["before 2000", `start_date=1999-12-31&end_date=2000-01-01`, "start_date"],
    ["start after end", `start_date=${END}&end_date=${START}`, "start_date"],
    ["367 days", `start_date=${day(-367)}&end_date=${day(-1)}`, "end_date"],
    ["end after today", `start_date=${START}&end_date=${day(1)}`, "end_date"],
    ["unknown format", `start_date=${START}&end_date=${END}&format=csv`, "format"],
  ])("400 for %s", async (_name, query, field) => {
    const res = await post(t.key, query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; details?: { field: string }[] };
    expect(body.error).toBe("invalid_request");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("401 without a key, 403 with a key lacking reports:read", async () => {
    expect((await post(null, `start_date=${START}&end_date=${END}&format=json`)).status).toBe(401);
    const narrow = await createTenantWithKey(server.tdb.handle.db, { name: "csrd-narrow", scopes: ["fleet:read"] });
    const res = await post(narrow.key, `start_date=${START}&end_date=${END}&format=json`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe("forbidden");
  });

  it("the sandbox key: the PDF carries X-Sandbox: true, the JSON _sandbox: true", async () => {
    const db = server.tdb.handle.db;
    await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
    await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: "sbx-csrd-1", odometerKm: 1 }]);
    const pdf = await post(SANDBOX_KEY, `start_date=${START}&end_date=${END}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("x-sandbox")).toBe("true");
    const json = (await (await post(SANDBOX_KEY, `start_date=${START}&end_date=${END}&format=json`)).json()) as Record<string, unknown>;
    expect(json._sandbox).toBe(true);
    expect(csrdReportSchema.parse(json).fleet_summary.total_vehicles).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("the green fleet score covers exactly the report's days: driving before start_date or after end_date changes nothing, driving on end_date does", async () => {
    // Three tenants with the same fleet plus a diesel van. Its in-period data is the same in `base` and
    // `outside` (one parked reading on start_date); `outside` adds 400 km the day before start_date and
    // 300 km today (after end_date); `inside` adds 300 km on end_date.
    const van = (ts: number, km: number): Rec => ({
      vin: "CSRDVAN0000000001",
      timestamp: iso(ts),
      odometer_km: km,
      lat: 61,
      lon: 24,
      speed_kmh: 0,
      raw_data: { vehicle: { make: "VW", model: "Crafter", powertrain: "ICE", fuel_type: "diesel", asset_class: "light_commercial" } },
    });
    const parkedOnStart = van(todayMs - 10 * DAY + 60 * MIN, 20_400);
    // Today at 01:00, or earlier today when it is not 01:00 yet: the ingest refuses readings more than
    // 10 minutes in the future, which 01:00 was when the test ran just after midnight.
    const todayAfterEnd = Math.min(todayMs + 60 * MIN, Math.max(todayMs, Date.now() - MIN));
    const base = await createTenantWithKey(server.tdb.handle.db, { name: "csrd base" });
    const outside = await createTenantWithKey(server.tdb.handle.db, { name: "csrd outside" });
    const inside = await createTenantWithKey(server.tdb.handle.db, { name: "csrd inside" });
    await server.ingestAs(base, [...bev, ...diesel, ...positionsOnly, parkedOnStart]);
    await server.ingestAs(outside, [...bev, ...diesel, ...positionsOnly, van(todayMs - 11 * DAY + 60 * MIN, 20_000), parkedOnStart, van(todayAfterEnd, 20_700)]);
    await server.ingestAs(inside, [...bev, ...diesel, ...positionsOnly, parkedOnStart, van(todayMs - DAY + 20 * 60 * MIN, 20_700)]);
    const green = async (k: string) => {
      const res = await post(k, `start_date=${START}&end_date=${END}&format=json`);
      expect(res.status, await res.clone().text()).toBe(200);
      const r = csrdReportSchema.parse(await res.json());
      return { green: { ...r.green_fleet_score, generated_at: undefined }, total: r.emissions.total_location_based.value };
    };
    const [a, b, c] = [await green(base.key), await green(outside.key), await green(inside.key)];
    expect(b).toEqual(a);
    expect(c.total).toBeGreaterThan(a.total!);
    expect(c.green).not.toEqual(a.green);
  });
});
