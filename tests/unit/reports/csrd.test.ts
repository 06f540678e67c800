import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { csrdReport, leaseCoveredDays, leaseEnd, leaseOverlaps, leaseShareOf, monthsOf, type CsrdReport } from "@/lib/reports/csrd";
import { ENERGY_FACTORS, FI_GRID_GENERATION } from "@/lib/reports/emission-factors";
import { FI_DISTRIBUTION_OBLIGATION, fuelBioShareOfPeriod } from "@/lib/reports/fuel-bio-share";
import { emissionsReport } from "@/lib/reports/emissions";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import { REPORTING_ROLES, type ReportingRole } from "@/lib/vocabulary/reporting-role";
import { buildCsrdFixture as build, csrdFixtureLeases, csrdFixtureNow as now, csrdVehicle as vehicle } from "../../helpers/csrd-fixture";

const g = (t: number | null) => Math.round((t ?? NaN) * 1e6);
/** Scope 1 + Scope 2 (location-based) + Scope 3 reported, in grams. */
const scopesG = (r: CsrdReport) => g(r.emissions.scope_1.value) + g(r.emissions.scope_2_location_based.value) + g(r.emissions.scope_3.value);

/**
 * The CSRD report's pure function on a constructed fleet whose scope figures and MWh are computed by
 * hand below from the registry's published factors (DESNZ 2025 per km; Finnish grid 88 g/kWh; CO2 per
 * kWh of diesel 0.250 and petrol 0.240; Finnish generation 2024: renewable 57 %, nuclear 38 %, fossil 5 %).
 */
