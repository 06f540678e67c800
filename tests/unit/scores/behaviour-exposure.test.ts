import { describe, expect, it } from "vitest";
import { harshExposure, MIN_RATE_EXPOSURE_HOURS, MIN_RATE_EXPOSURE_KM, speedingShare } from "@/lib/scores/behaviour-exposure";
import { computeFleetRisk, type FleetRiskDeviceInput } from "@/lib/scores/fleet-risk";
import { computeGreenFleet, type GreenFleetDeviceInput } from "@/lib/scores/green-fleet";
import { computeTas, type TasInput } from "@/lib/scores/tas";
import { tasInput } from "../../helpers/tas-input";

/** Issue 8 review: minimum exposure of rates (H4), harsh-event km (H5), per-vehicle green fleet (M4). Pure. */

const now = new Date("2026-11-20T12:00:00Z");

/** The standard TAS input with only the behaviour under test: 150 km in 90 days, nothing measured by default. */
const tas = (behaviour: Partial<TasInput["behaviour"]>): TasInput =>
  tasInput({ behaviour: { period_days: 90, period_km: 150, speeding: null, night_share: 0, icy_share: 0, harsh_events: null, ...behaviour } });

const riskDevice = (over: Partial<FleetRiskDeviceInput> = {}): FleetRiskDeviceInput => ({
  device_id: "d1",
  powertrain: "ICE",
  alerts: { critical: 0, warning: 0, info: 0 },
  driving_minutes: 600,
  minutes_over_130: 0,
  minutes_over_160: 0,
  moving_km: 800,
  km_over_130: 0,
  km_over_160: 0,
  night_driving_minutes: 0,
  temp_known_driving_minutes: 0,
  driving_minutes_near_0c: 0,
  driving_minutes_cold: 0,
  driving_minutes_below_minus10c: 0,
  harsh_events: null,
  charged_battery_kwh: null,
  high_power_dc_share: null,
  soc_known_minutes: 0,
  low_soc_minutes: 0,
  telemetry_days: 20,
  newest_telemetry_at: new Date("2026-11-20T09:00:00Z"),
  ...over,
});

describe("H4: speeding shares need a minimum measured exposure", () => {
  const thin = { moving_km: 3, km_over_130: 3, km_over_160: 0, driving_minutes: 2, minutes_over_130: 2, minutes_over_160: 0 };

  it("3 km of moving pairs all above 130 km/h is no share (insufficient), not share 1", () => {
    expect(speedingShare(thin)).toBeNull();
    expect(speedingShare({ ...thin, moving_km: MIN_RATE_EXPOSURE_KM, km_over_130: 10 })).toMatchObject({ basis: "distance", over_130_share: 0.1 });
    expect(speedingShare({ ...thin, moving_km: 0, km_over_130: 0, driving_minutes: MIN_RATE_EXPOSURE_HOURS * 60, minutes_over_130: 12 })).toMatchObject({
      basis: "time",
      over_130_share: 0.1,
    });
  });

  it("the TAS usage pillar ignores a share measured on less than the minimum, even when period_km ≥ 100", () => {
    const share1 = { over_130_share: 1, over_160_share: 0, basis: "distance" as const, exposure_km: 3, exposure_hours: 0.03 };
    const p = computeTas(tas({ speeding: share1 }), { now }).pillars.usage_behaviour;
    // Old: index 100 × 0.6 = 60-point penalty (score 40) on 3 km.
    expect(p.source).toBe("insufficient_data");
    expect(p.score).toBe(computeTas(tas({ speeding: null }), { now }).pillars.usage_behaviour.score);
    const enough = computeTas(tas({ speeding: { ...share1, exposure_km: 150 } }), { now }).pillars.usage_behaviour;
    expect(enough.source).toBe("telemetry_derived");
    expect(enough.score).toBeLessThanOrEqual(40);
  });

  it("fleet risk leaves a device below the minimum out of speed_compliance (both sides)", () => {
    const thinDevice = riskDevice({ device_id: "thin", moving_km: 3, km_over_130: 3, driving_minutes: 2, minutes_over_130: 2 });
    const calm = riskDevice({ device_id: "calm" });
    const alone = computeFleetRisk({ period_days: 30, devices: [thinDevice] }, { now });
    expect(alone.components.speed_compliance).toBe(0);
    expect(alone.limitations.some((l) => l.includes("less than the minimum exposure"))).toBe(true);
    // Old: 3 of 803 km above 130 → share 0.37 % → 3.7; now the calm car's 0 %.
    expect(computeFleetRisk({ period_days: 30, devices: [thinDevice, calm] }, { now }).components.speed_compliance).toBe(0);
  });
});

