import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { EMISSION_FACTORS, ENERGY_FACTORS, FI_GRID_GENERATION } from "@/lib/reports/emission-factors";
import { CSRD_PDF_SECTION_TITLES } from "@/lib/reports/pdf/render-csrd-pdf";
import { csrdReportSchema } from "@/lib/schemas/reports-csrd";
import { emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { DAY, iso, MIN, useIngestServer, type Rec } from "../helpers/ingest-api";
import { withPdfFile } from "../helpers/temp-pdf";

/**
 * Endpoint 13 end to end on a constructed fleet ingested over HTTP: a BEV (measured consumption) whose
 * lease starts 4 days before the end of the 10-day period, a diesel car (odometer, tank-to-wheel +
 * well-to-tank) leased for the whole period, and a petrol car without a lease, seen only by its
 * positions. The same fleet is reported by an operator (`t`, the default role) and by a lessor (`tl`).
 * In both roles the JSON must reconcile with the emissions report of the same dates, to the gram; the
 * PDF must be a real document (pdfinfo, qpdf --check, pdftotext).
 */
const server = useIngestServer();
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
let tl: Awaited<ReturnType<typeof createTenantWithKey>>;

const todayMs = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const day = (offset: number) => new Date(todayMs + offset * DAY).toISOString().slice(0, 10);
const START = day(-10);
const END = day(-1);
const drive = todayMs - 5 * DAY + 10 * 60 * MIN;
const at = (minutes: number) => iso(drive + minutes * MIN);

// Leased from day(-4): 4 of the period's 10 days.
const BEV_LEASED_DAYS = 4;
const bevMaster = { vehicle: { make: "Kia", model: "EV6", powertrain: "BEV", battery_kwh: 60, lease_start: day(-BEV_LEASED_DAYS), lease_months: 12 } };
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
  tl = await createTenantWithKey(server.tdb.handle.db, { name: "csrd lessor" });
  await updateTenant({ ctx: { db: server.tdb.handle.db }, input: { tenantId: tl.tenantId, reportingRole: "lessor" } });
  await server.ingestAs(tl, [...bev, ...diesel, ...positionsOnly]);
}, 120_000);

/** The CSRD JSON and the emissions report of the same dates, for a key. */
async function reports(key: string) {
  const res = await post(key, `start_date=${START}&end_date=${END}&format=json`);
  expect(res.status, await res.clone().text()).toBe(200);
  const r = csrdReportSchema.parse(await res.json());
  const er = emissionsReportSchema.parse(await (await server.app.fetch(`/api/v1/reports/emissions?start_date=${START}&end_date=${END}`, { key })).json());
  expect(er.total_co2_kg_estimate).toBeGreaterThan(0);
  const by = Object.fromEntries(er.vehicles.map((v) => [v.device_id, v]));
  return { r, er, bevRow: by["oem-CSRDBEV0000000001"]!, dslRow: by["oem-CSRDDSL0000000001"]!, posRow: by["oem-CSRDPOS0000000001"]! };
}

/** The parts of the fleet's rows, in grams, from the emissions report's rows and the registry's factors (docs/methodology/csrd.md). */
function parts(x: Awaited<ReturnType<typeof reports>>) {
  const g = (kg: number) => Math.round(kg * 1000);
  const dslTtw = Math.round(x.dslRow.distance_km * EMISSION_FACTORS.car_diesel_ttw.value * 1000);
  const posTtw = Math.round(x.posRow.distance_km * EMISSION_FACTORS.car_petrol_ttw.value * 1000);
  const bevGen = Math.min(g(x.bevRow.co2_kg), Math.round(x.bevRow.energy_kwh * FI_GRID_GENERATION.value));
  return {
    dslTtw,
    dslWtt: g(x.dslRow.co2_kg) - dslTtw,
    posTtw,
    posWtt: g(x.posRow.co2_kg) - posTtw,
    bevGen,
    bevUp: g(x.bevRow.co2_kg) - bevGen,
    total: g(x.er.total_co2_kg_estimate),
  };
}
const scopes = (r: ReturnType<typeof csrdReportSchema.parse>) =>
  grams(r.emissions.scope_1.value!) + grams(r.emissions.scope_2_location_based.value!) + grams(r.emissions.scope_3.value!);