describe("csrdReport on a constructed fleet", () => {
  it("operator (default): splits the emissions report by scope, by hand; category 13 is not reported (null with a reason)", () => {
    const { emissions, report } = build();
    const e = report.emissions;
    expect(report.reporting_role).toBe("operator");
    expect(report.consolidation_basis).toMatch(/operational control/i);
    expect(emissions.total_co2_kg_estimate).toBe(79.902); // 1.76 + 21.45 + 20.871 + 10.26 + 25.561
    expect(e.scope_1.value).toBe(0.069397); // 17.304 + 16.272 + 10.26 + 25.561 kg
    // The generation factor is the life-cycle figure as an upper bound (no generation figure verified): 20 kWh × 88 g.
    expect(e.scope_2_location_based.value).toBe(0.00176);
    expect(e.scope_3_categories.cat_3_fuel_and_energy_related).toMatchObject({ value: 0.008745, fuel_well_to_tank: 0.008745, electricity_upstream: 0 }); // 4.146 + 4.599 kg
    expect(e.scope_3.value).toBe(0.008745);
    expect(e.total_location_based.value).toBe(0.079902);
    expect(e.total_location_based.value).toBe(emissions.total_co2_kg_estimate / 1000);
    expect(scopesG(report)).toBe(79_902);
    expect(e.scope_2_market_based).toMatchObject({ value: null, contract_factor_g_per_kwh: null });
    expect(e.total_market_based.value).toBeNull();
    // Category 13 is not reported by an operator: null, never 0, and not in the total; the leased vehicles stay in Scope 1/2.
    const cat13 = e.scope_3_categories.cat_13_downstream_leased_assets;
    expect(cat13).toMatchObject({ value: null, reported: false, included_in_total: false, lessee_scope_1_and_2: null, fuel_and_energy_upstream: null, vehicles: 0 });
    expect(cat13.reason).toMatch(/operator/);
    // The vehicles with a lease stay the operator's own operation.
    expect(e.leased_vehicles).toEqual([
      { device_id: "bev", covered_days: 31, covered_share: 1, cat_13: 0, own_operation: 0.00176 },
      { device_id: "van", covered_days: 31, covered_share: 1, cat_13: 0, own_operation: 0.025561 },
    ]);
    expect(report.notes.join(" ")).toMatch(/no electricity contract factor is configured/);
  });

  it("lessor: the vehicles whose lease covers the period are Scope 3 category 13, included in the total, and not in Scope 1 or 2", () => {
    const { emissions, report } = build(null, { reportingRole: "lessor" });
    const e = report.emissions;
    expect(report.reporting_role).toBe("lessor");
    expect(report.consolidation_basis).toMatch(/category 13/);
    expect(report.consolidation_basis).toMatch(/lessee/);
    // The van (25.561 kg, no well-to-tank) and the BEV (1.76 kg) are leased for all of January: category 13.
    expect(e.scope_1.value).toBe(0.043836); // 69.397 − 25.561 kg
    expect(e.scope_2_location_based.value).toBe(0);
    expect(e.scope_3_categories.cat_3_fuel_and_energy_related.value).toBe(0.008745);
    expect(e.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({
      value: 0.027321,
      reported: true,
      included_in_total: true,
      reason: null,
      lessee_scope_1_and_2: 0.027321,
      fuel_and_energy_upstream: 0,
      vehicles: 2,
    });
    expect(e.scope_3.value).toBe(0.036066); // 8.745 + 27.321 kg
    expect(e.total_location_based.value).toBe(emissions.total_co2_kg_estimate / 1000);
    expect(scopesG(report)).toBe(79_902);
    expect(e.leased_vehicles).toEqual([
      { device_id: "bev", covered_days: 31, covered_share: 1, cat_13: 0.00176, own_operation: 0 },
      { device_id: "van", covered_days: 31, covered_share: 1, cat_13: 0.025561, own_operation: 0 },
    ]);
  });

  it("lessor, leases covering part of the period: the covered days' share in category 13 (well-to-tank included), the rest stays Scope 1 and category 3", () => {
    const leases = [
      // The diesel car's lease ends on 17 January (16 days of 31); the petrol car's starts on the 31st (1 day).
      { device_id: "diesel", lease_start: "2025-01-17", lease_months: 12 },
      { device_id: "petrol", lease_start: "2026-01-31", lease_months: 36 },
    ];
    const { emissions, report } = build(null, { reportingRole: "lessor", leases });
    const e = report.emissions;
    // Diesel: 17,304 g × 16/31 = 8,931 g tank-to-wheel, 4,146 g × 16/31 = 2,140 g well-to-tank.
    // Petrol: 16,272 g × 1/31 = 525 g, 4,599 g × 1/31 = 148 g.
    expect(e.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({
      value: 0.011744,
      lessee_scope_1_and_2: 0.009456,
      fuel_and_energy_upstream: 0.002288,
      vehicles: 2,
    });
    expect(e.scope_1.value).toBe(0.059941); // 69,397 − 8,931 − 525 g
    expect(e.scope_3_categories.cat_3_fuel_and_energy_related.value).toBe(0.006457); // 8,745 − 2,140 − 148 g
    expect(e.scope_2_location_based.value).toBe(0.00176);
    expect(scopesG(report)).toBe(Math.round(emissions.total_co2_kg_estimate * 1000));
    expect(e.leased_vehicles).toEqual([
      { device_id: "diesel", covered_days: 16, covered_share: 0.516129, cat_13: 0.011071, own_operation: 0.010379 },
      { device_id: "petrol", covered_days: 1, covered_share: 0.032258, cat_13: 0.000673, own_operation: 0.020198 },
    ]);
    // No vehicle counted twice: its own operation and its category 13 add up to its row of the emissions report.
    for (const v of e.leased_vehicles) {
      const row = emissions.vehicles.find((r) => r.device_id === v.device_id)!;
      expect(g(v.cat_13) + g(v.own_operation)).toBe(Math.round(row.co2_kg * 1000));
    }
  });

  it("Scope 2 location-based on the generation factor, its upstream in category 3 (a generation figure below the life-cycle one)", () => {
    const { emissions, report } = build(null, { gridGeneration: { ...FI_GRID_GENERATION, value: 30 } });
    const e = report.emissions;
    // 20 kWh × 30 g = 600 g generation (Scope 2); the rest of the row's 1,760 g life-cycle is upstream: 1,160 g in category 3.
    expect(e.scope_2_location_based.value).toBe(0.0006);
    expect(e.scope_2_location_based.grid_factor).toMatchObject({ value: 30, unit: "g CO2e/kWh", basis: "generation (combustion), no upstream" });
    expect(e.scope_3_categories.cat_3_fuel_and_energy_related).toMatchObject({ value: 0.009905, fuel_well_to_tank: 0.008745, electricity_upstream: 0.00116 });
    expect(scopesG(report)).toBe(Math.round(emissions.total_co2_kg_estimate * 1000));
    // Lessor: the BEV is leased all month, so its generation and upstream are both category 13 (the lessee's electricity).
    const lessor = build(null, { reportingRole: "lessor", gridGeneration: { ...FI_GRID_GENERATION, value: 30 } }).report.emissions;
    expect(lessor.scope_3_categories.cat_13_downstream_leased_assets).toMatchObject({ value: 0.027321, lessee_scope_1_and_2: 0.026161, fuel_and_energy_upstream: 0.00116 });
    expect(lessor.scope_3_categories.cat_3_fuel_and_energy_related).toMatchObject({ electricity_upstream: 0 });
  });

  it("states the grid factor of Scope 2 with its year, basis and source, and says the figure is not verified", () => {
    const f = build().report.emissions.scope_2_location_based.grid_factor;
    expect(f).toMatchObject({ unit: "g CO2e/kWh", basis: "generation (combustion), no upstream", year: FI_GRID_GENERATION.year, verified: false });
    expect(f.value).toBe(FI_GRID_GENERATION.value);
    expect(f.source).toMatch(/Statistics Finland/);
    expect(f.note).toMatch(/upper bound/);
  });

  it("labels each figure with its ESRS E1 datapoint and names the ESRS text", () => {
    const { report } = build();
    const e = report.emissions;
    expect([
      e.scope_1.datapoint,
      e.scope_2_location_based.datapoint,
      e.scope_2_market_based.datapoint,
      e.scope_3.datapoint,
      e.total_location_based.datapoint,
      e.total_market_based.datapoint,
    ]).toEqual(["E1-6 §44(a)", "E1-6 §44(b), location-based", "E1-6 §44(b), market-based", "E1-6 §44(c)", "E1-6 §44(d), §52(a)", "E1-6 §44(d), §52(b)"]);
    expect(report.fleet_summary.energy_consumption.total.datapoint).toBe("E1-5 §37");
    expect(report.esrs_version).toContain("(EU) 2023/2772");
  });

  it("market-based Scope 2 with a contract factor: kWh × g/kWh, and its own total", () => {
    const { report } = build(30);
    expect(report.emissions.scope_2_market_based).toMatchObject({ value: 0.0006, contract_factor_g_per_kwh: 30 }); // 20 kWh × 30 g
    expect(report.emissions.total_market_based.value).toBe(0.078742); // 69.397 + 0.6 + 8.745 kg
    // Lessor: the BEV's kWh are the lessee's (leased all month): no market-based Scope 2 of its own.
    const lessor = build(30, { reportingRole: "lessor" }).report.emissions;
    expect(lessor.scope_2_market_based).toMatchObject({ value: 0, contract_factor_g_per_kwh: 30 });
    expect(lessor.total_market_based.value).toBe(0.079902); // 43.836 + 0 + 36.066 kg
  });

  it("E1-5 energy in MWh: fuel from tank-to-wheel ÷ CO2 per kWh split fossil / renewable by the distribution obligation's share, electricity by the Finnish mix", () => {
    const en = build().report.fleet_summary.energy_consumption;
    expect(en.fuel_mwh).toBe(0.28201); // 69.216 + 67.8 + 42.75 + 102.244 kWh
    expect(en.electricity_mwh).toBe(0.02);
    // January 2026: the 2024 statutory share 13.5 % (the 2025–2027 levels were not verified: an estimate, named so).
    expect(en.fuel_bio_share).toMatchObject({ share: 0.135, years: [{ year: 2026, days: 31, share: 0.135, status: "estimate", verified: false }] });
    expect(en.fuel_renewable_mwh).toBe(0.038071); // 282,010 Wh × 0.135
    expect(en.fuel_fossil_mwh).toBe(0.243939);
    expect(en.renewable.value).toBe(0.049471); // fuel 38,071 Wh + electricity 20 kWh × 0.57
    expect(en.nuclear.value).toBe(0.0076); // × 0.38
    expect(en.fossil.value).toBe(0.244939); // fuel 243,939 Wh + 20 kWh × 0.05: no longer all fuel
    expect(en.total.value).toBe(0.30201);
    expect(en.leased_out_mwh).toBe(0);
    expect(g(en.fossil.value) + g(en.nuclear.value) + g(en.renewable.value)).toBe(g(en.total.value));
  });

  it("E1-5 for a lessor: its own consumption only; the leased-out days' energy is the lessees' (named, not added)", () => {
    const en = build(null, { reportingRole: "lessor" }).report.fleet_summary.energy_consumption;
    // The van (102.244 kWh of fuel) and the BEV (20 kWh) are leased all month.
    expect(en.fuel_mwh).toBe(0.179766);
    expect(en.electricity_mwh).toBe(0);
    expect(en.leased_out_mwh).toBe(0.122244);
    expect(en.fuel_renewable_mwh).toBe(0.024268); // 179,766 Wh × 0.135
    expect(en.total.value).toBe(0.179766);
    expect(g(en.fossil.value) + g(en.nuclear.value) + g(en.renewable.value)).toBe(g(en.total.value));
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

  it("reconciles to the gram on random fleets in both roles, with random leases (each vehicle once: own operation + category 13 = its row)", () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const kinds = [
      { powertrain: "BEV" },
      { powertrain: "ICE", fuel_type: "diesel" },
      { powertrain: "ICE", fuel_type: "petrol" },
      { powertrain: "PHEV" },
      { powertrain: "HEV" },
      { powertrain: "ICE", fuel_type: "diesel", asset_class: "light_commercial" },
      { powertrain: null },
    ];
    const day = (n: number) => new Date(Date.UTC(2025, 6, 1) + n * 86_400_000).toISOString().slice(0, 10);
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
      const leases = vehicles.map((v) => ({
        device_id: v.device_id,
        lease_start: rnd() < 0.6 ? day(Math.floor(rnd() * 300)) : null,
        lease_months: rnd() < 0.8 ? 1 + Math.floor(rnd() * 6) : null,
      }));
      const generation = { ...FI_GRID_GENERATION, value: Math.floor(rnd() * 89) };
      const emissions = emissionsReport({ periodStart: "2026-01-01", periodEnd: "2026-01-31", vehicles, now });
      const totalG = Math.round(emissions.total_co2_kg_estimate * 1000);
      for (const reportingRole of REPORTING_ROLES as readonly ReportingRole[]) {
        const r = csrdReport({
          emissions,
          periodDays: 31,
          greenFleet: computeGreenFleet({ period_days: 31, devices: [] }, { now }),
          leases,
          reportingRole,
          gridGeneration: generation,
          monthlyActivity: [],
          contractFactorGPerKwh: null,
          now,
        });
        expect(scopesG(r)).toBe(totalG);
        // The total is the same grams, written as grams ÷ 10^6 like every figure (no float noise of kg ÷ 1000).
        expect(g(r.emissions.total_location_based.value)).toBe(totalG);
        expect(r.emissions.total_location_based.value).toBe(totalG / 1e6);
        const cat13 = r.emissions.scope_3_categories.cat_13_downstream_leased_assets;
        expect(g(r.emissions.scope_3.value)).toBe(g(r.emissions.scope_3_categories.cat_3_fuel_and_energy_related.value) + (reportingRole === "lessor" ? g(cat13.value) : 0));
        if (reportingRole === "operator") expect(cat13.value).toBeNull();
        for (const v of r.emissions.leased_vehicles) {
          const row = emissions.vehicles.find((x) => x.device_id === v.device_id)!;
          expect(g(v.cat_13) + g(v.own_operation)).toBe(Math.round(row.co2_kg * 1000));
        }
        if (reportingRole === "lessor") expect(r.emissions.leased_vehicles.reduce((a, v) => a + g(v.cat_13), 0)).toBe(g(cat13.value));
      }
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
    expect(leaseCoveredDays({ device_id: "x", lease_start: "2025-01-17", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBe(16);
    expect(leaseCoveredDays({ device_id: "x", lease_start: "2026-02-01", lease_months: 12 }, "2026-01-01", "2026-01-31")).toBe(0);
    expect(leaseCoveredDays(csrdFixtureLeases[3]!, "2026-01-01", "2026-01-31")).toBe(31);
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

  it("renders the grid generation factor and every year of the distribution obligation with its source", () => {
    const doc = readFileSync("docs/methodology/csrd.md", "utf8");
    const f = FI_GRID_GENERATION;
    expect(doc).toContain(`| \`${f.id}\` | ${f.value} | ${f.unit} | ${f.year} | ${f.basis} | ${f.source} |`);
    for (const y of FI_DISTRIBUTION_OBLIGATION) expect(doc).toContain(`| ${y.year} | ${y.share * 100} % | ${y.source} |`);
  });
});

describe("the distribution obligation's bio share of road fuel (law 446/2007 as amended)", () => {
  it("lists each year's share with its source, and whether it was verified", () => {
    for (const y of FI_DISTRIBUTION_OBLIGATION) {
      expect(y.share).toBeGreaterThan(0);
      expect(y.share).toBeLessThan(0.35);
      expect(y.source.length).toBeGreaterThan(20);
    }
    expect(FI_DISTRIBUTION_OBLIGATION.map((y) => [y.year, y.share])).toEqual([
      [2021, 0.18],
      [2022, 0.12],
      [2023, 0.135],
      [2024, 0.135],
    ]);
  });

  it("weights the years a period touches by their days; before 2021 (double counting) the fuel is not split", () => {
    expect(fuelBioShareOfPeriod("2023-03-01", "2023-03-31")).toMatchObject({ share: 0.135, years: [{ year: 2023, days: 31, share: 0.135, status: "statutory", verified: true }] });
    // 31 days of 2022 at 12 % and 31 of 2023 at 13.5 %.
    const across = fuelBioShareOfPeriod("2022-12-01", "2023-01-31");
    expect(across.share).toBeCloseTo(0.1275, 12);
    expect(across.years.map((y) => [y.year, y.days, y.share])).toEqual([
      [2022, 31, 0.12],
      [2023, 31, 0.135],
    ]);
    const early = fuelBioShareOfPeriod("2020-12-01", "2021-01-31");
    expect(early.years.map((y) => [y.year, y.share, y.status])).toEqual([
      [2020, 0, "not_split"],
      [2021, 0.18, "statutory"],
    ]);
    expect(early.share).toBeCloseTo(0.09, 12);
    expect(fuelBioShareOfPeriod("2026-01-01", "2026-12-31").years).toEqual([expect.objectContaining({ year: 2026, days: 365, share: 0.135, status: "estimate", verified: false })]);
  });
});
