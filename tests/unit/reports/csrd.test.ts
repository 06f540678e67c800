import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { csrdReport, leaseEnd, leaseOverlaps, leaseShareOf, monthsOf } from "@/lib/reports/csrd";
import { ENERGY_FACTORS } from "@/lib/reports/emission-factors";
import { emissionsReport } from "@/lib/reports/emissions";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import { buildCsrdFixture as build, csrdFixtureNow as now, csrdVehicle as vehicle } from "../../helpers/csrd-fixture";

/**
 * The CSRD report's pure function on a constructed fleet whose scope figures and MWh are computed by
 * hand below from the registry's published factors (DESNZ 2025 per km; Finnish grid 88 g/kWh; CO2 per
 * kWh of diesel 0.250 and petrol 0.240; Finnish generation 2024: renewable 57 %, nuclear 38 %, fossil 5 %).
 */
describe("csrdReport on a constructed fleet", () => {
  it("splits the emissions report by scope, by hand", () => {
    const { emissions, report } = build();
    const e = report.emissions;
    expect(emissions.total_co2_kg_estimate).toBe(79.902); // 1.76 + 21.45 + 20.871 + 10.26 + 25.561
    expect(e.scope_1.value).toBe(0.069397); // 17.304 + 16.272 + 10.26 + 25.561 kg
    expect(e.scope_2_location_based.value).toBe(0.00176);
    expect(e.scope_3_categories.cat_3_fuel_and_energy_related.value).toBe(0.008745); // 4.146 + 4.599 kg
    expect(e.scope_3.value).toBe(0.008745);
    expect(e.total_location_based.value).toBe(0.079902);
    expect(e.total_location_based.value).toBe(emissions.total_co2_kg_estimate / 1000);
    expect(e.scope_2_market_based).toMatchObject({ value: null, contract_factor_g_per_kwh: null });
    expect(e.total_market_based.value).toBeNull();
    // The lessee's Scope 1 and 2 of the leased van and BEV: 25.561 + 1.76 kg.
    expect(e.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({ value: 0.027321, vehicles: 2, included_in_total: false });
    expect(report.notes.join(" ")).toMatch(/no electricity contract factor is configured/);
  });

  it("labels each figure with its ESRS E1 datapoint and names the ESRS text", () => {
    const { report } = build();
    const e = report.emissions;
    expect([e.scope_1.datapoint, e.scope_2_location_based.datapoint, e.scope_2_market_based.datapoint, e.scope_3.datapoint, e.total_location_based.datapoint, e.total_market_based.datapoint]).toEqual([
      "E1-6 §44(a)",
      "E1-6 §44(b), location-based",
      "E1-6 §44(b), market-based",
      "E1-6 §44(c)",
      "E1-6 §44(d), §52(a)",
      "E1-6 §44(d), §52(b)",
    ]);
    expect(report.fleet_summary.energy_consumption.total.datapoint).toBe("E1-5 §37");
    expect(report.esrs_version).toContain("(EU) 2023/2772");
  });

  it("market-based Scope 2 with a contract factor: kWh × g/kWh, and its own total", () => {
    const { report } = build(30);
    expect(report.emissions.scope_2_market_based).toMatchObject({ value: 0.0006, contract_factor_g_per_kwh: 30 }); // 20 kWh × 30 g
    expect(report.emissions.total_market_based.value).toBe(0.078742); // 69.397 + 0.6 + 8.745 kg
  });

  it("E1-5 energy in MWh: fuel from tank-to-wheel ÷ CO2 per kWh, electricity split by the Finnish mix", () => {
    const en = build().report.fleet_summary.energy_consumption;
    expect(en.fuel_mwh).toBe(0.28201); // 69.216 + 67.8 + 42.75 + 102.244 kWh
    expect(en.electricity_mwh).toBe(0.02);
    expect(en.renewable.value).toBe(0.0114); // 20 kWh × 0.57
    expect(en.nuclear.value).toBe(0.0076); // × 0.38
    expect(en.fossil.value).toBe(0.28301); // fuel + 20 kWh × 0.05
    expect(en.total.value).toBe(0.30201);
  });

  it("fleet, EV metrics, trend and data quality", () => {
    const { report } = build();
    expect(report.fleet_summary).toMatchObject({
      total_vehicles: 6,
      by_powertrain: { BEV: 1, PHEV: 0, HEV: 1, ICE: 3, unknown: 1 },
      ev_count: 1,
      ice_count: 4,
      distance_km: 480,
      leased_vehicles_in_period: 2,
    });
    // 1 EV of 5 known powertrains; 100 of 480 km.
    expect(report.ev_metrics).toMatchObject({ bev_count: 1, phev_count: 0, ev_share_pct: 20, ev_distance_km: 100, ev_distance_share_pct: 20.8, electricity_mwh: 0.02 });
    // The month: 6 vehicles reported, 1 EV of the 5 with a known powertrain ("hev" normalises to HEV).
    expect(report.ev_metrics.trend).toEqual([{ month: "2026-01", active_vehicles: 6, ev_active_vehicles: 1, ev_share_pct: 20 }]);
    expect(report.data_quality).toMatchObject({
      distance_method: { odometer: 5, odometer_plausible_increases: 0, gps_great_circle: 0, none: 1 },
      odometer_rollback_vehicles: [],
      energy_method: { telemetry_soc: 1, consumption_factor: 4, none: 1 },
      vehicles_without_data: 1,
    });
    expect(report.data_quality.limitations.join(" ")).toMatch(/1 vehicle\(s\) reported neither/);
    expect(report.period).toEqual({ start_date: "2026-01-01", end_date: "2026-01-31", days: 31 });
  });

  it("reconciles to the gram on random fleets (the well-to-tank share takes each row's rounding remainder)", () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const kinds = [
      { powertrain: "BEV" },
      { powertrain: "ICE", fuel_type: "diesel" },
      { powertrain: "ICE", fuel_type: "petrol" },
      { powertrain: "PHEV" },
      { powertrain: "HEV" },
      { powertrain: "ICE", fuel_type: "diesel", asset_class: "light_commercial" },
      { powertrain: null },
    ];
    for (let n = 0; n < 200; n++) {
      const vehicles = Array.from({ length: 1 + Math.floor(rnd() * 12) }, (_, i) =>
        vehicle({
          device_id: `v${i}`,
          ...kinds[Math.floor(rnd() * kinds.length)],
          odometer_km: rnd() < 0.7 ? rnd() * 3000 : null,
          great_circle_km: rnd() * 500,
          consumption_kwh_per_100km: rnd() < 0.5 ? 12 + rnd() * 15 : null,
        }),
      );
      const emissions = emissionsReport({ periodStart: "2026-01-01", periodEnd: "2026-01-31", vehicles, now });
      const r = csrdReport({ emissions, periodDays: 31, greenFleet: computeGreenFleet({ period_days: 31, devices: [] }, { now }), leases: [], monthlyActivity: [], contractFactorGPerKwh: null, now });
      const g = (t: number | null) => Math.round((t ?? NaN) * 1e6);
      expect(g(r.emissions.scope_1.value) + g(r.emissions.scope_2_location_based.value) + g(r.emissions.scope_3.value)).toBe(Math.round(emissions.total_co2_kg_estimate * 1000));
      expect(r.emissions.total_location_based.value).toBe(emissions.total_co2_kg_estimate / 1000);
    }
  });
});

