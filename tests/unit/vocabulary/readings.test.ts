import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { judgeSohReadings, restingTwelveVolt, SOH_JUMP_PP, type SohReading, type TwelveVoltSample } from "@/lib/vocabulary/readings";

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);
const series = (...pcts: number[]): SohReading[] => pcts.map((pct, i) => ({ pct, at: day(i) }));

describe("judgeSohReadings (issue 8: SoH plausibility)", () => {
  it("flags 0 and out-of-range values and keeps the previous accepted reading", () => {
    const j = judgeSohReadings(series(91, 90, 0));
    expect(j.accepted).toEqual({ pct: 90, at: day(1) });
    expect(j.flagged).toEqual([{ pct: 0, at: day(2), reason: "implausible_value" }]);
    expect(judgeSohReadings(series(0)).accepted).toBeNull();
    expect(judgeSohReadings(series(90, 101, -3)).flagged.map((f) => f.reason)).toEqual(["implausible_value", "implausible_value"]);
  });

  it("an unconfirmed latest jump is not used yet; a confirmed one is", () => {
    const pending = judgeSohReadings(series(90, 90, 50));
    expect(pending.accepted?.pct).toBe(90);
    expect(pending.flagged).toEqual([{ pct: 50, at: day(2), reason: "unconfirmed_jump" }]);
    const confirmed = judgeSohReadings(series(90, 90, 50, 51));
    expect(confirmed.accepted).toEqual({ pct: 51, at: day(3) });
    expect(confirmed.flagged).toEqual([]);
  });

  it("a one-reading spike that the next reading contradicts is flagged", () => {
    const j = judgeSohReadings(series(90, 40, 90));
    expect(j.accepted).toEqual({ pct: 90, at: day(2) });
    expect(j.flagged.map((f) => f.pct)).toEqual([40]);
  });

  it("BMS noise of ±2 pp is never flagged (the threshold sits well above it)", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 1, maxLength: 6 }), (noise) => {
        const j = judgeSohReadings(series(...noise.map((n) => 85 + n)));
        expect(j.flagged).toEqual([]);
        expect(j.accepted?.pct).toBeCloseTo(85 + noise[noise.length - 1]!, 10);
      }),
    );
    expect(SOH_JUMP_PP).toBeGreaterThanOrEqual(8);
  });

  it("reads its readings in time order whatever the input order", () => {
    expect(judgeSohReadings(series(90, 90, 0).reverse()).accepted?.pct).toBe(90);
  });
});

describe("restingTwelveVolt (issue 8: the resting 12 V rule)", () => {
  const s = (over: Partial<TwelveVoltSample>): TwelveVoltSample => ({
    voltage: 12.5,
    speedKmh: 0,
    ignition: 0,
    charging: false,
    voltageKind: null,
    chemistry: null,
    ...over,
  });
  it("a parked, settled, not-charging lead-acid reading is resting", () => {
    expect(restingTwelveVolt(s({}), true)).toEqual({ v: 12.5, chemistry: "lead_acid" });
  });
  it("charging, ignition on, moving, or not settled is not resting", () => {
    expect(restingTwelveVolt(s({ voltage: 13.4, charging: true }), true)).toBeNull();
    expect(restingTwelveVolt(s({ voltage: 11.5, charging: true }), true)).toBeNull();
    expect(restingTwelveVolt(s({ ignition: 1 }), true)).toBeNull();
    expect(restingTwelveVolt(s({ speedKmh: 20, ignition: null }), true)).toBeNull();
    expect(restingTwelveVolt(s({}), false)).toBeNull();
  });
  it("13.0–14.5 V at rest is a charge voltage (DC-DC converter), not a rest voltage", () => {
    expect(restingTwelveVolt(s({ voltage: 13.4 }), true)).toBeNull();
  });
  it("16 V lithium packs and lithium chemistry are recognised, not judged on the lead-acid curve", () => {
    expect(restingTwelveVolt(s({ voltage: 15.6 }), true)).toEqual({ v: 15.6, chemistry: "lithium" });
    expect(restingTwelveVolt(s({ voltage: 13.2, chemistry: "LiFePO4" }), true)).toEqual({ v: 13.2, chemistry: "lithium" });
    expect(restingTwelveVolt(s({ voltage: 12.2, chemistry: "Li-ion" }), true)?.chemistry).toBe("lithium");
  });
  it("review L3: an AGM battery on a charger or maintainer (14.4–14.8 V) without a chemistry word is a charge voltage, not a lithium pack", () => {
    for (const voltage of [14.4, 14.5, 14.6, 14.7, 14.8]) expect(restingTwelveVolt(s({ voltage }), true), `${voltage} V`).toBeNull();
    expect(restingTwelveVolt(s({ voltage: 14.9 }), true)).toEqual({ v: 14.9, chemistry: "lithium" });
    // A chemistry word still names the pack whatever the voltage.
    expect(restingTwelveVolt(s({ voltage: 14.6, chemistry: "lithium-ion" }), true)).toEqual({ v: 14.6, chemistry: "lithium" });
    expect(restingTwelveVolt(s({ voltage: 14.6, chemistry: "AGM" }), true)).toBeNull();
  });
  it("a traction-pack voltage is never a 12 V reading", () => {
    expect(restingTwelveVolt(s({ voltageKind: "HV pack" }), true)).toBeNull();
  });
});
