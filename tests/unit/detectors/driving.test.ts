import { describe, expect, it } from "vitest";
import { detectDriving } from "@/lib/detectors/driving";
import type { TelemetryRecord } from "@/lib/detectors/types";
import { ctx, normalBevDay, normalIceDay, rec, t, T0 } from "./fixtures";

/** Speeds at the given offsets (seconds) from 14:00:00. */
const speeds = (pairs: [number, number | null][]): TelemetryRecord[] => pairs.map(([s, v]) => rec({ ts: new Date(T0 + 14 * 3_600_000 + s * 1000), speedKmh: v, ignition: 1 }));
const run = (pairs: [number, number | null][]) => detectDriving({ device: ctx(), records: speeds(pairs) });
const overspeed = (pairs: [number, number | null][]) => run(pairs).filter((d) => d.dedupeKey === "driving:overspeed");

describe("detectDriving: sustained overspeed", () => {
  it("needs 60 s above 130 km/h (59 s is not enough, 60 s is)", () => {
    expect(
      overspeed([
        [0, 100],
        [10, 131],
        [69, 131],
        [80, 100],
      ]),
    ).toEqual([]);
    const [d] = overspeed([
      [0, 100],
      [10, 131],
      [70, 131],
      [80, 100],
    ]);
    expect(d?.severity).toBe("WARNING");
    expect(d?.observedAt).toEqual(new Date(T0 + 14 * 3_600_000 + 70_000));
    expect(d?.technicalData).toMatchObject({
      threshold_kmh: 130,
      max_speed_kmh: 131,
      duration_s: 60,
      readings: 2,
      start_ts: "2026-11-17T14:00:10.000Z",
      end_ts: "2026-11-17T14:01:10.000Z",
    });
    expect(d?.prediction).toBe(
      "Speed stayed above 130 km/h for 60 s (up to 131 km/h), over Finland's 120 km/h motorway limit with tolerance: higher crash risk, fuel or energy use and fines; remind the driver of the speed policy.",
    );
  });

  it("130 km/h itself is not above the threshold", () => {
    expect(
      overspeed([
        [0, 130],
        [120, 130],
        [240, 130],
      ]),
    ).toEqual([]);
  });

  it("CRITICAL when above 160 km/h for 60 s; a shorter 160+ burst inside a 130+ run stays WARNING", () => {
    expect(
      overspeed([
        [0, 161],
        [60, 165],
      ])[0]?.severity,
    ).toBe("CRITICAL");
    const mixed = overspeed([
      [0, 135],
      [60, 140],
      [120, 161],
      [179, 162],
      [240, 138],
    ]);
    expect(mixed.map((d) => d.severity)).toEqual(["WARNING"]);
    expect(mixed[0]?.technicalData).toMatchObject({ duration_s: 240, max_speed_kmh: 162 });
  });

  it("a gap of more than 300 s between readings breaks the run; a missing speed does not", () => {
    expect(
      overspeed([
        [0, 140],
        [301, 140],
      ]),
    ).toEqual([]);
    expect(
      overspeed([
        [0, 140],
        [300, 140],
      ]),
    ).toHaveLength(1);
    expect(
      overspeed([
        [0, 140],
        [30, null],
        [60, 140],
      ]),
    ).toHaveLength(1);
    expect(
      overspeed([
        [0, 140],
        [30, 120],
        [60, 140],
      ]),
    ).toEqual([]);
  });

  it("reports the longest run and counts all sustained runs", () => {
    const [d] = overspeed([
      [0, 140],
      [60, 140],
      [120, 100],
      [200, 135],
      [400, 136],
      [420, 100],
    ]);
    expect(d?.technicalData).toMatchObject({ duration_s: 200, runs_over_warning_threshold: 2, total_sustained_s: 260 });
  });

  it("is order-independent (sorts by device time)", () => {
    const pairs: [number, number][] = [
      [0, 100],
      [10, 131],
      [70, 131],
      [80, 100],
    ];
    const records = speeds(pairs);
    expect(detectDriving({ device: ctx(), records: [...records].reverse() })).toEqual(detectDriving({ device: ctx(), records }));
  });
});

describe("detectDriving: implausible speed", () => {
  it("a single reading above 200 km/h is INFO implausible_speed, not overspeed", () => {
    const drafts = run([
      [0, 90],
      [30, 250],
      [60, 92],
    ]);
    expect(drafts.map((d) => [d.dedupeKey, d.severity])).toEqual([["driving:implausible_speed", "INFO"]]);
    expect(drafts[0]?.technicalData).toMatchObject({ speed_kmh: 250, threshold_kmh: 200, isolated: true, previous_speed_kmh: 90, next_speed_kmh: 92 });
    expect(drafts[0]?.confidence).toBe(0.7);
    expect(run([[0, 200]])).toEqual([]);
  });

  it("an implausible reading neither extends nor breaks an overspeed run", () => {
    const drafts = run([
      [0, 170],
      [30, 260],
      [60, 170],
    ]);
    expect(drafts.map((d) => [d.dedupeKey, d.severity])).toEqual([
      ["driving:overspeed", "CRITICAL"],
      ["driving:implausible_speed", "INFO"],
    ]);
    expect(drafts[1]?.technicalData.isolated).toBe(false);
  });
});

describe("detectDriving: normal data", () => {
  it("is quiet on commuting days with motorway stretches up to 119 km/h", () => {
    expect(detectDriving(normalBevDay())).toEqual([]);
    expect(detectDriving(normalIceDay())).toEqual([]);
    expect(detectDriving({ device: ctx(), records: [rec({ ts: t("10:00") })] })).toEqual([]);
  });
});
