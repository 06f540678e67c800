import { describe, expect, it } from "vitest";
import { detectCharging } from "@/lib/detectors/charging";
import { ctx, normalBevDay, normalIceDay, rec, t } from "./fixtures";

const charging = (kw: number | null, hhmm = "18:00", extra: object = {}) =>
  rec({ ts: t(hhmm), chargingStatus: "charging", chargingPowerKw: kw, speedKmh: 0, ignition: 0, socPct: 50, ...extra });
const keys = (drafts: ReturnType<typeof detectCharging>) => drafts.map((d) => d.dedupeKey);

describe("detectCharging: implausible power", () => {
  it("WARNING above 350 kW (350 itself is plausible)", () => {
    expect(keys(detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(350)] }))).toEqual([]);
    const [d] = detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(351)] });
    expect(d?.dedupeKey).toBe("charging:implausible_power");
    expect(d?.severity).toBe("WARNING");
    expect(d?.technicalData).toMatchObject({ power_kw: 351, threshold_kw: 350, possibly_watts: false });
  });

  it("hints at watts reported as kW", () => {
    const [d] = detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(11_000)] });
    expect(d?.technicalData.possibly_watts).toBe(true);
    expect(d?.prediction).toContain("watts reported as kilowatts (11 kW)");
  });

  it("counts power > 0 while standing as charging, but not power while driving", () => {
    expect(keys(detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(400, "18:00", { chargingStatus: null })] }))).toEqual(["charging:implausible_power"]);
    expect(keys(detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(400, "18:00", { speedKmh: 80 })] }))).toEqual([]);
  });

  it("does not cap heavy vehicles (MCS) by the car threshold", () => {
    expect(detectCharging({ device: ctx({ batteryKwh: 540 }), records: [charging(1_000)] })).toEqual([]);
  });
});

describe("detectCharging: charge rate", () => {
  it("WARNING above 4C for a known battery size", () => {
    const device = ctx({ batteryKwh: 60 });
    expect(detectCharging({ device, records: [charging(240)] })).toEqual([]);
    const [d] = detectCharging({ device, records: [charging(241)] });
    expect(d?.dedupeKey).toBe("charging:high_c_rate");
    expect(d?.technicalData).toMatchObject({ c_rate: 4.02, threshold_c_rate: 4, threshold_kw: 240, battery_kwh: 60 });
    expect(detectCharging({ device: ctx({ batteryKwh: null }), records: [charging(241)] })).toEqual([]);
  });

  it("a reading already reported as implausible is not reported again as a C-rate", () => {
    expect(keys(detectCharging({ device: ctx({ batteryKwh: 60 }), records: [charging(400)] }))).toEqual(["charging:implausible_power"]);
  });
});

describe("detectCharging: stalled charging", () => {
  it("INFO after 3 consecutive 'charging' readings at ≤ 0.5 kW over ≥ 15 min", () => {
    const [d] = detectCharging({ device: ctx(), records: [charging(0.2, "18:00"), charging(0, "18:05"), charging(0.5, "18:15")] });
    expect(d?.dedupeKey).toBe("charging:stalled");
    expect(d?.severity).toBe("INFO");
    expect(d?.observedAt).toEqual(t("18:15"));
    expect(d?.technicalData).toMatchObject({ readings: 3, duration_s: 900, max_power_kw: 0.5 });
    expect(d?.confidence).toBe(0.6);
  });

  it("boundaries: 14:59 min, 2 readings, 0.51 kW, a break in the run, a full battery", () => {
    const quiet = (records: ReturnType<typeof charging>[]) => expect(detectCharging({ device: ctx(), records })).toEqual([]);
    quiet([charging(0, "18:00"), charging(0, "18:05"), charging(0, "18:14:59")]);
    quiet([charging(0, "18:00"), charging(0, "18:30")]);
    quiet([charging(0, "18:00"), charging(0.51, "18:10"), charging(0, "18:20")]);
    quiet([charging(0, "18:00"), charging(7, "18:10"), charging(0, "18:20"), charging(0, "18:30")]);
    quiet([charging(0, "18:00"), charging(0, "18:10", { chargingStatus: "complete" }), charging(0, "18:20"), charging(0, "18:30")]);
    quiet([charging(0, "18:00", { socPct: 99 }), charging(0, "18:10", { socPct: 99 }), charging(0, "18:20", { socPct: 99 })]);
    quiet([charging(null, "18:00"), charging(null, "18:10"), charging(null, "18:20")]); // unknown power
  });

  it("'not_charging' and 'complete' at 0 kW are normal", () => {
    const records = ["18:00", "18:10", "18:20", "18:30"].map((h) => charging(0, h, { chargingStatus: "not_charging" }));
    expect(detectCharging({ device: ctx(), records })).toEqual([]);
  });
});

describe("detectCharging: normal data", () => {
  it("is quiet on a normal day with 11 kW home charging", () => {
    expect(detectCharging(normalBevDay())).toEqual([]);
    expect(detectCharging(normalIceDay())).toEqual([]);
  });
});
