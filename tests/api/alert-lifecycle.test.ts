import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAlerts } from "@/lib/alerts/list-alerts";
import type { TenantCtx } from "@/lib/context";
import { alerts } from "@/lib/db/schema";
import { listFleet } from "@/lib/fleet/list-fleet";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { alertListSchema, alertsQuerySchema } from "@/lib/schemas/alerts";
import { fleetQuerySchema } from "@/lib/schemas/fleet";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { parseInput } from "@/lib/validation";
import { tenantDataState } from "../helpers/counts";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The alert lifecycle (docs/methodology/alerts.md#lifecycle) through the real ingest verb, on Postgres
 * and PGlite (api-postgres / api-pglite): a more severe occurrence is raised alongside the open alert,
 * repeated ones update its evidence, a re-sent payload changes nothing, an acknowledged alert is not
 * updated; and the odometer's glitch-versus-rollback rule as stored.
 */

let tdb: TestDatabase;
let ctx: TenantCtx;
const MIN = 60_000;
const base = Date.now() - 24 * 60 * MIN;
const at = (minutes: number) => new Date(base + minutes * MIN);
let vinSeq = 0;
const newVin = () => `WVWZZZ1KZ${String(++vinSeq).padStart(8, "0")}`;
/** Each request has its own arrival time (the ingest's `now`), after its records. */
let clock = 0;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const t = await createTenantWithKey(tdb.handle.db);
  ctx = { db: tdb.handle.db, tenantId: t.tenantId, isSandbox: false, log: rootLogger() };
});

afterAll(async () => {
  await tdb?.dispose();
});

type Rec = Record<string, unknown> & { vin: string; timestamp: string };

async function ingest(records: Rec[]) {
  const input = parseInput(ingestBodySchema, JSON.parse(JSON.stringify({ vehicles: records })));
  clock += 1;
  await ingestTelemetry({ ctx, input, now: new Date(Date.now() - 60 * MIN + clock * 1000) });
}

const soh = (vin: string, minute: number, pct: number): Rec => ({ vin, timestamp: at(minute).toISOString(), speed_kmh: 0, soh_percent: pct });
const odo = (vin: string, minute: number, km: number): Rec => ({ vin, timestamp: at(minute).toISOString(), speed_kmh: 0, odometer_km: km });

const stored = (deviceId: string, key?: string) =>
  tdb.handle.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.deviceId, deviceId), ...(key ? [eq(alerts.dedupeKey, key)] : [])))
    .orderBy(asc(alerts.createdAt), asc(alerts.id));

/** The alert answer (validated against its output schema), for one device. */
async function answered(deviceId: string) {
  const list = await listAlerts({ ctx, input: parseInput(alertsQuerySchema, { limit: "200" }) });
  return alertListSchema.parse(list).data.filter((a) => a.device_id === deviceId);
}

const alertsOnly = (s: Record<string, string | number>) => ({ alerts: s.alerts, alerts_md5: s.alerts_md5, telemetry: s.telemetry, telemetry_md5: s.telemetry_md5 });

