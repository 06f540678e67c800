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
 * device row (a newer powertrain declaration, PHEV) while the batch's upsert waits for it, so the context
 * read saw BEV and the stored device is PHEV. Postgres only: PGlite has one connection.
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
async function declareBev(vin: string) {
  await ingest([{ vin, timestamp: iso(T0), soc_percent: 70, raw_data: { vehicle: { powertrain: "BEV" } } }], T0 + 1_000);
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

  it("judges the batch again with what the upsert stored when another transaction changed the device meanwhile", async () => {
    const db = tdb.handle.db;
    const vin = "WRACE000000000002";
    const deviceId = `oem-${vin}`;
    await declareBev(vin);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let lockedIt!: () => void;
    const locked = new Promise<void>((resolve) => (lockedIt = resolve));
    // A newer declaration (PHEV), holding the device row until released.
    const other = db.transaction(async (tx) => {
      await tx
        .update(devices)
        .set({ powertrain: "PHEV", powertrainSource: "master_data", masterDataAt: new Date(T0 + 60_000) })
        .where(and(eq(devices.tenantId, tenantId), eq(devices.deviceId, deviceId)));
      lockedIt();
      await gate;
    });
    await locked;
    const ingesting = ingest(lowSoc(vin), T0 + 180_000);
    // The batch's store statement reaches the device upsert and waits for the row (its context read saw BEV).
    for (let i = 0; ; i++) {
      const [waiting] = await rows<{ n: unknown }>(
        db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%with r as (%'`,
      );
      if (Number(waiting?.n) > 0) break;
      if (i > 200) throw new Error("the ingest's store statement never waited for the device row");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    await other;
    await ingesting;

    const [device] = await db.select().from(devices).where(and(eq(devices.tenantId, tenantId), eq(devices.deviceId, deviceId)));
    expect(device).toMatchObject({ powertrain: "PHEV", powertrainSource: "master_data" });
    // A PHEV with fuel left cannot strand its driver: one level lower than the BEV's CRITICAL above.
    const alert = await lowSocAlert(vin);
    expect(alert.severity).toBe("WARNING");
    expect(alert.technicalData).toMatchObject({ powertrain: "PHEV", severity_downgraded_phev: true });
  });
});
