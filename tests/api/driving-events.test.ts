import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "@/lib/db/sql-values";
import { devices, drivingEvents, telemetry } from "@/lib/db/schema";
import { tasScoreSchema } from "@/lib/schemas/scores-device";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * Driving events end to end: `raw_data.events` and dense speed samples through POST /oem/ingest,
 * stored once in `driving_events`, counted by the Total Asset Score's behaviour pillar
 * (GET /tas/{id}). The sandbox's event-reporting, heavy-footed vehicles: tests/api/sandbox-fleet.test.ts.
 */

let tdb: TestDatabase;
let app: RouteServer;
let t: Awaited<ReturnType<typeof createTenantWithKey>>;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Two days ago, on the whole minute: recent enough for every 90-day window. */
const BASE = Math.floor((Date.now() - 2 * DAY) / MIN) * MIN;
const iso = (ms: number) => new Date(ms).toISOString();
let vinSeq = 0;
const newVin = () => `YV1EVT0000${String(++vinSeq).padStart(7, "0")}`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  t = await createTenantWithKey(tdb.handle.db, { name: "Driving events" });
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

async function ingest(vehicles: unknown[], key = t.key) {
  const res = await app.fetch("/api/v1/oem/ingest", { key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ vehicles }) });
  return { status: res.status, body: (await res.json()) as { error?: string; details?: { field: string }[] } };
}

async function usagePillar(deviceId: string, key = t.key) {
  const res = await app.fetch(`/api/v1/tas/${deviceId}`, { key });
  expect(res.status).toBe(200);
  return tasScoreSchema.parse(await res.json()).pillars.usage_behaviour;
}

/** Rows in driving_events for one device, counted at the database. */
async function storedEvents(tenantId: string, deviceId: string) {
  return tdb.handle.db
    .select()
    .from(drivingEvents)
    .where(and(eq(drivingEvents.tenantId, tenantId), eq(drivingEvents.deviceId, deviceId)));
}

/** 21 hourly records covering 1,000 km (50 km/h, nothing a detector flags); `extra` per record index. */
function drive(vin: string, odoStart: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  return Array.from({ length: 21 }, (_, i) => ({ vin, timestamp: iso(BASE + i * HOUR), odometer_km: odoStart + i * 50, speed_kmh: 50, fuel_level_pct: 60, ...extra(i) }));
}