describe("alert lifecycle through ingest", () => {
  it("an open WARNING does not hide a CRITICAL: SoH 68 % then 58 % (confirmed) raises the CRITICAL alongside, and the fleet shows it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([soh(vin, 10, 68)]);
    // 68 → 58 jumps 10 pp: the scores set it aside until a following reading confirms it, so does the
    // soh_low rule (only the soh_drop WARNING, marked unconfirmed); the next reading confirms it.
    await ingest([soh(vin, 20, 58)]);
    expect((await stored(id, "battery:soh_low")).map((a) => a.severity)).toEqual(["WARNING"]);
    await ingest([soh(vin, 25, 58)]);
    const sohLow = await stored(id, "battery:soh_low");
    expect(sohLow.map((a) => [a.severity, a.acknowledged, a.occurrences])).toEqual([
      ["WARNING", false, 1],
      ["CRITICAL", false, 1],
    ]);
    expect(sohLow[1]?.createdAt).toEqual(at(25));
    expect(sohLow[1]?.technicalData).toMatchObject({ soh_pct: 58, tas_knockout: "soh_below_60" });
    const fleet = await listFleet({ ctx, input: parseInput(fleetQuerySchema, { limit: "500" }) });
    expect(fleet.data.find((d) => d.device_id === id)?.alert_level).toBe("critical");

    // A later WARNING-level reading is an occurrence of the problem: it updates the CRITICAL (the most
    // severe open alert), whose sentence stays the CRITICAL finding; the latest value says 65.
    await ingest([soh(vin, 30, 65)]);
    const after = await stored(id, "battery:soh_low");
    expect(after.map((a) => [a.severity, a.occurrences, a.worstValue, a.latestValue])).toEqual([
      ["WARNING", 1, 68, 68],
      ["CRITICAL", 2, 58, 65],
    ]);
    expect(after[1]?.prediction).toContain("58 %");
    expect(after[1]?.lastSeenAt).toEqual(at(30));
  });

  it("repeated occurrences update the open alert's evidence: count, first/last seen, worst and latest value, latest text; the answer shows them", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([soh(vin, 10, 68)]);
    await ingest([soh(vin, 20, 66)]);
    await ingest([soh(vin, 30, 67)]);
    // A late batch: the SoH rule judges the current state, and FDP holds a newer one: no occurrence.
    await ingest([soh(vin, 15, 60.5)]);
    const [a, ...rest] = await stored(id, "battery:soh_low");
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ severity: "WARNING", occurrences: 3, firstSeenAt: at(10), lastSeenAt: at(30), worstValue: 66, latestValue: 67, createdAt: at(10) });
    expect(a?.technicalData).toMatchObject({ soh_pct: 67, value_field: "soh_pct", worse_when: "lower" });
    expect(a?.prediction).toContain("67 %");

    const [shown] = (await answered(id)).filter((x) => x.technical_data.rule === "soh_low");
    expect(shown?.technical_data).toMatchObject({
      occurrences: 3,
      first_occurrence_at: at(10).toISOString(),
      last_occurrence_at: at(30).toISOString(),
      worst_value: 66,
      latest_value: 67,
      soh_pct: 67,
    });
    expect(shown?.created_at).toBe(at(10).toISOString());
  });

  it("a late occurrence (device time before the latest) is counted and can be the worst, but is not the latest evidence", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const power = (minute: number, kw: number): Rec => ({
      vin,
      timestamp: at(minute).toISOString(),
      speed_kmh: 0,
      soc_percent: 40,
      charging_status: "charging",
      raw_data: { charging_power_kw: kw },
    });
    await ingest([power(10, 900)]);
    await ingest([power(30, 950)]);
    await ingest([power(20, 1_200)]);
    const [a, ...rest] = await stored(id, "charging:implausible_power");
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ occurrences: 3, firstSeenAt: at(10), lastSeenAt: at(30), worstValue: 1_200, latestValue: 950 });
    expect(a?.technicalData).toMatchObject({ power_kw: 950 });
  });

  it("a re-sent payload changes nothing, even after the alert was acknowledged", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const payload = [soh(vin, 10, 90), soh(vin, 20, 85), { ...odo(vin, 30, 5_000), soc_percent: 4 }];
    await ingest(payload);
    expect((await stored(id)).map((a) => a.dedupeKey).sort()).toEqual(["battery:low_soc", "battery:soh_drop"]);
    const once = alertsOnly(await tenantDataState(tdb.handle.db, ctx.tenantId));
    await ingest(payload);
    expect(alertsOnly(await tenantDataState(tdb.handle.db, ctx.tenantId))).toEqual(once);

    await tdb.handle.db
      .update(alerts)
      .set({ acknowledged: true, acknowledgedBy: "ops@example.com", acknowledgedAt: at(40) })
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.deviceId, id)));
    const acked = alertsOnly(await tenantDataState(tdb.handle.db, ctx.tenantId));
    await ingest(payload);
    await ingest([payload[2] as Rec]);
    expect(alertsOnly(await tenantDataState(tdb.handle.db, ctx.tenantId))).toEqual(acked);
  });

  it("an acknowledged alert is not updated: a new occurrence raises a new alert", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([soh(vin, 10, 68)]);
    await tdb.handle.db
      .update(alerts)
      .set({ acknowledged: true, acknowledgedBy: "ops@example.com", acknowledgedAt: at(15) })
      .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.deviceId, id)));
    await ingest([soh(vin, 20, 67)]);
    const list = await stored(id, "battery:soh_low");
    expect(list.map((a) => [a.acknowledged, a.occurrences, a.latestValue, a.createdAt])).toEqual([
      [true, 1, 68, at(10)],
      [false, 1, 67, at(20)],
    ]);
  });
});

