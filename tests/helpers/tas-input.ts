import type { TasInput } from "@/lib/scores/tas";

/**
 * A complete TAS input of a healthy, three-year-old BEV with clean, measured behaviour, for the pure
 * TAS tests: each test overrides what it is about.
 */
export function tasInput(over: Partial<TasInput> = {}): TasInput {
  return {
    device_id: "dev-1",
    powertrain: "BEV",
    fuel_type: "electricity",
    asset_class: "passenger_car",
    year: 2023,
    age_months: 30,
    battery: { soh_pct: 92, soh_trend_pp_per_year: -2 },
    mileage: { odometer_km: 45_000, km_per_year: 18_000, contract_km: 60_000, lease_months: 36 },
    behaviour: {
      period_days: 30,
      period_km: 1500,
      speeding: { over_130_share: 0, over_160_share: 0, basis: "distance", exposure_km: 1500, exposure_hours: 20 },
      night_share: 0,
      icy_share: 0,
      harsh_events: 1,
    },
    compliance: { active_dtcs: [], weak_12v: false, emissions_class: null },
    odometer_manipulation: false,
    data: { latest_telemetry_at: new Date("2026-11-20T11:00:00Z"), coverage_pct: 90 },
    ...over,
  };
}
