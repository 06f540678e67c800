import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, telemetry } from "@/lib/db/schema";
import { rows } from "@/lib/db/sql-values";
import { runDetectors } from "@/lib/detectors";
import type { TelemetryRecord } from "@/lib/detectors/types";
import { masterUpdateFor } from "@/lib/ingest/normalize-records";
import { insertAlerts, storeBatch, toTelemetryRow } from "@/lib/ingest/store-batch";
import { createTenant } from "@/lib/tenants/create-tenant";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * Two batches of one device raising the same problem at the same severity at the same time: the
 * second one's statement cannot see the first's uncommitted alert, tries to raise its own, meets the
 * open-alert index and must fold its occurrence into the first alert (the upsert branch of
 * insertAlerts, which the sequential tests never reach). Postgres only: PGlite has one connection.
 */

let tdb: TestDatabase;
let tenantId: string;
const T = (m: number) => new Date(Date.UTC(2026, 10, 17, 8, m));

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  tenantId = (await createTenant({ ctx: { db: tdb.handle.db }, input: { name: "Concurrency" } })).tenantId;
});
afterAll(async () => {
  await tdb?.dispose();
});

const record = (ts: Date, sohPct: number): TelemetryRecord => ({
  deviceId: "dev-c",
  vin: "VINC",
  ts,
  odometerKm: null,
  socPct: null,
  sohPct,
  batteryVoltage: null,
  chargingStatus: null,
  chargingPowerKw: null,
  lat: null,
  lon: null,
  speedKmh: 0,
  fuelLevelPct: null,
  engineHours: null,
  dtcCodes: null,
  weatherTemp: null,
  ignition: null,
  rawData: null,
});

const draftsFor = (r: TelemetryRecord) => runDetectors({ devices: [], recordsByDevice: new Map([[r.deviceId, [r]]]) }).filter((d) => d.dedupeKey === "battery:soh_low");

describe("alert lifecycle under concurrent batches", () => {
  it("a batch that meets the index folds its occurrence into the alert the other batch raised", async () => {
    const db = tdb.handle.db;
    const first = record(T(10), 58);
    const second = record(T(20), 55);
    const r1 = new Date(Date.UTC(2026, 10, 17, 9));
    const r2 = new Date(Date.UTC(2026, 10, 17, 9, 0, 1));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let raisedFirst!: () => void;
    const firstRaised = new Promise<void>((resolve) => (raisedFirst = resolve));

    const tx1 = db.transaction(async (tx) => {
      await storeBatch(tx, tenantId, { updates: [masterUpdateFor("dev-c", [first], null)], records: [first], receivedAt: r1 });
      const counts = await insertAlerts(tx, tenantId, draftsFor(first), r1);
      raisedFirst();
      await gate;
      return counts;
    });
    await firstRaised;
    // The second batch's record is stored without touching the device row (which the first holds).
    const tx2 = db.transaction(async (tx) => {
      await tx.insert(telemetry).values(toTelemetryRow(tenantId, second, r2));
      return insertAlerts(tx, tenantId, draftsFor(second), r2);
    });
    // Once the second statement has reached the index and waits on the first transaction, commit that one.
    let settled = false;
    void tx2.finally(() => (settled = true)).catch(() => undefined);
    for (const deadline = Date.now() + 10_000; ;) {
      const [waiting] = await rows<{ n: number }>(db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      if (Number(waiting?.n) > 0) break;
      if (settled) throw new Error("the second batch finished without waiting for the first");
      if (Date.now() > deadline) throw new Error("the second batch's alert never waited for the first's");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    // Each names the alert it changed (what its event says): the same alert, raised by one, updated by the other.
    const [one, two] = [await tx1, await tx2];
    expect(one).toMatchObject({ raised: 1, updated: 0, changed: [{ deviceId: "dev-c", raised: true }] });
    expect(two).toMatchObject({ raised: 0, updated: 1, changed: [{ id: one.changed[0]!.id, deviceId: "dev-c", raised: false }] });

    const stored = await db
      .select()
      .from(alerts)
      .where(and(eq(alerts.tenantId, tenantId), eq(alerts.deviceId, "dev-c")));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      severity: "CRITICAL",
      occurrences: 2,
      firstSeenAt: T(10),
      lastSeenAt: T(20),
      worstValue: 55,
      latestValue: 55,
      createdAt: T(10),
    });
    expect(stored[0]?.technicalData).toMatchObject({ soh_pct: 55 });
  });
});
