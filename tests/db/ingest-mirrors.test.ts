import { and, asc, eq, sql } from "drizzle-orm";
import { rows } from "@/lib/db/sql-values";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, devices, drivingEvents, telemetry } from "@/lib/db/schema";
import type { AlertDraft } from "@/lib/detectors/types";
import { type DeviceMaster, mergeDeviceMaster } from "@/lib/ingest/device-context";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { parseInput } from "@/lib/validation";
import type { DeviceMasterUpdate } from "@/lib/ingest/normalize-records";
import { readDeviceContexts, storeBatch } from "@/lib/ingest/store-batch";
import { generateSandboxFleet, type SandboxFleet } from "@/lib/seed/generate-sandbox-fleet";
import { rngFor } from "@/lib/seed/prng";
import { type Acknowledge, hourlyBatches, replayedDeviceState, replayFeed } from "@/lib/seed/replay-feed";
import { createTenant } from "@/lib/tenants/create-tenant";
import type { Powertrain, PowertrainSource } from "@/lib/vocabulary/powertrain";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The sandbox replay carries, without a database, what the ingest reads back from one: the merged
 * master data and the device context between batches. These tests run both against each other on a
 * real database (Postgres and PGlite): the JS mirrors of lib/vocabulary and lib/ingest/device-context
 * against the SQL upsert, and replayFeed against ingestTelemetry batch by batch, acknowledgements
 * and the alert lifecycle included.
 */

const DAY = 86_400_000;
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

/** The sandbox's fleet manager rule, in small: some alerts acknowledged 1–48 h after creation. */
const acknowledge: Acknowledge = ({ draft, createdAt }) => {
  const rng = rngFor("mirror-test", draft.deviceId, draft.dedupeKey, createdAt.getTime());
  const at = new Date(createdAt.getTime() + Math.round(rng.float(1, 48) * 60) * 60_000);
  return rng.chance(0.6) ? { at, by: "ops@example.test" } : null;
};

