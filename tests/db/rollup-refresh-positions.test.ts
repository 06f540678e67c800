import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { greatCirclePart, greatCirclePartRaw } from "@/lib/telemetry/queries/great-circle-sql";
import { queryDevices } from "@/lib/devices/device-query";
import { refreshTelemetryRollups, settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * Where a refresh restarts a device whose positions stopped: a tracker with a fix on day −10 only,
 * readings without a position every day since. A new reading WITHOUT a position must not make the
 * refresh rebuild the days since day −10 (they cannot change: day −10's last great-circle pair still
 * has no partner), while a new reading WITH a position must (that pair now reaches it). Counted at the
 * database: a day row a refresh rebuilt is a new row version (`xmin`), and the great-circle km of the
 * window equal the raw sum either way.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const today0 = Math.floor(Date.now() / DAY) * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);

describe.each(["postgres", "pglite"] as const)("the refresh of a tracker whose positions stopped (%s)", (kind) => {
  let tdb: TestDatabase;
  let ctx: TenantCtx;

  /** The row version of each of the device's day rows. */
  const versions = async () =>
    new Map(
      (
        await rows<{ day: string; v: string }>(
          ctx.db,
          sql`select day::text as day, xmin::text as v from telemetry_daily where tenant_id = ${ctx.tenantId} and device_id = 'oem-STOPPEDFIX0001'`,
        )
      ).map((r) => [r.day, r.v]),
    );
  const ingest = async (records: Record<string, unknown>[]) => {
    await ingestTelemetry({ ctx, input: { vehicles: records } as never });
    await settleBackgroundRollupRefresh(ctx.tenantId);
  };
  const refresh = () => refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId });
  const sameAsRaw = async () => {
    const args = { since: iso(today0 - 30 * DAY), until: iso(Date.now()) };
    const [rolled] = await queryDevices("rolled", { ctx, deviceIds: ["oem-STOPPEDFIX0001"] }, [greatCirclePart(args)]);
    const [raw] = await queryDevices("raw", { ctx, deviceIds: ["oem-STOPPEDFIX0001"] }, [greatCirclePartRaw(args)]);
    expect(Number(rolled!.gc_km)).toBeCloseTo(Number(raw!.gc_km), 9);
    return Number(raw!.gc_km);
  };

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
    const vin = "STOPPEDFIX0001";
    await ingest([
      { vin, timestamp: iso(today0 - 10 * DAY + 8 * HOUR), speed_kmh: 30, lat: 60.1, lon: 24.9 },
      { vin, timestamp: iso(today0 - 10 * DAY + 9 * HOUR), speed_kmh: 30, lat: 60.2, lon: 24.9 },
      ...Array.from({ length: 8 }, (_, i) => ({ vin, timestamp: iso(today0 - (9 - i) * DAY + 12 * HOUR), speed_kmh: 20 })),
    ]);
    await refresh();
  }, 60_000);

  afterAll(async () => {
    await tdb?.dispose();
  });

  it("a reading without a position: only the last rolled day is rebuilt, not the days since the last fix", async () => {
    const before = await versions();
    expect(before.size).toBe(9); // day −10 … day −2
    await ingest([{ vin: "STOPPEDFIX0001", timestamp: iso(today0 - DAY + 13 * HOUR), speed_kmh: 25 }]);
    const result = await refresh();
    expect(result.devices).toBe(1);
    const after = await versions();
    expect(after.size).toBe(10); // and day −1, new
    const rebuilt = [...after]
      .filter(([day, v]) => before.get(day) !== v)
      .map(([day]) => day)
      .sort();
    // The last rolled day before the new reading's day (its last pair reaches the new reading) and day −1; nothing before.
    expect(rebuilt).toEqual([dayOf(today0 - 2 * DAY), dayOf(today0 - DAY)]);
    expect(await sameAsRaw()).toBeGreaterThan(10);
  });

  it("a reading with a position: rebuilt from the last day with a fix, whose last pair now reaches it", async () => {
    const before = await versions();
    await ingest([{ vin: "STOPPEDFIX0001", timestamp: iso(today0 - DAY + 15 * HOUR), speed_kmh: 25, lat: 60.5, lon: 25.0 }]);
    await refresh();
    const after = await versions();
    const rebuilt = [...after]
      .filter(([day, v]) => before.get(day) !== v)
      .map(([day]) => day)
      .sort();
    expect(rebuilt[0]).toBe(dayOf(today0 - 10 * DAY));
    expect(rebuilt).toHaveLength(10);
    // Day −10's last position now pairs with the new one: more km than the first fix pair alone.
    const km = await sameAsRaw();
    const [c] = await rows<{ c: number }>(ctx.db, sql`select max(c_gc_km)::float8 as c from telemetry_daily where tenant_id = ${ctx.tenantId}`);
    expect(c!.c).toBeCloseTo(km, 9);
  });
});
