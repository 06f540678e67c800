import { describe, expect, it } from "vitest";
import { runDetectors } from "@/lib/detectors";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { ALERT_AGENTS, ALERT_KEYS, agentOfKey, alertLevelOf, diagnosticsKey, isAlertKey, SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { DRIVING_EVENT_KINDS, HARSH_EVENT_KINDS, isDrivingEventKind, isHarshKind } from "@/lib/vocabulary/driving-events";
import { isNewerMasterData, mergeMasterDataAt, mergeMasterValue } from "@/lib/vocabulary/master-data";
import { countsAsIce, hasTractionBattery, inferPowertrain, isPlugIn, mergePowertrain, normalisePowertrain, POWERTRAINS, type PowertrainState } from "@/lib/vocabulary/powertrain";
import { ctx, MIN, rec, t } from "../detectors/fixtures";

describe("powertrain vocabulary", () => {
  it("normalises case and spaces, and reads anything else as unknown", () => {
    expect(POWERTRAINS.map((p) => normalisePowertrain(` ${p.toLowerCase()} `))).toEqual(["BEV", "PHEV", "HEV", "ICE"]);
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- String(x) only names the case in a failure message
    for (const x of ["EV", "diesel", "", "B E V", null, undefined, 3, {}]) expect(normalisePowertrain(x), String(x)).toBeNull();
  });

  it("classifies: plug-ins are BEV and PHEV (ev_count), ICE and HEV count as ICE, only ICE lacks a traction battery", () => {
    expect(POWERTRAINS.filter((p) => isPlugIn(p))).toEqual(["BEV", "PHEV"]);
    expect(POWERTRAINS.filter((p) => countsAsIce(p))).toEqual(["HEV", "ICE"]);
    expect(POWERTRAINS.map((p) => hasTractionBattery(p))).toEqual([true, true, true, false]);
    expect([isPlugIn(null), countsAsIce(null), hasTractionBattery(null)]).toEqual([false, false, null]);
  });

  it("infers from the signals as CONTRACT says: SOC only → BEV, both → PHEV, fuel only → ICE, neither → unknown", () => {
    const s = (socPct: number | null, fuelLevelPct: number | null) => ({ socPct, fuelLevelPct });
    expect(inferPowertrain([s(50, null), s(48, null)])).toBe("BEV");
    expect(inferPowertrain([s(50, null), s(null, 30)])).toBe("PHEV");
    expect(inferPowertrain([s(null, 30)])).toBe("ICE");
    expect(inferPowertrain([s(null, null)])).toBeNull();
    expect(inferPowertrain([])).toBeNull();
    // A value that is not a finite number reports nothing.
    expect(inferPowertrain([s(Number.NaN, null), s(null, Number.POSITIVE_INFINITY)])).toBeNull();
  });

  describe("master-data precedence", () => {
    const at = (h: number) => new Date(Date.UTC(2026, 10, 17, h));
    const state = (powertrain: PowertrainState["powertrain"], source: PowertrainState["source"], masterDataAt: Date | null): PowertrainState => ({
      powertrain,
      source,
      masterDataAt,
    });

    it("a declaration beats an inference, whatever their ages", () => {
      expect(mergePowertrain(state("BEV", "inferred", null), state("PHEV", "master_data", at(1)))).toEqual({ powertrain: "PHEV", source: "master_data" });
      expect(mergePowertrain(state("PHEV", "master_data", at(9)), state("BEV", "inferred", null))).toEqual({ powertrain: "PHEV", source: "master_data" });
    });

    it("a declaration at least as new replaces an older one; an older one does not", () => {
      expect(mergePowertrain(state("ICE", "master_data", at(5)), state("HEV", "master_data", at(5)))).toEqual({ powertrain: "HEV", source: "master_data" });
      expect(mergePowertrain(state("ICE", "master_data", at(5)), state("HEV", "master_data", at(4)))).toEqual({ powertrain: "ICE", source: "master_data" });
    });

    it("between inferences the newest batch's wins, and no inference keeps what is stored; a new device takes the batch's", () => {
      expect(mergePowertrain(state("BEV", "inferred", null), state("PHEV", "inferred", null))).toEqual({ powertrain: "PHEV", source: "inferred" });
      expect(mergePowertrain(state("BEV", "inferred", null), state(null, null, null))).toEqual({ powertrain: "BEV", source: "inferred" });
      expect(mergePowertrain(null, state(null, null, null))).toEqual({ powertrain: null, source: null });
      expect(mergePowertrain(null, state("ICE", "inferred", null))).toEqual({ powertrain: "ICE", source: "inferred" });
    });

    it("other fields: newer (or equally new) master data overwrite, older only fill gaps; master_data_at is the newest", () => {
      expect(isNewerMasterData(at(5), at(5))).toBe(true);
      expect(isNewerMasterData(at(4), at(5))).toBe(false);
      expect(isNewerMasterData(at(4), null)).toBe(true);
      expect(isNewerMasterData(null, null)).toBe(false);
      expect(mergeMasterValue(77, 64, true)).toBe(64);
      expect(mergeMasterValue(77, null, true)).toBe(77);
      expect(mergeMasterValue(77, 64, false)).toBe(77);
      expect(mergeMasterValue(null, 64, false)).toBe(64);
      expect(mergeMasterDataAt(at(4), at(5))).toEqual(at(5));
      expect(mergeMasterDataAt(at(5), null)).toEqual(at(5));
      expect(mergeMasterDataAt(null, null)).toBeNull();
    });
  });
});

describe("alert vocabulary", () => {
  it("ranks severities and maps them to the fleet's alert levels", () => {
    expect([...SEVERITIES].sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a])).toEqual(["CRITICAL", "WARNING", "INFO"]);
    expect(SEVERITIES.map(alertLevelOf)).toEqual(["critical", "warning", "info"]);
    expect(alertLevelOf(null)).toBe("none");
  });

  it("builds and recognises keys, each with its agent", () => {
    expect(diagnosticsKey("P0420")).toBe("diagnostics:P0420");
    expect(isAlertKey("diagnostics:P0A80")).toBe(true);
    for (const bad of ["driving:harsh_braking", "diagnostics:p0420", "diagnostics:P04", "battery:low", ""]) expect(isAlertKey(bad), bad).toBe(false);
    for (const key of Object.values(ALERT_KEYS)) expect(ALERT_AGENTS).toContain(agentOfKey(key));
    expect(agentOfKey("weather:cold")).toBeNull();
  });

  /** One device per rule, each built to trip exactly that rule. */
  function scenarios(): { devices: DeviceContext[]; recordsByDevice: Map<string, TelemetryRecord[]> } {
    const cases: [string, Partial<DeviceContext>, Partial<TelemetryRecord>[]][] = [
      ["low-soc", {}, [{ ts: t("08:00"), socPct: 4, speedKmh: 0, chargingStatus: "not_charging" }]],
      ["low-12v", { powertrain: "ICE" }, [{ ts: t("08:00"), batteryVoltage: 11.5, speedKmh: 0, ignition: 0 }]],
      ["soh-drop", { previous: { ts: t("06:00"), odometerKm: null, socPct: null, sohPct: 90 } }, [{ ts: t("08:00"), sohPct: 86 }]],
      ["soh-low", {}, [{ ts: t("08:00"), sohPct: 65 }]],
      [
        "overspeed",
        {},
        [
          { ts: t("08:00"), speedKmh: 140 },
          { ts: t("08:01"), speedKmh: 145 },
        ],
      ],
      [
        "implausible-speed",
        {},
        [
          { ts: t("08:00"), speedKmh: 60 },
          { ts: t("08:05"), speedKmh: 260 },
          { ts: t("08:10"), speedKmh: 60 },
        ],
      ],
      [
        "rollback",
        {},
        [
          { ts: t("08:00"), odometerKm: 10_000 },
          { ts: t("09:00"), odometerKm: 9_000 },
        ],
      ],
      [
        "jump",
        {},
        [
          { ts: t("08:00"), odometerKm: 10_000 },
          { ts: t("08:01"), odometerKm: 10_600 },
        ],
      ],
      [
        "odometer-outlier",
        {},
        [
          { ts: t("08:00"), odometerKm: 10_000 },
          { ts: t("09:00"), odometerKm: 9_000 },
          { ts: t("10:00"), odometerKm: 10_010 },
        ],
      ],
      ["implausible-power", {}, [{ ts: t("08:00"), speedKmh: 0, chargingStatus: "charging", chargingPowerKw: 900, socPct: 40 }]],
      ["high-c-rate", { batteryKwh: 40 }, [{ ts: t("08:00"), speedKmh: 0, chargingStatus: "charging", chargingPowerKw: 200, socPct: 40 }]],
      ["stalled", {}, [0, 10, 20].map((m) => ({ ts: new Date(t("08:00").getTime() + m * MIN), speedKmh: 0, chargingStatus: "charging", chargingPowerKw: 0, socPct: 50 }))],
      ["dtc", { powertrain: "ICE" }, [{ ts: t("08:00"), dtcCodes: ["P0420"] }]],
    ];
    const devices = cases.map(([deviceId, c]) => ctx({ deviceId, ...c }));
    const recordsByDevice = new Map(cases.map(([deviceId, , records]) => [deviceId, records.map((r) => rec({ deviceId, ts: r.ts as Date, ...r }))]));
    return { devices, recordsByDevice };
  }

  it("is exactly the set of keys the detectors emit", () => {
    const drafts = runDetectors(scenarios());
    const emitted = new Set(drafts.map((d) => d.dedupeKey));
    expect(emitted).toEqual(new Set([...Object.values(ALERT_KEYS), diagnosticsKey("P0420")]));
    for (const d of drafts) expect(agentOfKey(d.dedupeKey)).toBe(d.agent);
  });
});

describe("driving-event vocabulary", () => {
  it("knows the CONTRACT's four kinds, three of them harsh (overspeed is counted from alerts)", () => {
    expect(DRIVING_EVENT_KINDS).toEqual(["harsh_braking", "harsh_acceleration", "harsh_cornering", "overspeed"]);
    expect(DRIVING_EVENT_KINDS.filter(isHarshKind)).toEqual([...HARSH_EVENT_KINDS]);
    expect(isHarshKind("overspeed")).toBe(false);
    expect(isDrivingEventKind("HARSH_BRAKING")).toBe(false); // kinds are exact: anything else is an unknown kind
    expect(isDrivingEventKind("lane_change")).toBe(false);
  });
});
