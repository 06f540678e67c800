import { describe, expect, it } from "vitest";
import { rootLogger } from "@/lib/log/logger";
import { computeFleetRisk } from "@/lib/scores/fleet-risk";
import { computeGreenFleetMetrics } from "@/lib/scores/green-fleet";
import { loadDeviceFleetInputs } from "@/lib/scores/queries/load-device-fleet-inputs";
import { loadFleetInputs, toGreenFleetDevice } from "@/lib/scores/queries/load-fleet-inputs";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { computeTas } from "@/lib/scores/tas";
import { CHARGING_EFFICIENCY } from "@/lib/vocabulary/charging";
import { createTenantWithKey } from "../helpers/fixtures";
import { useIngestServer } from "../helpers/ingest-api";

/**
 * Exposure and noise in the behaviour/energy aggregate (issue 8 review: H2, H4, H5, M3), end to end:
 * constructed telemetry through POST /oem/ingest, then the loaders and the pure scores, on both databases.
 */

const server = useIngestServer();
type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;
const MIN = 60_000;
const DAY = 1440 * MIN;
/** Midnight UTC six days ago: everything simulated lies inside the 30- and 90-day windows and in the past. */
const DAY0 = Math.floor((Date.now() - 6 * DAY) / DAY) * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const ctxOf = (t: Tenant) => ({ db: server.tdb.handle.db, tenantId: t.tenantId, isSandbox: false, log: rootLogger() });

const ingest = (t: Tenant, vehicles: unknown[]) => server.ingestAs(t, vehicles);

const CAPACITY_KWH = 75;
const bev = { powertrain: "BEV", battery_kwh: CAPACITY_KWH };

