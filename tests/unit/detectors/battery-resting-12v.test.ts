import { describe, expect, it } from "vitest";
import { detectBattery } from "@/lib/detectors/battery";
import { ctx, rec, t } from "./fixtures";

/**
 * Issue 8: the battery detector's low-12 V rule reads the one resting-12 V rule of
 * lib/vocabulary/readings.ts (the one vehicle health's SQL uses): not while charging, only after the
 * settle time, lead-acid only.
 */
const low12v = (records: ReturnType<typeof rec>[], device = ctx({ powertrain: "BEV" })) =>
  detectBattery({ device, records })
    .filter((d) => d.dedupeKey === "battery:low_12v")
    .map((d) => d.severity);

describe("detectBattery: the resting 12 V reading", () => {
  it("a low reading while charging is not a resting reading (no alert)", () => {
    expect(low12v([rec({ ts: t("06:00"), batteryVoltage: 11.5, speedKmh: 0, ignition: 0, chargingStatus: "Charging", chargingPowerKw: 11 })])).toEqual([]);
  });

  it("a low reading within the settle time after driving is not judged; after it, it is", () => {
    const drove = rec({ ts: t("05:00"), batteryVoltage: 14.1, speedKmh: 50, ignition: 1 });
    expect(low12v([drove, rec({ ts: t("06:00"), batteryVoltage: 11.5, speedKmh: 0, ignition: 0 })])).toEqual([]);
    expect(low12v([drove, rec({ ts: t("11:30"), batteryVoltage: 11.5, speedKmh: 0, ignition: 0 })])).toEqual(["WARNING"]);
  });

  it("a lithium auxiliary pack is not judged on the lead-acid thresholds", () => {
    expect(low12v([rec({ ts: t("06:00"), batteryVoltage: 11.5, speedKmh: 0, ignition: 0, rawData: { lv_battery_chemistry: "lithium-ion" } })])).toEqual([]);
  });

  it("review M2: the settle clock starts at the stored history's last awake reading (device context `lastAwakeAt`), not only at a moving previous state", () => {
    const previous = { ts: t("05:00"), odometerKm: null, socPct: 70, sohPct: null, speedKmh: 0 };
    const parked = (hhmm: string) => [rec({ ts: t(hhmm), batteryVoltage: 11.5, speedKmh: 0, ignition: 0 })];
    // Charged until 05:00 (the stored state itself, parked): 06:00 is not settled, 11:30 is.
    const charged = ctx({ powertrain: "BEV", previous, lastAwakeAt: t("05:00") });
    expect(low12v(parked("06:00"), charged)).toEqual([]);
    expect(low12v(parked("11:30"), charged)).toEqual(["WARNING"]);
    // No awake reading within 6 h of the stored state: settled.
    expect(low12v(parked("06:00"), ctx({ powertrain: "BEV", previous, lastAwakeAt: null }))).toEqual(["WARNING"]);
  });
});
