import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { scoreSnapshots } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { rows } from "@/lib/db/sql-values";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import { dismissAlert } from "@/lib/alerts/dismiss-alert";
import { getFleetPageScores } from "@/lib/dashboard/fleet-page-scores";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import type { IngestRecordInput } from "@/lib/schemas/ingest";
import { rootLogger } from "@/lib/log/logger";
import { getResidualValue } from "@/lib/leasing/get-residual-value";
import { predictResidualValue } from "@/lib/leasing/predict-residual-value";
import { residualModelQuerySchema } from "@/lib/schemas/leasing-residual-model";
import { getBatterySnapshot } from "@/lib/scores/get-battery-snapshot";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";
import { getTas } from "@/lib/scores/get-tas";
import { getVehicleHealth } from "@/lib/scores/get-vehicle-health";
import { readDeviceSnapshots, readFleetSnapshots } from "@/lib/dashboard/score-snapshots/read-score-snapshots";
import { noteIngestedDevices, refreshScoreSnapshots, refreshScoreSnapshotsAfterIngest, settleScoreSnapshotRefresh } from "@/lib/dashboard/score-snapshots/refresh-score-snapshots";
import { SNAPSHOT_KINDS } from "@/lib/dashboard/score-snapshots/snapshot-kinds";
import { settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { waitFor } from "../helpers/wait-for";
import { createTenantWithKey, insertAlert, insertDevices } from "../helpers/fixtures";

/**
 * The dashboard's maintained scores (lib/dashboard/score-snapshots/, issue 30 point 5): what a refresh stores is
 * exactly what the API's verbs answer at the same instant; a row of another method version or one that
 * fails its schema is never shown; the ingest keeps a tenant's snapshots up to date (and makes none for a
 * tenant whose dashboard keeps none); rows are per tenant. Observed at the database.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
let tdb: TestDatabase;
let a: TenantCtx;
let b: TenantCtx;
const previousMaxAge = process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS;
const previousInterval = process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;

/** A BEV driven for a week, whose state of health is reported, and a diesel: the known truth the scores read. */
function fleet(endMs: number, { rollback = false } = {}) {
  const records: IngestRecordInput[] = [];
  for (let d = 7; d >= 1; d--) {
    const t = endMs - d * DAY;
    records.push({
      vin: "SNAPBEV1",
      timestamp: new Date(t).toISOString(),
      speed_kmh: 60,
      odometer_km: 20_000 + (7 - d) * 80,
      soc_percent: 70,
      soh_percent: 94,
      battery_voltage: 12.6,
    });
    records.push({ vin: "SNAPICE1", timestamp: new Date(t + HOUR).toISOString(), speed_kmh: 80, odometer_km: 50_000 + (7 - d) * 120, fuel_level_pct: 60 });
  }
  records[0]!.raw_data = { vehicle: { powertrain: "BEV", battery_kwh: 77, make: "VW", model: "ID.4", year: 2023 } };
  records[1]!.raw_data = { vehicle: { powertrain: "ICE", make: "Skoda", model: "Octavia", year: 2021 } };
  if (rollback) records.push({ vin: "SNAPICE1", timestamp: new Date(endMs - HOUR).toISOString(), speed_kmh: 40, odometer_km: 30_000, fuel_level_pct: 55 });
  return { vehicles: records };
}

const count = async (ctx: TenantCtx) => (await rows<{ n: number }>(ctx.db, sql`select count(*)::int as n from score_snapshots where tenant_id = ${ctx.tenantId}`))[0]!.n;
const computedAt = async (ctx: TenantCtx, kind: string, deviceId: string) =>
  (
    await ctx.db
      .select({ at: scoreSnapshots.computedAt })
      .from(scoreSnapshots)
      .where(and(eq(scoreSnapshots.tenantId, ctx.tenantId), eq(scoreSnapshots.kind, kind), eq(scoreSnapshots.deviceId, deviceId)))
  )[0]?.at;

// Both drivers: the answers travel as jsonb, which postgres.js and PGlite hand back differently (lib/db/).
describe.each(["postgres", "pglite"] as const)("maintained dashboard scores (%s)", (driver) => {
  beforeAll(async () => {
    process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS = "3600";
    process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = "1";
    resetEnvCache();
    tdb = await createTestDatabase(driver);
    const log = rootLogger();
    a = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log };
    b = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log };
    const end = Date.now() - 2 * HOUR;
    await ingestTelemetry({ ctx: a, input: fleet(end) });
    await ingestTelemetry({ ctx: b, input: fleet(end, { rollback: true }) });
    await settleBackgroundRollupRefresh(a.tenantId);
    await settleBackgroundRollupRefresh(b.tenantId);
  });

  afterAll(async () => {
    for (const ctx of [a, b]) {
      await settleBackgroundRollupRefresh(ctx.tenantId);
      await settleScoreSnapshotRefresh(ctx.tenantId);
    }
    if (previousMaxAge === undefined) delete process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS;
    else process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS = previousMaxAge;
    if (previousInterval === undefined) delete process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;
    else process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = previousInterval;
    resetEnvCache();
    await tdb?.dispose();
  });

  it("neither the post-ingest refresh nor an acknowledged alert makes a snapshot for a tenant whose dashboard keeps none", async () => {
    noteIngestedDevices(a.tenantId, ["oem-SNAPBEV1", "oem-SNAPICE1"]);
    await refreshScoreSnapshotsAfterIngest({ db: a.db, log: a.log, tenantId: a.tenantId });
    await settleScoreSnapshotRefresh(a.tenantId);
    // Nor does an acknowledged alert.
    const alertId = await insertAlert(a.db, a.tenantId, { deviceId: "oem-SNAPBEV1", severity: "INFO", agent: "battery" });
    await acknowledgeAlert({ ctx: { ...a, actor: { userId: "usr_ops", email: "ops@example.com" } }, input: { alert_id: alertId } });
    await settleScoreSnapshotRefresh(a.tenantId);
    expect(await count(a)).toBe(0);
    expect(await count(b)).toBe(0);
  });

  it("a refresh stores exactly what the API's verbs answer at the same instant: two fleet scores and five answers per device", async () => {
    const now = new Date();
    const r = await refreshScoreSnapshots({ db: a.db, log: a.log, tenantId: a.tenantId, now });
    expect(r).toEqual({ devices: 2, rows: 2 + 5 * 2, failed: 0 });
    expect(await count(a)).toBe(12);
    const fleetKept = await readFleetSnapshots({ ctx: a, deviceIds: ["oem-SNAPBEV1", "oem-SNAPICE1"], now });
    expect(fleetKept.fleetRisk).toEqual({ answer: await getFleetRisk({ ctx: a, input: { period: 30 }, now }), computedAt: now });
    expect(fleetKept.greenFleet).toEqual({ answer: await getGreenFleet({ ctx: a, input: { period: 30 }, now }), computedAt: now });
    for (const deviceId of ["oem-SNAPBEV1", "oem-SNAPICE1"]) {
      const kept = await readDeviceSnapshots({ ctx: a, deviceId, now });
      const input = { device_id: deviceId };
      expect(kept.tas).toEqual({ answer: await getTas({ ctx: a, input, now }), computedAt: now });
      expect(kept.vehicleHealth).toEqual({ answer: await getVehicleHealth({ ctx: a, input, now }), computedAt: now });
      expect(kept.battery).toEqual({ answer: await getBatterySnapshot({ ctx: a, input, now }), computedAt: now });
      expect(kept.residualValue).toEqual({ answer: await getResidualValue({ ctx: a, input, now }), computedAt: now });
      expect(kept.residualModel).toEqual({ answer: await predictResidualValue({ ctx: a, input: { ...input, ...residualModelQuerySchema.parse({}) }, now }), computedAt: now });
      expect(fleetKept.tas.get(deviceId)?.answer.tas_grade).toBe(kept.tas!.answer.tas_grade);
    }
    // The BEV's battery reading is the one sent; the diesel has no traction battery.
    expect((await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPBEV1", now })).battery?.answer.data_quality.has_traction_battery).toBe(true);
    expect((await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPICE1", now })).battery?.answer.data_quality.has_traction_battery).toBe(false);
  });

  it("rows are per tenant: the other tenant, with the same device ids, reads none of them", async () => {
    const kept = await readDeviceSnapshots({ ctx: b, deviceId: "oem-SNAPICE1" });
    expect(kept).toEqual({ tas: null, vehicleHealth: null, battery: null, residualValue: null, residualModel: null });
    await settleScoreSnapshotRefresh(b.tenantId); // the read found none and started b's first refresh
    const own = await readDeviceSnapshots({ ctx: b, deviceId: "oem-SNAPICE1" });
    // b's diesel had its odometer rolled back: its TAS is knocked out, a's is not.
    expect(own.tas?.answer.knockout_flags.length).toBeGreaterThan(0);
    expect(own.tas?.answer.tas_grade).toBe("F");
    expect((await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPICE1" })).tas?.answer.knockout_flags).toEqual([]);
  });

  it("a row of another method version, or one that fails its schema, is not shown, and a refresh replaces it", async () => {
    await a.db.execute(sql`update score_snapshots set version = 'tas-1999.01' where tenant_id = ${a.tenantId} and kind = 'tas' and device_id = 'oem-SNAPBEV1'`);
    await a.db.execute(
      sql`update score_snapshots set answer = jsonb_set(answer, '{vehicle_health_score}', '"ninety"') where tenant_id = ${a.tenantId} and kind = 'vehicle_health' and device_id = 'oem-SNAPBEV1'`,
    );
    const kept = await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPBEV1" });
    expect(kept.tas).toBeNull();
    expect(kept.vehicleHealth).toBeNull();
    expect(kept.battery).not.toBeNull();
    await settleScoreSnapshotRefresh(a.tenantId);
    const again = await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPBEV1" });
    expect(again.tas?.answer.score_version).toBe(SNAPSHOT_KINDS.tas.version);
    expect(typeof again.vehicleHealth?.answer.vehicle_health_score).toBe("number");
  });

  it("a fresh read starts no refresh", async () => {
    const before = await computedAt(a, "tas", "oem-SNAPBEV1");
    await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPBEV1" });
    await readFleetSnapshots({ ctx: a, deviceIds: ["oem-SNAPBEV1", "oem-SNAPICE1"] });
    await settleScoreSnapshotRefresh(a.tenantId);
    expect(await computedAt(a, "tas", "oem-SNAPBEV1")).toEqual(before);
  });

  it("an ingest refreshes the fleet scores and the devices it stored, with the new data, and leaves the others", async () => {
    const before = await computedAt(a, "tas", "oem-SNAPICE1");
    const otherBefore = await computedAt(a, "tas", "oem-SNAPBEV1");
    const fleetBefore = await computedAt(a, "fleet_risk", "");
    expect((await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPICE1" })).tas?.answer.knockout_flags).toEqual([]);
    // The diesel's odometer goes back 26,000 km: the rollback knockout.
    await ingestTelemetry({ ctx: a, input: { vehicles: [{ vin: "SNAPICE1", timestamp: new Date(Date.now() - HOUR).toISOString(), odometer_km: 30_000, speed_kmh: 30 }] } });
    // The rollup refresh (here at most one a second, so possibly a trailing one) and then the snapshots, without another request.
    expect(await waitFor(async () => (await computedAt(a, "tas", "oem-SNAPICE1"))!.getTime() > before!.getTime(), 30_000)).toBe(true);
    await settleScoreSnapshotRefresh(a.tenantId);
    const kept = await readDeviceSnapshots({ ctx: a, deviceId: "oem-SNAPICE1" });
    expect(kept.tas?.answer.tas_grade).toBe("F");
    expect(kept.tas?.answer).toEqual(await getTas({ ctx: a, input: { device_id: "oem-SNAPICE1" }, now: kept.tas!.computedAt }));
    expect((await computedAt(a, "fleet_risk", ""))!.getTime()).toBeGreaterThan(fleetBefore!.getTime());
    expect(await computedAt(a, "tas", "oem-SNAPBEV1")).toEqual(otherBefore);
  });

  it("dismissing an alert invalidates the device's answers in its transaction, and they are recomputed with the dismissal", async () => {
    const alertIds = await rows<{ id: string }>(
      b.db,
      sql`select id from alerts where tenant_id = ${b.tenantId} and device_id = 'oem-SNAPICE1' and dismissed_at is null order by created_at`,
    );
    expect(alertIds.length).toBeGreaterThan(0);
    expect((await readDeviceSnapshots({ ctx: b, deviceId: "oem-SNAPICE1" })).tas?.answer.tas_grade).toBe("F");
    const before = await computedAt(b, "tas", "oem-SNAPICE1");
    await settleScoreSnapshotRefresh(b.tenantId);
    for (const { id } of alertIds) {
      await dismissAlert({ ctx: { ...b, actor: { userId: "usr_reviewer", email: "reviewer@example.com" } }, input: { alert_id: id, reason: "Cluster replaced, invoice on file" } });
      // Right after the commit no page reads the answers that still carried the knockout.
      const kept = await readDeviceSnapshots({ ctx: b, deviceId: "oem-SNAPICE1" });
      expect(kept.tas === null || kept.tas.computedAt.getTime() > before!.getTime()).toBe(true);
    }
    await settleScoreSnapshotRefresh(b.tenantId);
    const kept = await readDeviceSnapshots({ ctx: b, deviceId: "oem-SNAPICE1" });
    expect(kept.tas?.answer.knockout_flags).toEqual([]);
    expect(kept.tas?.answer).toEqual(await getTas({ ctx: b, input: { device_id: "oem-SNAPICE1" }, now: kept.tas!.computedAt }));
  });

  it("the fleet page reads the maintained scores for 30 days, computes a new device's grade and other periods now", async () => {
    const kept = await readFleetSnapshots({ ctx: a, deviceIds: ["oem-SNAPBEV1", "oem-SNAPICE1"] });
    const now = new Date();
    const page = await getFleetPageScores({ ctx: a, periodDays: 30, deviceIds: ["oem-SNAPBEV1", "oem-SNAPICE1"], now });
    expect(page.risk).toEqual(kept.fleetRisk);
    expect(page.gradesAsOf.getTime()).toBeLessThan(now.getTime());
    expect(page.grades.get("oem-SNAPICE1")).toBe("F");

    // A device the snapshots do not hold yet (written here without the ingest, so no refresh has run for it):
    // its grade is computed for this view, and the read starts its refresh.
    await insertDevices(a.db, a.tenantId, [{ deviceId: "oem-SNAPNEW1", powertrain: "ICE" }]);
    const later = new Date();
    const withNew = await getFleetPageScores({ ctx: a, periodDays: 30, deviceIds: ["oem-SNAPBEV1", "oem-SNAPICE1", "oem-SNAPNEW1"], now: later });
    const live = await getTas({ ctx: a, input: { device_id: "oem-SNAPNEW1" }, now: later });
    expect(withNew.grades.get("oem-SNAPNEW1")).toBe(live.tas_grade);
    expect(withNew.risk).toEqual(kept.fleetRisk); // the fleet scores are still the maintained ones

    const week = await getFleetPageScores({ ctx: a, periodDays: 7, deviceIds: ["oem-SNAPBEV1"], now: later });
    expect(week.risk).toEqual({ answer: await getFleetRisk({ ctx: a, input: { period: 7 }, now: later }), computedAt: later });
    // The read that missed the new device started a refresh of it: it then has its own rows.
    await settleScoreSnapshotRefresh(a.tenantId);
    expect(await computedAt(a, "tas", "oem-SNAPNEW1")).toBeDefined();
  });

  it("a page that finds the snapshots older than SCORE_SNAPSHOT_MAX_AGE_SECONDS still shows them, with their time, and refreshes them", async () => {
    const before = await computedAt(a, "fleet_risk", "");
    process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS = "0";
    resetEnvCache();
    try {
      const later = new Date(before!.getTime() + 5_000);
      const kept = await readFleetSnapshots({ ctx: a, deviceIds: [], now: later });
      expect(kept.fleetRisk?.computedAt).toEqual(before);
      await settleScoreSnapshotRefresh(a.tenantId);
      expect((await computedAt(a, "fleet_risk", ""))!.getTime()).toBeGreaterThan(before!.getTime());
    } finally {
      process.env.SCORE_SNAPSHOT_MAX_AGE_SECONDS = "3600";
      resetEnvCache();
    }
  });

  it("a refresh deletes the rows of its scope it did not write: a device the tenant no longer holds, an answer it could not give", async () => {
    await a.db.execute(sql`delete from devices where tenant_id = ${a.tenantId} and device_id = 'oem-SNAPNEW1'`);
    // An answer an earlier run gave and this one cannot (here: a kind no longer computed) stays only until the next run.
    await a.db.execute(
      sql`insert into score_snapshots (tenant_id, kind, device_id, period_days, version, answer, computed_at)
          values (${a.tenantId}, 'retired_kind', 'oem-SNAPBEV1', 0, 'v0', '{}'::jsonb, now() - interval '1 hour')`,
    );
    expect(await computedAt(a, "tas", "oem-SNAPNEW1")).toBeDefined();
    // A run for one device leaves the other devices' rows alone.
    await refreshScoreSnapshots({ db: a.db, log: a.log, tenantId: a.tenantId, deviceIds: ["oem-SNAPICE1"] });
    expect(await computedAt(a, "retired_kind", "oem-SNAPBEV1")).toBeDefined();
    expect(await computedAt(a, "tas", "oem-SNAPNEW1")).toBeDefined();
    await refreshScoreSnapshots({ db: a.db, log: a.log, tenantId: a.tenantId });
    expect(await computedAt(a, "tas", "oem-SNAPNEW1")).toBeUndefined();
    expect(await computedAt(a, "retired_kind", "oem-SNAPBEV1")).toBeUndefined();
    expect(await count(a)).toBe(12);
  });
});
