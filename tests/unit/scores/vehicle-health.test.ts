import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/seed/prng";
import { VEHICLE_HEALTH_VERSION, VEHICLE_HEALTH_WEIGHTS, type VehicleHealthInput, computeVehicleHealth } from "@/lib/scores/vehicle-health";

const now = new Date("2026-11-20T12:00:00.000Z");

/** Seeded uniform [0, 1) numbers for the property loops (the seed generator's PRNG). */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

const input = (over: Partial<VehicleHealthInput> = {}): VehicleHealthInput => ({
  device_id: "ev-1",
  powertrain: "BEV",
  asset_class: "passenger_car",
  latest_soh_pct: 92,
  latest_soh_at: new Date("2026-11-19T08:00:00.000Z"),
  latest_odometer_km: 45_000,
  active_dtc_codes: [],
  battery_voltage_reported: true,
  latest_resting_12v_v: 12.5,
  odometer_manipulation: false,
  odometer_jump_alerts: 0,
  records_30d: 500,
  newest_telemetry_at: new Date("2026-11-20T11:15:00.000Z"),
  ...over,
});

function randomInput(r: () => number): VehicleHealthInput {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const maybe = (f: () => number) => (r() < 0.25 ? null : r() < 0.05 ? Number.NaN : f());
  const codes = ["P0301", "P0420", "C0035", "B1000", "U0100", "P0A80", "P0455", "bogus", " p0171 "];
  return {
    device_id: "x",
    powertrain: pick(["BEV", "PHEV", "HEV", "ICE", null, "diesel"]),
    asset_class: pick(["passenger_car", "light_commercial", "heavy_truck", "other", null]),
    latest_soh_pct: maybe(() => r() * 150 - 10),
    latest_soh_at: new Date(now.getTime() - Math.floor(r() * 200 * 86_400_000)),
    latest_odometer_km: maybe(() => r() * 1_500_000 - 1000),
    active_dtc_codes: r() < 0.3 ? null : Array.from({ length: Math.floor(r() * 6) }, () => pick(codes)),
    battery_voltage_reported: r() < 0.7,
    latest_resting_12v_v: maybe(() => r() * 20),
    odometer_manipulation: pick([true, false, null]),
    odometer_jump_alerts: Math.floor(r() * 4),
    records_30d: Math.floor(r() * 50),
    newest_telemetry_at: r() < 0.2 ? null : new Date(now.getTime() - Math.floor(r() * 20 * 86_400_000)),
  };
}

describe("computeVehicleHealth: the 90-day SoH rule (CONTRACT Evidence and trust)", () => {
  const daysBefore = (d: number) => new Date(now.getTime() - d * 86_400_000);

  it("scores the battery on a reading 90 days old and says how old it is", () => {
    const res = computeVehicleHealth(input({ latest_soh_pct: 95, latest_soh_at: daysBefore(90) }), { now });
    expect(res.components.battery).not.toBeNull();
    expect(res.soh_evidence).toMatchObject({ status: "measured", last_reading_pct: 95, age_days: 90, max_age_days: 90 });
    expect(res.available_signals).toContain("soh_pct");
  });

  it("does not score the battery on a reading 91 days old: missing, named, lower confidence", () => {
    const fresh = computeVehicleHealth(input({ latest_soh_pct: 99, latest_soh_at: daysBefore(10) }), { now });
    const old = computeVehicleHealth(input({ latest_soh_pct: 99, latest_soh_at: daysBefore(91) }), { now });
    expect(old.components.battery).toBeNull();
    expect(old.missing_signals).toContain("soh_pct");
    expect(old.available_signals).not.toContain("soh_pct");
    expect(old.soh_evidence).toMatchObject({ status: "outdated", last_reading_pct: 99, age_days: 91 });
    expect(old.limitations.join(" ")).toMatch(/not measured in the 90 days.*99 % on 2026-08-21.*91 days old/);
    expect(["low", "medium"]).toContain(old.confidence);
    expect(fresh.confidence).toBe("high");
  });

  it("90 days and an hour is outdated, though its whole days say 90", () => {
    const r = computeVehicleHealth(input({ latest_soh_pct: 95, latest_soh_at: new Date(now.getTime() - 90 * 86_400_000 - 3_600_000) }), { now });
    expect(r.soh_evidence).toMatchObject({ status: "outdated", age_days: 90 });
  });

  it("an outdated low reading can lower the score, never raise it (a battery does not regain capacity)", () => {
    const none = computeVehicleHealth(input({ latest_soh_pct: null, latest_soh_at: null }), { now });
    const oldLow = computeVehicleHealth(input({ latest_soh_pct: 55, latest_soh_at: daysBefore(100) }), { now });
    const oldHigh = computeVehicleHealth(input({ latest_soh_pct: 99, latest_soh_at: daysBefore(100) }), { now });
    expect(oldLow.components.battery).toBeNull();
    expect(oldLow.vehicle_health_score).toBeLessThan(none.vehicle_health_score);
    expect(oldLow.limitations.join(" ")).toMatch(/the lower score stands/);
    expect(oldHigh.vehicle_health_score).toBe(none.vehicle_health_score);
  });

  it("a 23-month-old 99 % reading (the issue's case) is not today's SoH", () => {
    const res = computeVehicleHealth(input({ latest_soh_pct: 99, latest_soh_at: daysBefore(700) }), { now });
    expect(res.components.battery).toBeNull();
    expect(res.soh_evidence.status).toBe("outdated");
  });

  it("states none for a BEV that never reported and not_applicable for an ICE", () => {
    expect(computeVehicleHealth(input({ latest_soh_pct: null, latest_soh_at: null }), { now }).soh_evidence.status).toBe("none");
    expect(computeVehicleHealth(input({ powertrain: "ICE", latest_soh_pct: null, latest_soh_at: null }), { now }).soh_evidence.status).toBe("not_applicable");
  });
});

