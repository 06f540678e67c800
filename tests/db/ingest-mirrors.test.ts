import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devices } from "@/lib/db/schema";
import { type DeviceMaster, mergeDeviceMaster } from "@/lib/ingest/device-context";
import type { DeviceMasterUpdate } from "@/lib/ingest/normalize-records";
import { storeBatch } from "@/lib/ingest/store-batch";
import { createTenant } from "@/lib/tenants/create-tenant";
import type { Powertrain, PowertrainSource } from "@/lib/vocabulary/powertrain";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The master-data precedence exists as SQL (the device upsert) and as a JS mirror (lib/vocabulary,
 * lib/ingest/device-context): this runs both against each other on a real database (Postgres and
 * PGlite).
 */

const T = (h: number) => new Date(Date.UTC(2026, 10, 17, h));

interface Declared {
  powertrain: Powertrain | null;
  source: PowertrainSource | null;
  batteryKwh: number | null;
  masterDataAt: Date | null;
}

function update(deviceId: string, d: Declared): DeviceMasterUpdate {
  return {
    deviceId,
    vin: "VIN1",
    make: null,
    model: null,
    year: null,
    powertrain: d.powertrain,
    powertrainSource: d.source,
    fuelType: null,
    batteryKwh: d.batteryKwh,
    originalPriceEur: null,
    contractKm: null,
    leaseStart: null,
    leaseMonths: null,
    assetClass: null,
    masterDataAt: d.masterDataAt,
    latestTs: T(12),
    odometerMaxKm: null,
    odometerMaxAt: null,
    eventsReportedAt: null,
    denseSpeedAt: null,
  };
}

/** What is stored before the payload (null: the device is new). */
const STORED: (Declared | null)[] = [
  null,
  { powertrain: "BEV", source: "inferred", batteryKwh: null, masterDataAt: null },
  { powertrain: "PHEV", source: "master_data", batteryKwh: 18.1, masterDataAt: T(5) },
  { powertrain: "ICE", source: "master_data", batteryKwh: null, masterDataAt: T(5) },
  { powertrain: null, source: null, batteryKwh: 64, masterDataAt: T(5) },
  { powertrain: null, source: null, batteryKwh: null, masterDataAt: null },
];
/** What a payload says. */
const INCOMING: Declared[] = [
  { powertrain: "BEV", source: "inferred", batteryKwh: null, masterDataAt: null },
  { powertrain: "PHEV", source: "inferred", batteryKwh: null, masterDataAt: null },
  { powertrain: "HEV", source: "master_data", batteryKwh: 1.3, masterDataAt: T(4) },
  { powertrain: "HEV", source: "master_data", batteryKwh: 1.5, masterDataAt: T(5) },
  { powertrain: "BEV", source: "master_data", batteryKwh: null, masterDataAt: T(6) },
  { powertrain: null, source: null, batteryKwh: 77, masterDataAt: T(6) },
  { powertrain: null, source: null, batteryKwh: 40, masterDataAt: T(1) },
  { powertrain: null, source: null, batteryKwh: null, masterDataAt: null },
];

describe.each(["postgres", "pglite"] as const)("ingest mirrors on %s", (kind) => {
  let tdb: TestDatabase;
  let tenantId: string;

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    tenantId = (await createTenant({ ctx: { db: tdb.handle.db }, input: { name: `Mirrors ${kind}` } })).tenantId;
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("merges master data in JS exactly as the SQL device upsert does, and the upsert returns what it stored", async () => {
    const db = tdb.handle.db;
    const id = (i: number, j: number) => `m-${i}-${j}`;
    const pairs = STORED.flatMap((s, i) => INCOMING.map((inc, j) => ({ id: id(i, j), stored: s, incoming: inc })));
    const readMaster = async (): Promise<Map<string, DeviceMaster>> => {
      const found = await db
        .select({ deviceId: devices.deviceId, powertrain: devices.powertrain, powertrainSource: devices.powertrainSource, batteryKwh: devices.batteryKwh, masterDataAt: devices.masterDataAt })
        .from(devices)
        .where(eq(devices.tenantId, tenantId));
      return new Map(found.map(({ deviceId, ...m }) => [deviceId, m]));
    };

    await db.transaction((tx) => storeBatch(tx, tenantId, { updates: pairs.flatMap((p) => (p.stored ? [update(p.id, p.stored)] : [])), records: [], receivedAt: T(12) }));
    const before = await readMaster();
    const returned = await db.transaction((tx) => storeBatch(tx, tenantId, { updates: pairs.map((p) => update(p.id, p.incoming)), records: [], receivedAt: T(13) }));
    const after = await readMaster();

    expect(after.size).toBe(pairs.length);
    for (const p of pairs) {
      const expected = mergeDeviceMaster(before.get(p.id) ?? null, update(p.id, p.incoming));
      expect(after.get(p.id), `${p.id}: ${JSON.stringify(p)}`).toEqual(expected);
      expect(returned.get(p.id)).toEqual({ powertrain: expected.powertrain, batteryKwh: expected.batteryKwh });
    }
    // The matrix holds the cases the rule is about.
    expect(after.get(id(1, 2))).toMatchObject({ powertrain: "HEV", powertrainSource: "master_data" }); // declaration beats inference
    expect(after.get(id(2, 0))).toMatchObject({ powertrain: "PHEV", powertrainSource: "master_data" }); // inference never beats a declaration
    expect(after.get(id(3, 2))).toMatchObject({ powertrain: "ICE", batteryKwh: 1.3 }); // older declaration: fills the gap only
    expect(after.get(id(4, 6))).toMatchObject({ batteryKwh: 64 }); // older battery size does not overwrite
  });
});