describe("odometer: glitch versus rollback as stored", () => {
  it("50000 → 50003 → 49990 → 50008 raises an INFO outlier, no CRITICAL rollback", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([odo(vin, 10, 50_000), odo(vin, 20, 50_003), odo(vin, 30, 49_990), odo(vin, 40, 50_008)]);
    expect((await stored(id)).map((a) => [a.dedupeKey, a.severity])).toEqual([["odometer_integrity:outlier", "INFO"]]);
  });

  it("a drop that persists is a CRITICAL rollback; when a later batch returns to the level, an outlier says it no longer holds", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([odo(vin, 10, 50_000), odo(vin, 20, 50_003), odo(vin, 30, 49_990), odo(vin, 35, 49_991)]);
    expect((await stored(id)).map((a) => [a.dedupeKey, a.severity])).toEqual([["odometer_integrity:rollback", "CRITICAL"]]);
    // Still low in the next batch: one more occurrence of the same rollback.
    await ingest([odo(vin, 40, 49_992)]);
    expect((await stored(id)).map((a) => [a.dedupeKey, a.occurrences])).toEqual([["odometer_integrity:rollback", 2]]);
    await ingest([odo(vin, 50, 50_010)]);
    const after = await stored(id);
    expect(after.map((a) => [a.dedupeKey, a.severity])).toEqual([
      ["odometer_integrity:rollback", "CRITICAL"],
      ["odometer_integrity:outlier", "INFO"],
    ]);
    expect(after[1]?.technicalData).toMatchObject({ kind: "earlier_drop", reading_km: 49_992, level_km: 50_003, contradicting_km: 50_010 });
    // The contradicted CRITICAL is resolved by FDP, its history kept (occurrences, text, evidence).
    expect(after[0]).toMatchObject({ acknowledged: true, acknowledgedBy: "fdp:odometer_integrity", occurrences: 2 });
    expect(after[0]?.technicalData).toMatchObject({ rule: "rollback", reading_km: 49_992, resolution: { contradicting_km: 50_010, contradicting_ts: at(50).toISOString() } });
  });

  it("a one-reading glitch's WARNING is resolved when the odometer continues from the pre-glitch value: alert_level and /alerts follow", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const fleetLevel = async () => (await listFleet({ ctx, input: parseInput(fleetQuerySchema, { limit: "500" }) })).data.find((d) => d.device_id === id)?.alert_level;
    await ingest([odo(vin, 10, 10_000), odo(vin, 20, 10_003)]);
    // One low reading, nothing after it yet: the unconfirmed WARNING, and the fleet shows it.
    await ingest([odo(vin, 30, 9_000)]);
    expect((await stored(id)).map((a) => [a.dedupeKey, a.severity, a.acknowledged])).toEqual([["odometer_integrity:rollback", "WARNING", false]]);
    expect(await fleetLevel()).toBe("warning");
    // The next batch continues from the pre-glitch value: the 9,000 km was a data error.
    const beforeResolution = (await stored(id))[0]!;
    await ingest([odo(vin, 40, 10_010)]);
    const after = await stored(id);
    expect(after.map((a) => [a.dedupeKey, a.severity, a.acknowledged])).toEqual([
      ["odometer_integrity:rollback", "WARNING", true],
      ["odometer_integrity:outlier", "INFO", false],
    ]);
    const resolved = after[0]!;
    // Resolved, not deleted: same row, its text and evidence kept, the reason recorded.
    expect(resolved.id).toBe(beforeResolution.id);
    expect(resolved.prediction).toBe(beforeResolution.prediction);
    expect(resolved.occurrences).toBe(1);
    expect(resolved.acknowledgedBy).toBe("fdp:odometer_integrity");
    expect(resolved.acknowledgedAt).not.toBeNull();
    expect(resolved.technicalData).toMatchObject({
      ...beforeResolution.technicalData,
      resolution: {
        resolved_by: "fdp:odometer_integrity",
        reason: expect.stringMatching(/10,010 km.*9,000 km.*data error, not odometer manipulation/),
        contradicting_km: 10_010,
        contradicting_ts: at(40).toISOString(),
        resolved_at: resolved.acknowledgedAt!.toISOString(),
      },
    });
    // The fleet's level is the open INFO now; /alerts shows the WARNING acknowledged, with the reason.
    expect(await fleetLevel()).toBe("info");
    const answer = await answered(id);
    const warning = answer.find((a) => a.severity === "WARNING");
    expect(warning).toMatchObject({ acknowledged: true, acknowledged_by: "fdp:odometer_integrity" });
    expect(warning?.technical_data).toMatchObject({ resolution: { contradicting_km: 10_010 } });
    const open = alertListSchema
      .parse(await listAlerts({ ctx, input: parseInput(alertsQuerySchema, { limit: "200", acknowledged: "false" }) }))
      .data.filter((a) => a.device_id === id);
    expect(open.map((a) => a.severity)).toEqual(["INFO"]);

    // A re-sent payload changes nothing.
    const snapshot = await stored(id);
    await ingest([odo(vin, 40, 10_010)]);
    expect(await stored(id)).toEqual(snapshot);

    // A new drop later is a new problem: a new WARNING, not folded into the resolved one, and not resolved by the old contradiction.
    await ingest([odo(vin, 50, 8_000)]);
    const later = await stored(id, "odometer_integrity:rollback");
    expect(later.map((a) => [a.severity, a.acknowledged, a.occurrences])).toEqual([
      ["WARNING", true, 1],
      ["WARNING", false, 1],
    ]);
    expect(later[0]).toEqual(resolved);
    expect(await fleetLevel()).toBe("warning");
  });

  it("a contradiction below the level a rollback fell from does not resolve it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([odo(vin, 10, 20_000), odo(vin, 20, 20_003)]);
    await ingest([odo(vin, 30, 15_000), odo(vin, 31, 15_001)]);
    // Still 3 km below the 20,003 km: not back at the level; the CRITICAL stays open.
    await ingest([odo(vin, 40, 20_000)]);
    const rollback = await stored(id, "odometer_integrity:rollback");
    expect(rollback.map((a) => [a.severity, a.acknowledged])).toEqual([["CRITICAL", false]]);
  });

  it("a spike the next reading falls back from is not the level the next batch is judged against", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([odo(vin, 10, 50_000), odo(vin, 11, 59_000), odo(vin, 12, 50_002)]);
    await ingest([odo(vin, 20, 50_010)]);
    expect((await stored(id)).map((a) => a.dedupeKey)).toEqual(["odometer_integrity:outlier"]);
  });
});