/** Feed slices that exercise the rules: overspeed and OEM events, the weak 12 V battery, the odometer catch-up, the stalled charger. */
const SLICES: { deviceId: string; fromDaysAgo: number; toDaysAgo: number }[] = [
  { deviceId: "sbx-001", fromDaysAgo: 20, toDaysAgo: 0 },
  { deviceId: "sbx-036", fromDaysAgo: 25, toDaysAgo: 5 },
  { deviceId: "sbx-040", fromDaysAgo: 49, toDaysAgo: 38 },
  { deviceId: "sbx-013", fromDaysAgo: 29, toDaysAgo: 21 },
];
const ANCHOR = new Date("2025-03-14T10:00:00Z");
/** The fleet the slices come from, generated once for both drivers (a generation is seconds of CPU; the tests only read it). */
let sandboxFleet: SandboxFleet | undefined;
const fleetOnce = (): SandboxFleet => (sandboxFleet ??= generateSandboxFleet({ anchor: ANCHOR }));

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
        .select({
          deviceId: devices.deviceId,
          powertrain: devices.powertrain,
          powertrainSource: devices.powertrainSource,
          batteryKwh: devices.batteryKwh,
          masterDataAt: devices.masterDataAt,
        })
        .from(devices)
        .where(eq(devices.tenantId, tenantId));
      return new Map(found.map(({ deviceId, ...m }) => [deviceId, m]));
    };

    await db.transaction((tx) => storeBatch(tx, tenantId, { updates: pairs.flatMap((p) => (p.stored ? [update(p.id, p.stored)] : [])), records: [], receivedAt: T(12) }));
    const before = await readMaster();
    // The ingest predicts the upsert's merge from the master data its context read returns.
    const known = await db.transaction((tx) =>
      readDeviceContexts(
        tx,
        tenantId,
        pairs.map((p) => p.id),
      ),
    );
    expect(known.size).toBe(before.size);
    for (const [deviceId, master] of before) expect(known.get(deviceId)?.master, deviceId).toEqual(master);
    const returned = await db.transaction((tx) => storeBatch(tx, tenantId, { updates: pairs.map((p) => update(p.id, p.incoming)), records: [], receivedAt: T(13) }));
    const after = await readMaster();

    expect(after.size).toBe(pairs.length);
    for (const p of pairs) {
      const expected = mergeDeviceMaster(before.get(p.id) ?? null, update(p.id, p.incoming));
      expect(after.get(p.id), `${p.id}: ${JSON.stringify(p)}`).toEqual(expected);
      // `created`: the second batch created exactly the devices the first did not store.
      expect(returned.get(p.id)).toEqual({ powertrain: expected.powertrain, batteryKwh: expected.batteryKwh, created: !p.stored });
    }
    // The matrix holds the cases the rule is about.
    expect(after.get(id(1, 2))).toMatchObject({ powertrain: "HEV", powertrainSource: "master_data" }); // declaration beats inference
    expect(after.get(id(2, 0))).toMatchObject({ powertrain: "PHEV", powertrainSource: "master_data" }); // inference never beats a declaration
    expect(after.get(id(3, 2))).toMatchObject({ powertrain: "ICE", batteryKwh: 1.3 }); // older declaration: fills the gap only
    expect(after.get(id(4, 6))).toMatchObject({ batteryKwh: 64 }); // older battery size does not overwrite
  });

  it("replays a sandbox feed batch by batch exactly as ingestTelemetry stores it: telemetry, events, device, alerts and acknowledgements", async () => {
    const db = tdb.handle.db;
    const fleet = fleetOnce();
    for (const slice of SLICES) {
      const declared = fleet.devices.find((d) => d.deviceId === slice.deviceId);
      const feed = fleet.feeds.get(slice.deviceId);
      if (!declared || !feed) throw new Error(`no ${slice.deviceId}`);
      const from = ANCHOR.getTime() - slice.fromDaysAgo * DAY;
      const to = ANCHOR.getTime() - slice.toDaysAgo * DAY;
      const records = feed.filter((r) => Date.parse(r.timestamp ?? "") >= from && Date.parse(r.timestamp ?? "") <= to);
      const latencyMs = 7_000;
      const master: DeviceMaster = {
        powertrain: declared.powertrain,
        powertrainSource: declared.powertrainSource,
        batteryKwh: declared.batteryKwh,
        masterDataAt: declared.masterDataAt,
      };
      const replay = replayFeed({ tenantId, deviceId: slice.deviceId, records, master, latencyMs, anchorMs: ANCHOR.getTime(), acknowledge });
      expect(replay.batches, slice.deviceId).toBeGreaterThan(50);

      // The same device, declared up front as the sandbox declares it, then fed through the ingest.
      await db.insert(devices).values({ ...declared, tenantId, odometerMaxKm: null, odometerMaxAt: null, eventsReportedAt: null, denseSpeedAt: null });
      const pendingAcks: { at: Date; by: string; key: string; created: Date }[] = [];
      for (const batch of hourlyBatches(records)) {
        const receivedAt = new Date(Math.min(Date.parse(batch[batch.length - 1]?.timestamp ?? "") + latencyMs, ANCHOR.getTime()));
        // The fleet manager acts between deliveries, as in the replay.
        for (const ack of pendingAcks.filter((a) => a.at <= receivedAt)) {
          await db
            .update(alerts)
            .set({ acknowledged: true, acknowledgedAt: ack.at, acknowledgedBy: ack.by })
            // Only an open alert (as acknowledgeAlert): FDP may have resolved it meanwhile.
            .where(
              and(
                eq(alerts.tenantId, tenantId),
                eq(alerts.deviceId, slice.deviceId),
                eq(alerts.dedupeKey, ack.key),
                eq(alerts.createdAt, ack.created),
                eq(alerts.acknowledged, false),
              ),
            );
          pendingAcks.splice(pendingAcks.indexOf(ack), 1);
        }
        const knownIds = new Set((await db.select({ id: alerts.id }).from(alerts).where(eq(alerts.tenantId, tenantId))).map((a) => a.id));
        const input = parseInput(ingestBodySchema, JSON.parse(JSON.stringify({ vehicles: batch })));
        await ingestTelemetry({ ctx: { db, tenantId, isSandbox: false, log: rootLogger() }, input, now: receivedAt });
        for (const a of await db.select().from(alerts).where(eq(alerts.tenantId, tenantId))) {
          if (knownIds.has(a.id) || a.dedupeKey === null) continue;
          const ack = acknowledge({ draft: { deviceId: a.deviceId, dedupeKey: a.dedupeKey } as AlertDraft, createdAt: a.createdAt });
          if (ack) pendingAcks.push({ ...ack, key: a.dedupeKey, created: a.createdAt });
        }
      }
      for (const ack of pendingAcks) {
        await db
          .update(alerts)
          .set({ acknowledged: true, acknowledgedAt: ack.at, acknowledgedBy: ack.by })
          .where(
            and(
              eq(alerts.tenantId, tenantId),
              eq(alerts.deviceId, slice.deviceId),
              eq(alerts.dedupeKey, ack.key),
              eq(alerts.createdAt, ack.created),
              eq(alerts.acknowledged, false),
            ),
          );
      }

      const storedTelemetry = await db
        .select()
        .from(telemetry)
        .where(and(eq(telemetry.tenantId, tenantId), eq(telemetry.deviceId, slice.deviceId)))
        .orderBy(asc(telemetry.ts));
      expect(storedTelemetry, slice.deviceId).toEqual(replay.telemetry);

      const storedEvents = await db
        .select()
        .from(drivingEvents)
        .where(and(eq(drivingEvents.tenantId, tenantId), eq(drivingEvents.deviceId, slice.deviceId)))
        .orderBy(asc(drivingEvents.ts), asc(drivingEvents.kind));
      expect(storedEvents.map(({ tenantId: _t, ...e }) => e)).toEqual([...replay.events].sort((a, b) => a.ts.getTime() - b.ts.getTime() || a.kind.localeCompare(b.kind)));

      const [device] = await db
        .select()
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), eq(devices.deviceId, slice.deviceId)));
      expect(device).toMatchObject(replayedDeviceState(replay));
      const context = (await db.transaction((tx) => readDeviceContexts(tx, tenantId, [slice.deviceId]))).get(slice.deviceId);
      expect(context).toEqual({ ...replay.context, master: replay.master });

      const storedAlerts = await db
        .select()
        .from(alerts)
        .where(and(eq(alerts.tenantId, tenantId), eq(alerts.deviceId, slice.deviceId)))
        .orderBy(asc(alerts.createdAt), asc(alerts.dedupeKey));
      const replayed = [...replay.alerts].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.draft.dedupeKey.localeCompare(b.draft.dedupeKey));
      expect(storedAlerts.length, slice.deviceId).toBeGreaterThan(0);
      expect(
        storedAlerts.map((a) => ({
          key: a.dedupeKey,
          agent: a.agent,
          createdAt: a.createdAt,
          ackAt: a.acknowledgedAt,
          ackBy: a.acknowledgedBy,
          evidence: {
            severity: a.severity,
            prediction: a.prediction,
            confidence: a.confidence,
            technicalData: a.technicalData,
            occurrences: a.occurrences,
            firstSeenAt: a.firstSeenAt,
            lastSeenAt: a.lastSeenAt,
            worstValue: a.worstValue,
            latestValue: a.latestValue,
          },
        })),
        slice.deviceId,
      ).toEqual(
        replayed.map((a) => ({ key: a.draft.dedupeKey, agent: a.draft.agent, createdAt: a.createdAt, ackAt: a.acknowledgedAt, ackBy: a.acknowledgedBy, evidence: a.evidence })),
      );
    }
    // The slices raise what they were chosen for, at least once each, and some key fires again after an acknowledgement.
    const keys = (await db.select({ key: alerts.dedupeKey }).from(alerts).where(eq(alerts.tenantId, tenantId))).map((a) => a.key);
    for (const key of ["driving:overspeed", "battery:low_12v", "odometer_integrity:jump", "charging:stalled"]) expect(keys).toContain(key);
    expect(keys.length).toBeGreaterThan(new Set(keys).size);
    // The lifecycle folded repeated occurrences into open alerts (the replay's rule, checked above).
    const [folded] = await rows<{ n: number }>(db, sql`select count(*)::int as n from alerts where tenant_id = ${tenantId} and occurrences > 1`);
    expect(Number(folded?.n)).toBeGreaterThan(0);
  }, 300_000);
});
