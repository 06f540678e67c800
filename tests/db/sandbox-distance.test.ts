import { and, asc, eq, gte, lte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { TenantCtx } from "@/lib/context";
import { telemetry } from "@/lib/db/schema";
import { predictMileage } from "@/lib/leasing/mileage-prediction";
import { rootLogger } from "@/lib/log/logger";
import { buildEmissionsReport } from "@/lib/reports/get-emissions-report";
import { reportRange } from "@/lib/reports/report-range";
import { FLEET_PLAN } from "@/lib/seed/fleet-plan";
import { SANDBOX_TEMPLATE_NOW } from "../helpers/database-templates";
import { createSandboxDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The sandbox's clocked diesel (sbx-033, FLEET_PLAN's `odometerClock`: wound back 48,000 km while its
 * telematics unit was unplugged, every later reading staying down) drove all month. Before issue 27
 * point 4 its emissions report said 0 km, 0 l, 0 kg (last − first reading, floored) and its mileage
 * forecast started from the wound-back reading. Read from what the seed STORED, as sandbox-stories does.
 */
/** The fixed sandbox template is seeded at this clock. */
const NOW = SANDBOX_TEMPLATE_NOW;
const DEVICE = "sbx-033";
const CLOCK = FLEET_PLAN[32]?.odometerClock;

let tdb: TestDatabase;
let ctx: TenantCtx;

beforeAll(async () => {
  tdb = await createSandboxDatabase();
  ctx = { db: tdb.handle.db, tenantId: SANDBOX_TENANT_ID, isSandbox: false, log: rootLogger() };
}, 180_000);

afterAll(async () => {
  await tdb?.dispose();
});

describe("sbx-033, the clocked odometer", () => {
  it("is the plan's clocked vehicle (48,000 km, about 21 days before the anchor)", () => {
    expect(CLOCK?.km).toBe(48_000);
  });

  it("the emissions report of the 30 days around the rollback counts its real distance and names the rollback", async () => {
    const range = reportRange({ start_date: "2025-02-12", end_date: "2025-03-13" }, NOW);
    const report = await buildEmissionsReport({ ctx, range, now: NOW });
    const v = report.vehicles.find((x) => x.device_id === DEVICE);
    // The truth from the stored readings: the last one plus the 48,000 km wound back, minus the first.
    const rows = await tdb.handle.db
      .select({ ts: telemetry.ts, km: telemetry.odometerKm })
      .from(telemetry)
      .where(and(eq(telemetry.tenantId, SANDBOX_TENANT_ID), eq(telemetry.deviceId, DEVICE), gte(telemetry.ts, range.start), lte(telemetry.ts, range.end)))
      .orderBy(asc(telemetry.ts));
    const kms = rows.flatMap((r) => (r.km === null ? [] : [r.km]));
    const first = kms[0] ?? Number.NaN;
    const last = kms[kms.length - 1] ?? Number.NaN;
    expect(last - first).toBeLessThan(0); // what the old rule floored to 0 km
    const truth = last + 48_000 - first;
    expect(truth).toBeGreaterThan(1_000);
    expect(v?.distance_method).toBe("odometer_plausible_increases");
    expect(v?.distance_evidence.odometer_rollbacks).toHaveLength(1);
    const rb = v?.distance_evidence.odometer_rollbacks[0];
    // The drop seen is the 48,000 km less what was driven while the unit was unplugged (30 h).
    expect((rb?.from_km ?? 0) - (rb?.to_km ?? 0)).toBeGreaterThan(47_000);
    expect((rb?.from_km ?? 0) - (rb?.to_km ?? 0)).toBeLessThanOrEqual(48_000);
    // Only the km driven during the 30-hour gap, across the drop, are not counted: at most 3 %.
    expect(v?.distance_km).toBeLessThanOrEqual(truth + 0.001);
    expect(v?.distance_km).toBeGreaterThan(0.97 * truth);
    expect(v?.co2_kg).toBeGreaterThan(0);
    expect(v?.fuel_l).toBeGreaterThan(0);
    expect(v?.distance_note).toMatch(/rollback/);
  });

  it("the mileage forecast continues the series from the pre-rollback baseline", async () => {
    const f = await predictMileage({ ctx, input: { device_id: DEVICE }, now: NOW });
    expect(f.distance_method).toBe("odometer_plausible_increases");
    expect(f.rolled_back_km).toBeGreaterThan(47_000);
    expect(f.rolled_back_km).toBeLessThanOrEqual(48_000);
    expect(f.current_km).toBeCloseTo((f.odometer_reading_km ?? Number.NaN) + f.rolled_back_km, 0);
    expect(f.limitations.join(" ")).toMatch(/plausible series/);
    expect(f.current_km_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // The end odometer: the plausible series' trend from current_km, not from the wound-back reading.
    expect(f.predicted_end_km).toBeCloseTo(f.current_km + f.daily_rate_km * f.horizon_days, -2);
    // Its master-data contract (110,000 km) is truly not exceeded (about 87,500 km expected): a low risk
    // is the right answer there. Against a limit between the wound-back projection (about 39,600 km)
    // and the plausible one, the rollback must not hide the overrun.
    const wouldHaveBeen = (f.odometer_reading_km ?? 0) + f.daily_rate_km * f.horizon_days;
    const limit = Math.round((wouldHaveBeen + f.predicted_end_km) / 2 / 1000) * 1000;
    expect(limit).toBeLessThan(f.confidence_interval.lower);
    const over = await predictMileage({ ctx, input: { device_id: DEVICE, contract_km: limit }, now: NOW });
    expect(over.risk_score).toBeGreaterThan(80);
    expect(over.overage_km).toBeGreaterThan(0);
  });
});
