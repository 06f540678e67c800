import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/seed/prng";
import { BATTERY_SNAPSHOT_VERSION, buildBatterySnapshot, coldPenalty, type BatterySnapshotInput } from "@/lib/scores/battery-snapshot";

const now = new Date("2026-11-20T12:00:00Z");

function bev(over: Partial<BatterySnapshotInput> = {}): BatterySnapshotInput {
  return {
    device_id: "ev-1",
    powertrain: "BEV",
    battery_kwh: 60,
    asset_class: "passenger_car",
    latest: {
      ts: new Date("2026-11-20T11:50:00Z"),
      soc_pct: 80,
      battery_voltage: 398.4,
      charging_status: "not_charging",
      charging_power_kw: null,
      weather_temp: 20,
    },
    oem_soh: null,
    last_battery_alert: null,
    ...over,
  };
}

/** Seeded uniform [0, 1) numbers for the property loops (the seed generator's PRNG). */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

describe("buildBatterySnapshot: shape", () => {
  it("returns every SPEC 2.6 field", () => {
    const r = buildBatterySnapshot(bev(), { now });
    expect(Object.keys(r).sort()).toEqual(["data_quality", "device_id", "generated_at", "last_battery_alert", "snapshot"]);
    expect(Object.keys(r.snapshot).sort()).toEqual(["battery_voltage", "charging_power_kw", "charging_status", "estimated_range_km", "soc_current_pct"].sort());
    expect(r.generated_at).toBe("2026-11-20T12:00:00.000Z");
    expect(r.data_quality.method_version).toBe(BATTERY_SNAPSHOT_VERSION);
    expect(Array.isArray(r.data_quality.missing_fields)).toBe(true);
  });

  it("a BEV in mild weather: range = SOC × kWh / 0.18, not-charging means 0 kW", () => {
    const r = buildBatterySnapshot(bev(), { now });
    expect(r.snapshot).toEqual({
      soc_current_pct: 80,
      battery_voltage: 398.4,
      charging_status: "not_charging",
      charging_power_kw: 0,
      estimated_range_km: Math.round((0.8 * 60) / 0.18),
    });
    expect(r.data_quality.freshness).toBe("fresh");
    expect(r.data_quality.data_age_seconds).toBe(600);
    expect(r.data_quality.latest_telemetry_at).toBe("2026-11-20T11:50:00.000Z");
    expect(r.data_quality.has_traction_battery).toBe(true);
    // no OEM SoH: null and named as missing
    expect(r.data_quality.soh_pct).toBeNull();
    expect(r.data_quality.missing_fields).toEqual(["soh_pct"]);
  });

  it("uses the OEM SoH for capacity and reports its source", () => {
    const r = buildBatterySnapshot(bev({ oem_soh: { pct: 90, reported_at: new Date("2026-11-19T08:00:00Z") } }), { now });
    expect(r.data_quality.soh_pct).toBe(90);
    expect(r.data_quality.soh_source).toBe("oem_bms");
    expect(r.data_quality.soh_reported_at).toBe("2026-11-19T08:00:00.000Z");
    expect(r.snapshot.estimated_range_km).toBe(Math.round((0.8 * 60 * 0.9) / 0.18));
    expect(r.data_quality.missing_fields).toEqual([]);
    expect(r.data_quality.soh_evidence).toMatchObject({ status: "measured", last_reading_pct: 90, age_days: 1 });
  });

  it("does not use a SoH read more than 90 days ago: null, missing, not applied to the range, the old reading named", () => {
    const atLimit = buildBatterySnapshot(bev({ oem_soh: { pct: 99, reported_at: new Date("2026-08-22T12:00:00Z") } }), { now });
    expect(atLimit.data_quality.soh_pct).toBe(99);
    const r = buildBatterySnapshot(bev({ oem_soh: { pct: 99, reported_at: new Date("2024-12-20T12:00:00Z") } }), { now });
    expect(r.data_quality.soh_pct).toBeNull();
    expect(r.data_quality.soh_source).toBeNull();
    expect(r.data_quality.soh_reported_at).toBeNull();
    expect(r.data_quality.missing_fields).toContain("soh_pct");
    expect(r.data_quality.range_model?.soh_applied).toBe(false);
    expect(r.snapshot.estimated_range_km).toBe(Math.round((0.8 * 60) / 0.18));
    expect(r.data_quality.soh_evidence).toMatchObject({ status: "outdated", last_reading_pct: 99, last_reading_at: "2024-12-20T12:00:00.000Z", age_days: 700 });
    expect(r.data_quality.soh_evidence.statement).toMatch(/not measured in the 90 days/);
  });
});

