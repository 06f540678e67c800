import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { devices, drivingEvents, telemetry } from "@/lib/db/schema";
import { createSandboxDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The sandbox's cast (issue 8, "a sandbox a prospect can trust"), read back from what the seed STORED
 * (telemetry, driving events, master data), not from the generator's plan: each story must be visible
 * in the data the scores read. (A file of its own, next to sandbox-detectors.test.ts which checks the
 * alerts, so the two can change independently.)
 */

let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createSandboxDatabase();
}, 180_000);

afterAll(async () => {
  await tdb?.dispose();
});

describe("tells the stories a prospect should see, in its stored telemetry", () => {
  type Tel = typeof telemetry.$inferSelect;
  let byDevice: Map<string, Tel[]>;
  let fleet: (typeof devices.$inferSelect)[];
  beforeAll(async () => {
    const db = tdb.handle.db;
    fleet = await db.select().from(devices).where(eq(devices.tenantId, SANDBOX_TENANT_ID)).orderBy(asc(devices.deviceId));
    const all = await db.select().from(telemetry).where(eq(telemetry.tenantId, SANDBOX_TENANT_ID)).orderBy(asc(telemetry.deviceId), asc(telemetry.ts));
    byDevice = new Map();
    for (const r of all) byDevice.set(r.deviceId, [...(byDevice.get(r.deviceId) ?? []), r]);
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  /** Median reported SoH over the last 7 days of a device's history. */
  const recentSoh = (rows: Tel[]) => {
    const last = rows[rows.length - 1]?.ts.getTime() ?? 0;
    return median(rows.filter((r) => r.sohPct !== null && r.ts.getTime() > last - 7 * 86_400_000).map((r) => r.sohPct as number));
  };

  it("every plug-in has its usable capacity as master data (energy from SOC deltas needs it)", () => {
    for (const d of fleet) {
      if (d.powertrain === "BEV" || d.powertrain === "PHEV") expect(d.batteryKwh, d.deviceId).toBeGreaterThan(10);
    }
  });

  it("degraded batteries: exactly one below 60 % SoH (a knockout), at least one more below 70 %", () => {
    const soh = fleet.filter((d) => d.powertrain === "BEV" || d.powertrain === "PHEV").map((d) => ({ id: d.deviceId, soh: recentSoh(byDevice.get(d.deviceId) ?? []) }));
    expect(soh.filter((x) => x.soh < 60).map((x) => x.id)).toHaveLength(1);
    expect(soh.filter((x) => x.soh >= 60 && x.soh < 70).length).toBeGreaterThanOrEqual(1);
    // The knocked-out one is below 60 % on every reading of its last week, not on a lucky sample.
    const [ko] = soh.filter((x) => x.soh < 60);
    const rows = byDevice.get(ko?.id ?? "") ?? [];
    const lastMs = rows[rows.length - 1]?.ts.getTime() ?? 0;
    expect(rows.filter((r) => r.ts.getTime() > lastMs - 7 * 86_400_000).every((r) => (r.sohPct ?? 100) < 60)).toBe(true);
  });

  it("SoH scatters as real BMSs report it (σ about 0.5–1 pp), with no single-reading jump of 3 pp or more except one scripted recalibration", () => {
    const jumpers: string[] = [];
    const unmeasured: string[] = [];
    for (const d of fleet.filter((x) => x.powertrain === "BEV" || x.powertrain === "PHEV")) {
      const soh = (byDevice.get(d.deviceId) ?? []).filter((r) => r.sohPct !== null).map((r) => r.sohPct as number);
      if (soh.length === 0) {
        unmeasured.push(d.deviceId);
        continue;
      }
      const steps = soh.slice(1).map((x, i) => x - (soh[i] as number));
      if (steps.some((s) => Math.abs(s) >= 3)) jumpers.push(d.deviceId);
      // Scatter between BMS re-estimates: the day-to-day changes of the reading.
      const changes = steps.filter((s) => s !== 0 && Math.abs(s) < 3);
      const sd = Math.sqrt(changes.reduce((a, s) => a + s * s, 0) / Math.max(1, changes.length) / 2);
      expect(sd, d.deviceId).toBeGreaterThan(0.3);
      expect(sd, d.deviceId).toBeLessThan(1.2);
    }
    expect(jumpers).toHaveLength(1);
    // Only the Tesla reports no SoH: Fleet Telemetry has none to send (docs/sandbox-data.md "Feeds").
    expect(unmeasured).toEqual([expect.stringMatching(/^oem-/)]);
  });

  /** Readings more than 1 km below the highest earlier reading, with whether the next reading contradicts them. */
  const drops = (rows: Tel[]) => {
    const out: { ts: Date; km: number; below: number; contradicted: boolean }[] = [];
    let max = -Infinity;
    rows.forEach((r, i) => {
      if (r.odometerKm === null) return;
      if (r.odometerKm < max - 1) out.push({ ts: r.ts, km: r.odometerKm, below: max - r.odometerKm, contradicted: (rows[i + 1]?.odometerKm ?? -Infinity) >= max });
      max = Math.max(max, r.odometerKm);
    });
    return out;
  };

  it("a clocked odometer: a drop of tens of thousands of km that every later reading confirms", () => {
    const clocked = fleet.filter((d) => {
      const ds = drops(byDevice.get(d.deviceId) ?? []);
      return ds.length > 10 && ds.every((x) => !x.contradicted && x.below > 10_000);
    });
    expect(clocked).toHaveLength(1);
    const rows = byDevice.get(clocked[0]?.deviceId ?? "") ?? [];
    const first = drops(rows)[0];
    // Persisting to the end: the newest reading is still below the earlier maximum.
    expect((first?.km ?? 0) + (first?.below ?? 0) - (rows[rows.length - 1]?.odometerKm ?? 0)).toBeGreaterThan(1);
  });

  it("a glitching odometer: one reading below the earlier maximum, contradicted by the next", () => {
    const glitching = fleet.filter((d) => {
      const ds = drops(byDevice.get(d.deviceId) ?? []);
      return ds.length === 1 && ds[0]?.contradicted === true;
    });
    expect(glitching).toHaveLength(1);
  });

  it("habitual speeders and calm drivers: shares of driving time above 130 km/h far apart", () => {
    const over130 = new Map<string, number>();
    for (const [id, rows] of byDevice) {
      const moving = rows.filter((r) => (r.speedKmh ?? 0) > 0);
      if (moving.length > 0) over130.set(id, moving.filter((r) => (r.speedKmh ?? 0) > 130).length / moving.length);
    }
    const shares = [...over130.values()];
    expect(shares.filter((s) => s >= 0.03).length, "speeders").toBeGreaterThanOrEqual(3);
    expect(shares.filter((s) => s >= 0.15).length, "a habitual speeder").toBeGreaterThanOrEqual(1);
    // Calm drivers: cars (not vans) that never exceed 100 km/h over a thousand km and more.
    const calm = fleet.filter((d) => {
      const rows = byDevice.get(d.deviceId) ?? [];
      const km = (rows[rows.length - 1]?.odometerKm ?? 0) - (rows[0]?.odometerKm ?? 0);
      return d.assetClass === "passenger_car" && km > 1000 && rows.every((r) => (r.speedKmh ?? 0) <= 100);
    });
    expect(calm.length, "calm drivers").toBeGreaterThanOrEqual(2);
  });

  it("harsh events reported by the OEM units of several vehicles", async () => {
    const events = await tdb.handle.db.select().from(drivingEvents).where(eq(drivingEvents.tenantId, SANDBOX_TENANT_ID));
    const harsh = events.filter((e) => e.source === "oem" && (e.kind === "harsh_braking" || e.kind === "harsh_acceleration"));
    expect(new Set(harsh.map((e) => e.deviceId)).size).toBeGreaterThanOrEqual(5);
  });

  it("cold-weather range loss: BEVs use more energy per km below −10 °C than above 0 °C", () => {
    const band = { cold: { kwh: 0, km: 0 }, mild: { kwh: 0, km: 0 } };
    for (const d of fleet.filter((x) => x.powertrain === "BEV")) {
      const rows = byDevice.get(d.deviceId) ?? [];
      for (let i = 1; i < rows.length; i++) {
        const a = rows[i - 1] as Tel;
        const b = rows[i] as Tel;
        const km = (b.odometerKm ?? 0) - (a.odometerKm ?? 0);
        const used = (a.socPct ?? 0) - (b.socPct ?? 0);
        if (!((a.speedKmh ?? 0) > 0 && (b.speedKmh ?? 0) > 0) || km <= 0 || km > 20 || used < 0 || a.weatherTemp === null) continue;
        const which = a.weatherTemp < -10 ? band.cold : a.weatherTemp >= 0 ? band.mild : null;
        if (which) {
          which.kwh += (used / 100) * (d.batteryKwh ?? 0);
          which.km += km;
        }
      }
    }
    expect(band.cold.km).toBeGreaterThan(1000);
    expect(band.mild.km).toBeGreaterThan(1000);
    const cold = band.cold.kwh / band.cold.km;
    const mild = band.mild.kwh / band.mild.km;
    // Winter range loss of 10–35 % (NAF/Motor winter tests: 20–30 %).
    expect(cold / mild).toBeGreaterThan(1.1);
    expect(cold / mild).toBeLessThan(1.35);
  });
});