describe("POST /reports/csrd/generate", () => {
  it("operator (the default role): fuel Scope 1, electricity Scope 2 (generation), category 3 the rest; category 13 not reported; the total is the emissions report's, to the gram", async () => {
    const x = await reports(t.key);
    const { r, er, bevRow } = x;
    const p = parts(x);
    const e = r.emissions;
    expect(r.reporting_role).toBe("operator");
    expect(r.consolidation_basis).toMatch(/operational control/);

    // THE total: the scopes add up to the emissions report's total to the gram, and the total says so.
    expect(scopes(r)).toBe(p.total);
    expect(grams(e.total_location_based.value!)).toBe(p.total);
    expect(e.emissions_report.total_co2_kg_estimate).toBe(er.total_co2_kg_estimate);

    // By scope, from the emissions report's own rows: leased or not, every vehicle is the operator's.
    expect(grams(e.scope_1.value!)).toBe(p.dslTtw + p.posTtw);
    expect(grams(e.scope_2_location_based.value!)).toBe(p.bevGen);
    expect(e.scope_2_location_based.grid_factor).toMatchObject({
      value: FI_GRID_GENERATION.value,
      unit: "g CO2e/kWh",
      year: FI_GRID_GENERATION.year,
      basis: "generation (combustion), no upstream",
    });
    expect(grams(e.scope_3_categories.cat_3_fuel_and_energy_related.value!)).toBe(p.dslWtt + p.posWtt + p.bevUp);
    expect(grams(e.scope_3_categories.cat_3_fuel_and_energy_related.electricity_upstream)).toBe(p.bevUp);
    expect(grams(e.scope_3.value!)).toBe(grams(e.scope_3_categories.cat_3_fuel_and_energy_related.value!));
    expect(e.scope_2_market_based.value).toBeNull();
    expect(e.total_market_based.value).toBeNull();
    expect(e.scope_1.datapoint).toBe("E1-6 §44(a)");
    // Category 13: not reported (null, not 0), not in the total, with the reason.
    expect(e.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({ value: null, reported: false, included_in_total: false, vehicles: 0 });
    expect(e.scope_3_categories.cat_13_downstream_leased_assets.reason).toMatch(/operator/);
    expect(e.leased_vehicles.map((v) => [v.device_id, v.covered_days, v.cat_13])).toEqual([
      ["oem-CSRDBEV0000000001", BEV_LEASED_DAYS, 0],
      ["oem-CSRDDSL0000000001", 10, 0],
    ]);

    // E1-5: electricity = the BEV's kWh at the plug; fuel energy = tank-to-wheel ÷ CO2 per kWh, split by the bio share.
    const en = r.fleet_summary.energy_consumption;
    expect(en.electricity_mwh).toBe(bevRow.energy_kwh / 1000);
    const fuelWh = Math.round(p.dslTtw / ENERGY_FACTORS.diesel_co2_per_kwh.value) + Math.round(p.posTtw / ENERGY_FACTORS.petrol_co2_per_kwh.value);
    expect(en.fuel_mwh).toBe(fuelWh / 1e6);
    expect(grams(en.fuel_renewable_mwh)).toBe(Math.round(fuelWh * en.fuel_bio_share.share));
    expect(en.fuel_bio_share.share).toBeGreaterThan(0);
    expect(grams(en.fuel_fossil_mwh) + grams(en.fuel_renewable_mwh)).toBe(fuelWh);
    expect(grams(en.fossil.value!)).toBeLessThan(fuelWh + grams(en.electricity_mwh)); // no longer all fuel
    expect(grams(en.fossil.value!) + grams(en.nuclear.value!) + grams(en.renewable.value!)).toBe(grams(en.total.value!));
    expect(en.leased_out_mwh).toBe(0);

    expect(r.fleet_summary).toMatchObject({ total_vehicles: 3, ev_count: 1, ice_count: 2, leased_vehicles_in_period: 2 });
    expect(r.ev_metrics).toMatchObject({ bev_count: 1, phev_count: 0, ev_share_pct: 33.3 });
    const driveMonth = iso(drive).slice(0, 7);
    expect(r.ev_metrics.trend.find((q) => q.month === driveMonth)).toMatchObject({ active_vehicles: 3, ev_active_vehicles: 1, ev_share_pct: 33.3 });
    expect(r.data_quality.distance_method).toEqual({ odometer: 2, odometer_plausible_increases: 0, gps_great_circle: 1, none: 0 });
    expect(r.green_fleet_score.period_days).toBe(10);
    expect(r.period).toEqual({ start_date: START, end_date: END, days: 10 });
  });

  it("lessor: the lease-covered days are category 13 (in the total), not Scope 1 or 2; the rest stays the lessor's; no vehicle counted twice", async () => {
    const x = await reports(tl.key);
    const { r, er, bevRow, dslRow, posRow } = x;
    const p = parts(x);
    const e = r.emissions;
    const cat13 = e.scope_3_categories.cat_13_downstream_leased_assets;
    expect(r.reporting_role).toBe("lessor");
    expect(r.consolidation_basis).toMatch(/downstream leased assets/);

    // The diesel is leased all 10 days: all of it in category 13. The BEV 4 of 10 days: 40 % of each part.
    const covered = (g: number) => Math.round((g * BEV_LEASED_DAYS) / 10);
    expect(grams(e.scope_1.value!)).toBe(p.posTtw);
    expect(grams(e.scope_2_location_based.value!)).toBe(p.bevGen - covered(p.bevGen));
    expect(grams(e.scope_3_categories.cat_3_fuel_and_energy_related.value!)).toBe(p.posWtt + p.bevUp - covered(p.bevUp));
    expect(cat13).toMatchObject({ reported: true, included_in_total: true, reason: null, vehicles: 2 });
    expect(grams(cat13.value!)).toBe(p.dslTtw + p.dslWtt + covered(p.bevGen) + covered(p.bevUp));
    expect(grams(cat13.lessee_scope_1_and_2!)).toBe(p.dslTtw + covered(p.bevGen));
    expect(grams(cat13.fuel_and_energy_upstream!)).toBe(p.dslWtt + covered(p.bevUp));
    expect(grams(e.scope_3.value!)).toBe(grams(e.scope_3_categories.cat_3_fuel_and_energy_related.value!) + grams(cat13.value!));

    // The total: Scope 1 + 2 + 3 = the emissions report's, to the gram, with category 13 in it.
    expect(scopes(r)).toBe(p.total);
    expect(grams(e.total_location_based.value!)).toBe(p.total);

    // Each vehicle once: its own operation and its category 13 add up to its row; the unleased car has none.
    const lv = Object.fromEntries(e.leased_vehicles.map((v) => [v.device_id, v]));
    expect(Object.keys(lv).sort()).toEqual([bevRow.device_id, dslRow.device_id]);
    expect(lv[dslRow.device_id]).toMatchObject({ covered_days: 10, covered_share: 1, own_operation: 0 });
    expect(lv[bevRow.device_id]).toMatchObject({ covered_days: BEV_LEASED_DAYS, covered_share: 0.4 });
    for (const row of [bevRow, dslRow]) expect(grams(lv[row.device_id]!.cat_13) + grams(lv[row.device_id]!.own_operation)).toBe(Math.round(row.co2_kg * 1000));
    expect(lv[posRow.device_id]).toBeUndefined();

    // The same fleet as the operator's: the same total, split differently.
    const op = (await reports(t.key)).r;
    expect(grams(op.emissions.total_location_based.value!)).toBe(grams(e.total_location_based.value!));
    expect(grams(e.scope_1.value!) + grams(e.scope_2_location_based.value!) + grams(cat13.lessee_scope_1_and_2!)).toBe(
      grams(op.emissions.scope_1.value!) + grams(op.emissions.scope_2_location_based.value!),
    );

    // E1-5: the lessor's own consumption; the leased-out days' energy is named apart.
    const en = r.fleet_summary.energy_consumption;
    const bevWh = Math.round(bevRow.energy_kwh * 1000);
    expect(grams(en.electricity_mwh)).toBe(bevWh - covered(bevWh));
    const dslWh = Math.round(p.dslTtw / ENERGY_FACTORS.diesel_co2_per_kwh.value);
    expect(grams(en.fuel_mwh)).toBe(Math.round(p.posTtw / ENERGY_FACTORS.petrol_co2_per_kwh.value));
    expect(grams(en.leased_out_mwh)).toBe(dslWh + covered(bevWh));
    expect(er.total_co2_kg_estimate).toBe((await reports(t.key)).er.total_co2_kg_estimate);
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
    const { info, text } = withPdfFile(pdf, (file) => {
      execFileSync("qpdf", ["--check", file]); // throws on a damaged file
      return { info: execFileSync("pdfinfo", [file], { encoding: "utf8" }), text: execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }) };
    });
    expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBeGreaterThanOrEqual(1);
    expect(info).toContain(`CSRD climate disclosure ${START} to ${END}`);
    for (const title of CSRD_PDF_SECTION_TITLES) expect(text).toContain(title);
    expect(text).toContain("E1-6 §44(a)");
    expect(text).toContain("Reporting role: operator");
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