describe("lease periods and months", () => {
  it("a lease overlaps when it started by the period's end and ends after its start; no months = open-ended", () => {
    expect(leaseEnd("2025-01-31", 1)).toBe("2025-03-03");
    expect(leaseEnd("2024-12-01", 12)).toBe("2025-12-01");
    expect(leaseOverlaps({ device_id: "x", lease_start: "2024-12-01", lease_months: 12 }, "2025-12-01", "2025-12-31")).toBe(false);
    expect(leaseOverlaps({ device_id: "x", lease_start: "2024-12-01", lease_months: 12 }, "2025-11-30", "2025-12-31")).toBe(true);
    expect(leaseOverlaps({ device_id: "x", lease_start: "2026-02-01", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBe(false);
    expect(leaseOverlaps({ device_id: "x", lease_start: "2020-01-01", lease_months: null }, "2026-01-01", "2026-01-31")).toBe(true);
    expect(leaseOverlaps({ device_id: "x", lease_start: null, lease_months: 12 }, "2026-01-01", "2026-01-31")).toBe(false);
  });

  it("category 13 counts a lease only for the days of the period it covers", () => {
    expect(leaseShareOf({ device_id: "x", lease_start: "2025-01-17", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBeCloseTo(16 / 31, 12);
    expect(leaseShareOf({ device_id: "x", lease_start: "2026-01-31", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBeCloseTo(1 / 31, 12);
    expect(leaseShareOf({ device_id: "x", lease_start: "2020-01-01", lease_months: null }, "2026-01-01", "2026-01-31")).toBe(1);
    expect(leaseShareOf({ device_id: "x", lease_start: "2026-02-01", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBe(0);
    const { emissions } = build();
    const partial = csrdReport({
      emissions,
      periodDays: 31,
      greenFleet: computeGreenFleet({ period_days: 31, devices: [] }, { now }),
      // The diesel car's lease ends on 17 January (16 days of 31); the petrol car's starts on the 31st (1 day).
      leases: [
        { device_id: "diesel", lease_start: "2025-01-17", lease_months: 12 },
        { device_id: "petrol", lease_start: "2026-01-31", lease_months: 36 },
      ],
      monthlyActivity: [],
      contractFactorGPerKwh: null,
      now,
    });
    // 17,304 g × 16/31 = 8,931 g and 16,272 g × 1/31 = 525 g (each rounded to the gram): 9,456 g.
    expect(partial.emissions.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({ value: 0.009456, vehicles: 2 });
  });

  it("lists every calendar month the period touches", () => {
    expect(monthsOf("2025-11-15", "2026-02-01")).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(monthsOf("2026-03-05", "2026-03-05")).toEqual(["2026-03"]);
  });
});

describe("docs/methodology/csrd.md", () => {
  it("renders every energy factor of the registry as a table row (value, unit, year, basis, source)", () => {
    const doc = readFileSync("docs/methodology/csrd.md", "utf8");
    for (const f of Object.values(ENERGY_FACTORS)) {
      expect(doc).toContain(`| \`${f.id}\` | ${f.value} | ${f.unit} | ${f.year} | ${f.basis} | ${f.source} |`);
    }
  });
});
