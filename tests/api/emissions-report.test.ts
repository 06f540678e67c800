import { sql } from "drizzle-orm";
import { describe, expect, it, beforeAll } from "vitest";
import { SANDBOX_KEY, SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { tenants } from "@/lib/db/schema";
import { rows } from "@/lib/db/sql-values";
import { haversineKm } from "../oracles/haversine-km";
import { emissionsReportSchema } from "@/lib/schemas/reports-emissions";
import { CHARGING_EFFICIENCY } from "@/lib/vocabulary/charging";
import { parseCsv } from "../helpers/emissions-csv-parse";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { DAY, iso, MIN, useIngestServer, type Rec } from "../helpers/ingest-api";

/**
 * Endpoint 8 end to end: a constructed fleet ingested over HTTP, its emissions computed by hand.
 * The period is the last ten whole UTC days before today; the drives happen five days ago.
 */
const server = useIngestServer();
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
let other: Awaited<ReturnType<typeof createTenantWithKey>>;

const todayMs = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const day = (offset: number) => new Date(todayMs + offset * DAY).toISOString().slice(0, 10);
const START = day(-10);
const END = day(-1);
const drive = todayMs - 5 * DAY + 10 * 60 * MIN; // 10:00 UTC, five days ago
const at = (minutes: number) => iso(drive + minutes * MIN);

const bevMaster = { vehicle: { make: "Kia", model: "EV6", powertrain: "BEV", battery_kwh: 60 } };
const dieselMaster = { vehicle: { make: "Skoda", model: "Octavia", powertrain: "ICE", fuel_type: "diesel" } };
const petrolMaster = { vehicle: { make: "Toyota", model: "Yaris", powertrain: "ICE", fuel_type: "petrol" } };

// BEV: 60 km on the odometer, SOC 80 → 68 (12 points of 60 kWh) while not charging.
const bev: Rec[] = [0, 30, 60].map((m, i) => ({
  vin: "EMISSIONBEV000001",
  timestamp: at(m),
  odometer_km: 1000 + 30 * i,
  soc_percent: 80 - 6 * i,
  speed_kmh: 60,
  charging_status: "not_charging",
  lat: 60.17 + 0.01 * i,
  lon: 24.94,
  raw_data: bevMaster,
}));
// Diesel: 100 km on the odometer (positions 0.1° of latitude apart say ~11 km: the odometer wins), and
// a reading before the period (odometer 4000) that must not count.
const diesel: Rec[] = [
  { vin: "EMISSIONDSL000001", timestamp: iso(todayMs - 20 * DAY), odometer_km: 4000, lat: 61, lon: 25, raw_data: dieselMaster },
  { vin: "EMISSIONDSL000001", timestamp: at(0), odometer_km: 5000, lat: 60.0, lon: 25.0, speed_kmh: 80, raw_data: dieselMaster },
  { vin: "EMISSIONDSL000001", timestamp: at(60), odometer_km: 5060, lat: 60.05, lon: 25.0, speed_kmh: 80, raw_data: dieselMaster },
  { vin: "EMISSIONDSL000001", timestamp: at(90), odometer_km: 5100, lat: 60.1, lon: 25.0, speed_kmh: 80, raw_data: dieselMaster },
];
// Petrol with positions only: great-circle distance.
const positionsOnly: Rec[] = [
  [60.0, 25.0],
  [60.1, 25.0],
  [60.1, 25.2],
].map(([lat, lon], i) => ({ vin: "EMISSIONPOS000001", timestamp: at(20 * i), lat, lon, speed_kmh: 50, raw_data: petrolMaster }));
// Petrol with one odometer reading in the period (and one before it) and positions: one reading says
// nothing about the distance, so the great-circle sum it is.
const oneOdometer: Rec[] = [
  { vin: "EMISSIONONE000001", timestamp: iso(todayMs - 20 * DAY), odometer_km: 7000, lat: 61, lon: 25, raw_data: petrolMaster },
  { vin: "EMISSIONONE000001", timestamp: at(0), odometer_km: 7100, lat: 60.2, lon: 25.0, speed_kmh: 50, raw_data: petrolMaster },
  { vin: "EMISSIONONE000001", timestamp: at(30), lat: 60.2, lon: 25.3, speed_kmh: 50, raw_data: petrolMaster },
];
// A BEV that only reported before the period: a zero row.
const idle: Rec[] = [{ vin: "EMISSIONIDL000001", timestamp: iso(todayMs - 30 * DAY), odometer_km: 10, soc_percent: 50, raw_data: bevMaster }];

const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function get(key: string, query: string): Promise<Response> {
  return server.app.fetch(`/api/v1/reports/emissions?${query}`, { key });
}

beforeAll(async () => {
  t = await createTenantWithKey(server.tdb.handle.db, { name: "emissions" });
  other = await createTenantWithKey(server.tdb.handle.db, { name: "emissions-other" });
  await server.ingestAs(t, [...bev, ...diesel, ...positionsOnly, ...oneOdometer, ...idle]);
  // A name that needs CSV quoting.
  await rows(server.tdb.handle.db, sql`update devices set name = ${'Skoda "Octavia", unit 7'} where tenant_id = ${t.tenantId} and device_id = 'oem-EMISSIONDSL000001'`);
  // Another tenant: the same VIN driving 500 km more, and a vehicle of its own.
  await server.ingestAs(other, [
    { vin: "EMISSIONDSL000001", timestamp: at(0), odometer_km: 1, raw_data: dieselMaster },
    { vin: "EMISSIONDSL000001", timestamp: at(300), odometer_km: 501, raw_data: dieselMaster },
    { vin: "EMISSIONOTH000001", timestamp: at(0), odometer_km: 1, raw_data: dieselMaster },
  ]);
}, 120_000);

describe("GET /reports/emissions on a constructed fleet", () => {
  it("computes the hand-computed figures per vehicle and in total (JSON)", async () => {
    const res = await get(t.key, `start_date=${START}&end_date=${END}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const r = emissionsReportSchema.parse(await res.json());
    expect(r).toMatchObject({ period_start: START, period_end: END, total_vehicles: 5, ev_count: 2, ice_count: 3 });
    const by = Object.fromEntries(r.vehicles.map((v) => [v.device_id, v]));

    // BEV: 12 % of 60 kWh = 7.2 kWh from the battery, ÷ 0.89 AC charger efficiency = 8.09 kWh at the plug; × 0.088 kg/kWh.
    const bevKwh = round3((0.12 * 60) / CHARGING_EFFICIENCY.ac);
    expect(bevKwh).toBe(8.09);
    expect(by["oem-EMISSIONBEV000001"]).toMatchObject({ distance_km: 60, distance_method: "odometer", energy_method: "telemetry_soc", energy_kwh: 8.09, co2_kg: 0.712 });
    // Diesel: 100 km × (0.17304 + 0.04146) kg/km = 21.45 kg; 17.304 kg ÷ 2.57082 kg/l = 6.731 l.
    expect(by["oem-EMISSIONDSL000001"]).toMatchObject({ distance_km: 100, distance_method: "odometer", co2_kg: 21.45, fuel_l: 6.731, device_name: 'Skoda "Octavia", unit 7' });
    // Positions only: great-circle sum, × (0.16272 + 0.04599) kg/km.
    const gc = round3(haversineKm(60, 25, 60.1, 25) + haversineKm(60.1, 25, 60.1, 25.2));
    const pos = by["oem-EMISSIONPOS000001"];
    expect(pos?.distance_method).toBe("gps_great_circle");
    expect(pos?.distance_km).toBeCloseTo(gc, 3);
    expect(pos?.co2_kg).toBeCloseTo(round3(gc * (0.16272 + 0.04599)), 3);
    // One odometer reading in the period: the great-circle sum of its two positions.
    const one = by["oem-EMISSIONONE000001"];
    expect(one?.distance_method).toBe("gps_great_circle");
    expect(one?.distance_km).toBeCloseTo(round3(haversineKm(60.2, 25, 60.2, 25.3)), 3);
    expect(by["oem-EMISSIONIDL000001"]).toMatchObject({ distance_km: 0, distance_method: "none", co2_kg: 0, energy_kwh: 0 });
    expect(r.total_co2_kg_estimate).toBeCloseTo(0.712 + 21.45 + (pos?.co2_kg ?? NaN) + (one?.co2_kg ?? NaN), 9);
    expect(r.factors.used.map((f) => f.id)).toContain("fi_grid_electricity");
  });

  it("answers CSV: header, one row per vehicle (zeros included), proper quoting, TOTAL = column sums", async () => {
    const res = await get(t.key, `start_date=${START}&end_date=${END}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const table = parseCsv(await res.text());
    expect(table[0]?.slice(0, 7)).toEqual(["device_id", "device_name", "powertrain", "distance_km", "energy_kwh", "fuel_l", "co2_kg"]);
    const body = table.slice(1, -1);
    expect(body.map((r) => r[0]).sort()).toEqual(["oem-EMISSIONBEV000001", "oem-EMISSIONDSL000001", "oem-EMISSIONIDL000001", "oem-EMISSIONONE000001", "oem-EMISSIONPOS000001"]);
    expect(body.find((r) => r[0] === "oem-EMISSIONDSL000001")?.slice(1, 7)).toEqual(['Skoda "Octavia", unit 7', "ICE", "100", "0", "6.731", "21.45"]);
    expect(body.find((r) => r[0] === "oem-EMISSIONIDL000001")?.slice(2, 7)).toEqual(["BEV", "0", "0", "0", "0"]);
    const total = table.at(-1) as string[];
    expect(total[0]).toBe("TOTAL");
    for (const col of [3, 4, 5, 6])
      expect(Number(total[col])).toBeCloseTo(
        body.reduce((s, r) => s + Number(r[col] || 0), 0),
        9,
      );
  });

  it("neutralises formula-looking text from OEM master data in the CSV (a make of =HYPERLINK(...) or @SUM(...)); figures stay numbers", async () => {
    const f = await createTenantWithKey(server.tdb.handle.db, { name: "emissions-formula" });
    await server.ingestAs(f, [
      { vin: "FORMULAHYP0000001", timestamp: at(0), odometer_km: 100, raw_data: { vehicle: { make: '=HYPERLINK("http://x","y")', powertrain: "ICE", fuel_type: "diesel" } } },
      { vin: "FORMULAHYP0000001", timestamp: at(60), odometer_km: 150, raw_data: { vehicle: { make: '=HYPERLINK("http://x","y")', powertrain: "ICE", fuel_type: "diesel" } } },
      { vin: "FORMULASUM0000001", timestamp: at(0), odometer_km: 10, raw_data: { vehicle: { make: "@SUM(1)", powertrain: "ICE", fuel_type: "diesel" } } },
    ]);
    const res = await get(f.key, `start_date=${START}&end_date=${END}&format=csv`);
    expect(res.status).toBe(200);
    const table = parseCsv(await res.text());
    const byId = new Map(table.slice(1, -1).map((r) => [r[0], r]));
    expect(byId.get("oem-FORMULAHYP0000001")?.slice(1, 4)).toEqual(['\'=HYPERLINK("http://x","y")', "ICE", "50"]);
    expect(byId.get("oem-FORMULASUM0000001")?.[1]).toBe("'@SUM(1)");
    // The JSON answer keeps the name as stored: only the CSV cell is neutralised.
    const json = emissionsReportSchema.parse(await (await get(f.key, `start_date=${START}&end_date=${END}`)).json());
    expect(json.vehicles.find((v) => v.device_id === "oem-FORMULASUM0000001")?.device_name).toBe("@SUM(1)");
  });

  it("never shows another tenant's vehicles or kilometres", async () => {
    const mine = emissionsReportSchema.parse(await (await get(t.key, `start_date=${START}&end_date=${END}`)).json());
    expect(mine.vehicles.map((v) => v.device_id)).not.toContain("oem-EMISSIONOTH000001");
    const theirs = emissionsReportSchema.parse(await (await get(other.key, `start_date=${START}&end_date=${END}`)).json());
    expect(theirs.vehicles.map((v) => v.device_id).sort()).toEqual(["oem-EMISSIONDSL000001", "oem-EMISSIONOTH000001"]);
    expect(theirs.vehicles.find((v) => v.device_id === "oem-EMISSIONDSL000001")?.distance_km).toBe(500);
  });

  it("a period without telemetry is a valid zero report of the whole fleet", async () => {
    const r = emissionsReportSchema.parse(await (await get(t.key, `start_date=${day(-3)}&end_date=${day(0)}`)).json());
    expect(r.total_vehicles).toBe(5);
    expect(r.total_co2_kg_estimate).toBe(0);
  });

  it.each([
    ["missing start_date", `end_date=${END}`, "start_date"],
    ["missing end_date", `start_date=${START}`, "end_date"],
    ["bad format", `start_date=2026-1-01&end_date=${END}`, "start_date"],
    ["not a date", `start_date=yesterday&end_date=${END}`, "start_date"],
    ["2026-02-30", `start_date=2026-02-01&end_date=2026-02-30`, "end_date"],
    ["year 0000 (Postgres has no year 0)", `start_date=0000-01-01&end_date=0000-01-31`, "start_date"],
    ["before 2000", `start_date=1999-12-31&end_date=2000-01-01`, "start_date"],
    ["start after end", `start_date=${END}&end_date=${START}`, "start_date"],
    ["367 days", `start_date=${day(-367)}&end_date=${day(-1)}`, "end_date"],
    ["end after today", `start_date=${START}&end_date=${day(1)}`, "end_date"],
    ["unknown format", `start_date=${START}&end_date=${END}&format=xml`, "format"],
  ])("400 for %s", async (_name, query, field) => {
    const res = await get(t.key, query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; details?: { field: string }[] };
    expect(body.error).toBe("invalid_request");
    expect(body.details?.map((d) => d.field)).toContain(field);
  });

  it("answers the sandbox key's CSV with X-Sandbox: true (the binding decorates the finished Response)", async () => {
    const db = server.tdb.handle.db;
    await db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "x" }).onConflictDoNothing();
    await insertDevices(db, SANDBOX_TENANT_ID, [{ deviceId: "sbx-001", odometerKm: 1 }]);
    const res = await get(SANDBOX_KEY, `start_date=${START}&end_date=${END}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sandbox")).toBe("true");
    expect(parseCsv(await res.text()).map((r) => r[0])).toEqual(["device_id", "sbx-001", "TOTAL"]);
  });

  it("accepts exactly 366 days counting both ends, and today as end_date", async () => {
    expect((await get(t.key, `start_date=${day(-365)}&end_date=${day(0)}`)).status).toBe(200);
  });
});