describe("harsh events in the Total Asset Score", () => {
  it("are unknown (null) while nothing reports them, and 0 once the source has reported empty event lists over 100 km", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    // Odometer only: no speed, no events. Nothing tells us about the driving style.
    const records = Array.from({ length: 11 }, (_, i) => ({ vin, timestamp: iso(BASE + i * HOUR), odometer_km: 10_000 + i * 50 }));
    expect((await ingest(records)).status).toBe(200);
    expect(await usagePillar(id)).toEqual({ score: 50, source: "insufficient_data" });

    // The source starts reporting (empty) event lists: it has watched 0 km so far, still unknown
    // (the rate's km are those the source covered, not the period's 500 km).
    expect((await ingest([{ vin, timestamp: iso(BASE + 11 * HOUR), odometer_km: 10_550, raw_data: { events: [] } }])).status).toBe(200);
    expect(await usagePillar(id)).toEqual({ score: 50, source: "insufficient_data" });
    // Two more hours, 100 km watched: no event over the minimum exposure is a measured 0.
    const more = [12, 13].map((h) => ({ vin, timestamp: iso(BASE + h * HOUR), odometer_km: 10_000 + h * 50, raw_data: { events: [] } }));
    expect((await ingest(more)).status).toBe(200);
    expect(await usagePillar(id)).toEqual({ score: 100, source: "telemetry_derived" });
    const [device] = await tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, t.tenantId), eq(devices.deviceId, id)));
    expect(device?.eventsReportedAt?.toISOString()).toBe(iso(BASE + 13 * HOUR));
    expect(await storedEvents(t.tenantId, id)).toEqual([]);
  });

  it("count the OEM's harsh events once: 3 per 1,000 km cost 30 points, and a re-sent payload changes nothing", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const events: Record<number, unknown[]> = {
      3: [{ kind: "harsh_braking", ts: iso(BASE + 2 * HOUR + 17 * MIN), value: 0.42, duration_s: 1.4 }],
      7: [
        { kind: "harsh_acceleration", ts: iso(BASE + 6 * HOUR + 31 * MIN), value: 0.35 },
        { kind: "overspeed", ts: iso(BASE + 6 * HOUR + 40 * MIN), value: 138, duration_s: 95 },
      ],
      12: [
        { kind: "harsh_cornering", ts: iso(BASE + 11 * HOUR + 5 * MIN), value: 0.5 },
        { kind: "tailgating", ts: iso(BASE + 11 * HOUR + 6 * MIN), distance_m: 4 },
      ],
    };
    const payload = drive(vin, 20_000, (i) => ({ raw_data: { events: events[i] ?? [] } }));
    expect((await ingest(payload)).status).toBe(200);
    // The same drive reporting no events: the baseline (tas-2027.01 also counts night exposure, which
    // depends on the hour this test runs).
    const twin = newVin();
    expect((await ingest(drive(twin, 20_000, () => ({ raw_data: { events: [] } })))).status).toBe(200);
    const baseline = await usagePillar(`oem-${twin}`);

    // 10 points per severity-weighted harsh event per 1,000 km: two moderate (0.42 g, 0.35 g) and one
    // severe (0.5 g, weight 2) = 4 per 1,000 km = 40 points below the same drive without events.
    const expectedPillar = { score: Math.round((baseline.score - 40) * 10) / 10, source: "telemetry_derived" };
    expect(await usagePillar(id)).toEqual(expectedPillar);
    const stored = await storedEvents(t.tenantId, id);
    expect(stored.map((e) => [e.kind, e.source, e.value, e.ts.toISOString()]).sort()).toEqual(
      [
        ["harsh_acceleration", "oem", 0.35, iso(BASE + 6 * HOUR + 31 * MIN)],
        ["harsh_braking", "oem", 0.42, iso(BASE + 2 * HOUR + 17 * MIN)],
        ["harsh_cornering", "oem", 0.5, iso(BASE + 11 * HOUR + 5 * MIN)],
        ["overspeed", "oem", 138, iso(BASE + 6 * HOUR + 40 * MIN)],
      ].sort(),
    );
    // The unknown kind stays in the record's raw_data, as sent.
    const [withUnknown] = await tdb.handle.db
      .select({ rawData: telemetry.rawData })
      .from(telemetry)
      .where(and(eq(telemetry.tenantId, t.tenantId), eq(telemetry.deviceId, id), eq(telemetry.ts, new Date(BASE + 12 * HOUR))));
    expect(withUnknown?.rawData?.events).toEqual(events[12]);

    // The same payload again, then the same records carrying an extra event: neither adds a row.
    expect((await ingest(payload)).status).toBe(200);
    const altered = payload.map((r, i) => (i === 5 ? { ...r, raw_data: { events: [{ kind: "harsh_braking", ts: iso(BASE + 4 * HOUR + 50 * MIN), value: 0.6 }] } } : r));
    expect((await ingest(altered)).status).toBe(200);
    expect(await storedEvents(t.tenantId, id)).toHaveLength(4);
    const [{ n }] = (await rows<{ n: number }>(tdb.handle.db, sql`select count(*)::int as n from telemetry where tenant_id = ${t.tenantId} and device_id = ${id}`)) as [
      { n: number },
    ];
    expect(Number(n)).toBe(21);
    expect(await usagePillar(id)).toEqual(expectedPillar);
  });

  it("are derived from dense speed samples when no event is reported: one harsh braking per 200 km of dense driving costs 50 points", async () => {
    const harsh = newVin();
    const gentle = newVin();
    // Two hours at 100 km/h sampled at 1 Hz (200 km of dense driving: the harsh-event exposure is the
    // distance over which events could be derived, Σ speed × time of the dense pairs); the harsh car
    // brakes once 100 → 88 km/h in one second (0.34 g) at minute 30 and recovers at 1 km/h per second.
    const dense = (vin: string, odoStart: number, dip: boolean) =>
      Array.from({ length: 7201 }, (_, s) => {
        const after = s - 30 * 60;
        const v = !dip || after <= 0 ? 100 : Math.min(100, 88 + (after - 1));
        return { vin, timestamp: iso(BASE + s * 1000), speed_kmh: v, odometer_km: Math.round((odoStart + (s * 100) / 3600) * 10) / 10 };
      });
    const harshRecords = dense(harsh, 30_000, true);
    for (const records of [harshRecords, dense(gentle, 40_000, false)]) {
      for (let i = 0; i < records.length; i += 2000) expect((await ingest(records.slice(i, i + 2000))).status).toBe(200);
    }

    // One moderate (0.34 g) harsh braking over 200 km = 5 per 1,000 km = 50 points against the same drive without it.
    const gentlePillar = await usagePillar(`oem-${gentle}`);
    expect(gentlePillar.source).toBe("telemetry_derived");
    expect(await usagePillar(`oem-${harsh}`)).toEqual({ score: Math.round((gentlePillar.score - 50) * 10) / 10, source: "telemetry_derived" });
    expect((await storedEvents(t.tenantId, `oem-${harsh}`)).map((e) => [e.kind, e.source, e.value, e.durationS, e.ts.toISOString(), e.recordTs.toISOString()])).toEqual([
      ["harsh_braking", "derived", 0.34, 1, iso(BASE + 30 * MIN), iso(BASE + 30 * MIN + 1000)],
    ]);
    expect(await storedEvents(t.tenantId, `oem-${gentle}`)).toEqual([]);
    const known = await tdb.handle.db
      .select({ id: devices.deviceId, dense: devices.denseSpeedAt })
      .from(devices)
      .where(inArray(devices.deviceId, [`oem-${harsh}`, `oem-${gentle}`]));
    expect(known.map((d) => d.dense?.toISOString())).toEqual([iso(BASE + 7200 * 1000), iso(BASE + 7200 * 1000)]);

    // Re-sending the braking derives nothing new.
    expect((await ingest(harshRecords.slice(30 * 60 - 1, 30 * 60 + 3))).status).toBe(200);
    expect(await storedEvents(t.tenantId, `oem-${harsh}`)).toHaveLength(1);
  });
});

