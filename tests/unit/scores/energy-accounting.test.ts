import { describe, expect, it } from "vitest";
import { capacityOf, energyAccount, MIN_CONSUMPTION_KM, mixEfficiency } from "@/lib/scores/energy-accounting";
import { computeGreenFleet } from "@/lib/scores/green-fleet";
import type { BehaviourRow } from "@/lib/telemetry/queries/behaviour-sql";
import { CHARGING_EFFICIENCY } from "@/lib/vocabulary/charging";

const row = (over: Partial<BehaviourRow> = {}): BehaviourRow => ({
  readings: 100,
  driving_minutes: 300,
  minutes_over_130: 0,
  minutes_over_160: 0,
  night_driving_minutes: 0,
  temp_known_driving_minutes: 300,
  driving_minutes_near_0c: 0,
  driving_minutes_cold: 0,
  driving_minutes_below_0c: 0,
  driving_minutes_below_minus10c: 0,
  charging_minutes: 0,
  soc_known_minutes: 600,
  low_soc_minutes: 0,
  moving_km: 400,
  km_over_130: 0,
  km_over_160: 0,
  charged_ac_pp: 0,
  charged_dc_pp: 0,
  charged_high_power_pp: 0,
  consumption_pp: 96,
  consumption_km: 400,
  power_time_kwh: 0,
  power_time_pp: 0,
  charging_power_reported: true,
  telemetry_days: 3,
  newest_telemetry_at: new Date("2026-11-20T00:00:00Z"),
  odometer_first_km: 1000,
  odometer_last_km: 1400,
  odometer_first_at: new Date("2026-11-17T00:00:00Z"),
  odometer_last_at: new Date("2026-11-20T00:00:00Z"),
  harsh: { oem: 0, derived: 0, oem_weighted: 0, derived_weighted: 0, reported_at: null, dense_speed_at: null, oem_km: 0, derived_km: 0 },
  ...over,
});

describe("energyAccount", () => {
  it("consumption at the plug = SOC used × capacity ÷ efficiency ÷ km, without any charging in the window", () => {
    // 96 points of 75 kWh = 72 kWh over 400 km = 18 kWh/100 km in the battery; ÷ 0.89 at the plug.
    const a = energyAccount(row(), 75);
    expect(a.capacity_source).toBe("master_data");
    expect(a.consumption_kwh_per_100km).toBeCloseTo(18 / CHARGING_EFFICIENCY.ac, 6);
    expect(a.charged_battery_kwh).toBe(0);
    expect(a.high_power_dc_share).toBeNull();
  });

  it("uses the vehicle's own AC/DC mix for the losses, and the DC share above 100 kW by energy", () => {
    const a = energyAccount(row({ charged_ac_pp: 50, charged_dc_pp: 50, charged_high_power_pp: 25 }), 80);
    expect(a.charged_battery_kwh).toBeCloseTo(80, 6);
    expect(a.charged_grid_kwh).toBeCloseTo(40 / 0.89 + 40 / 0.96, 6);
    expect(a.high_power_dc_share).toBeCloseTo(0.25, 6);
    expect(a.efficiency).toBeCloseTo(80 / (40 / 0.89 + 40 / 0.96), 6);
    expect(mixEfficiency(0, 0)).toBe(CHARGING_EFFICIENCY.ac);
    expect(mixEfficiency(0, 10)).toBeCloseTo(CHARGING_EFFICIENCY.dc, 9);
  });

  it("is null with a reason when capacity, distance or SOC change is too small", () => {
    expect(energyAccount(row(), null).consumption_reason).toMatch(/capacity is unknown/);
    expect(energyAccount(row({ consumption_km: MIN_CONSUMPTION_KM - 1 }), 75).consumption_reason).toMatch(/km were driven/);
    expect(energyAccount(row({ consumption_pp: 5 }), 75).consumption_reason).toMatch(/SOC points/);
    for (const r of [energyAccount(row(), null), energyAccount(row({ consumption_pp: 5 }), 75)]) expect(r.consumption_kwh_per_100km).toBeNull();
  });

  it("estimates capacity from power × time over the SOC it added when master data lacks it", () => {
    // 11 kW for 1 h at the plug added 13.05 points: 11 × 0.89 / 0.1305 = 75 kWh.
    const c = capacityOf(null, { power_time_kwh: 11, power_time_pp: 13.05, charged_ac_pp: 13.05, charged_dc_pp: 0 });
    expect(c.source).toBe("estimated_power_time");
    expect(c.kwh).toBeCloseTo(75, 0);
    expect(capacityOf(null, { power_time_kwh: 2, power_time_pp: 3, charged_ac_pp: 3, charged_dc_pp: 0 }).kwh).toBeNull();
    expect(capacityOf(0, { power_time_kwh: 0, power_time_pp: 0, charged_ac_pp: 0, charged_dc_pp: 0 }).kwh).toBeNull();
  });
});

describe("computeGreenFleet for one vehicle", () => {
  it("marks ev_share not applicable (null) instead of a powertrain lookup", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const res = computeGreenFleet(
      {
        period_days: 30,
        single_vehicle: true,
        devices: [{ device_id: "x", powertrain: "BEV", fuel_type: null, asset_class: null, distance_km: 400, energy_kwh: 80, cold_driving_share: 0, newest_telemetry_at: now }],
      },
      { now },
    );
    expect(res.components.ev_share).toBeNull();
    expect(res.components.energy_efficiency).not.toBeNull();
    expect(res.limitations.some((l) => l.startsWith("ev_share does not apply to one vehicle"))).toBe(true);
  });
});

describe("the power × time cross-check", () => {
  it("agrees (about 1 ÷ efficiency) on consistent data and is named in the limitations when it does not", () => {
    // 11 kW for 1 h at the plug, 13.05 points of a 75 kWh pack: 11 ÷ 9.79 = 1.124 = 1 ÷ 0.89.
    const ok = energyAccount(row({ power_time_kwh: 11, power_time_pp: 13.05, charged_ac_pp: 13.05 }), 75);
    expect((ok.power_time_ratio ?? 0) * ok.efficiency).toBeCloseTo(1, 2);
    // The master data says 75 kWh but the SOC moved as for a 50 kWh pack.
    const off = energyAccount(row({ power_time_kwh: 11, power_time_pp: 19.6, charged_ac_pp: 19.6 }), 75);
    const x = (off.power_time_ratio ?? 0) * off.efficiency;
    expect(x).toBeLessThan(0.75);
    const now = new Date("2026-11-20T12:00:00Z");
    const dev = (cross: number) => ({
      device_id: "x",
      powertrain: "BEV",
      fuel_type: null,
      asset_class: null,
      distance_km: 400,
      energy_kwh: 80,
      cold_driving_share: 0,
      newest_telemetry_at: now,
      energy_cross_check: cross,
    });
    expect(computeGreenFleet({ period_days: 30, devices: [dev(x)] }, { now }).limitations.some((l) => l.startsWith("x: charging power × time and the SOC change"))).toBe(true);
    expect(computeGreenFleet({ period_days: 30, devices: [dev(1.05)] }, { now }).limitations.some((l) => l.startsWith("x: charging power × time"))).toBe(false);
  });
});