describe("H2: SOC noise on a parked car is neither consumption nor charging", () => {
  /**
   * A 90-minute drive at 80 km/h (18 kWh/100 km at the battery) sampled every minute, then a parked
   * weekend (2 days) whose SOC flickers between two values every minute, the samples saying "not charging".
   */
  function driveThenFlicker(vin: string, flicker: (soc: number, i: number) => number) {
    const records: Record<string, unknown>[] = [];
    let soc = 90;
    let odo = 30_000;
    let kwhUsed = 0;
    let km = 0;
    const start = DAY0 + 7 * 60 * MIN;
    for (let m = 0; m <= 90; m++) {
      const moving = m < 90;
      records.push({
        vin,
        timestamp: iso(start + m * MIN),
        soc_percent: Math.round(soc),
        odometer_km: Math.round(odo * 10) / 10,
        speed_kmh: moving ? 80 : 0,
        charging_status: "not_charging",
        raw_data: { charging_power_kw: 0, ambient_temp_c: 12, vehicle: bev },
      });
      if (moving) {
        const dk = 80 / 60;
        odo += dk;
        km += dk;
        kwhUsed += (dk * 18) / 100;
        soc -= ((dk * 18) / 100 / CAPACITY_KWH) * 100;
      }
    }
    const parkedSoc = Math.round(soc);
    const parkStart = start + 91 * MIN;
    for (let i = 0; i < 2 * 1440; i++) {
      records.push({
        vin,
        timestamp: iso(parkStart + i * MIN),
        soc_percent: flicker(parkedSoc, i),
        odometer_km: Math.round(odo * 10) / 10,
        speed_kmh: 0,
        charging_status: "not_charging",
        raw_data: { charging_power_kw: 0, ambient_temp_c: 12, vehicle: bev },
      });
    }
    return { records, truthKwhPer100: (kwhUsed / CHARGING_EFFICIENCY.ac / km) * 100 };
  }

  it("a parked weekend of 70 ↔ 71 (and ±0.2 decimal) SOC flicker at 1-minute sampling leaves consumption within 10 % and adds no charged energy", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "SOC flicker" });
    const integer = driveThenFlicker("YV1FLICKERINT0001", (s, i) => (i % 2 === 0 ? s + 1 : s));
    const decimal = driveThenFlicker("YV1FLICKERDEC0001", (s, i) => (i % 2 === 0 ? s + 0.2 : s - 0.2));
    await ingest(t, [...integer.records, ...decimal.records]);
    const loaded = await loadFleetInputs({ ctx: ctxOf(t), periodDays: 30, now: new Date() });
    expect(loaded.devices).toHaveLength(2);
    for (const d of loaded.devices) {
      const truth = d.device_id.includes("INT") ? integer.truthKwhPer100 : decimal.truthKwhPer100;
      const [m] = [computeGreenFleetMetrics({ period_days: 30, devices: [toGreenFleetDevice(d)] })];
      expect(m.bev_kwh_per_100km, d.device_id).not.toBeNull();
      // Old rule: each rise was a charge and each fall 0-km consumption → thousands of kWh/100 km.
      expect(Math.abs((m.bev_kwh_per_100km! - truth) / truth), `${d.device_id}: ${m.bev_kwh_per_100km} vs ${truth}`).toBeLessThan(0.1);
      // Nothing was charged; the old rule counted every rise (about 1,400 points, ~1,000 kWh).
      expect(d.energy.charged_battery_kwh ?? 0, d.device_id).toBeLessThan(0.5);
      expect(d.behaviour.charging_minutes, d.device_id).toBe(0);
    }
  }, 180_000);

  // Parked, SOC 40 → 60 in 1-point steps every 5 minutes, no charging power: an unobserved charge
  // when the status says nothing FDP knows (none at all, or a word outside the charging vocabulary).
  it.each([
    ["a feed that reports no charging status keeps counting a parked SOC rise as a charge", "YV1NOSTATUS000001", undefined],
    ["a status word FDP does not know ('plugged_in') is not a 'not charging': a slow charge in 1-point steps still counts", "YV1PLUGGEDIN00001", "Plugged In"],
  ] as const)(
    "%s",
    async (name, vin, status) => {
      const t = await createTenantWithKey(server.tdb.handle.db, { name });
      const records = Array.from({ length: 21 }, (_, i) => ({
        vin,
        timestamp: iso(DAY0 + i * 5 * MIN),
        soc_percent: 40 + i,
        odometer_km: 12_000,
        speed_kmh: 0,
        ...(status === undefined ? {} : { charging_status: status }),
        raw_data: { vehicle: bev },
      }));
      await ingest(t, records);
      const [d] = (await loadFleetInputs({ ctx: ctxOf(t), periodDays: 30, now: new Date() })).devices;
      expect(d!.energy.charged_battery_kwh).toBeCloseTo(0.2 * CAPACITY_KWH, 5);
      expect(d!.behaviour.consumption_pp).toBe(0);
    },
    60_000,
  );
});

describe("M3: speeding distance of a long gap is capped at speed × the state-hold time", () => {
  it("a device offline for 6 h after a 140 km/h sample does not put 500 km into '> 130'", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Offline speeder" });
    const vin = "YV1OFFLINE0000001";
    const start = DAY0 + 8 * 60 * MIN;
    // Two hours at 100 km/h sampled every minute (200 km), then one sample at 140 km/h and silence for 6 h.
    const records: Record<string, unknown>[] = Array.from({ length: 121 }, (_, i) => ({
      vin,
      timestamp: iso(start + i * MIN),
      odometer_km: Math.round((10_000 + (i * 100) / 60) * 10) / 10,
      speed_kmh: i < 120 ? 100 : 140,
    }));
    records.push({ vin, timestamp: iso(start + 120 * MIN + 6 * 60 * MIN), odometer_km: 10_200 + 500, speed_kmh: 0 });
    await ingest(t, records);
    const [d] = (await loadFleetInputs({ ctx: ctxOf(t), periodDays: 30, now: new Date() })).devices;
    const b = d!.behaviour;
    // At most 140 km/h × 10 minutes of the gap is credited to the > 130 band (old: all 500 km).
    expect(b.km_over_130).toBeLessThanOrEqual((140 * 10) / 60 + 0.01);
    expect(b.km_over_130).toBeGreaterThan(20);
    expect(b.moving_km).toBeGreaterThan(199);
    expect(b.moving_km).toBeLessThan(200 + 24);
    // Consumption and the period's distance keep the full odometer distance.
    expect(d!.distance_km).toBeCloseTo(700, 0);
  }, 60_000);
});