describe("POST /oem/ingest: driving events are validated with the rest of the payload", () => {
  it("400 names the record, the event and the field; a future event time is refused; nothing is stored", async () => {
    const vin = newVin();
    const counts = async () =>
      (
        await rows<{ t: number; e: number }>(
          tdb.handle.db,
          sql`select (select count(*)::int from telemetry where tenant_id = ${t.tenantId}) as t, (select count(*)::int from driving_events where tenant_id = ${t.tenantId}) as e`,
        )
      )[0];
    const before = await counts();
    const bad = await ingest([
      { vin, timestamp: iso(BASE), raw_data: { events: [{ kind: "harsh_braking", ts: iso(BASE), value: 0.4 }] } },
      { vin, timestamp: iso(BASE + MIN), raw_data: { events: [{ kind: "lane_change" }, { kind: "harsh_braking", ts: iso(BASE), value: 3 }] } },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_request");
    expect(bad.body.details?.map((d) => d.field)).toEqual(["vehicles.1.raw_data.events.1.value"]);

    const future = await ingest([{ vin, timestamp: iso(BASE), raw_data: { events: [{ kind: "overspeed", ts: iso(Date.now() + 2 * HOUR), value: 150 }] } }]);
    expect(future.status).toBe(400);
    expect(future.body.details?.map((d) => d.field)).toEqual(["vehicles.0.raw_data.events.0.ts"]);
    expect(await counts()).toEqual(before);
  });
});
