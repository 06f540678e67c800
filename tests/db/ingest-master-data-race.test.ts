import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, devices } from "@/lib/db/schema";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { createTenant } from "@/lib/tenants/create-tenant";
import { parseInput } from "@/lib/validation";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The ingest runs the detectors while Postgres executes its store statement, judging the batch with the
 * master data that the device upsert's JS mirror predicts from what the context read found. When another
 * transaction changes the device in between, the upsert merges with that newer row and returns other
 * values; the batch must then be judged again with what was stored. Here the other transaction holds the
 * device row (a newer declaration: a PHEV, or a smaller battery) while the batch's upsert waits for it, so
 * the context read saw the BEV as declared before and the stored device is the newer one. Postgres only:
 * PGlite has one connection.
 */

let tdb: TestDatabase;
let tenantId: string;
const T0 = Date.UTC(2026, 10, 17, 8);
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  tenantId = (await createTenant({ ctx: { db: tdb.handle.db }, input: { name: "Master-data race" } })).tenantId;
});
afterAll(async () => {
  await tdb?.dispose();
});

const ingest = (vehicles: Record<string, unknown>[], now: number) =>
  ingestTelemetry({ ctx: { db: tdb.handle.db, tenantId, isSandbox: false, log: rootLogger() }, input: parseInput(ingestBodySchema, { vehicles }), now: new Date(now) });

/** A BEV declared by its first record, then a record with the state of charge critically low (and fuel in the tank, which only a PHEV has). */
async function declareBev(vin: string, batteryKwh?: number) {
  await ingest([{ vin, timestamp: iso(T0), soc_percent: 70, raw_data: { vehicle: { powertrain: "BEV", ...(batteryKwh ? { battery_kwh: batteryKwh } : {}) } } }], T0 + 1_000);
}
const lowSoc = (vin: string) => [{ vin, timestamp: iso(T0 + 120_000), soc_percent: 4, fuel_level_pct: 50, speed_kmh: 0 }];

async function lowSocAlert(vin: string) {
  const found = await tdb.handle.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.tenantId, tenantId), eq(alerts.deviceId, `oem-${vin}`), eq(alerts.dedupeKey, ALERT_KEYS.batteryLowSoc)));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe("ingest detectors and a concurrent master-data change", () => {
  it("judges the batch with the stored master data, as the context read found it when nothing changed in between", async () => {
    const vin = "WRACE000000000001";
    await declareBev(vin);
    await ingest(lowSoc(vin), T0 + 180_000);
    const alert = await lowSocAlert(vin);
    expect(alert.severity).toBe("CRITICAL");
    expect(alert.technicalData).toMatchObject({ powertrain: "BEV", severity_downgraded_phev: false });
  });

  it("judges the batch again with what the upsert stored when another transaction declared another powertrain meanwhile", async () => {
    const vin = "WRACE000000000002";
    await declareBev(vin);
    await ingestWhileHeld(vin, { powertrain: "PHEV", powertrainSource: "master_data", masterDataAt: new Date(T0 + 60_000) }, lowSoc(vin));
    expect(await storedDevice(vin)).toMatchObject({ powertrain: "PHEV", powertrainSource: "master_data" });
    // A PHEV with fuel left cannot strand its driver: one level lower than the BEV's CRITICAL above.
    const alert = await lowSocAlert(vin);
    expect(alert.severity).toBe("WARNING");
    expect(alert.technicalData).toMatchObject({ powertrain: "PHEV", severity_downgraded_phev: true });
  });

  it("and when another transaction declared another battery size meanwhile", async () => {
    const vin = "WRACE000000000003";
    await declareBev(vin, 80);
    // 100 kW into 80 kWh is 1.25C (plausible); into the 10 kWh declared meanwhile, 10C.
    const charging = [{ vin, timestamp: iso(T0 + 120_000), soc_percent: 50, charging_status: "charging", speed_kmh: 0, raw_data: { charging_power_kw: 100 } }];
    await ingestWhileHeld(vin, { batteryKwh: 10, masterDataAt: new Date(T0 + 60_000) }, charging);
    expect(await storedDevice(vin)).toMatchObject({ batteryKwh: 10 });
    const found = await tdb.handle.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.tenantId, tenantId), eq(alerts.deviceId, `oem-${vin}`), eq(alerts.dedupeKey, ALERT_KEYS.chargingHighCRate)));
    expect(found).toHaveLength(1);
    expect(found[0]?.technicalData).toMatchObject({ battery_kwh: 10 });
  });
});

async function storedDevice(vin: string) {
  const [device] = await tdb.handle.db
    .select()
    .from(devices)
    .where(and(eq(devices.tenantId, tenantId), eq(devices.deviceId, `oem-${vin}`)));
  return device;
}

/**
 * Ingests `vehicles` while another transaction holds the device row with `change` applied: the batch's
 * context read sees the row as committed before, its store statement waits at the device upsert, and
 * only then does the other transaction commit.
 */
async function ingestWhileHeld(vin: string, change: Partial<typeof devices.$inferInsert>, vehicles: Record<string, unknown>[]): Promise<void> {
  const db = tdb.handle.db;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let lockedIt!: () => void;
  const locked = new Promise<void>((resolve) => (lockedIt = resolve));
  const other = db.transaction(async (tx) => {
    await tx
      .update(devices)
      .set(change)
      .where(and(eq(devices.tenantId, tenantId), eq(devices.deviceId, `oem-${vin}`)));
    lockedIt();
    await gate;
  });
  let ingesting: Promise<unknown> | undefined;
  try {
    await locked;
    let settled = false;
    ingesting = ingest(vehicles, T0 + 180_000).finally(() => (settled = true));
    for (let i = 0; ; i++) {
      const [waiting] = await rows<{ n: unknown }>(
        db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%with r as (%'`,
      );
      if (Number(waiting?.n) > 0) break;
      if (settled) throw new Error("the ingest finished without waiting for the device row");
      if (i > 200) throw new Error("the ingest's store statement never waited for the device row");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    release();
    const [committed, ingested] = await Promise.allSettled([other, ingesting]);
    // A failed task is the cause of whatever the wait above threw, so it replaces that error.
    // eslint-disable-next-line no-unsafe-finally
    if (committed.status === "rejected") throw committed.reason;
    // eslint-disable-next-line no-unsafe-finally
    if (ingested.status === "rejected") throw ingested.reason;
  }
}
