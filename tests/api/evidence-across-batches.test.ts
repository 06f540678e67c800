import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { alerts, devices } from "@/lib/db/schema";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { DAY, HOUR, MIN, iso, type Rec, useIngestApi, vinSequence, parkedBevRecords } from "../helpers/ingest-api";

/**
 * Issue 8 review: evidence that spans batches, through the real ingest verb (POST /oem/ingest, its
 * normalisation, the device upsert and the detectors) on Postgres and PGlite. A BMS that sends 0 after a
 * low reading, an odometer spike at the end of a batch, one record per batch, an unconfirmed SoH jump,
 * repeated odometer-jump alerts: each used to mislead (named per test).
 */

const api = useIngestApi("Evidence across batches");
const { ingest, get, tas, eol, health } = api;
/** Three days ago on the whole minute: inside every window, in the past. */
const BASE = Math.floor((Date.now() - 3 * DAY) / MIN) * MIN;
const newVin = vinSequence("KNA8EVD1000");
const alertLevel = async (id: string) =>
  ((await get("/fleet?limit=500")) as { data: { device_id: string; alert_level: string }[] }).data.find((d) => d.device_id === id)?.alert_level;

/** One parked BEV record at `hours` after BASE. */
const rec = parkedBevRecords(BASE);

const storedAlerts = (deviceId: string) =>
  api.tdb.handle.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.tenantId, api.t.tenantId), eq(alerts.deviceId, deviceId)))
    .orderBy(asc(alerts.createdAt), asc(alerts.id));
const odometerAlerts = async (id: string) => (await storedAlerts(id)).filter((a) => a.agent === "odometer_integrity").map((a) => [a.dedupeKey, a.severity]);

describe("H1: implausible SoH readings cannot crowd the plausible ones out", () => {
  it("55 % readings then 8 zeros: still soh_below_60 (F) in TAS and EOL, the zeros listed as excluded", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const soh = [55, 55, 0, 0, 0, 0, 0, 0, 0, 0];
    await ingest(soh.map((pct, i) => rec(vin, i, { soh_percent: pct, odometer_km: 20_000 + i })));
    const score = await tas(id);
    expect(score.knockout_flags).toEqual(["soh_below_60"]);
    expect(score.tas_grade).toBe("F");
    expect(score.data_quality.knockout_evidence).toEqual([
      expect.objectContaining({ knockout: "soh_below_60", readings: [{ role: "latest_plausible_soh", value: 55, unit: "%", at: iso(BASE + HOUR) }] }),
    ]);
    expect(score.data_quality.excluded_readings.map((x) => [x.value, x.reason])).toEqual(Array.from({ length: 8 }, () => [0, "implausible_value"]));
    const e = await eol(id);
    expect(e.condition_grade).toBe("F");
    expect(e.excluded_readings).toHaveLength(8);
    expect((await health(id)).components.battery).not.toBeNull();
  });
});

