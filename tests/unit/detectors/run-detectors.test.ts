import { describe, expect, it } from "vitest";
import { agentOfKey, isAlertKey, SEVERITIES } from "@/lib/vocabulary/alerts";
import { DETECTOR_VERSION, DETECTORS, dedupeDrafts, runDetectors } from "@/lib/detectors";
import type { AlertDraft, DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { clone, ctx, normalBevDay, normalIceDay, prng, rec, shuffled, t, T0 } from "./fixtures";

const DTC_POOL = ["P0301", "P0420", "P0455", "P0A80", "C0035", "C1234", "U0100", "B1000", "B0001", "p0171", "P03", "", "XYZ12", "P0G00"];
const STATUS_POOL = ["charging", "not_charging", "complete", "DC_CHARGING", "fast-charging", null, "weird"];

/** A random but well-typed batch: values in and far outside normal ranges, nulls everywhere. */
function randomBatch(seed: number): { devices: DeviceContext[]; recordsByDevice: Map<string, TelemetryRecord[]> } {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T>(v: T, p = 0.7): T | null => (r() < p ? v : null);
  const devices: DeviceContext[] = [];
  const recordsByDevice = new Map<string, TelemetryRecord[]>();
  const n = 1 + Math.floor(r() * 3);
  for (let d = 0; d < n; d++) {
    const deviceId = `gen-${seed}-${d}`;
    const base = 20_000 + r() * 100_000;
    if (r() < 0.9) {
      devices.push({
        deviceId,
        powertrain: pick(["BEV", "PHEV", "HEV", "ICE", null] as const),
        batteryKwh: maybe(pick([14, 40, 60, 77, 100, 540])),
        previous: maybe({ ts: new Date(T0 - r() * 86_400_000), odometerKm: maybe(base + (r() - 0.5) * 500), socPct: maybe(r() * 100), sohPct: maybe(55 + r() * 45) }),
        odometerMax: maybe({ km: base + (r() - 0.3) * 2_000, ts: new Date(T0 + (r() - 0.5) * 86_400_000) }),
      });
    }
    const count = Math.floor(r() * 40);
    let ms = T0;
    let odo = base;
    const records: TelemetryRecord[] = [];
    for (let i = 0; i < count; i++) {
      ms += 1_000 + Math.floor(r() * 900_000); // unique, increasing device times
      odo += r() < 0.05 ? -r() * 5_000 : r() * 20;
      records.push(
        rec({
          deviceId,
          ts: new Date(ms),
          odometerKm: maybe(Math.round(odo * 10) / 10),
          socPct: maybe(r() * 100),
          sohPct: maybe(50 + r() * 50, 0.3),
          batteryVoltage: maybe(pick([12.6, 11.9, 11.7, 10.8, 14.2, 0, 5, 400, 12 + r()])),
          chargingStatus: pick(STATUS_POOL),
          chargingPowerKw: maybe(pick([0, 0.3, 7.4, 11, 50, 150, 260, 351, 11_000, -5])),
          speedKmh: maybe(pick([0, 0, 30, 80, 118, 135, 165, 250, r() * 220])),
          fuelLevelPct: maybe(r() * 100, 0.3),
          dtcCodes: r() < 0.2 ? [pick(DTC_POOL), pick(DTC_POOL)] : maybe([] as string[]),
          ignition: pick([0, 1, null] as const),
          rawData: r() < 0.1 ? { voltage_kind: pick(["12v", "traction", "hv_pack", "unknown"]) } : null,
        }),
      );
    }
    recordsByDevice.set(deviceId, shuffled(records, seed + d));
  }
  return { devices, recordsByDevice };
}

function hasNonFinite(x: unknown): boolean {
  if (typeof x === "number") return !Number.isFinite(x);
  if (Array.isArray(x)) return x.some(hasNonFinite);
  if (x && typeof x === "object" && !(x instanceof Date)) return Object.values(x).some(hasNonFinite);
  return false;
}

function expectWellFormed(drafts: AlertDraft[], recordsByDevice: Map<string, TelemetryRecord[]>) {
  const keys = new Set<string>();
  for (const d of drafts) {
    expect(SEVERITIES).toContain(d.severity);
    expect(d.confidence).toBeGreaterThanOrEqual(0);
    expect(d.confidence).toBeLessThanOrEqual(1);
    expect(Math.round(d.confidence * 100) / 100).toBe(d.confidence);
    expect(d.prediction.trim().length).toBeGreaterThan(20);
    expect(d.prediction).not.toMatch(/NaN|undefined|Infinity|null/);
    expect(d.technicalData.detector_version).toBe(DETECTOR_VERSION);
    expect(d.dedupeKey.startsWith(`${d.agent}:`)).toBe(true);
    expect(isAlertKey(d.dedupeKey)).toBe(true);
    expect(agentOfKey(d.dedupeKey)).toBe(d.agent);
    expect(hasNonFinite(d.technicalData)).toBe(false);
    expect(() => JSON.stringify(d.technicalData)).not.toThrow();
    // observedAt is the device time of one of the device's readings
    const times = (recordsByDevice.get(d.deviceId) ?? []).map((r) => r.ts.getTime());
    expect(times).toContain(d.observedAt.getTime());
    const k = `${d.deviceId}|${d.dedupeKey}`;
    expect(keys.has(k)).toBe(false);
    keys.add(k);
  }
}

describe("runDetectors", () => {
  it("exports the five detectors and the version", () => {
    expect(DETECTORS).toHaveLength(5);
    expect(DETECTOR_VERSION).toBe("alerts-2027.02");
  });

  it("is quiet on a normal fleet day, whatever the order the records arrive in", () => {
    const bev = normalBevDay("bev-1");
    const ice = normalIceDay("ice-1");
    const recordsByDevice = new Map([
      ["bev-1", shuffled(bev.records, 1)],
      ["ice-1", shuffled(ice.records, 2)],
    ]);
    expect(runDetectors({ devices: [bev.device, ice.device], recordsByDevice })).toEqual([]);
  });

  it("finds each scripted condition once, per device, with the evidence", () => {
    const devices = [ctx({ deviceId: "a" }), ctx({ deviceId: "b", powertrain: "ICE", batteryKwh: null })];
    const recordsByDevice = new Map([
      [
        "a",
        [
          rec({ deviceId: "a", ts: t("10:00"), socPct: 4, speedKmh: 0, ignition: 0, odometerKm: 1_000 }),
          rec({ deviceId: "a", ts: t("09:00"), socPct: 12, speedKmh: 140, ignition: 1, odometerKm: 990 }),
          rec({ deviceId: "a", ts: t("08:59"), socPct: 12.5, speedKmh: 140, ignition: 1, odometerKm: 988 }),
        ],
      ],
      [
        "b",
        [
          rec({ deviceId: "b", ts: t("07:00"), odometerKm: 50_000, batteryVoltage: 11.5, ignition: 0, speedKmh: 0, dtcCodes: ["P0301"] }),
          rec({ deviceId: "b", ts: t("08:00"), odometerKm: 40_000, dtcCodes: ["P0301", "U0100"] }),
          // A second reading that stays low confirms the rollback (one alone is an unconfirmed WARNING).
          rec({ deviceId: "b", ts: t("08:30"), odometerKm: 40_001 }),
        ],
      ],
    ]);
    const drafts = runDetectors({ devices, recordsByDevice });
    expect(drafts.map((d) => `${d.deviceId} ${d.dedupeKey} ${d.severity}`)).toEqual([
      "a battery:low_soc CRITICAL",
      "a driving:overspeed WARNING",
      "b battery:low_12v WARNING",
      "b diagnostics:P0301 CRITICAL",
      "b diagnostics:U0100 WARNING",
      "b odometer_integrity:rollback CRITICAL",
    ]);
    expectWellFormed(drafts, recordsByDevice);
  });

  it("judges a device without context with an empty one", () => {
    const recordsByDevice = new Map([["new", [rec({ deviceId: "new", ts: t("10:00"), socPct: 3, speedKmh: 0, ignition: 0 })]]]);
    const drafts = runDetectors({ devices: [], recordsByDevice });
    expect(drafts.map((d) => [d.deviceId, d.dedupeKey, d.technicalData.powertrain_assumed])).toEqual([["new", "battery:low_soc", "BEV"]]);
  });

  it("dedupeDrafts keeps the most severe draft per (device, key), ties going to the latest observedAt", () => {
    const d = (deviceId: string, dedupeKey: string, severity: AlertDraft["severity"], hhmm: string, prediction = "x", value = 8): AlertDraft => ({
      deviceId,
      agent: "battery",
      severity,
      prediction,
      confidence: 0.5,
      technicalData: { detector_version: DETECTOR_VERSION, soc_pct: value },
      dedupeKey,
      measure: { field: "soc_pct", value, worst: value, worse: "lower" },
      observedAt: t(hhmm),
      firstObservedAt: t(hhmm),
    });
    const out = dedupeDrafts([
      d("a", "battery:low_soc", "WARNING", "08:00", "first", 2),
      d("b", "battery:low_soc", "INFO", "08:00"),
      d("a", "battery:low_soc", "CRITICAL", "07:00", "critical", 4),
      d("a", "battery:low_soc", "WARNING", "09:00", "later warning"),
      d("b", "battery:low_soc", "INFO", "09:00", "later info"),
      d("b", "battery:low_soc", "INFO", "09:00", "same time, seen later"),
      d("a", "battery:low_12v", "WARNING", "08:00"),
    ]);
    expect(out.map((x) => `${x.deviceId} ${x.dedupeKey} ${x.severity} ${x.prediction}`)).toEqual([
      "a battery:low_soc CRITICAL critical",
      "b battery:low_soc INFO later info",
      "a battery:low_12v WARNING x",
    ]);
    // One occurrence per batch, consistent with the lifecycle: the survivor carries the others' earliest
    // observation and worst value (the WARNING's 2 % is worse than the CRITICAL draft's 4 %).
    expect(out[0]?.measure).toMatchObject({ value: 4, worst: 2 });
    expect(out[0]?.firstObservedAt).toEqual(t("07:00"));
    expect(out[1]?.firstObservedAt).toEqual(t("08:00"));
  });

  it("generated batches: well-formed drafts, deterministic, order-independent, inputs untouched", () => {
    let total = 0;
    for (let seed = 1; seed <= 250; seed++) {
      const batch = randomBatch(seed);
      const before = clone({ devices: batch.devices, records: [...batch.recordsByDevice.entries()] });
      const first = runDetectors(batch);
      const second = runDetectors(batch);
      expect(second).toEqual(first);
      expect({ devices: batch.devices, records: [...batch.recordsByDevice.entries()] }).toEqual(before);
      expectWellFormed(first, batch.recordsByDevice);
      // The arrival order of records does not matter (device times are unique here).
      const reshuffled = new Map([...batch.recordsByDevice].map(([k, v]) => [k, shuffled(v, seed * 31)]));
      expect(runDetectors({ devices: batch.devices, recordsByDevice: reshuffled })).toEqual(first);
      // Each detector on its own is deterministic too, and within bounds.
      for (const device of batch.devices) {
        const records = [...(batch.recordsByDevice.get(device.deviceId) ?? [])].sort((a, b) => a.ts.getTime() - b.ts.getTime());
        for (const detect of DETECTORS) expect(detect({ device, records })).toEqual(detect({ device, records }));
      }
      total += first.length;
    }
    // The generator is meant to provoke alerts, not only quiet batches.
    expect(total).toBeGreaterThan(250);
  });
});