describe("buildBatterySnapshot: cold-weather range model", () => {
  it("penalty 0 at ≥ 15 °C, 22.5 % at 0 °C, capped at 50 %", () => {
    expect(coldPenalty(25)).toBe(0);
    expect(coldPenalty(15)).toBe(0);
    expect(coldPenalty(0)).toBeCloseTo(0.225, 10);
    expect(coldPenalty(-10)).toBeCloseTo(0.375, 10);
    expect(coldPenalty(-30)).toBe(0.5);
  });
  it("colder never means more range", () => {
    let prev = Infinity;
    for (let t = 30; t >= -40; t -= 1) {
      const r = buildBatterySnapshot(bev({ latest: { ...bev().latest!, weather_temp: t } }), { now });
      const km = r.snapshot.estimated_range_km!;
      expect(km).toBeLessThanOrEqual(prev);
      prev = km;
    }
  });
  it("assumes 0 °C when the temperature is unknown and says so", () => {
    const r = buildBatterySnapshot(bev({ latest: { ...bev().latest!, weather_temp: null } }), { now });
    expect(r.data_quality.range_model).toMatchObject({ temperature_assumed: true, cold_penalty_pct: 22.5, temperature_c: null });
    expect(r.snapshot.estimated_range_km).toBe(Math.round((0.8 * 60) / (0.18 * 1.225)));
  });
  it("light commercial vehicles use a higher base consumption", () => {
    const car = buildBatterySnapshot(bev(), { now }).snapshot.estimated_range_km!;
    const van = buildBatterySnapshot(bev({ asset_class: "light_commercial" }), { now }).snapshot.estimated_range_km!;
    expect(van).toBeLessThan(car);
  });
});

describe("buildBatterySnapshot: unknowns", () => {
  it("range is null and named when the battery size is unknown", () => {
    const r = buildBatterySnapshot(bev({ battery_kwh: null }), { now });
    expect(r.snapshot.estimated_range_km).toBeNull();
    expect(r.data_quality.missing_fields).toEqual(expect.arrayContaining(["battery_kwh", "estimated_range_km"]));
  });
  it("range is null when SOC is unknown or out of range", () => {
    for (const soc of [null, -3, 140]) {
      const r = buildBatterySnapshot(bev({ latest: { ...bev().latest!, soc_pct: soc } }), { now });
      expect(r.snapshot.soc_current_pct).toBeNull();
      expect(r.snapshot.estimated_range_km).toBeNull();
      expect(r.data_quality.missing_fields).toEqual(expect.arrayContaining(["soc_current_pct", "estimated_range_km"]));
    }
  });
  it("no telemetry at all: every snapshot number null and named, freshness none", () => {
    const r = buildBatterySnapshot(bev({ latest: null }), { now });
    expect(Object.values(r.snapshot).every((v) => v === null)).toBe(true);
    expect(r.data_quality.freshness).toBe("none");
    expect(r.data_quality.data_age_seconds).toBeNull();
    for (const f of ["soc_current_pct", "battery_voltage", "charging_status", "charging_power_kw", "estimated_range_km", "latest_telemetry_at"]) {
      expect(r.data_quality.missing_fields).toContain(f);
    }
  });
  it("freshness bands: ≤ 1 h fresh, ≤ 24 h recent, older stale", () => {
    const at = (ts: string) => buildBatterySnapshot(bev({ latest: { ...bev().latest!, ts: new Date(ts) } }), { now }).data_quality.freshness;
    expect(at("2026-11-20T11:00:00Z")).toBe("fresh");
    expect(at("2026-11-19T12:00:00Z")).toBe("recent");
    expect(at("2026-11-19T11:59:59Z")).toBe("stale");
  });
  it("charging power while charging is kept; unknown power while charging stays null", () => {
    const charging = (p: number | null) => buildBatterySnapshot(bev({ latest: { ...bev().latest!, charging_status: "Charging", charging_power_kw: p } }), { now });
    expect(charging(11).snapshot.charging_power_kw).toBe(11);
    expect(charging(11).snapshot.charging_status).toBe("charging");
    expect(charging(null).snapshot.charging_power_kw).toBeNull();
    expect(charging(null).data_quality.missing_fields).toContain("charging_power_kw");
  });
});

