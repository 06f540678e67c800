import { and, asc, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbHandle } from "@/lib/db/client";
import { alerts, devices, drivingEvents, fleetSnapshot, serviceMeta, telemetry, tenants } from "@/lib/db/schema";
import { generateSandboxFleet } from "@/lib/seed/generate-sandbox-fleet";
import { countSandboxRows, SANDBOX_INGEST_SECRET, SANDBOX_SEED_META_KEY, SEED_VERSION, seedSandbox } from "@/lib/seed/seed-sandbox";
import postgres from "postgres";
import { openDatabase } from "@/lib/db/client";
import { createTestDatabase } from "../helpers/databases";
import { setEnv } from "../helpers/test-env";
import { waitFor } from "../helpers/wait-for";

/**
 * seedSandbox against a fresh migrated database of each driver (a copy of the project's template).
 */

const NOW = new Date("2025-03-14T10:37:12Z");
const ANCHOR = "2025-03-14T10:00:00.000Z";
const HOUR = 3_600_000;
/** A bound for a hang: four full seeds in one test took 76 s alone, and over 180 s on CI at half speed (stop 40). */
const SEED_TIMEOUT_MS = 360_000;

/** The fleet a seed at NOW must store, generated once for both drivers (≈3–6 s a generation). */
let expectedFleet: ReturnType<typeof generateSandboxFleet> | undefined;

/**
 * The first seed of an empty database, and what it stored, row for row; then within 6 hours nothing
 * happens. `concurrent`: two seeds start at once and exactly one of them does the work (the rows compared
 * are then also proof that the other wrote nothing).
 */
async function seedAndCompare(handle: DbHandle, { concurrent = false }: { concurrent?: boolean } = {}): Promise<void> {
  const { db } = handle;
  const expected = (expectedFleet ??= generateSandboxFleet({ anchor: new Date(ANCHOR) }));
  const expectedCounts = {
    devices: expected.devices.length,
    snapshots: expected.snapshots.length,
    telemetry: expected.telemetry.length,
    drivingEvents: expected.drivingEvents.length,
    alerts: expected.alerts.length,
  };
  expect(expectedCounts.drivingEvents).toBeGreaterThan(0);

  // First run on an empty database seeds, anchored at the hour.
  const started = Date.now();
  if (concurrent) {
    const results = await Promise.all([seedSandbox({ db, now: NOW }), seedSandbox({ db, now: NOW })]);
    expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
    expect(results.every((r) => r.anchor === ANCHOR)).toBe(true);
  } else {
    expect(await seedSandbox({ db, now: NOW })).toEqual({ seeded: true, anchor: ANCHOR });
  }
  console.info(`[seed test] ${handle.kind}: first seed of an empty database in ${Date.now() - started} ms`);
  expect(await countSandboxRows(db)).toEqual(expectedCounts);

  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, "sandbox"));
  expect(tenant).toMatchObject({ name: "FDP Sandbox", entitlements: ["residual_factors"], ingestSecret: SANDBOX_INGEST_SECRET, requireSignedIngest: false });
  const [meta] = await db.select().from(serviceMeta).where(eq(serviceMeta.key, SANDBOX_SEED_META_KEY));
  expect(meta?.value).toEqual({ version: SEED_VERSION, anchor: ANCHOR });

  // What went in comes back unchanged, whichever insert path it took.
  const deviceId = "sbx-001";
  const stored = await db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.tenantId, "sandbox"), eq(telemetry.deviceId, deviceId)))
    .orderBy(asc(telemetry.ts));
  expect(stored).toEqual(expected.telemetry.filter((r) => r.deviceId === deviceId));
  const withCodes = expected.telemetry.find((r) => (r.dtcCodes ?? []).length > 0);
  if (!withCodes) throw new Error("the fleet should carry DTCs");
  const [storedWithCodes] = await db
    .select({ dtcCodes: telemetry.dtcCodes })
    .from(telemetry)
    .where(and(eq(telemetry.tenantId, "sandbox"), eq(telemetry.deviceId, withCodes.deviceId), eq(telemetry.ts, withCodes.ts)));
  expect(storedWithCodes?.dtcCodes).toEqual(withCodes.dtcCodes);
  const byDeviceId = <T extends { deviceId: string }>(rows: readonly T[]) => [...rows].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
  expect(await db.select().from(devices).where(eq(devices.tenantId, "sandbox")).orderBy(asc(devices.deviceId))).toEqual(byDeviceId(expected.devices));
  // A feed vehicle's rows too, with the documents its source sent in raw_data (docs/sandbox-data.md "Feeds").
  const tracker = expected.devices.find((d) => d.deviceId.startsWith("traccar-"));
  if (!tracker) throw new Error("the fleet should have a Traccar vehicle");
  const trackerRows = await db
    .select()
    .from(telemetry)
    .where(and(eq(telemetry.tenantId, "sandbox"), eq(telemetry.deviceId, tracker.deviceId)))
    .orderBy(asc(telemetry.ts));
  expect(trackerRows).toEqual(expected.telemetry.filter((r) => r.deviceId === tracker.deviceId));
  expect(trackerRows[0]?.rawData).toMatchObject({ traccar: { device: { uniqueId: tracker.deviceId.slice("traccar-".length) } } });
  const [snapshot] = await db
    .select()
    .from(fleetSnapshot)
    .where(and(eq(fleetSnapshot.tenantId, "sandbox"), eq(fleetSnapshot.deviceId, deviceId)));
  expect(snapshot).toEqual(expected.snapshots.find((s) => s.deviceId === deviceId));
  const storedAlerts = await db.select().from(alerts).where(eq(alerts.tenantId, "sandbox")).orderBy(asc(alerts.id));
  expect(storedAlerts).toEqual(expected.alerts);
  const storedEvents = await db
    .select()
    .from(drivingEvents)
    .where(eq(drivingEvents.tenantId, "sandbox"))
    .orderBy(asc(drivingEvents.deviceId), asc(drivingEvents.ts), asc(drivingEvents.kind), asc(drivingEvents.source));
  const byKey = (e: (typeof storedEvents)[number]) => `${e.deviceId} ${e.ts.toISOString()} ${e.kind} ${e.source}`;
  expect(storedEvents.map(byKey)).toEqual(expected.drivingEvents.map(byKey).sort());
  expect(storedEvents).toEqual(expect.arrayContaining(expected.drivingEvents));

  // Within 6 hours of the stored anchor nothing happens: cheap and idempotent.
  expect(await seedSandbox({ db, now: new Date(Date.parse(ANCHOR) + 5 * HOUR + 59 * 60_000) })).toEqual({ seeded: false, anchor: ANCHOR });
  expect(await countSandboxRows(db)).toEqual(expectedCounts);
}