describe("computeVehicleHealth", () => {
  it("weights sum to 1", () => {
    expect(Object.values(VEHICLE_HEALTH_WEIGHTS).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 10);
  });

  it("returns every SPEC 2.4 field (and the soh_evidence FDP adds) with the right type", () => {
    const res = computeVehicleHealth(input(), { now });
    expect(Object.keys(res).sort()).toEqual(
      [
        "device_id",
        "vehicle_health_score",
        "score_version",
        "confidence",
        "components",
        "available_signals",
        "missing_signals",
        "soh_evidence",
        "limitations",
        "generated_at",
      ].sort(),
    );
    expect(res.device_id).toBe("ev-1");
    expect(typeof res.vehicle_health_score).toBe("number");
    expect(res.score_version).toBe(VEHICLE_HEALTH_VERSION);
    expect(res.confidence).toBe("high");
    expect(Object.keys(res.components).sort()).toEqual(["battery", "diagnostics", "electrical_12v", "odometer_integrity", "usage"]);
    expect(res.available_signals).toEqual(["soh_pct", "dtc_codes", "battery_voltage", "odometer_km"]);
    expect(res.missing_signals).toEqual([]);
    expect(res.limitations[0]).toBe("Newest telemetry used is 45 min old (2026-11-20T11:15:00.000Z).");
    expect(res.generated_at).toBe("2026-11-20T12:00:00.000Z");
    expect(res.vehicle_health_score).toBeGreaterThan(80);
  });

  it("stays within 0–100 over many generated inputs, never NaN; components are null or 0–100", () => {
    const r = rng(1234);
    for (let i = 0; i < 2000; i++) {
      const res = computeVehicleHealth(randomInput(r), { now });
      expect(Number.isFinite(res.vehicle_health_score)).toBe(true);
      expect(res.vehicle_health_score).toBeGreaterThanOrEqual(0);
      expect(res.vehicle_health_score).toBeLessThanOrEqual(100);
      for (const v of Object.values(res.components)) {
        if (v === null) continue;
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
      }
      for (const s of res.missing_signals) expect(res.available_signals).not.toContain(s);
    }
  });

  it("is deterministic", () => {
    const r = rng(5);
    for (let i = 0; i < 200; i++) {
      const x = randomInput(r);
      expect(computeVehicleHealth(x, { now })).toEqual(computeVehicleHealth(x, { now }));
    }
  });

  it("lower SoH gives a lower score (all else equal)", () => {
    let prev = Infinity;
    for (const soh of [100, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 40]) {
      const s = computeVehicleHealth(input({ latest_soh_pct: soh }), { now }).vehicle_health_score;
      expect(s).toBeLessThan(prev);
      prev = s;
    }
    // 70 % (warranty level) and 60 % (TAS knockout) are visible steps in the battery component.
    expect(computeVehicleHealth(input({ latest_soh_pct: 70 }), { now }).components.battery).toBe(40);
    expect(computeVehicleHealth(input({ latest_soh_pct: 60 }), { now }).components.battery).toBe(10);
  });

  it("more active critical DTCs give a lower score (all else equal)", () => {
    const crit = ["P0301", "P0302", "C0035", "P0A80"];
    let prev = Infinity;
    for (let n = 0; n <= crit.length; n++) {
      const s = computeVehicleHealth(input({ active_dtc_codes: crit.slice(0, n) }), { now }).vehicle_health_score;
      expect(s).toBeLessThan(prev);
      prev = s;
    }
    const warn = computeVehicleHealth(input({ active_dtc_codes: ["P0420"] }), { now }).components.diagnostics!;
    const critical = computeVehicleHealth(input({ active_dtc_codes: ["P0301"] }), { now }).components.diagnostics!;
    expect(critical).toBeLessThan(warn);
    // Duplicates and malformed codes do not count twice.
    expect(computeVehicleHealth(input({ active_dtc_codes: ["P0301", " p0301", "junk"] }), { now }).components.diagnostics).toBe(critical);
  });

  it("a rollback and a weak 12 V battery lower the score", () => {
    const base = computeVehicleHealth(input(), { now }).vehicle_health_score;
    expect(computeVehicleHealth(input({ odometer_manipulation: true }), { now }).vehicle_health_score).toBeLessThan(base);
    expect(computeVehicleHealth(input({ latest_resting_12v_v: 11.5 }), { now }).vehicle_health_score).toBeLessThan(base);
  });

  it("tells the truth about missing signals and lowers confidence", () => {
    const res = computeVehicleHealth(input({ latest_soh_pct: null, latest_resting_12v_v: null, battery_voltage_reported: false }), { now });
    expect(res.missing_signals).toEqual(["soh_pct", "battery_voltage"]);
    expect(res.available_signals).toEqual(["dtc_codes", "odometer_km"]);
    expect(res.components.battery).toBeNull();
    expect(res.components.electrical_12v).toBeNull();
    expect(res.confidence).toBe("low");
    const one = computeVehicleHealth(input({ latest_resting_12v_v: null, battery_voltage_reported: false }), { now });
    expect(one.confidence).toBe("medium");
    expect(one.limitations.some((l) => l.startsWith("Not reported by this vehicle: battery_voltage"))).toBe(true);
  });

  it("an ICE vehicle is not penalised for having no SoH", () => {
    const res = computeVehicleHealth(input({ powertrain: "ICE", latest_soh_pct: null }), { now });
    expect(res.missing_signals).toEqual([]);
    expect(res.components.battery).toBeNull();
    expect(res.confidence).toBe("high");
  });

  it("a device with no data at all gets a defined answer with low confidence", () => {
    const res = computeVehicleHealth(
      input({
        powertrain: null,
        latest_soh_pct: null,
        latest_odometer_km: null,
        active_dtc_codes: null,
        battery_voltage_reported: false,
        latest_resting_12v_v: null,
        records_30d: 0,
        newest_telemetry_at: null,
      }),
      { now },
    );
    expect(res.vehicle_health_score).toBe(50);
    expect(res.confidence).toBe("low");
    expect(res.available_signals).toEqual([]);
    expect(res.missing_signals).toEqual(["soh_pct", "dtc_codes", "battery_voltage", "odometer_km"]);
    expect(res.limitations[0]).toBe("No telemetry was available for this score.");
  });

  it("stale data caps confidence", () => {
    expect(computeVehicleHealth(input({ newest_telemetry_at: new Date("2026-11-16T12:00:00Z") }), { now }).confidence).toBe("medium");
    expect(computeVehicleHealth(input({ newest_telemetry_at: new Date("2026-11-01T12:00:00Z") }), { now }).confidence).toBe("low");
  });
});

