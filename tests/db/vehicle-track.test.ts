import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { getVehicleTrack, TRACK_DAYS } from "@/lib/dashboard/vehicle-track";
import { telemetry } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { countingDb } from "../helpers/counting-db";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";

/**
 * The vehicle page's track: the session tenant's positions only, the TRACK_DAYS before the latest
 * position, in time order, thinned evenly to the bound with the first and latest position kept, in one
 * round trip.
 */
let tdb: TestDatabase;
const ctxOf = (tenantId: string, db = tdb.handle.db): TenantCtx => ({ db, tenantId, isSandbox: false, log: rootLogger() });
const HOUR = 3_600_000;
const latest = new Date("2026-11-20T12:00:00Z");
let a: string;
let b: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  a = (await createTenantWithKey(tdb.handle.db, { name: "A" })).tenantId;
  b = (await createTenantWithKey(tdb.handle.db, { name: "B" })).tenantId;
  await insertDevices(tdb.handle.db, a, [{ deviceId: "van-1", powertrain: "BEV" }]);
  await insertDevices(tdb.handle.db, b, [{ deviceId: "van-1", powertrain: "BEV" }]);
  // Tenant A: one position an hour for 5 days up to `latest` (121 rows), lat encoding the hour index;
  // plus rows without a position and one with an impossible latitude, which the track leaves out.
  const hoursBack = Array.from({ length: 121 }, (_, i) => 120 - i);
  await tdb.handle.db
    .insert(telemetry)
    .values([
      ...hoursBack.map((h) => ({ tenantId: a, deviceId: "van-1", ts: new Date(latest.getTime() - h * HOUR), lat: 60 + h / 1000, lon: 24.9 })),
      { tenantId: a, deviceId: "van-1", ts: new Date(latest.getTime() - 30 * 60_000), lat: null, lon: null, socPct: 50 },
      { tenantId: a, deviceId: "van-1", ts: new Date(latest.getTime() - 90 * 60_000), lat: 95, lon: 24.9 },
    ]);
  // Tenant B: the same device id, elsewhere, and later: it must neither appear nor move A's window.
  await tdb.handle.db.insert(telemetry).values([0, 1, 2].map((h) => ({ tenantId: b, deviceId: "van-1", ts: new Date(latest.getTime() + (10 - h) * HOUR), lat: -33.9, lon: 18.4 })));
});

afterAll(async () => {
  await tdb?.dispose();
});

describe("getVehicleTrack", () => {
  it("reads only the tenant's positions of the TRACK_DAYS before the latest one, in time order, in one round trip", async () => {
    const counting = countingDb(tdb.handle.db);
    const track = await getVehicleTrack({ ctx: ctxOf(a, counting.db), input: { device_id: "van-1" } });
    expect(counting.statements()).toBe(1);
    expect(track.points).toHaveLength(TRACK_DAYS * 24 + 1);
    expect(track.total_points).toBe(TRACK_DAYS * 24 + 1);
    expect(track.points.every(([lat, lon]) => lat >= 60 && lat <= 60.121 && lon === 24.9)).toBe(true);
    const times = track.points.map((p) => Date.parse(p[2]));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(times[0]).toBe(latest.getTime() - TRACK_DAYS * 24 * HOUR);
    expect(times.at(-1)).toBe(latest.getTime());
    expect(track.to).toBe(latest.toISOString());
    expect(track.from).toBe(new Date(latest.getTime() - TRACK_DAYS * 24 * HOUR).toISOString());

    const other = await getVehicleTrack({ ctx: ctxOf(b), input: { device_id: "van-1" } });
    expect(other.points.map((p) => [p[0], p[1]])).toEqual([
      [-33.9, 18.4],
      [-33.9, 18.4],
      [-33.9, 18.4],
    ]);
  });

  it("thins evenly to the bound, keeping the first and the latest position", async () => {
    const track = await getVehicleTrack({ ctx: ctxOf(a), input: { device_id: "van-1" }, maxPoints: 10 });
    expect(track.points).toHaveLength(10);
    expect(track.total_points).toBe(TRACK_DAYS * 24 + 1);
    const hours = track.points.map((p) => (latest.getTime() - Date.parse(p[2])) / HOUR);
    expect(hours[0]).toBe(TRACK_DAYS * 24);
    expect(hours.at(-1)).toBe(0);
    // 73 positions into 10: gaps of 8 hours, never more than one hour apart from even.
    const gaps = hours.slice(1).map((h, i) => hours[i]! - h);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
    expect(gaps.reduce((s, g) => s + g, 0)).toBe(TRACK_DAYS * 24);
  });

  it("is empty for a device the tenant does not hold or that never reported a position", async () => {
    const none = await getVehicleTrack({ ctx: ctxOf(a), input: { device_id: "nobody" } });
    expect(none).toEqual({ device_id: "nobody", points: [], total_points: 0, from: null, to: null });
  });
});
