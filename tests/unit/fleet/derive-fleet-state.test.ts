import { describe, expect, it } from "vitest";
import { alertLevelFromRank, chargingStatusMemo, deriveIgnition, deriveStatus, OFFLINE_AFTER_MS } from "@/lib/fleet/derive-fleet-state";
import { isChargingStatus } from "@/lib/vocabulary/charging";

const now = new Date("2026-11-21T12:00:00Z");
const base = { ts: new Date(now.getTime() - 60_000), speedKmh: 0, ignition: 0, chargingStatus: null, chargingPowerKw: null };

describe("deriveStatus", () => {
  it("is offline when the latest state is older than 24 h, whatever it says", () => {
    expect(deriveStatus({ ...base, speedKmh: 90, ts: new Date(now.getTime() - OFFLINE_AFTER_MS - 1) }, now)).toBe("offline");
    expect(deriveStatus({ ...base, speedKmh: 90, ts: new Date(now.getTime() - OFFLINE_AFTER_MS) }, now)).toBe("driving");
  });
  it("driving at 1 km/h and above, even if a charging status is stale", () => {
    expect(deriveStatus({ ...base, speedKmh: 1 }, now)).toBe("driving");
    expect(deriveStatus({ ...base, speedKmh: 50, chargingStatus: "charging" }, now)).toBe("driving");
    expect(deriveStatus({ ...base, speedKmh: 0.5, ignition: 0 }, now)).toBe("parked");
  });
  it("charging when standing with a charging status or a positive charging power", () => {
    expect(deriveStatus({ ...base, chargingStatus: "CHARGING" }, now)).toBe("charging");
    expect(deriveStatus({ ...base, chargingStatus: "dc_charging" }, now)).toBe("charging");
    expect(deriveStatus({ ...base, chargingPowerKw: 11 }, now)).toBe("charging");
    expect(deriveStatus({ ...base, chargingStatus: "complete" }, now)).toBe("parked");
  });
  it("idle with ignition on, parked with it off or unknown", () => {
    expect(deriveStatus({ ...base, ignition: 1 }, now)).toBe("idle");
    expect(deriveStatus({ ...base, ignition: 0 }, now)).toBe("parked");
    expect(deriveStatus({ ...base, ignition: null, speedKmh: null }, now)).toBe("parked");
  });
});

describe("deriveIgnition", () => {
  it("keeps a reported 0/1 and otherwise infers from speed", () => {
    expect(deriveIgnition({ ignition: 1, speedKmh: 0 })).toBe(1);
    expect(deriveIgnition({ ignition: 0, speedKmh: 40 })).toBe(0);
    expect(deriveIgnition({ ignition: null, speedKmh: 40 })).toBe(1);
    expect(deriveIgnition({ ignition: null, speedKmh: null })).toBe(0);
  });
});

describe("alertLevelFromRank", () => {
  it("maps the highest open severity rank", () => {
    expect([null, 0, 1, 2, 3].map(alertLevelFromRank)).toEqual(["none", "none", "info", "warning", "critical"]);
    expect([4, -1, 1.5, Number.NaN].map(alertLevelFromRank)).toEqual(["none", "none", "none", "none"]);
  });
});

describe("chargingStatusMemo (the fleet page's status classification)", () => {
  it("answers as isChargingStatus, computing each status text once", () => {
    const memo = chargingStatusMemo();
    const statuses = ["Charging", " charging ", "AC-Charging", "not_charging", "Disconnected", "", "weird", null, "Charging"];
    expect(statuses.map(memo)).toEqual(statuses.map((s) => isChargingStatus(s)));
    expect(deriveStatus({ ...base, chargingStatus: " Charging " }, now, memo)).toBe(deriveStatus({ ...base, chargingStatus: " Charging " }, now));
    expect(deriveStatus({ ...base, chargingStatus: " Charging " }, now, memo)).toBe("charging");
  });
});
