import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/seed/prng";
import { FLEET_RISK_VERSION, FLEET_RISK_WEIGHTS, type FleetRiskDeviceInput, type FleetRiskInput, computeFleetRisk } from "@/lib/scores/fleet-risk";

const now = new Date("2026-11-20T12:00:00.000Z");

/** Seeded PRNG (mulberry32): the generated inputs are the same on every run. */
/** Seeded uniform [0, 1) numbers for the property loops (the seed generator's PRNG). */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

const dev = (over: Partial<FleetRiskDeviceInput> = {}): FleetRiskDeviceInput => ({
  device_id: "d1",
  powertrain: "BEV",
  alerts: { critical: 0, warning: 1, info: 2 },
  driving_minutes: 1200,
  minutes_over_130: 10,
  minutes_over_160: 0,
  moving_km: 1000,
  km_over_130: 15,
  km_over_160: 0,
  night_driving_minutes: 100,
  temp_known_driving_minutes: 1200,
  driving_minutes_near_0c: 200,
  driving_minutes_cold: 100,
  driving_minutes_below_minus10c: 50,
  harsh_events: { count: 3, weighted: 4, km: 1000 },
  charged_battery_kwh: 150,
  high_power_dc_share: 0.1,
  soc_known_minutes: 5000,
  low_soc_minutes: 20,
  telemetry_days: 25,
  newest_telemetry_at: new Date("2026-11-20T09:00:00.000Z"),
  ...over,
});

const fleet = (n: number, over: Partial<FleetRiskDeviceInput> = {}): FleetRiskInput => ({
  period_days: 30,
  devices: Array.from({ length: n }, (_, i) => dev({ device_id: `d${i}`, ...over })),
});

function randomInput(r: () => number): FleetRiskInput {
  const n = Math.floor(r() * 8);
  const pts = ["BEV", "PHEV", "HEV", "ICE", null, "weird"] as const;
  const big = () => (r() < 0.1 ? -5 : r() < 0.1 ? Number.NaN : Math.floor(r() * 5000));
  return {
    period_days: Math.floor(r() * 400),
    devices: Array.from({ length: n }, (_, i) => ({
      device_id: `r${i}`,
      powertrain: pts[Math.floor(r() * pts.length)] ?? null,
      alerts: { critical: Math.floor(r() * 50), warning: Math.floor(r() * 100), info: big() },
      driving_minutes: big(),
      minutes_over_130: big(),
      minutes_over_160: big(),
      moving_km: big(),
      km_over_130: big(),
      km_over_160: big(),
      night_driving_minutes: big(),
      temp_known_driving_minutes: big(),
      driving_minutes_near_0c: big(),
      driving_minutes_cold: big(),
      driving_minutes_below_minus10c: big(),
      harsh_events: r() < 0.3 ? null : { count: big(), weighted: big(), km: big() },
      charged_battery_kwh: r() < 0.3 ? null : big(),
      high_power_dc_share: r() < 0.3 ? null : r() < 0.1 ? Number.NaN : r() * 1.5,
      soc_known_minutes: big(),
      low_soc_minutes: big(),
      telemetry_days: Math.floor(r() * 40),
      newest_telemetry_at: r() < 0.2 ? null : new Date(now.getTime() - Math.floor(r() * 30 * 86_400_000)),
    })),
  };
}

