import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/seed/prng";
import {
  BEV_KWH_PER_KM,
  FI_GRID_G_PER_KWH,
  GREEN_FLEET_VERSION,
  GREEN_FLEET_WEIGHTS,
  type GreenFleetDeviceInput,
  type GreenFleetInput,
  co2GramsPerKm,
  computeGreenFleet,
  computeGreenFleetMetrics,
} from "@/lib/scores/green-fleet";

const now = new Date("2026-11-20T12:00:00.000Z");

/** Seeded uniform [0, 1) numbers for the property loops (the seed generator's PRNG). */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

const dev = (over: Partial<GreenFleetDeviceInput> = {}): GreenFleetDeviceInput => ({
  device_id: "d",
  powertrain: "ICE",
  fuel_type: "diesel",
  asset_class: "passenger_car",
  distance_km: 1500,
  energy_kwh: null,
  cold_driving_share: 0.3,
  newest_telemetry_at: new Date("2026-11-20T10:00:00.000Z"),
  ...over,
});
const bev = (over: Partial<GreenFleetDeviceInput> = {}) => dev({ powertrain: "BEV", fuel_type: null, energy_kwh: 300, ...over });

const mixed = (): GreenFleetInput => ({
  period_days: 30,
  devices: [
    bev({ device_id: "b1" }),
    bev({ device_id: "b2", energy_kwh: 360 }),
    dev({ device_id: "i1" }),
    dev({ device_id: "i2", fuel_type: "petrol" }),
    dev({ device_id: "h1", powertrain: "HEV", fuel_type: "petrol" }),
    dev({ device_id: "p1", powertrain: "PHEV", fuel_type: "petrol" }),
  ],
});

function randomInput(r: () => number): GreenFleetInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const maybe = (f: () => number) => (r() < 0.2 ? null : r() < 0.05 ? Number.NaN : f());
  return {
    period_days: 1 + Math.floor(r() * 365),
    devices: Array.from({ length: Math.floor(r() * 10) }, (_, i) => ({
      device_id: `r${i}`,
      powertrain: pick(["BEV", "PHEV", "HEV", "ICE", null, "hydrogen"]),
      fuel_type: pick(["diesel", "petrol", "Gasoline", null, "lpg"]),
      asset_class: pick(["passenger_car", "light_commercial", "heavy_truck", "other", null]),
      distance_km: maybe(() => r() * 20_000 - 100),
      energy_kwh: maybe(() => r() * 5000 - 10),
      cold_driving_share: maybe(() => r() * 1.5 - 0.2),
      newest_telemetry_at: r() < 0.2 ? null : new Date(now.getTime() - Math.floor(r() * 20 * 86_400_000)),
    })),
  };
}