describe("H3: an odometer spike at the end of a batch is not the level later batches are judged against", () => {
  it("batch [50000, 59000] then batch [50002, 50010]: an INFO spike outlier, no rollback, no knockout; the stored maximum never was 59000", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { odometer_km: 50_000 }), rec(vin, 1, { odometer_km: 59_000 })]);
    const [held] = await api.tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, id)));
    expect(held?.odometerMaxKm).toBe(50_000);
    await ingest([rec(vin, 2, { odometer_km: 50_002 }), rec(vin, 3, { odometer_km: 50_010 })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:jump", "WARNING"],
      ["odometer_integrity:outlier", "INFO"],
    ]);
    const outlier = (await storedAlerts(id)).find((a) => a.dedupeKey === "odometer_integrity:outlier");
    expect(outlier?.technicalData).toMatchObject({ kind: "spike", reading_km: 59_000, level_km: 50_000, contradicting_km: 50_002 });
    const [after] = await api.tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, id)));
    // The batch's last reading (50,010) waits for the next reading to confirm it (review L4).
    expect(after?.odometerMaxKm).toBe(50_002);
    expect((await tas(id)).knockout_flags).toEqual([]);
    expect(await alertLevel(id)).not.toBe("critical");
  });

  it("one record per batch: 50000, 59000, 50002: the same (the spike is held back until a reading confirms it)", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    for (const [h, km] of [
      [0, 50_000],
      [1, 59_000],
      [2, 50_002],
      [3, 50_010],
    ] as const)
      await ingest([rec(vin, h, { odometer_km: km })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:jump", "WARNING"],
      ["odometer_integrity:outlier", "INFO"],
    ]);
    expect((await tas(id)).knockout_flags).toEqual([]);
  });

  it("a jump the next batch confirms becomes the level: a later drop below it is judged against it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { odometer_km: 50_000 }), rec(vin, 1, { odometer_km: 59_000 })]);
    await ingest([rec(vin, 2, { odometer_km: 59_000.5 })]);
    await ingest([rec(vin, 3, { odometer_km: 58_000 }), rec(vin, 4, { odometer_km: 58_001 })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:jump", "WARNING"],
      ["odometer_integrity:rollback", "CRITICAL"],
    ]);
    expect((await tas(id)).knockout_flags).toEqual(["odometer_manipulation"]);
  });
});

describe("M6: a one-sample odometer drop with one record per batch", () => {
  it("50000, 50003, [49990]: a WARNING 'unconfirmed', not a CRITICAL; [50008] next: an INFO outlier and nothing critical", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    for (const [h, km] of [
      [0, 50_000],
      [1, 50_003],
      [2, 49_990],
    ] as const)
      await ingest([rec(vin, h, { odometer_km: km })]);
    expect(await odometerAlerts(id)).toEqual([["odometer_integrity:rollback", "WARNING"]]);
    const [warning] = await storedAlerts(id);
    expect(warning?.prediction).toContain("below its earlier maximum — unconfirmed");
    expect(warning?.technicalData).toMatchObject({ confirmed: false });
    await ingest([rec(vin, 3, { odometer_km: 50_008 })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:rollback", "WARNING"],
      ["odometer_integrity:outlier", "INFO"],
    ]);
    expect(await alertLevel(id)).not.toBe("critical");
  });

  it("50000, 50003, [49990], [49995]: the second low reading raises the CRITICAL alongside", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    for (const [h, km] of [
      [0, 50_000],
      [1, 50_003],
      [2, 49_990],
      [3, 49_995],
    ] as const)
      await ingest([rec(vin, h, { odometer_km: km })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:rollback", "WARNING"],
      ["odometer_integrity:rollback", "CRITICAL"],
    ]);
    expect(await alertLevel(id)).toBe("critical");
  });
});

describe("M1: the detectors judge SoH as the scores do", () => {
  it("91 % then a single 50 %: no soh_below_60 CRITICAL (TAS sets it aside), a soh_drop WARNING marked unconfirmed; a confirming reading raises it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { soh_percent: 91 }), rec(vin, 1, { soh_percent: 91 })]);
    await ingest([rec(vin, 2, { soh_percent: 50 })]);
    const battery = async () => (await storedAlerts(id)).filter((a) => a.agent === "battery").map((a) => [a.dedupeKey, a.severity]);
    expect(await battery()).toEqual([["battery:soh_drop", "WARNING"]]);
    const [drop] = await storedAlerts(id);
    expect(drop?.technicalData).toMatchObject({ unconfirmed_jump: true });
    expect((await tas(id)).knockout_flags).toEqual([]);

    await ingest([rec(vin, 3, { soh_percent: 50.5 })]);
    expect(await battery()).toEqual([
      ["battery:soh_drop", "WARNING"],
      ["battery:soh_low", "CRITICAL"],
    ]);
    expect((await tas(id)).knockout_flags).toEqual(["soh_below_60"]);
  });

  it("the SoH trend's base is a plausible reading: an unconfirmed jump at the start of the look-back is not the base", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const at = (daysAgo: number, pct: number): Rec => ({ ...rec(vin, 0, { soh_percent: pct }), timestamp: iso(BASE - daysAgo * DAY) });
    // 90 % throughout, but the oldest reading of the look-back is a one-off 99 that jumps from the reading
    // before it (before the look-back) and that the next reading does not confirm.
    await ingest([at(400, 90), at(300, 99), at(299, 90), at(200, 90), at(1, 90)]);
    const inputs = await loadTasInputs({ ctx: { db: api.tdb.handle.db, tenantId: api.t.tenantId }, deviceIds: [id], now: new Date() });
    expect(inputs.get(id)?.battery.soh_trend_pp_per_year).toBe(0);
  });
});