describe("H4: a speeding share needs a minimum measured exposure", () => {
  it("one pair at 135 km/h over 3 km (period 150 km by odometer) is not a 60-point TAS penalty nor speed_compliance 100", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Thin exposure" });
    const vin = "YV1THINEXPOSURE01";
    const start = DAY0 + 9 * 60 * MIN;
    await ingest(t, [
      // Odometer-only readings (no speed): 150 km over the period, no measured driving.
      { vin, timestamp: iso(start - 2 * DAY), odometer_km: 40_000 },
      { vin, timestamp: iso(start - DAY), odometer_km: 40_150 },
      // Two minutes at 135 km/h: about 4.5 km of moving pairs, all above 130.
      { vin, timestamp: iso(start), odometer_km: 40_150, speed_kmh: 135 },
      { vin, timestamp: iso(start + MIN), odometer_km: 40_152.3, speed_kmh: 135 },
      { vin, timestamp: iso(start + 2 * MIN), odometer_km: 40_154.5, speed_kmh: 0 },
    ]);
    const now = new Date();
    const id = `oem-${vin}`;
    const tas = (await loadTasInputs({ ctx: { db: server.tdb.handle.db, tenantId: t.tenantId }, deviceIds: [id], now })).get(id)!;
    expect(tas.behaviour.period_km).toBeGreaterThanOrEqual(100);
    expect(tas.behaviour.speeding).toBeNull();
    const usage = computeTas(tas, { now }).pillars.usage_behaviour;
    expect(usage.source).toBe("insufficient_data");
    expect(usage.score).toBeGreaterThan(40);

    const fleet = (await loadDeviceFleetInputs({ ctx: { db: server.tdb.handle.db, tenantId: t.tenantId }, deviceIds: [id], now })).get(id)!;
    expect(fleet.fleetRisk.km_over_130).toBeGreaterThan(0);
    const risk = computeFleetRisk({ period_days: 30, devices: [fleet.fleetRisk] }, { now });
    expect(risk.components.speed_compliance).toBe(0);
    expect(risk.limitations.some((l) => l.includes("less than the minimum exposure"))).toBe(true);
  }, 60_000);
});

describe("H5: harsh-event rates divide by the km their source covered", () => {
  it("a device that started sending OEM events on the last day has its rate over that day's km, not the month's", async () => {
    const t = await createTenantWithKey(server.tdb.handle.db, { name: "Late events" });
    const vin = "YV1LATEEVENTS0001";
    const records: Record<string, unknown>[] = [];
    let odo = 50_000;
    // Five days, 100 km each (one hour at 100 km/h sampled every 5 minutes); events only on day 5.
    for (let day = 0; day < 5; day++) {
      const start = DAY0 + day * DAY + 10 * 60 * MIN;
      for (let i = 0; i <= 12; i++) {
        const last = day === 4;
        const events = last && i === 6 ? [{ kind: "harsh_braking", ts: iso(start + i * 5 * MIN), value: 0.4 }] : [];
        records.push({
          vin,
          timestamp: iso(start + i * 5 * MIN),
          odometer_km: Math.round(odo * 10) / 10,
          speed_kmh: i < 12 ? 100 : 0,
          ...(last ? { raw_data: { events } } : {}),
        });
        if (i < 12) odo += 100 / 12;
      }
    }
    await ingest(t, records);
    const [d] = (await loadFleetInputs({ ctx: ctxOf(t), periodDays: 30, now: new Date() })).devices;
    expect(d!.distance_km).toBeCloseTo(500, 0);
    // One moderate event over the 100 km the source covered (old: over the 500 km of the period).
    expect(d!.harsh_events).toEqual({ count: 1, weighted: 1, km: expect.closeTo(100, 0) });

    const now = new Date();
    const id = `oem-${vin}`;
    const tas = (await loadTasInputs({ ctx: { db: server.tdb.handle.db, tenantId: t.tenantId }, deviceIds: [id], now })).get(id)!;
    expect(tas.behaviour.harsh_events_km).toBeCloseTo(100, 0);
  }, 60_000);
});