describe("H5: harsh-event rates over the km their source covered", () => {
  const since = new Date("2026-10-21T12:00:00Z");
  const h = { oem: 2, derived: 7, oem_weighted: 3, derived_weighted: 9, oem_km: 100, derived_km: 40 };

  it("the km are those of the chosen source", () => {
    expect(harshExposure({ ...h, reported_at: new Date("2026-11-19T00:00:00Z"), dense_speed_at: null }, since)).toEqual({ count: 2, weighted: 3, km: 100 });
    expect(harshExposure({ ...h, reported_at: null, dense_speed_at: new Date("2026-11-19T00:00:00Z") }, since)).toEqual({ count: 7, weighted: 9, km: 40 });
    expect(harshExposure({ ...h, reported_at: null, dense_speed_at: null }, since)).toBeNull();
  });

  it("fleet risk leaves a device with 0 km out of both sides of the rate", () => {
    const zero = riskDevice({ device_id: "zero", harsh_events: { count: 5, weighted: 5, km: 0 } });
    const measured = riskDevice({ device_id: "m", harsh_events: { count: 1, weighted: 1, km: 500 } });
    const r = computeFleetRisk({ period_days: 30, devices: [zero, measured] }, { now });
    // 1 weighted event per 500 km = 0.2 per 100 km → 100 × (1 − e^−0.2) ≈ 18.1 (old: 6 events / 500 km → 70).
    expect(r.components.event_severity).toBeCloseTo(100 * (1 - Math.exp(-0.2)), 0);
    expect(r.limitations.some((l) => l.includes("no km measured"))).toBe(true);
  });

  it("the TAS harsh rate uses harsh_events_km, and ignores events over less than the minimum", () => {
    const over100 = computeTas(tas({ period_km: 3000, harsh_events_weighted: 3, harsh_events: 3, harsh_events_km: 300 }), { now }).pillars.usage_behaviour;
    // 3 events per 300 km = 10 per 1,000 km = 100 points of penalty, capped at 80 (old: 1 per 1,000 → 10 points).
    expect(over100.score).toBeLessThanOrEqual(20);
    const tiny = computeTas(tas({ period_km: 3000, harsh_events_weighted: 3, harsh_events: 3, harsh_events_km: 20 }), { now }).pillars.usage_behaviour;
    expect(tiny.source).toBe("insufficient_data");
  });
});

describe("M4: one vehicle's green fleet score is never a powertrain lookup", () => {
  const dev = (over: Partial<GreenFleetDeviceInput>): GreenFleetDeviceInput => ({
    device_id: "v",
    powertrain: "ICE",
    fuel_type: "diesel",
    asset_class: "passenger_car",
    distance_km: 1500,
    energy_kwh: null,
    cold_driving_share: 0,
    newest_telemetry_at: new Date("2026-11-20T10:00:00Z"),
    ...over,
  });

  it("a diesel, a petrol car, a PHEV and an unmeasured BEV get co2_intensity null with a reason, score 0 by definition, confidence low", () => {
    for (const d of [dev({}), dev({ fuel_type: "petrol" }), dev({ powertrain: "PHEV", fuel_type: "petrol" }), dev({ powertrain: "BEV", fuel_type: null })]) {
      const g = computeGreenFleet({ period_days: 30, devices: [d], single_vehicle: true }, { now });
      // Old: co2_intensity 0 (diesel) / 2.7 (petrol) / 37 (PHEV) from the DEFRA factor, nothing measured.
      expect(g.components.co2_intensity, `${d.powertrain} ${d.fuel_type}`).toBeNull();
      expect(g.components.ev_share).toBeNull();
      expect(g.green_fleet_score).toBe(0);
      expect(g.confidence).toBe("low");
      expect(g.limitations.some((l) => l.startsWith("co2_intensity is not measured for this vehicle"))).toBe(true);
      expect(g.limitations.some((l) => l.includes("No component of this score is measured"))).toBe(true);
    }
  });

  it("a BEV whose consumption was measured keeps its measured co2_intensity and energy_efficiency", () => {
    const g = computeGreenFleet({ period_days: 30, devices: [dev({ powertrain: "BEV", fuel_type: null, energy_kwh: 300 })], single_vehicle: true }, { now });
    expect(g.components.co2_intensity).not.toBeNull();
    expect(g.components.energy_efficiency).not.toBeNull();
    expect(g.green_fleet_score).toBeGreaterThan(0);
  });

  it("a fleet keeps the DEFRA figures of its fuel vehicles (fleet composition is a fleet property)", () => {
    const g = computeGreenFleet({ period_days: 30, devices: [dev({}), dev({ device_id: "w", fuel_type: "petrol" })] }, { now });
    expect(g.components.co2_intensity).not.toBeNull();
  });
});