describe("computeGreenFleet", () => {
  it("weights sum to 1", () => {
    expect(Object.values(GREEN_FLEET_WEIGHTS).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 10);
  });

  it("returns every SPEC 2.5 field (plus confidence) with the right type", () => {
    const res = computeGreenFleet(mixed(), { now });
    expect(Object.keys(res).sort()).toEqual(["green_fleet_score", "score_version", "components", "limitations", "generated_at", "confidence"].sort());
    expect(typeof res.green_fleet_score).toBe("number");
    expect(res.score_version).toBe(GREEN_FLEET_VERSION);
    expect(Object.keys(res.components).sort()).toEqual(["co2_intensity", "energy_efficiency", "ev_share"]);
    for (const v of Object.values(res.components)) expect(typeof v).toBe("number");
    expect(res.limitations[0]).toBe("Newest telemetry used is 2 h old (2026-11-20T10:00:00.000Z).");
    expect(res.generated_at).toBe("2026-11-20T12:00:00.000Z");
    expect(res.confidence).toBe("high");
  });

  it("counts EVs as the CONTRACT says: BEV+PHEV vs ICE+HEV, unknown only in the total", () => {
    const m = computeGreenFleetMetrics({ period_days: 30, devices: [...mixed().devices, dev({ device_id: "u", powertrain: null })] });
    expect(m).toMatchObject({ total_vehicles: 7, ev_count: 3, ice_count: 3, unknown_powertrain_count: 1 });
    expect(computeGreenFleet(mixed(), { now }).components.ev_share).toBe(50);
  });

  it("uses DEFRA 2025 factors and the Finnish grid factor for BEVs", () => {
    expect(co2GramsPerKm(dev()).g).toBeCloseTo(173.04, 6);
    expect(co2GramsPerKm(dev({ fuel_type: "petrol" })).g).toBeCloseTo(162.72, 6);
    expect(co2GramsPerKm(dev({ powertrain: "HEV" })).g).toBeCloseTo(128.25, 6);
    expect(co2GramsPerKm(dev({ powertrain: "PHEV" })).g).toBeCloseTo(104.61, 6);
    expect(co2GramsPerKm(dev({ asset_class: "light_commercial" })).g).toBeCloseTo(255.61, 6);
    expect(co2GramsPerKm(bev({ energy_kwh: null })).g).toBeCloseTo(BEV_KWH_PER_KM.car * FI_GRID_G_PER_KWH, 6);
    expect(co2GramsPerKm(bev({ energy_kwh: 300, distance_km: 1500 })).g).toBeCloseTo(0.2 * FI_GRID_G_PER_KWH, 6);
  });

  it("stays within 0–100 over many generated inputs, never NaN", () => {
    const r = rng(2026);
    for (let i = 0; i < 2000; i++) {
      const res = computeGreenFleet(randomInput(r), { now });
      expect(Number.isFinite(res.green_fleet_score)).toBe(true);
      expect(res.green_fleet_score).toBeGreaterThanOrEqual(0);
      expect(res.green_fleet_score).toBeLessThanOrEqual(100);
      for (const v of Object.values(res.components)) {
        if (v === null) continue;
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
    }
  });

  it("is deterministic", () => {
    const r = rng(3);
    for (let i = 0; i < 200; i++) {
      const x = randomInput(r);
      expect(computeGreenFleet(x, { now })).toEqual(computeGreenFleet(x, { now }));
    }
  });

  it("more EVs (an ICE replaced by a BEV driving the same km) gives a higher score", () => {
    const devices: GreenFleetDeviceInput[] = Array.from({ length: 8 }, (_, i) => dev({ device_id: `i${i}` }));
    let prev = computeGreenFleet({ period_days: 30, devices }, { now }).green_fleet_score;
    for (let i = 0; i < devices.length; i++) {
      devices[i] = bev({ device_id: `i${i}`, energy_kwh: null });
      const s = computeGreenFleet({ period_days: 30, devices: [...devices] }, { now }).green_fleet_score;
      expect(s).toBeGreaterThan(prev);
      prev = s;
    }
    // Seeded: converting any ICE/HEV to a BEV without measured energy never lowers the score.
    const r = rng(77);
    for (let k = 0; k < 300; k++) {
      const x = randomInput(r);
      const idx = x.devices.findIndex((d) => d.powertrain === "ICE" || d.powertrain === "HEV");
      if (idx < 0) continue;
      const y = { ...x, devices: x.devices.map((d, j) => (j === idx ? { ...d, powertrain: "BEV", energy_kwh: null } : d)) };
      expect(computeGreenFleet(y, { now }).green_fleet_score).toBeGreaterThanOrEqual(computeGreenFleet(x, { now }).green_fleet_score);
    }
  });

  it("more efficient BEVs score higher on energy_efficiency; winter driving gets an allowance", () => {
    const a = computeGreenFleet({ period_days: 30, devices: [bev({ energy_kwh: 400 })] }, { now }).components.energy_efficiency!;
    const b = computeGreenFleet({ period_days: 30, devices: [bev({ energy_kwh: 300 })] }, { now }).components.energy_efficiency!;
    expect(b).toBeGreaterThan(a);
    const summer = computeGreenFleet({ period_days: 30, devices: [bev({ cold_driving_share: 0 })] }, { now }).components.energy_efficiency!;
    const winter = computeGreenFleet({ period_days: 30, devices: [bev({ cold_driving_share: 1 })] }, { now }).components.energy_efficiency!;
    expect(winter).toBeGreaterThan(summer);
  });

  it("an empty fleet and a fleet without distance get defined answers with low confidence", () => {
    const empty = computeGreenFleet({ period_days: 30, devices: [] }, { now });
    expect(empty.green_fleet_score).toBe(0);
    expect(empty.confidence).toBe("low");
    expect(empty.components).toEqual({ ev_share: null, co2_intensity: null, energy_efficiency: null });
    expect(empty.limitations[0]).toBe("No telemetry was available for this score.");

    const noKm = computeGreenFleet({ period_days: 30, devices: mixed().devices.map((d) => ({ ...d, distance_km: null })) }, { now });
    expect(noKm.confidence).toBe("low");
    expect(noKm.components.energy_efficiency).toBeNull();
    expect(noKm.components.co2_intensity).not.toBeNull();
    expect(noKm.limitations.some((l) => l.startsWith("No odometer distance is known"))).toBe(true);
  });
});
