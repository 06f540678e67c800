import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { parts } from "@/lib/devices/device-parts";
import { settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { planNodes, type PlanNode } from "../helpers/explain-plan";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * The active DTCs (the newest record that carried codes) are one probe of the partial index
 * `telemetry_dtc_idx` (migration 0011), not a walk back through every record without codes: a device
 * whose only codes are 500 records old must read one telemetry row for them, counted by Postgres's
 * EXPLAIN ANALYZE.
 */

const READINGS = 500;

describe.each(["postgres", "pglite"] as const)("active DTCs read by the partial index (%s)", (kind) => {
  let tdb: TestDatabase;
  let ctx: TenantCtx;
  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
    const t0 = Date.now() - 2 * 86_400_000;
    const vehicles = Array.from({ length: READINGS }, (_, i) => ({
      vin: "DTCONCE1",
      timestamp: new Date(t0 + i * 60_000).toISOString(),
      odometer_km: 1_000 + i,
      ...(i === 0 ? { dtc_codes: ["P0420"] } : {}),
    }));
    await ingestTelemetry({ ctx, input: { vehicles } });
    await settleBackgroundRollupRefresh(ctx.tenantId);
  }, 120_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("finds the codes of the oldest record reading one telemetry row", async () => {
    const dtc = parts.activeDtcs();
    const select = sql`select d.device_id, ${dtc.columns} from devices d ${dtc.join!} where d.tenant_id = ${ctx.tenantId} and d.device_id = 'oem-DTCONCE1'`;
    const [found] = await rows<{ dtc_codes: unknown }>(ctx.db, select);
    expect(String(found!.dtc_codes)).toContain("P0420");
    const [plan] = await rows<{ "QUERY PLAN": unknown }>(ctx.db, sql`explain (analyze, format json) ${select}`);
    const doc = plan!["QUERY PLAN"];
    const root = ((typeof doc === "string" ? JSON.parse(doc) : doc) as { Plan: PlanNode }[])[0]!.Plan;
    const scans = planNodes(root).filter((n) => /^telemetry(_\d{4}_\d{2}|_default)?$/.test(n["Relation Name"] ?? ""));
    const read = scans.reduce((sum, n) => sum + n["Actual Rows"] * n["Actual Loops"] + (n["Rows Removed by Filter"] ?? 0), 0);
    expect(read).toBe(1);
  });
});
