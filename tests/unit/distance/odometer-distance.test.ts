import { describe, expect, it } from "vitest";
import { JUMP_MAX_AVG_KMH, ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { GPS_EXCESS_FRACTION, GPS_MAX_PLAUSIBLE_KMH, odometerIncreases, periodDistance, walkOdometerLevels, type OdometerRun } from "@/lib/distance/odometer-distance";
import { DISTANCE_METHODS } from "@/lib/vocabulary/distance";

const T0 = Date.parse("2026-03-02T08:00:00Z");
const run = (firstKm: number, maxKm: number, hoursIn: number, over: Partial<OdometerRun> = {}): OdometerRun => ({
  firstAt: new Date(T0 + hoursIn * 3_600_000),
  firstKm,
  maxKm,
  lastAt: new Date(T0 + (hoursIn + 1) * 3_600_000),
  jumpKm: 0,
  readings: 10,
  ...over,
});
const noGps = { km: 0, positions: 0, outliers: 0, fastSteps: 0 };

describe("walkOdometerLevels: the one drop rule", () => {
  it("a persisting drop is a rollback: the step across is not counted, increases go on from the new baseline", () => {
    const w = walkOdometerLevels([
      { km: 100_000, jumpKm: 0 },
      { km: 100_500, jumpKm: 0 },
      { km: 40_000, jumpKm: 0 },
      { km: 40_500, jumpKm: 0 },
    ]);
    expect(w.rollbacks).toEqual([{ index: 2, fromKm: 100_500, toKm: 40_000 }]);
    expect(w.steps.reduce((s, x) => s + x.km, 0)).toBe(1_000);
  });

  it("a drop a later point contradicts is a data error: set aside, only the climb above the level counts", () => {
    const w = walkOdometerLevels([
      { km: 100, jumpKm: 0 },
      { km: 200, jumpKm: 0 },
      { km: 50, jumpKm: 0 },
      { km: 210, jumpKm: 0 },
    ]);
    expect(w.contradictedDrops).toBe(1);
    expect(w.rollbacks).toEqual([]);
    expect(w.steps.reduce((s, x) => s + x.km, 0)).toBe(110);
  });

  it("within the tolerance below the level is no drop and no distance; an implausible jump moves the level without counting", () => {
    const w = walkOdometerLevels([
      { km: 100, jumpKm: 0 },
      { km: 100 - ROLLBACK_TOLERANCE_KM, jumpKm: 0 },
      { km: 150, jumpKm: 0 },
      { km: 20_150, jumpKm: 20_000 },
      { km: 20_180, jumpKm: 0 },
    ]);
    expect(w.rollbacks).toEqual([]);
    expect(w.contradictedDrops).toBe(0);
    expect(w.steps.reduce((s, x) => s + x.km, 0)).toBe(50 + ROLLBACK_TOLERANCE_KM + 30);
  });
});

describe("odometerIncreases over the period's runs", () => {
  it("a rollback mid-period does not erase distance; the rollback is reported with its readings", () => {
    const o = odometerIncreases({ runs: [run(100_000, 100_500, 0), run(40_000, 40_500, 20)], spikes: 1 });
    expect(o?.km).toBe(1_000);
    expect(o?.rollbacks).toEqual([{ at: new Date(T0 + 20 * 3_600_000).toISOString(), from_km: 100_500, to_km: 40_000 }]);
    expect(o?.spikes).toBe(1);
  });

  it("two resets in one period: each continues from its own baseline", () => {
    const o = odometerIncreases({ runs: [run(100_000, 100_200, 0), run(50_000, 50_300, 10), run(0, 400, 20)], spikes: 0 });
    expect(o?.km).toBe(900);
    expect(o?.rollbacks).toHaveLength(2);
  });

  it("a run that starts after an implausible jump does not count the jump", () => {
    const o = odometerIncreases({ runs: [run(1_000, 1_100, 0), run(21_100, 21_150, 0.1, { jumpKm: 20_000 })], spikes: 0 });
    expect(o).toMatchObject({ km: 150, jumps: 1, jump_km: 20_000 });
  });

  it("fewer than two plausible readings say nothing about the distance", () => {
    expect(odometerIncreases({ runs: [run(5, 5, 0, { readings: 1 })], spikes: 2 })).toBeNull();
    expect(odometerIncreases({ runs: [], spikes: 0 })).toBeNull();
  });
});

describe("periodDistance: the method, named", () => {
  it("a clean odometer is 'odometer'; readings set aside make it 'odometer_plausible_increases' and the note says what", () => {
    expect(periodDistance({ odometer: { runs: [run(10, 210, 0)], spikes: 0 }, gps: noGps })).toMatchObject({ km: 200, method: "odometer" });
    const d = periodDistance({ odometer: { runs: [run(100_000, 100_500, 0), run(40_000, 40_500, 20)], spikes: 0 }, gps: noGps });
    expect(d.method).toBe("odometer_plausible_increases");
    expect(d.note).toMatch(/1 rollback\(s\) or reset\(s\) \(100,500 → 40,000 km at /);
  });

  it("the positions' great-circle distance (a lower bound) above the odometer's increases by more than the margin: GPS, and why", () => {
    const odo = { runs: [run(70_000, 70_005, 0)], spikes: 0 };
    const d = periodDistance({ odometer: odo, gps: { km: 150, positions: 151, outliers: 0, fastSteps: 0 } });
    expect(d).toMatchObject({ km: 150, method: "gps_great_circle" });
    expect(d.note).toMatch(/did not record the whole period/);
    // Within the margin the odometer stands (great-circle understates road distance; GPS noise adds a little).
    const within = periodDistance({ odometer: { runs: [run(0, 100, 0)], spikes: 0 }, gps: { km: 100 * (1 + GPS_EXCESS_FRACTION), positions: 50, outliers: 0, fastSteps: 0 } });
    expect(within.method).toBe("odometer");
  });

  it("no odometer: GPS when positions moved, else 'none' at 0 km", () => {
    expect(periodDistance({ odometer: { runs: [], spikes: 0 }, gps: { km: 12.5, positions: 3, outliers: 1, fastSteps: 0 } })).toMatchObject({
      km: 12.5,
      method: "gps_great_circle",
    });
    expect(periodDistance({ odometer: { runs: [], spikes: 0 }, gps: noGps })).toMatchObject({ km: 0, method: "none" });
  });

  it("the GPS speed bound is the odometer detector's, and every method is in the vocabulary", () => {
    expect(GPS_MAX_PLAUSIBLE_KMH).toBe(JUMP_MAX_AVG_KMH);
    expect([...DISTANCE_METHODS]).toEqual(["odometer", "odometer_plausible_increases", "gps_great_circle", "none"]);
  });
});

describe("periodDistance without the plausible GPS sum (the loader found even all positions within the margin)", () => {
  it("uses the odometer and reports no GPS figure rather than an unbounded one", () => {
    expect(periodDistance({ odometer: { runs: [run(10, 210, 0)], spikes: 0 }, gps: null })).toMatchObject({ km: 200, method: "odometer", gps_km: null });
  });
});

describe("the series' first point alone above everything after it", () => {
  it("is an unconfirmed start (a spike the detector cannot judge), not a rollback to add back", () => {
    const w = walkOdometerLevels([
      { km: 46_915, jumpKm: 0 },
      { km: 62, jumpKm: 0 },
      { km: 77, jumpKm: 0 },
    ]);
    expect(w.rollbacks).toEqual([]);
    expect(w.unconfirmedStart).toBe(1);
    expect(w.kept).toEqual([1, 2]);
    expect(w.steps.reduce((s, x) => s + x.km, 0)).toBe(15);
    // Held by two points, the same drop is a rollback.
    const r = walkOdometerLevels([
      { km: 46_900, jumpKm: 0 },
      { km: 46_915, jumpKm: 0 },
      { km: 62, jumpKm: 0 },
      { km: 77, jumpKm: 0 },
    ]);
    expect(r.rollbacks).toHaveLength(1);
    expect(r.unconfirmedStart).toBe(0);
  });
});
