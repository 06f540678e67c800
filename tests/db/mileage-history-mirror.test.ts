import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devices, telemetry, tenants } from "@/lib/db/schema";
import { dailyOdometerSeries, type OdometerDay, type OdometerReading } from "@/lib/leasing/mileage-history";
import { loadOdometerHistory } from "@/lib/leasing/queries/load-odometer-history";
import { helsinkiTime } from "@/lib/seed/calendar";
import { generateSandboxFleet } from "@/lib/seed/generate-sandbox-fleet";
import { SANDBOX_TEMPLATE_NOW } from "../helpers/database-templates";
import { createSandboxDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The mileage forecast's daily odometer series exists twice: as SQL (load-odometer-history.ts, what
 * endpoint 19 reads) and as its JS twin (dailyOdometerSeries, what the backtest reads from in-memory
 * histories). They must agree, or the backtest measures a different forecast from the one served: here
 * on the seeded sandbox fleet and on a hand-made history with every kind of implausible reading.
 */

/** The fixed sandbox template's fleet: seeded at SANDBOX_TEMPLATE_NOW, so anchored at its hour. */
const ANCHOR = new Date(Math.floor(SANDBOX_TEMPLATE_NOW.getTime() / 3_600_000) * 3_600_000);
let tdb: TestDatabase;
let handle: TestDatabase["handle"];

beforeAll(async () => {
  tdb = await createSandboxDatabase();
  handle = tdb.handle;
}, 180_000);

afterAll(async () => {
  await tdb?.dispose();
});

function expectSameSeries(sqlDays: readonly OdometerDay[], jsDays: readonly OdometerDay[], label: string): void {
  expect(
    sqlDays.map((d) => d.day),
    label,
  ).toEqual(jsDays.map((d) => d.day));
  for (const [i, d] of sqlDays.entries()) {
    const j = jsDays[i] as OdometerDay;
    if (Number.isNaN(j.maxKm)) expect(d.maxKm, `${label} day ${d.day}`).toBeNaN();
    else expect(d.maxKm, `${label} day ${d.day}`).toBeCloseTo(j.maxKm, 6);
    expect(d.jumpKm, `${label} day ${d.day} jumps`).toBeCloseTo(j.jumpKm, 6);
    expect(d.spikes, `${label} day ${d.day} spikes`).toBe(j.spikes);
  }
}

describe("mileage history: SQL and its JS twin", () => {
  it("agree on every sandbox vehicle, loaded in one round trip", async () => {
    const fleet = generateSandboxFleet({ anchor: ANCHOR });
    const ids = fleet.devices.map((d) => d.deviceId);
    const queries: string[] = [];
    const loaded = await loadOdometerHistory({ ctx: { db: handle.db, tenantId: "sandbox" }, deviceIds: ids, onQuery: (l) => queries.push(l) });
    expect(queries).toEqual(["mileage"]);
    expect(loaded.size).toBe(42);
    let spikes = 0;
    for (const id of ids) {
      const readings: OdometerReading[] = fleet.telemetry.flatMap((t) => (t.deviceId === id && t.odometerKm !== null ? [{ km: t.odometerKm, ts: t.ts }] : []));
      const js = dailyOdometerSeries(readings);
      const got = loaded.get(id);
      expect(got, id).toBeDefined();
      expectSameSeries(got?.days ?? [], js, id);
      spikes += js.reduce((n, d) => n + d.spikes, 0);
      const master = fleet.devices.find((d) => d.deviceId === id);
      expect(got).toMatchObject({ contractKm: master?.contractKm, leaseMonths: master?.leaseMonths, leaseStart: master?.leaseStart });
    }
    console.info(`[mileage mirror] sandbox: ${spikes} spike readings set aside by both`);
  }, 120_000);

  it("agree on spikes, jumps, a rollback, a spike-only day and days across the DST change", async () => {
    const tenantId = "mirror-tenant";
    await handle.db.insert(tenants).values({ id: tenantId, name: "Mirror", ingestSecret: "x" });
    await handle.db.insert(devices).values({ tenantId, deviceId: "tricky", name: "tricky" });
    // 2025-10-20 … 2025-11-08 (DST ends 26 October), readings at 00:30, 12:00 and 23:30 Helsinki time.
    const day0 = Date.UTC(2025, 9, 20) / 86_400_000;
    const rs: OdometerReading[] = [];
    let km = 30_000;
    for (let i = 0; i < 20; i++) {
      for (const minutes of [30, 12 * 60, 23 * 60 + 30]) {
        km += 15;
        rs.push({ km, ts: new Date(helsinkiTime(day0 + i, minutes)) });
      }
    }
    const at = (i: number) => rs[i] as OdometerReading;
    at(10).km += 25_000; // one-sample spike
    at(20).km += 8_000; // a spike whose day keeps other readings
    for (let i = 30; i < rs.length; i++) at(i).km += 40_000; // an implausible jump that persists
    for (let i = 50; i < rs.length; i++) at(i).km -= 45_000; // a rollback that persists
    const level = at(rs.length - 1).km;
    rs.push({ km: level + 50_000, ts: new Date(helsinkiTime(day0 + 21, 12 * 60)) }); // a day whose only reading is a spike
    rs.push({ km: level + 40, ts: new Date(helsinkiTime(day0 + 22, 12 * 60)) });
    await handle.db.insert(telemetry).values(rs.map((r) => ({ tenantId, deviceId: "tricky", ts: r.ts, odometerKm: r.km })));
    const loaded = await loadOdometerHistory({ ctx: { db: handle.db, tenantId }, deviceIds: ["tricky"] });
    const js = dailyOdometerSeries(rs);
    expect(js.reduce((n, d) => n + d.spikes, 0)).toBe(3);
    expect(js.find((d) => d.day === day0 + 21)?.maxKm).toBeNaN();
    expect(js.reduce((n, d) => n + d.jumpKm, 0)).toBeCloseTo(40_000 + 15, 6);
    expectSameSeries(loaded.get("tricky")?.days ?? [], js, "tricky");
  });
});
