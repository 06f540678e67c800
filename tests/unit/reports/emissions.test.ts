import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EMISSION_FACTORS, FI_GRID_FACTOR_BASIS, FI_GRID_G_PER_KWH } from "@/lib/reports/emission-factors";
import { emissionsCsv } from "@/lib/reports/emissions-csv";
import { emissionsReport, vehicleEmissions, type EmissionsVehicleInput } from "@/lib/reports/emissions";
import * as greenFleet from "@/lib/scores/green-fleet";
import { withDistance } from "../../helpers/distance-evidence";
import { parseCsv } from "../../helpers/emissions-csv-parse";
import { haversineKm } from "../../oracles/haversine-km";

const v = (over: Partial<Omit<EmissionsVehicleInput, "distance">> & { odometer_km?: number | null; great_circle_km?: number }): EmissionsVehicleInput => ({
  device_id: "d1",
  device_name: "Car",
  powertrain: "ICE",
  fuel_type: "diesel",
  asset_class: null,
  consumption_kwh_per_100km: null,
  ...withDistance(over),
});

describe("emission factor registry", () => {
  it("is the one source of the Finnish grid factor (the green fleet score re-exports the same constants)", () => {
    expect(greenFleet.FI_GRID_G_PER_KWH).toBe(FI_GRID_G_PER_KWH);
    expect(greenFleet.FI_GRID_FACTOR_BASIS).toBe(FI_GRID_FACTOR_BASIS);
    expect(EMISSION_FACTORS.fi_grid_electricity.value).toBeCloseTo(FI_GRID_G_PER_KWH / 1000, 12);
  });

  it("names value, unit, year, basis and source for every factor", () => {
    for (const [id, f] of Object.entries(EMISSION_FACTORS)) {
      expect(f.id).toBe(id);
      expect(f.value).toBeGreaterThan(0);
      expect(f.unit).toMatch(/kg CO2e\//);
      expect(f.year).toBeGreaterThanOrEqual(2024);
      expect(f.basis.length).toBeGreaterThan(5);
      expect(f.source.length).toBeGreaterThan(5);
    }
  });
});

describe("docs/methodology/emissions.md", () => {
  it("renders every registry factor as a table row (value, unit, year, basis, source)", () => {
    const doc = readFileSync("docs/methodology/emissions.md", "utf8");
    for (const f of Object.values(EMISSION_FACTORS)) {
      expect(doc).toContain(`| \`${f.id}\` | ${f.value} | ${f.unit} | ${f.year} | ${f.basis} | ${f.source} |`);
    }
  });
});

describe("haversine", () => {
  it("is 1/360 of the mean great circle per degree of latitude and 0 for one point", () => {
    expect(haversineKm(60, 25, 61, 25)).toBeCloseTo((2 * Math.PI * 6371.0088) / 360, 9);
    expect(haversineKm(60, 25, 60, 25)).toBe(0);
    // A degree of longitude at 60° N is about half of one at the equator.
    expect(haversineKm(60, 25, 60, 26) / haversineKm(0, 25, 0, 26)).toBeCloseTo(0.5, 3);
  });
});

describe("vehicleEmissions", () => {
  it("diesel car: odometer wins over great-circle, TTW + WTT per km, litres from the per-litre factor", () => {
    const r = vehicleEmissions(v({ odometer_km: 100, great_circle_km: 12 }));
    expect(r.distance_method).toBe("odometer");
    expect(r.distance_km).toBe(100);
    expect(r.co2_kg).toBe(21.45); // 100 × (0.17304 + 0.04146)
    expect(r.fuel_l).toBe(6.731); // 17.304 ÷ 2.57082
    expect(r.factor_ids).toEqual(["car_diesel_ttw", "car_diesel_wtt", "diesel_ttw_per_litre"]);
  });

  it("falls back to great-circle distance without two odometer readings", () => {
    const r = vehicleEmissions(v({ fuel_type: "petrol", great_circle_km: 10 }));
    expect(r.distance_method).toBe("gps_great_circle");
    expect(r.co2_kg).toBe(2.087); // 10 × (0.16272 + 0.04599) = 2.0871
    expect(r.fuel_l).toBeNull();
  });

  it("BEV: measured consumption at the plug × distance × grid factor; the DESNZ-implied consumption otherwise", () => {
    const measured = vehicleEmissions(v({ powertrain: "BEV", fuel_type: null, odometer_km: 60, consumption_kwh_per_100km: 15 }));
    expect(measured).toMatchObject({ energy_kwh: 9, co2_kg: 0.792, energy_method: "telemetry_soc", fuel_l: 0 });
    const fallback = vehicleEmissions(v({ powertrain: "BEV", fuel_type: null, odometer_km: 100 }));
    expect(fallback.energy_method).toBe("consumption_factor");
    expect(fallback.energy_kwh).toBeCloseTo((100 * 0.04047) / 0.177, 3);
  });

  it("a vehicle that did not move is a zero row that applied no factor", () => {
    expect(vehicleEmissions(v({ odometer_km: 0 }))).toMatchObject({ distance_km: 0, co2_kg: 0, fuel_l: 0, factor_ids: [], energy_method: "none" });
    expect(vehicleEmissions(v({ powertrain: null }))).toMatchObject({ powertrain: "unknown", distance_method: "none", co2_kg: 0 });
  });
});

describe("emissionsReport and its CSV", () => {
  const report = emissionsReport({
    periodStart: "2026-01-01",
    periodEnd: "2026-01-31",
    now: new Date("2026-02-01T00:00:00Z"),
    vehicles: [
      v({ device_id: "a", device_name: 'Van "Big", unit 7', odometer_km: 33.3333 }),
      v({ device_id: "b", powertrain: "BEV", odometer_km: 10.0004, consumption_kwh_per_100km: 17 }),
      v({ device_id: "c", powertrain: "PHEV", great_circle_km: 5 }),
      v({ device_id: "d", powertrain: "HEV", odometer_km: 0 }),
      v({ device_id: "e", powertrain: "something" }),
    ],
  });

  it("counts EVs (BEV, PHEV) and ICE (ICE, HEV); unknown only in the total", () => {
    expect(report).toMatchObject({ total_vehicles: 5, ev_count: 2, ice_count: 2 });
    expect(report.total_co2_kg_estimate).toBeCloseTo(
      report.vehicles.reduce((s, x) => s + x.co2_kg, 0),
      9,
    );
    expect(report.factors.used.map((f) => f.id).sort()).toEqual(["car_diesel_ttw", "car_diesel_wtt", "car_phev_ttw", "diesel_ttw_per_litre", "fi_grid_electricity"].sort());
  });

  it("quotes names and ends with a TOTAL row equal to the column sums", () => {
    const rows = parseCsv(emissionsCsv(report));
    expect(rows[0]?.slice(0, 7)).toEqual(["device_id", "device_name", "powertrain", "distance_km", "energy_kwh", "fuel_l", "co2_kg"]);
    expect(rows[1]?.[1]).toBe('Van "Big", unit 7');
    expect(rows).toHaveLength(1 + 5 + 1);
    const body = rows.slice(1, -1);
    const total = rows.at(-1) as string[];
    expect(total[0]).toBe("TOTAL");
    for (const col of [3, 4, 5, 6]) {
      expect(Number(total[col])).toBeCloseTo(
        body.reduce((s, r) => s + Number(r[col] || 0), 0),
        9,
      );
    }
    expect(Number(total[6])).toBe(report.total_co2_kg_estimate);
  });
});

describe("emissions CSV against formula injection", () => {
  const report = emissionsReport({
    periodStart: "2026-11-01",
    periodEnd: "2026-11-10",
    now: new Date("2026-11-11T00:00:00Z"),
    vehicles: [
      v({ device_id: "=1+1", device_name: '=HYPERLINK("http://x","y")', powertrain: "ICE", odometer_km: 10 }),
      v({ device_id: "f2", device_name: "@SUM(1)", powertrain: "ICE", odometer_km: 0 }),
      v({ device_id: "f3", device_name: "+41 79 000", powertrain: "ICE", odometer_km: 0 }),
      v({ device_id: "f4", device_name: "-1", powertrain: "ICE", odometer_km: 0 }),
      v({ device_id: "f5", device_name: "\tTab", powertrain: "ICE", odometer_km: 0 }),
      v({ device_id: "f6", device_name: "\rReturn", powertrain: "ICE", odometer_km: 0 }),
      v({ device_id: "f7", device_name: "Plain = name", powertrain: "ICE", odometer_km: 0 }),
    ],
  });
  const rows = parseCsv(emissionsCsv(report));
  const name = (id: string) => rows.find((r) => r[0] === id)?.[1];

  it("writes text cells that begin with =, +, -, @, a tab or a carriage return with a leading '", () => {
    expect(rows[1]?.slice(0, 2)).toEqual(["'=1+1", '\'=HYPERLINK("http://x","y")']);
    expect(name("f2")).toBe("'@SUM(1)");
    expect(name("f3")).toBe("'+41 79 000");
    expect(name("f4")).toBe("'-1");
    expect(name("f5")).toBe("'\tTab");
    expect(name("f6")).toBe("'\rReturn");
    expect(name("f7")).toBe("Plain = name");
  });

  it("leaves numeric cells numbers, a negative one included (decided by column, not by content)", async () => {
    const { csvNumber, csvText } = await import("@/lib/reports/emissions-csv");
    expect(csvNumber(-12.5)).toBe("-12.5");
    expect(csvText("-12.5")).toBe("'-12.5");
    expect(csvNumber(null)).toBe("");
    expect(rows[1]?.[3]).toBe("10");
    expect(rows.at(-1)?.[0]).toBe("TOTAL");
  });
});
