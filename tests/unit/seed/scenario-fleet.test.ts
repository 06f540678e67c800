import { describe, expect, it } from "vitest";
import { ingestBodySchema, type IngestRecordInput } from "@/lib/schemas/ingest";
import { generateScenarioFleet, SCENARIO_CHARGING_EFFICIENCY, scenarioBatches } from "@/lib/seed/scenarios/scenario-fleet";

/**
 * The scenario fleet's truth must be what its records say when read densely: otherwise the scenario
 * suite would judge the scores against a wrong answer. Checked on the 1-minute vehicles, where the
 * samples leave nothing out.
 */
const ANCHOR = new Date("2026-01-15T00:00:00Z");
const fleet = generateScenarioFleet({ anchor: ANCHOR });
const vehicle = (id: string) => {
  const v = fleet.vehicles.find((x) => x.truth.deviceId === id);
  if (!v) throw new Error(id);
  return v;
};
const inWindow = (r: IngestRecordInput) => Date.parse(r.timestamp ?? "") >= fleet.windowStart.getTime();

describe("the scenario fleet", () => {
  it("is deterministic for an anchor", () => {
    expect(JSON.stringify(generateScenarioFleet({ anchor: new Date(ANCHOR) }))).toBe(JSON.stringify(fleet));
  });

  it("is delivered in hourly payloads the ingest schema accepts, master data on each vehicle's first record", () => {
    const batches = scenarioBatches(fleet);
    for (const b of batches) {
      expect(ingestBodySchema.safeParse(JSON.parse(JSON.stringify({ vehicles: b.vehicles }))).success).toBe(true);
      expect(b.receivedAt.getTime()).toBeLessThanOrEqual(ANCHOR.getTime());
      expect(new Set(b.vehicles.map((r) => Math.floor(Date.parse(r.timestamp ?? "") / 3_600_000))).size).toBe(1);
    }
    const withMaster = batches.flatMap((b) => b.vehicles).filter((r) => r.raw_data?.vehicle);
    expect(withMaster.map((r) => r.device_id).sort()).toEqual(fleet.vehicles.map((v) => v.truth.deviceId).sort());
  });

  it("the same drive at every sampling rate: the same truth", () => {
    const truths = ["scn-bev-01min", "scn-bev-05min", "scn-bev-15min", "scn-bev-45min"].map((id) => vehicle(id).truth);
    for (const t of truths) {
      expect(t.distanceKm).toBe(truths[0]?.distanceKm);
      expect(t.gridKwhPer100Km).toBe(truths[0]?.gridKwhPer100Km);
    }
  });

  it("1-minute records agree with the truth: distance, energy charged at the plug, speeding share, harsh events", () => {
    const bev = vehicle("scn-bev-01min");
    const rs = bev.records.filter(inWindow);
    expect((rs.at(-1)?.odometer_km ?? 0) - (rs[0]?.odometer_km ?? 0)).toBeCloseTo(bev.truth.distanceKm, 0);
    let socRise = 0;
    for (let i = 1; i < rs.length; i++) socRise += Math.max(0, (rs[i]?.soc_percent ?? 0) - (rs[i - 1]?.soc_percent ?? 0));
    const gridFromSoc = ((socRise / 100) * 75) / SCENARIO_CHARGING_EFFICIENCY;
    expect(Math.abs(gridFromSoc - (bev.truth.gridEnergyChargedKwh ?? 0))).toBeLessThan(0.5);
    // Balanced: what the period's charging put back is what the driving took.
    expect(bev.truth.gridEnergyChargedKwh).toBeCloseTo((bev.truth.batteryEnergyUsedKwh ?? 0) / SCENARIO_CHARGING_EFFICIENCY, 1);

    const speeder = vehicle("scn-speeder");
    const moving = speeder.records.filter((r) => (r.speed_kmh ?? 0) > 0);
    expect(moving.filter((r) => (r.speed_kmh ?? 0) > 130).length / moving.length).toBeCloseTo(speeder.truth.timeShareOver130, 1);
    expect(speeder.truth.nightShare).toBeGreaterThan(0.1);
    expect(vehicle("scn-calm").truth.timeShareOver130).toBe(0);

    const harsh = vehicle("scn-harsh");
    const events = harsh.records.flatMap((r) => (r.raw_data?.events as { kind: string }[] | undefined) ?? []);
    expect(events.filter((e) => e.kind.startsWith("harsh_")).length).toBe(harsh.truth.harshEvents);
    expect(harsh.truth.harshPer100Km).toBeGreaterThan(9);
    expect(vehicle("scn-calm").records.every((r) => ((r.raw_data?.events as unknown[] | undefined) ?? []).length === 0)).toBe(true);
  });

  it("tells the odometer and SoH stories its truth claims", () => {
    const drops = (records: IngestRecordInput[]) => {
      let max = -Infinity;
      return records.flatMap((r, i) => {
        const km = r.odometer_km ?? 0;
        const out = km < max - 1 ? [{ i, below: max - km, contradicted: (records[i + 1]?.odometer_km ?? -Infinity) >= max }] : [];
        max = Math.max(max, km);
        return out;
      });
    };
    const clocked = drops(vehicle("scn-clocked").records);
    expect(clocked.length).toBeGreaterThan(100);
    expect(clocked.every((d) => !d.contradicted && d.below > 59_000)).toBe(true);
    const glitch = drops(vehicle("scn-glitch").records);
    expect(glitch).toHaveLength(1);
    expect(glitch[0]?.contradicted).toBe(true);
    for (const v of fleet.vehicles.filter((x) => !["scn-clocked", "scn-glitch"].includes(x.truth.deviceId))) expect(drops(v.records), v.truth.deviceId).toEqual([]);

    const degraded = vehicle("scn-degraded");
    expect(degraded.truth.expectedKnockouts).toEqual(["soh_below_60"]);
    const lastDay = degraded.records.filter((r) => Date.parse(r.timestamp ?? "") > ANCHOR.getTime() - 86_400_000);
    expect(lastDay.every((r) => (r.soh_percent ?? 100) < 60)).toBe(true);

    const bms = vehicle("scn-bms-zero");
    expect(bms.records.at(-1)?.soh_percent).toBe(0);
    expect(bms.truth.soh.implausibleReadings.length).toBe(4);
    expect(bms.truth.soh.latestPlausiblePct).toBeGreaterThan(89);
    expect(bms.truth.expectedKnockouts).toEqual([]);
    for (const id of ["scn-hev", "scn-ice"]) expect(vehicle(id).records.every((r) => r.soh_percent === null && r.soc_percent === null)).toBe(true);
  });
});
