import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { resetEnvCache } from "@/lib/env";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { settleBackgroundRollupRefresh, trailingRollupRefreshArmed } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { waitFor } from "../helpers/wait-for";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * The ingest refreshes a tenant's daily rollups in the background at most once per interval, and the
 * last ingest of a burst still gets its refresh when the interval has passed, without another ingest:
 * otherwise a fleet that uploads once a day would have its last minute of readings read raw by every
 * score until the next day. Observed at the database (the rollup state and rows), with a 2 s interval.
 */

const DAY = 86_400_000;
const today0 = Math.floor(Date.now() / DAY) * DAY;
const todayDate = new Date(today0).toISOString().slice(0, 10);

let tdb: TestDatabase;
let ctx: TenantCtx;
const previousInterval = process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;

async function state(): Promise<{ clean_before: string; days: number; readings: number }> {
  const [r] = await rows<{ clean_before: string; days: number; readings: number }>(
    ctx.db,
    sql`select rs.clean_before::text as clean_before,
          (select count(*)::int from telemetry_daily r where r.tenant_id = rs.tenant_id and r.device_id = rs.device_id) as days,
          (select max(r.c_readings)::int from telemetry_daily r where r.tenant_id = rs.tenant_id and r.device_id = rs.device_id) as readings
        from telemetry_rollup_state rs where rs.tenant_id = ${ctx.tenantId} and rs.device_id = 'oem-TRAIL1'`,
  );
  return r!;
}

const reading = (atMs: number, odo: number) => ({ vin: "TRAIL1", timestamp: new Date(atMs).toISOString(), speed_kmh: 50, odometer_km: odo });

describe("background rollup refresh after ingest", () => {
  beforeAll(async () => {
    process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = "2";
    resetEnvCache();
    tdb = await createTestDatabase("postgres");
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
  });

  afterAll(async () => {
    await settleBackgroundRollupRefresh(ctx.tenantId);
    if (previousInterval === undefined) delete process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;
    else process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = previousInterval;
    resetEnvCache();
    await tdb?.dispose();
  });

  it("refreshes after the first ingest, and once more after the interval for an ingest that came too soon", async () => {
    const base = today0 - 3 * DAY + 8 * 3_600_000;
    await ingestTelemetry({ ctx, input: { vehicles: [reading(base, 1_000), reading(base + 60_000, 1_001)] } });
    // The first ingest's refresh runs right away: the device is rolled up to yesterday.
    expect(await waitFor(async () => (await state()).clean_before === todayDate, 10_000)).toBe(true);
    expect(await state()).toEqual({ clean_before: todayDate, days: 1, readings: 2 });

    // Late data two days ago, within the interval: no refresh now, the device is stale from that day, one is armed.
    await ingestTelemetry({ ctx, input: { vehicles: [reading(base + DAY, 1_010), reading(base + DAY + 60_000, 1_011)] } });
    await ingestTelemetry({ ctx, input: { vehicles: [reading(base + DAY + 120_000, 1_012)] } });
    expect((await state()).clean_before).toBe(new Date(today0 - 2 * DAY).toISOString().slice(0, 10));
    expect(trailingRollupRefreshArmed(ctx.tenantId)).toBe(true);

    // With no further ingest, the trailing refresh rolls the late day up once the interval has passed.
    expect(await waitFor(async () => (await state()).clean_before === todayDate, 15_000)).toBe(true);
    expect(await state()).toEqual({ clean_before: todayDate, days: 2, readings: 5 });
    expect(trailingRollupRefreshArmed(ctx.tenantId)).toBe(false);
  }, 60_000);
});
