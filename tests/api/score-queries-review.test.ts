import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { devices } from "@/lib/db/schema";
import { computeTas } from "@/lib/scores/tas";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";
import { DAY, HOUR, MIN, iso, type Rec, useIngestApi, vinSequence } from "../helpers/ingest-api";

/**
 * Issue 8 review of the score queries (M7, M8), through the real ingest verb and the real loaders on
 * Postgres and PGlite: the resting 12 V reading is looked for in the 90-day device window only, and
 * the TAS distance is last − first odometer reading of the window, not max − min.
 */

const api = useIngestApi("Score queries review");
const { ingest } = api;
const NOW = Math.floor(Date.now() / MIN) * MIN;
const newVin = vinSequence("KNA8EVD2000");

const ctx = () => ({ db: api.tdb.handle.db, tenantId: api.t.tenantId });
const drive = (vin: string, at: number, km: number): Rec => ({
  vin,
  timestamp: iso(at),
  speed_kmh: 60,
  odometer_km: km,
  battery_voltage: 14.1,
  raw_data: { ignition: true, vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } },
});
const parked = (vin: string, at: number, km: number, volts: number): Rec => ({
  vin,
  timestamp: iso(at),
  speed_kmh: 0,
  odometer_km: km,
  battery_voltage: volts,
  raw_data: { ignition: false },
});

describe("M7: the resting 12 V reading is looked for in the 90-day device window", () => {
  it("a device whose only settled reading is 100 days old has no resting 12 V reading; one 30 days old is found", async () => {
    const old = newVin();
    const recent = newVin();
    for (const [vin, ago] of [
      [old, 100],
      [recent, 30],
    ] as const) {
      const start = NOW - ago * DAY;
      // Drive, then parked 8 h later (settled): the one resting reading. Afterwards only awake readings.
      await ingest([drive(vin, start, 40_000), parked(vin, start + 8 * HOUR, 40_030, 12.4), drive(vin, NOW - 2 * DAY, 41_000), drive(vin, NOW - DAY, 41_050)]);
    }
    const loaded = await loadVehicleHealthInputs({ ctx: ctx(), deviceIds: [`oem-${old}`, `oem-${recent}`], now: new Date(NOW) });
    // Before the bound, the 100-day-old reading was "the latest resting 12 V" (12.4 V, electrical_12v scored).
    expect(loaded.get(`oem-${old}`)?.vehicleHealth.latest_resting_12v_v).toBeNull();
    expect(loaded.get(`oem-${recent}`)?.vehicleHealth.latest_resting_12v_v).toBe(12.4);
    const tas = await loadTasInputs({ ctx: ctx(), deviceIds: [`oem-${old}`, `oem-${recent}`], now: new Date(NOW) });
    expect(tas.get(`oem-${old}`)?.compliance.weak_12v).toBeNull();
    expect(tas.get(`oem-${recent}`)?.compliance.weak_12v).toBe(false);
  });

  it("the same rule as before, gap by gap: a settled reading of an earlier gap wins over unsettled later ones; the settle time reaches back before the window", async () => {
    const gaps = newVin();
    const t0 = NOW - 20 * DAY;
    // Settled 12.5 V at t0 + 8 h; 12.3 V at t0 + 10 h is 1 h after the t0 + 9 h drive: not settled.
    await ingest([
      drive(gaps, t0, 40_000),
      parked(gaps, t0 + 8 * HOUR, 40_010, 12.5),
      drive(gaps, t0 + 9 * HOUR, 40_010),
      parked(gaps, t0 + 10 * HOUR, 40_020, 12.3),
      drive(gaps, t0 + 11 * HOUR, 40_020),
    ]);
    const edge = newVin();
    const since90 = NOW - 90 * DAY;
    // Awake 2 h before the window: 12.0 V at the window's start + 1 h is 3 h after it (not settled), 12.2 V at + 5 h is 7 h after (settled).
    await ingest([
      drive(edge, since90 - 2 * HOUR, 30_000),
      parked(edge, since90 + HOUR, 30_010, 12.0),
      parked(edge, since90 + 5 * HOUR, 30_010, 12.2),
      drive(edge, NOW - DAY, 30_500),
    ]);
    const loaded = await loadVehicleHealthInputs({ ctx: ctx(), deviceIds: [`oem-${gaps}`, `oem-${edge}`], now: new Date(NOW) });
    expect(loaded.get(`oem-${gaps}`)?.vehicleHealth.latest_resting_12v_v).toBe(12.5);
    expect(loaded.get(`oem-${edge}`)?.vehicleHealth.latest_resting_12v_v).toBe(12.2);
  });
});

describe("M8: the TAS distance is last − first odometer reading of the window", () => {
  it("a one-sample high odometer glitch inside the window does not inflate km_per_year nor the contract pillar", async () => {
    const clean = newVin();
    const glitch = newVin();
    // 61 daily readings, 50 km a day (3,000 km over 60 days: 18,250 km/year); the glitching twin reports
    // 90,000 km once in the middle, and the next reading contradicts it.
    const days = Array.from({ length: 61 }, (_, i) => i);
    const records = (vin: string, glitchDay: number | null) => days.map((i) => parked(vin, NOW - (61 - i) * DAY, i === glitchDay ? 90_000 : 50_000 + 50 * i, 12.6));
    await ingest(records(clean, null));
    await ingest(records(glitch, 30));
    for (const vin of [clean, glitch]) {
      // 60,000 km over 36 months: 20,000 km/year allowed.
      await api.tdb.handle.db
        .update(devices)
        .set({ contractKm: 60_000, leaseMonths: 36 })
        .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, `oem-${vin}`)));
    }
    const now = new Date(NOW);
    const inputs = await loadTasInputs({ ctx: ctx(), deviceIds: [`oem-${clean}`, `oem-${glitch}`], now });
    const a = inputs.get(`oem-${clean}`)!;
    const b = inputs.get(`oem-${glitch}`)!;
    expect(a.behaviour.period_km).toBeCloseTo(3_000, 6);
    expect(a.mileage.km_per_year).toBeCloseTo(18_250, 3);
    // max − min read 40,000 km (243,333 km/year, the contract pillar's mileage part 0).
    expect(b.behaviour.period_km).toBeCloseTo(3_000, 6);
    expect(b.mileage.km_per_year).toBeCloseTo(18_250, 3);
    const pillar = (input: typeof a) => computeTas(input, { now }).pillars.contractual_market_risk;
    expect(pillar(b)).toEqual(pillar(a));
  });
});