/**
 * A seeded database seeded again once its anchor is 6 hours old: the same vehicles, their data moved to the
 * new anchor (the same SQL on both drivers, so on Postgres only). When a seed is still fresh (forced, another
 * generator, its age) is seedIsFresh's rule, checked in tests/unit/seed/seed-freshness.test.ts.
 */
async function reseedRules(handle: DbHandle): Promise<void> {
  const { db } = handle;
  const expectedCounts = await countSandboxRows(db);
  const later = new Date(Date.parse(ANCHOR) + 6 * HOUR);
  expect(await seedSandbox({ db, now: later })).toEqual({ seeded: true, anchor: later.toISOString() });
  expect((await countSandboxRows(db)).devices).toBe(expectedCounts.devices);
  const [newest] = await db.select({ ts: fleetSnapshot.ts }).from(fleetSnapshot).where(eq(fleetSnapshot.tenantId, "sandbox")).orderBy(desc(fleetSnapshot.ts)).limit(1);
  expect(newest?.ts.toISOString()).toBe(later.toISOString());
  const [meta] = await db.select({ value: serviceMeta.value }).from(serviceMeta).where(eq(serviceMeta.key, SANDBOX_SEED_META_KEY));
  expect(meta?.value).toEqual({ version: SEED_VERSION, anchor: later.toISOString() });
}

describe("seedSandbox waiting for another instance's seed", () => {
  // Postgres: where several instances start on one database. The other instance is a transaction holding
  // the seed lock (lib/seed/seed-sandbox.ts SEED_LOCK_KEY) past this instance's statement timeout, then
  // storing a fresh seed: this one waits for it, however long, and keeps it.
  it("waits longer than STATEMENT_TIMEOUT_MS, then keeps the seed the other stored", async () => {
    const SEED_LOCK_KEY = 740_202_501;
    const tdb = await createTestDatabase("postgres");
    const url = tdb.url!;
    const timeoutBefore = process.env.STATEMENT_TIMEOUT_MS;
    setEnv({ STATEMENT_TIMEOUT_MS: "500" });
    const instance = await openDatabase({ url });
    // This instance's pool has it; the file's other cases open theirs with the usual timeout.
    setEnv({ STATEMENT_TIMEOUT_MS: timeoutBefore });
    const other = postgres(url, { max: 1, onnotice: () => {} });
    const observer = postgres(url, { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const otherSeed = other.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`;
        locked();
        await released;
        await tx`insert into service_meta (key, value, updated_at) values (${SANDBOX_SEED_META_KEY}, ${tx.json({ version: SEED_VERSION, anchor: ANCHOR })}, now())`;
      });
      await holding;
      const seeding = seedSandbox({ db: instance.db, now: NOW });
      // Blocked on the lock for over twice its statement timeout (a cancelled wait would end the statement).
      const waitedLong = await waitFor(
        async () =>
          (
            await observer`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and now() - query_start > interval '1 second'`
          )[0]!.n === 1,
        20_000,
      );
      release();
      await otherSeed;
      expect(waitedLong).toBe(true);
      expect(await seeding).toEqual({ seeded: false, anchor: ANCHOR });
      expect((await countSandboxRows(instance.db)).telemetry).toBe(0);
    } finally {
      await other.end();
      await observer.end();
      await instance.close();
      await tdb.dispose();
    }
  });
});

describe("seedSandbox on PGlite", () => {
  it(
    "seeds an empty database with exactly the generated fleet, once",
    async () => {
      const tdb = await createTestDatabase("pglite");
      try {
        await seedAndCompare(tdb.handle);
      } finally {
        await tdb.dispose();
      }
    },
    SEED_TIMEOUT_MS,
  );
});

describe("seedSandbox on PostgreSQL", () => {
  // One seed of an empty database, not two: the first seed is also the concurrency check (Postgres is
  // where several instances start at once on one database).
  it(
    "lets exactly one of two concurrent seeds do the work, then seeds again when stale",
    async () => {
      const tdb = await createTestDatabase("postgres");
      try {
        await seedAndCompare(tdb.handle, { concurrent: true });
        await reseedRules(tdb.handle);
      } finally {
        await tdb.dispose();
      }
    },
    SEED_TIMEOUT_MS,
  );
});
