import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { refreshStaleRollups } from "@/lib/telemetry/rollups/refresh-stale-rollups";
import { markTelemetryRollupsStale, settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * `refreshStaleRollups` (the admin CLI's `rollups:refresh`): after the rollups were emptied (as
 * migration 0012 does), it rebuilds every tenant's, or one tenant's, and then has nothing left to do.
 * Checked at the database: the day rows written and every device's `clean_before`.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const today0 = Math.floor(Date.now() / DAY) * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(["postgres", "pglite"] as const)("refreshStaleRollups (%s)", (kind) => {
  let tdb: TestDatabase;
  const tenants: TenantCtx[] = [];

  /** Day rows and devices not clean up to today, per tenant. */
  const stateOf = async (t: TenantCtx) => {
    const [r] = await rows<{ days: number; stale: number }>(
      t.db,
      sql`select (select count(*)::int from telemetry_daily where tenant_id = ${t.tenantId}) as days,
                 (select count(*)::int from telemetry_rollup_state where tenant_id = ${t.tenantId} and clean_before < ${iso(today0).slice(0, 10)}::date) as stale`,
    );
    return r!;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    for (const [name, vehicles] of [
      ["Refresh A", 3],
      ["Refresh B", 2],
      ["Refresh C", 1],
    ] as const) {
      const t = await createTenantWithKey(tdb.handle.db, { name });
      const ctx: TenantCtx = { db: tdb.handle.db, tenantId: t.tenantId, isSandbox: false, log: rootLogger() };
      // Four readings a day for five days before today, per vehicle.
      const records = Array.from({ length: vehicles }, (_, v) =>
        Array.from({ length: 20 }, (_, i) => ({
          vin: `REFRESH${name.slice(-1)}${String(v).padStart(9, "0")}`,
          timestamp: iso(today0 - 5 * DAY + i * 6 * HOUR + HOUR),
          speed_kmh: 30 + i,
          odometer_km: 1_000 + 5 * i,
        })),
      ).flat();
      await ingestTelemetry({ ctx, input: { vehicles: records } });
      await settleBackgroundRollupRefresh(ctx.tenantId);
      tenants.push(ctx);
    }
  }, 120_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("rebuilds one tenant, then every tenant with stale rollups, then finds nothing to do", async () => {
    for (const t of tenants) await markTelemetryRollupsStale({ db: t.db, tenantId: t.tenantId });
    for (const t of tenants) expect(await stateOf(t)).toMatchObject({ days: 0, stale: expect.any(Number) as number });

    const one = await refreshStaleRollups({ ctx: { db: tdb.handle.db }, input: { tenantId: tenants[1]!.tenantId } });
    expect(one).toEqual({ tenants: 1, devices: 2, days: 10 });
    expect(await stateOf(tenants[1]!)).toEqual({ days: 10, stale: 0 });
    expect(await stateOf(tenants[0]!)).toEqual({ days: 0, stale: 3 });

    const all = await refreshStaleRollups({ ctx: { db: tdb.handle.db }, input: {} });
    expect(all).toEqual({ tenants: 2, devices: 4, days: 20 });
    for (const [t, days] of [
      [tenants[0]!, 15],
      [tenants[1]!, 10],
      [tenants[2]!, 5],
    ] as const)
      expect(await stateOf(t)).toEqual({ days, stale: 0 });

    expect(await refreshStaleRollups({ ctx: { db: tdb.handle.db }, input: {} })).toEqual({ tenants: 0, devices: 0, days: 0 });
  });

  it("refuses an unknown tenant and a malformed input", async () => {
    await expect(refreshStaleRollups({ ctx: { db: tdb.handle.db }, input: { tenantId: "tn_doesnotexist0000000" } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(refreshStaleRollups({ ctx: { db: tdb.handle.db }, input: { tenantId: " " } })).rejects.toBeInstanceOf(ValidationError);
  });
});