describe("buildBatterySnapshot: powertrains", () => {
  it("an ICE vehicle has no traction battery: battery fields null but not missing", () => {
    const r = buildBatterySnapshot(bev({ powertrain: "ICE", battery_kwh: null, latest: { ...bev().latest!, soc_pct: null, charging_status: null, battery_voltage: 12.6 } }), {
      now,
    });
    expect(r.snapshot).toEqual({
      soc_current_pct: null,
      battery_voltage: 12.6,
      charging_status: null,
      charging_power_kw: null,
      estimated_range_km: null,
    });
    expect(r.data_quality.has_traction_battery).toBe(false);
    // CONTRACT: every null number is named in missing_fields; not_applicable_fields says which do not apply.
    const nulls = ["soc_current_pct", "charging_status", "charging_power_kw", "estimated_range_km", "soh_pct"];
    expect(r.data_quality.missing_fields.slice().sort()).toEqual(nulls.slice().sort());
    expect(r.data_quality.not_applicable_fields.slice().sort()).toEqual(nulls.slice().sort());
    expect(r.data_quality.range_model).toBeNull();
  });
  it("an HEV reports SOC but no charging and no electric range", () => {
    const r = buildBatterySnapshot(bev({ powertrain: "HEV", battery_kwh: 1.3 }), { now });
    expect(r.snapshot.soc_current_pct).toBe(80);
    expect(r.snapshot.charging_status).toBeNull();
    expect(r.snapshot.estimated_range_km).toBeNull();
    expect(r.data_quality.has_traction_battery).toBe(true);
  });
  it("unknown powertrain: has_traction_battery null, powertrain named as missing", () => {
    const r = buildBatterySnapshot(bev({ powertrain: null }), { now });
    expect(r.data_quality.has_traction_battery).toBeNull();
    expect(r.data_quality.missing_fields).toContain("powertrain");
    expect(r.snapshot.estimated_range_km).not.toBeNull();
  });
});

describe("buildBatterySnapshot: last battery alert", () => {
  it("passes the alert through with an RFC 3339 time", () => {
    const r = buildBatterySnapshot(
      bev({
        last_battery_alert: { severity: "WARNING", prediction: "SoH dropped", confidence: 0.8, created_at: new Date("2026-11-18T10:00:00Z") },
      }),
      { now },
    );
    expect(r.last_battery_alert).toEqual({ severity: "WARNING", prediction: "SoH dropped", confidence: 0.8, created_at: "2026-11-18T10:00:00.000Z" });
  });
});

describe("buildBatterySnapshot: properties (seeded)", () => {
  it("bounded and deterministic; every null snapshot number is missing or not applicable", () => {
    const r = rng(5);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
    for (let i = 0; i < 1000; i++) {
      const input: BatterySnapshotInput = {
        device_id: "d",
        powertrain: pick(["BEV", "PHEV", "HEV", "ICE", null, "x"]),
        battery_kwh: pick([null, 0, 40, 77, 100, -5]),
        asset_class: pick(["passenger_car", "light_commercial", "heavy_truck", "other", null]),
        latest:
          r() < 0.1
            ? null
            : {
                ts: new Date(now.getTime() - r() * 5 * 86_400_000),
                soc_pct: pick([null, r() * 120 - 10]),
                battery_voltage: pick([null, 12.4, 400]),
                charging_status: pick([null, "charging", "not_charging", ""]),
                charging_power_kw: pick([null, r() * 150]),
                weather_temp: pick([null, r() * 70 - 40]),
              },
        oem_soh: r() < 0.5 ? null : { pct: r() * 110, reported_at: now },
        last_battery_alert: null,
      };
      const a = buildBatterySnapshot(input, { now });
      expect(buildBatterySnapshot(structuredClone(input), { now })).toEqual(a);
      const s = a.snapshot;
      if (s.soc_current_pct !== null) expect(s.soc_current_pct).toBeGreaterThanOrEqual(0);
      if (s.soc_current_pct !== null) expect(s.soc_current_pct).toBeLessThanOrEqual(100);
      if (s.estimated_range_km !== null) {
        expect(s.estimated_range_km).toBeGreaterThanOrEqual(0);
        expect(s.estimated_range_km).toBeLessThan(1500);
      }
      for (const k of a.data_quality.not_applicable_fields) expect(a.data_quality.missing_fields).toContain(k);
      for (const [k, v] of Object.entries(s)) {
        if (v === null) {
          expect(a.data_quality.missing_fields, k).toContain(k);
        }
      }
    }
  });
});