describe("vehicle-health-2027.01 (issue 8)", () => {
  it("an HEV without SoH is not 'missing soh_pct' (the same rule as TAS: not applicable)", () => {
    const r = computeVehicleHealth(input({ powertrain: "HEV", latest_soh_pct: null }), { now });
    expect(r.missing_signals).not.toContain("soh_pct");
    expect(r.confidence).toBe("high");
    expect(r.limitations.join(" ")).toMatch(/Hybrid \(HEV\).*does not apply/);
  });

  it("a lithium auxiliary pack is not judged on the lead-acid curve", () => {
    const r = computeVehicleHealth(input({ latest_resting_12v_v: 15.8, resting_12v_chemistry: "lithium" }), { now });
    expect(r.components.electrical_12v).toBeNull();
    expect(r.available_signals).toContain("battery_voltage");
    expect(r.limitations.join(" ")).toMatch(/lithium pack/);
  });

  it("odometer integrity follows the evidence, and flagged SoH readings are named", () => {
    expect(computeVehicleHealth(input({ odometer_manipulation: true }), { now }).components.odometer_integrity).toBe(0);
    expect(computeVehicleHealth(input({ odometer_manipulation: false }), { now }).components.odometer_integrity).toBe(100);
    const r = computeVehicleHealth(input({ soh_flags: [{ pct: 0, at: new Date("2026-11-19T00:00:00Z"), reason: "implausible_value" }] }), { now });
    expect(r.limitations.join(" ")).toMatch(/reading 0 % .* not used/);
  });
});