describe("computeFleetRisk", () => {
  it("weights sum to 1", () => {
    const sum = Object.values(FLEET_RISK_WEIGHTS).reduce((s, w) => s + w, 0);
    expect(sum).toBeCloseTo(1, 10);
  });

  it("returns every SPEC 2.3 field with the right type", () => {
    const res = computeFleetRisk(fleet(6), { now });
    expect(Object.keys(res).sort()).toEqual(
      [
        "fleet_risk_score",
        "score_version",
        "confidence",
        "period_days",
        "device_count",
        "alerts_period",
        "critical_alerts_period",
        "severity_distribution",
        "scoring_method",
        "components",
        "limitations",
        "generated_at",
      ].sort(),
    );
    expect(typeof res.fleet_risk_score).toBe("number");
    expect(res.score_version).toBe(FLEET_RISK_VERSION);
    expect(["high", "medium", "low"]).toContain(res.confidence);
    expect(Number.isInteger(res.period_days)).toBe(true);
    expect(res.device_count).toBe(6);
    expect(res.alerts_period).toBe(18);
    expect(res.critical_alerts_period).toBe(0);
    expect(res.severity_distribution).toEqual({ critical: 0, warning: 6, info: 12 });
    for (const v of Object.values(res.severity_distribution)) expect(Number.isInteger(v)).toBe(true);
    expect(typeof res.scoring_method).toBe("string");
    expect(Object.keys(res.components).sort()).toEqual(["event_severity", "weather_exposure", "time_pattern", "speed_compliance", "ev_charging_risk"].sort());
    for (const v of Object.values(res.components)) expect(typeof v).toBe("number");
    expect(res.limitations.every((l) => typeof l === "string")).toBe(true);
    expect(res.limitations[0]).toBe("Newest telemetry used is 3 h old (2026-11-20T09:00:00.000Z).");
    expect(res.generated_at).toBe("2026-11-20T12:00:00.000Z");
    expect(res.confidence).toBe("high");
  });

  it("stays within 0–100 (score and components) over many generated inputs, never NaN", () => {
    const r = rng(42);
    for (let i = 0; i < 2000; i++) {
      const res = computeFleetRisk(randomInput(r), { now });
      expect(res.fleet_risk_score).toBeGreaterThanOrEqual(0);
      expect(res.fleet_risk_score).toBeLessThanOrEqual(100);
      for (const v of Object.values(res.components)) {
        expect(Number.isFinite(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
      expect(res.period_days).toBeGreaterThanOrEqual(1);
    }
  });

  it("is deterministic", () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const input = randomInput(r);
      expect(computeFleetRisk(input, { now })).toEqual(computeFleetRisk(input, { now }));
    }
  });

  it("alerts are reported as facts and never move the score (fleet-risk-2027.01: behaviour, not alert counts)", () => {
    const base = computeFleetRisk(fleet(5), { now });
    const many = computeFleetRisk(fleet(5, { alerts: { critical: 20, warning: 40, info: 100 } }), { now });
    expect(many.fleet_risk_score).toBe(base.fleet_risk_score);
    expect(many.components).toEqual(base.components);
    expect(many.critical_alerts_period).toBe(100);
    expect(many.alerts_period).toBe(800);
  });

  it("event_severity is severity-weighted harsh events per 100 km, rising with the rate and unknown without a source", () => {
    let prev = -1;
    for (const w of [0, 1, 5, 10, 20, 40]) {
      const res = computeFleetRisk(fleet(5, { harsh_events: { count: w, weighted: w, km: 1000 } }), { now });
      expect(res.components.event_severity).toBeGreaterThan(prev);
      prev = res.components.event_severity;
    }
    // 10 weighted events per 1,000 km = 1 per 100 km = the scale: 1 − 1/e ≈ 63.2.
    expect(computeFleetRisk(fleet(5, { harsh_events: { count: 10, weighted: 10, km: 1000 } }), { now }).components.event_severity).toBeCloseTo(63.2, 1);
    // The same events over twice the km is half the rate: lower.
    const dense = computeFleetRisk(fleet(1, { harsh_events: { count: 10, weighted: 10, km: 500 } }), { now });
    const sparse = computeFleetRisk(fleet(1, { harsh_events: { count: 10, weighted: 10, km: 1000 } }), { now });
    expect(dense.components.event_severity).toBeGreaterThan(sparse.components.event_severity);
    const unknown = computeFleetRisk(fleet(5, { harsh_events: null }), { now });
    expect(unknown.components.event_severity).toBe(0);
    expect(unknown.limitations.some((l) => l.startsWith("event_severity: no source covers the period"))).toBe(true);
    expect(
      sparse.limitations.some((l) => /^event_severity: 1 severity-weighted harsh events per 100 km \(10 events over 1000 km on 1 vehicle\(s\)\); confidence high\.$/.test(l)),
    ).toBe(true);
    // Too little exposure: not computed.
    expect(computeFleetRisk(fleet(1, { harsh_events: { count: 1, weighted: 1, km: 10 } }), { now }).limitations.some((l) => l.includes("measured over only 10 km"))).toBe(true);
  });

  it("weather_exposure ranks driving near 0 °C above driving at −20 °C", () => {
    const icy = computeFleetRisk(fleet(5, { driving_minutes_near_0c: 1200, driving_minutes_cold: 0, driving_minutes_below_minus10c: 0 }), { now });
    const deepCold = computeFleetRisk(fleet(5, { driving_minutes_near_0c: 0, driving_minutes_cold: 0, driving_minutes_below_minus10c: 1200 }), { now });
    expect(icy.components.weather_exposure).toBe(100);
    expect(deepCold.components.weather_exposure).toBeCloseTo(35, 6);
    expect(icy.components.weather_exposure).toBeGreaterThan(deepCold.components.weather_exposure);
  });

  it("speed_compliance uses the distance share when km are measured, else the time share", () => {
    // 4 % of the distance above 130 km/h: 10 × 0.04 = 40.
    expect(computeFleetRisk(fleet(5, { km_over_130: 40 }), { now }).components.speed_compliance).toBeCloseTo(40, 6);
    // No km: time share 10/1200 × 10 × 100.
    expect(computeFleetRisk(fleet(5, { moving_km: 0, km_over_130: 0 }), { now }).components.speed_compliance).toBeCloseTo((10 / 1200) * 1000, 1);
  });

  it("ev_charging_risk uses the energy share of DC above 100 kW, full at 40 %", () => {
    const none = computeFleetRisk(fleet(5, { high_power_dc_share: 0, low_soc_minutes: 0 }), { now });
    const some = computeFleetRisk(fleet(5, { high_power_dc_share: 0.2, low_soc_minutes: 0 }), { now });
    const heavy = computeFleetRisk(fleet(5, { high_power_dc_share: 0.8, low_soc_minutes: 0 }), { now });
    expect(none.components.ev_charging_risk).toBe(0);
    expect(some.components.ev_charging_risk).toBeCloseTo(25, 6); // 0.5 × (0.2 / 0.4) × 100
    expect(heavy.components.ev_charging_risk).toBeCloseTo(50, 6);
  });

  it("more speeding, night driving and cold driving each raise their component", () => {
    const base = computeFleetRisk(fleet(5), { now });
    expect(computeFleetRisk(fleet(5, { km_over_130: 60 }), { now }).components.speed_compliance).toBeGreaterThan(base.components.speed_compliance);
    expect(computeFleetRisk(fleet(5, { night_driving_minutes: 400 }), { now }).components.time_pattern).toBeGreaterThan(base.components.time_pattern);
    expect(computeFleetRisk(fleet(5, { driving_minutes_near_0c: 900 }), { now }).components.weather_exposure).toBeGreaterThan(base.components.weather_exposure);
    expect(computeFleetRisk(fleet(5, { high_power_dc_share: 0.3 }), { now }).components.ev_charging_risk).toBeGreaterThan(base.components.ev_charging_risk);
  });

  it("an empty fleet gets a defined answer with low confidence", () => {
    const res = computeFleetRisk({ period_days: 30, devices: [] }, { now });
    expect(res.fleet_risk_score).toBe(0);
    expect(res.confidence).toBe("low");
    expect(res.device_count).toBe(0);
    expect(res.alerts_period).toBe(0);
    expect(res.limitations[0]).toBe("No telemetry was available for this score.");
    expect(Object.values(res.components).every((v) => v === 0)).toBe(true);
  });

  it("missing signals and stale data lower confidence", () => {
    expect(computeFleetRisk(fleet(5), { now }).confidence).toBe("high");
    expect(computeFleetRisk(fleet(5, { temp_known_driving_minutes: 0 }), { now }).confidence).toBe("medium");
    expect(computeFleetRisk(fleet(2), { now }).confidence).toBe("medium");
    const stale = computeFleetRisk(fleet(5, { newest_telemetry_at: new Date("2026-10-01T00:00:00Z") }), { now });
    expect(stale.confidence).toBe("low");
    expect(stale.limitations[0]).toMatch(/^Newest telemetry used is 50 days old/);
    const noDriving = computeFleetRisk(fleet(5, { driving_minutes: 0, moving_km: 0, temp_known_driving_minutes: 0, telemetry_days: 1, harsh_events: null }), { now });
    expect(noDriving.confidence).toBe("low");
    expect(noDriving.limitations.some((l) => l.startsWith("speed_compliance could not be computed"))).toBe(true);
  });

  it("an all-ICE fleet leaves ev_charging_risk out without calling it missing", () => {
    const res = computeFleetRisk(fleet(5, { powertrain: "ICE" }), { now });
    expect(res.components.ev_charging_risk).toBe(0);
    expect(res.confidence).toBe("high");
    expect(res.limitations.some((l) => l.startsWith("ev_charging_risk does not apply"))).toBe(true);
  });
});

describe("speed_compliance in a fleet measured on mixed bases (review of issue 8)", () => {
  it("a vehicle measured only by time is not dropped when others have a distance share", () => {
    const now = new Date("2026-11-21T12:00:00.000Z");
    // Two calm vehicles with odometer pairs, one habitual speeder whose feed has no odometer (time only).
    const calm = dev({ km_over_130: 0, km_over_160: 0, minutes_over_130: 0, minutes_over_160: 0 });
    const speederNoOdometer = dev({ device_id: "s", moving_km: 0, km_over_130: 0, driving_minutes: 1200, minutes_over_130: 240, minutes_over_160: 0 });
    const withSpeeder = computeFleetRisk({ period_days: 30, devices: [calm, { ...calm, device_id: "c2" }, speederNoOdometer] }, { now });
    const without = computeFleetRisk({ period_days: 30, devices: [calm, { ...calm, device_id: "c2" }] }, { now });
    expect(without.components.speed_compliance).toBe(0);
    // 20 % of the speeder's driving time above 130 km/h, one third of the fleet's driving time: share 6.7 % → 66.7.
    expect(withSpeeder.components.speed_compliance).toBeCloseTo(66.7, 1);
    expect(withSpeeder.limitations.join(" ")).not.toMatch(/left out of the speeding share/);
  });
});
