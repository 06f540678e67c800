import { csrdReport, type CsrdInput, type CsrdLeaseInput } from "@/lib/reports/csrd";
import type { ReportingRole } from "@/lib/vocabulary/reporting-role";
import { emissionsReport, type EmissionsVehicleInput } from "@/lib/reports/emissions";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import { withDistance } from "./distance-evidence";

/**
 * A constructed fleet for the CSRD report's tests (tests/unit/reports/csrd*.test.ts), its figures
 * computed by hand in tests/unit/reports/csrd.test.ts.
 */
export const csrdFixtureNow = new Date("2026-02-10T12:00:00Z");
export const csrdVehicle = (
  v: Partial<Omit<EmissionsVehicleInput, "distance">> & { device_id: string; odometer_km?: number | null; great_circle_km?: number },
): EmissionsVehicleInput => ({
  device_name: v.device_id,
  powertrain: null,
  fuel_type: null,
  asset_class: null,
  consumption_kwh_per_100km: null,
  ...withDistance(v),
});

const fleet: EmissionsVehicleInput[] = [
  // 100 km at a measured 20 kWh/100 km: 20 kWh × 0.088 = 1.760 kg (Scope 2).
  csrdVehicle({ device_id: "bev", powertrain: "BEV", odometer_km: 100, consumption_kwh_per_100km: 20 }),
  // 100 km: tank-to-wheel 17.304 kg (Scope 1), well-to-tank 4.146 kg (category 3); 17.304 ÷ 0.25 = 69.216 kWh.
  csrdVehicle({ device_id: "diesel", powertrain: "ICE", fuel_type: "diesel", odometer_km: 100 }),
  // 100 km: 16.272 kg + 4.599 kg; 16.272 ÷ 0.24 = 67.8 kWh.
  csrdVehicle({ device_id: "petrol", powertrain: "ICE", fuel_type: "petrol", odometer_km: 100 }),
  // 80 km × 0.12825 = 10.26 kg (Scope 1, no well-to-tank add-on); 10.26 ÷ 0.24 = 42.75 kWh.
  csrdVehicle({ device_id: "hev", powertrain: "HEV", odometer_km: 80 }),
  // Van, 100 km × 0.25561 = 25.561 kg (Scope 1); 25.561 ÷ 0.25 = 102.244 kWh. Leased out: category 13.
  csrdVehicle({ device_id: "van", powertrain: "ICE", fuel_type: "diesel", asset_class: "light_commercial", odometer_km: 100 }),
  // Unknown powertrain, no data in the period.
  csrdVehicle({ device_id: "silent" }),
];

/** The fixture's lease contracts: the van's and the BEV's cover all of January 2026, the diesel's ended before it, the petrol car's never started. */
export const csrdFixtureLeases: CsrdLeaseInput[] = [
  { device_id: "van", lease_start: "2025-01-01", lease_months: 24 },
  // Ended on 2025-12-01, before the period: not category 13.
  { device_id: "diesel", lease_start: "2024-12-01", lease_months: 12 },
  { device_id: "petrol", lease_start: null, lease_months: 36 },
  // Open-ended (no lease_months), started before the period: covers the whole period.
  { device_id: "bev", lease_start: "2023-05-01", lease_months: null },
];

export function buildCsrdFixture(
  contract: number | null = null,
  options: { reportingRole?: ReportingRole; leases?: CsrdLeaseInput[]; gridGeneration?: CsrdInput["gridGeneration"] } = {},
) {
  const emissions = emissionsReport({ periodStart: "2026-01-01", periodEnd: "2026-01-31", vehicles: fleet, now: csrdFixtureNow });
  const greenFleet = computeGreenFleet({ period_days: 31, devices: [] }, { now: csrdFixtureNow });
  return {
    emissions,
    report: csrdReport({
      emissions,
      periodDays: 31,
      greenFleet,
      leases: options.leases ?? csrdFixtureLeases,
      reportingRole: options.reportingRole ?? "operator",
      ...(options.gridGeneration ? { gridGeneration: options.gridGeneration } : {}),
      monthlyActivity: [
        { month: "2026-01", powertrain: "BEV", vehicles: 1 },
        { month: "2026-01", powertrain: "ICE", vehicles: 3 },
        { month: "2026-01", powertrain: "hev", vehicles: 1 },
        { month: "2026-01", powertrain: null, vehicles: 1 },
      ],
      contractFactorGPerKwh: contract,
      now: csrdFixtureNow,
    }),
  };
}