describe("M5: vehicle health counts open jump problems, not alert rows", () => {
  it("a jump acknowledged and a second jump later (two rows, one open problem): odometer_integrity 60, not 100 × 0.6²", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { odometer_km: 10_000 }), rec(vin, 1, { odometer_km: 10_600 }), rec(vin, 2, { odometer_km: 10_601 })]);
    await api.tdb.handle.db
      .update(alerts)
      .set({ acknowledged: true, acknowledgedBy: "ops@example.com", acknowledgedAt: new Date() })
      .where(and(eq(alerts.tenantId, api.t.tenantId), eq(alerts.deviceId, id)));
    await ingest([rec(vin, 3, { odometer_km: 11_300 }), rec(vin, 4, { odometer_km: 11_301 })]);
    expect(await odometerAlerts(id)).toEqual([
      ["odometer_integrity:jump", "WARNING"],
      ["odometer_integrity:jump", "WARNING"],
    ]);
    expect((await health(id)).components.odometer_integrity).toBe(60);
    // Both acknowledged (checked): no open jump problem.
    await api.tdb.handle.db
      .update(alerts)
      .set({ acknowledged: true, acknowledgedBy: "ops@example.com", acknowledgedAt: new Date() })
      .where(and(eq(alerts.tenantId, api.t.tenantId), eq(alerts.deviceId, id)));
    expect((await health(id)).components.odometer_integrity).toBe(100);
  });
});

describe("L4: a one-sample spike is an outlier whatever speed it implies, in the knockout too", () => {
  it("50,000, 3 days parked, 60,000, then 50,001, 50,002, 49,500, 49,501 (one record per batch): the drop is judged against 50,002, not the spike", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    // The 60,000 reading implies 139 km/h over three days: no jump rule flags it, but the next reading falls back to the level before it.
    const readings: [number, number][] = [
      [-48, 50_000],
      [24, 60_000],
      [25, 50_001],
      [26, 50_002],
      [27, 49_500],
      [28, 49_501],
    ];
    for (const [hour, km] of readings) await ingest([rec(vin, hour, { odometer_km: km })]);
    const score = await tas(id);
    expect(score.knockout_flags).toEqual(["odometer_manipulation"]);
    const [evidence] = score.data_quality.knockout_evidence;
    expect(evidence?.knockout).toBe("odometer_manipulation");
    // The highest plausible earlier reading is 50,002 (the 60,000 spike is not the level), and two readings stayed below it.
    expect(evidence?.readings[0]?.value).toBe(50_002);
    expect(JSON.stringify(evidence)).not.toContain("60000");
  });
});

describe("a device's first odometer reading is a level like any other (the gate agrees with the scan)", () => {
  it("60,000 (first ever), then 10,000, 10,010, 10,020 one record per batch: odometer_manipulation stays, not only while the low reading is the latest", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    for (const [hour, km] of [
      [0, 60_000],
      [1, 10_000],
      [2, 10_010],
      [3, 10_020],
    ] as const)
      await ingest([rec(vin, hour, { odometer_km: km })]);
    const [dev] = await api.tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, id)));
    expect(dev?.odometerMaxKm).toBe(60_000);
    const score = await tas(id);
    expect(score.knockout_flags).toEqual(["odometer_manipulation"]);
    expect(score.data_quality.knockout_evidence[0]?.readings[0]?.value).toBe(60_000);
  });
});
