import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { getVehicleSummary } from "@/lib/dashboard/get-vehicle-summary";
import { getOdometerHistory } from "@/lib/dashboard/odometer-history";
import { listVehicleAlerts } from "@/lib/dashboard/vehicle-alerts";
import { telemetry } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { countingDb } from "../helpers/counting-db";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertAlert, insertDevices } from "../helpers/fixtures";

/** The vehicle page's other reads: its recent alerts, its odometer line and its marker, all scoped to the session's tenant. */
let tdb: TestDatabase;
const ctxOf = (tenantId: string, db = tdb.handle.db): TenantCtx => ({ db, tenantId, isSandbox: false, log: rootLogger() });
let a: string;
let b: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  a = (await createTenantWithKey(tdb.handle.db, { name: "A" })).tenantId;
  b = (await createTenantWithKey(tdb.handle.db, { name: "B" })).tenantId;
  await insertDevices(tdb.handle.db, a, [
    { deviceId: "car", powertrain: "BEV", lat: 61.5, lon: 23.8 },
    { deviceId: "other", powertrain: "ICE" },
  ]);
  await insertDevices(tdb.handle.db, b, [{ deviceId: "car", powertrain: "BEV" }]);
});

afterAll(async () => {
  await tdb?.dispose();
});

describe("listVehicleAlerts", () => {
  it("the latest alerts of this vehicle of this tenant, newest first, at most the limit", async () => {
    const t0 = Date.parse("2026-11-01T00:00:00Z");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await insertAlert(tdb.handle.db, a, { deviceId: "car", severity: i % 2 ? "WARNING" : "INFO", createdAt: new Date(t0 + i * 3_600_000) }));
    await insertAlert(tdb.handle.db, a, { deviceId: "other", severity: "CRITICAL", createdAt: new Date(t0 + 100 * 3_600_000) });
    await insertAlert(tdb.handle.db, b, { deviceId: "car", severity: "CRITICAL", createdAt: new Date(t0 + 100 * 3_600_000) });

    const counting = countingDb(tdb.handle.db);
    const found = await listVehicleAlerts({ ctx: ctxOf(a, counting.db), input: { device_id: "car" } });
    expect(counting.statements()).toBe(1);
    expect(found.map((x) => x.id)).toEqual(ids.slice(2).reverse());
    expect(found.every((x) => x.severity !== "CRITICAL")).toBe(true);
    expect(await listVehicleAlerts({ ctx: ctxOf(b), input: { device_id: "car" } })).toHaveLength(1);
  });
});

describe("getVehicleSummary (the map's marker)", () => {
  it("carries the latest position and the highest open alert's level; acknowledged alerts and other tenants' do not count", async () => {
    const summary = await getVehicleSummary({ ctx: ctxOf(a), input: { device_id: "car" } });
    expect(summary).toMatchObject({ lat: 61.5, lon: 23.8, alertLevel: "warning" });
    await insertAlert(tdb.handle.db, a, { deviceId: "car", severity: "CRITICAL", acknowledged: true });
    expect((await getVehicleSummary({ ctx: ctxOf(a), input: { device_id: "car" } }))?.alertLevel).toBe("warning");
    expect((await getVehicleSummary({ ctx: ctxOf(b), input: { device_id: "car" } }))?.alertLevel).toBe("critical");
    expect(await getVehicleSummary({ ctx: ctxOf(a), input: { device_id: "nothing" } })).toBeNull();
  });
});

describe("getOdometerHistory", () => {
  it("the highest reading per Helsinki day, in day order, this tenant's only, in one round trip", async () => {
    await tdb.handle.db.insert(telemetry).values([
      // 23:30 UTC on 2 Nov is 01:30 on 3 Nov in Helsinki (UTC+2).
      { tenantId: a, deviceId: "car", ts: new Date("2026-11-02T10:00:00Z"), odometerKm: 1000 },
      { tenantId: a, deviceId: "car", ts: new Date("2026-11-02T12:00:00Z"), odometerKm: 1040 },
      { tenantId: a, deviceId: "car", ts: new Date("2026-11-02T23:30:00Z"), odometerKm: 1100 },
      { tenantId: a, deviceId: "car", ts: new Date("2026-11-04T08:00:00Z"), odometerKm: 1180 },
      { tenantId: a, deviceId: "car", ts: new Date("2026-11-04T09:00:00Z"), odometerKm: null, socPct: 40 },
      { tenantId: b, deviceId: "car", ts: new Date("2026-11-03T08:00:00Z"), odometerKm: 99_999 },
    ]);
    const counting = countingDb(tdb.handle.db);
    expect(await getOdometerHistory({ ctx: ctxOf(a, counting.db), input: { device_id: "car" } })).toEqual([
      { day: "2026-11-02", km: 1040 },
      { day: "2026-11-03", km: 1100 },
      { day: "2026-11-04", km: 1180 },
    ]);
    expect(counting.statements()).toBe(1);
    expect(await getOdometerHistory({ ctx: ctxOf(a), input: { device_id: "other" } })).toEqual([]);
  });
});
