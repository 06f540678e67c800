import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { alerts, devices } from "@/lib/db/schema";
import { tasScoreSchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { DAY, MIN, type Rec, useIngestApi, vinSequence, parkedBevRecords } from "../helpers/ingest-api";

/**
 * Issue 8, second review: what the detectors know about a device between batches, through the real
 * ingest verb (POST /oem/ingest) on Postgres and PGlite, with one record per batch (common OEM feeds):
 * the 12 V settle clock (M2) and the one-sample odometer spike (L4).
 */

const api = useIngestApi("Detector evidence, one record per batch");
const { ingest, get } = api;
/** Five days ago on the whole minute: inside every window, in the past. */
const BASE = Math.floor((Date.now() - 5 * DAY) / MIN) * MIN;
const newVin = vinSequence("KNA8EVD2000");

/** One parked BEV record at `hours` after BASE. */
const rec = parkedBevRecords(BASE);

const storedAlerts = (deviceId: string) =>
  api.tdb.handle.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.tenantId, api.t.tenantId), eq(alerts.deviceId, deviceId)))
    .orderBy(asc(alerts.createdAt), asc(alerts.id));
const keys = async (id: string, agent: string) => (await storedAlerts(id)).filter((a) => a.agent === agent).map((a) => [a.dedupeKey, a.severity]);

describe("M2: the 12 V settle clock starts at the last awake reading of the stored history", () => {
  /** Charging (plugged in, DC-DC converter holding 13.4 V), then parked at 11.5 V `after` hours later: one record per batch. */
  async function chargingThenParked(after: number, awake: Rec = { charging_status: "Charging", raw_data: { ignition: false, charging_power_kw: 11 } }) {
    const vin = newVin();
    await ingest([rec(vin, 0, { battery_voltage: 13.4, ...awake })]);
    await ingest([rec(vin, after, { battery_voltage: 11.5 })]);
    return `oem-${vin}`;
  }

  it("charging, then 11.5 V parked 1 h later: not a resting reading, no low_12v alert", async () => {
    expect(await keys(await chargingThenParked(1), "battery")).toEqual([]);
  });

  it("charging, then 11.5 V parked 7 h later: settled, a low_12v WARNING", async () => {
    expect(await keys(await chargingThenParked(7), "battery")).toEqual([["battery:low_12v", "WARNING"]]);
  });

  it("ignition on (not moving), then 11.5 V with the ignition off 1 h later: no alert", async () => {
    expect(await keys(await chargingThenParked(1, { raw_data: { ignition: true } }), "battery")).toEqual([]);
  });

  it("the awake reading two batches back still counts while within 6 h: charging at 0 h, parked 12.6 V at 3 h, 11.5 V at 5 h: no alert; 11.5 V at 6.5 h: alert", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { battery_voltage: 13.4, charging_status: "Charging" })]);
    await ingest([rec(vin, 3, { battery_voltage: 12.6 })]);
    await ingest([rec(vin, 5, { battery_voltage: 11.5 })]);
    expect(await keys(id, "battery")).toEqual([]);
    await ingest([rec(vin, 6.5, { battery_voltage: 11.5 })]);
    expect(await keys(id, "battery")).toEqual([["battery:low_12v", "WARNING"]]);
  });
});

describe("L4: a one-sample odometer spike is an outlier whatever the speed it implies", () => {
  it("50,000 km, parked 3 days, then 60,000 km, then 50,001 km (one record per batch): an INFO spike outlier, no rollback, no knockout, the stored maximum never 60,000", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { odometer_km: 50_000 })]);
    await ingest([rec(vin, 72, { odometer_km: 60_000 })]);
    await ingest([rec(vin, 73, { odometer_km: 50_001 })]);
    expect(await keys(id, "odometer_integrity")).toEqual([["odometer_integrity:outlier", "INFO"]]);
    const outlier = (await storedAlerts(id)).find((a) => a.dedupeKey === "odometer_integrity:outlier");
    expect(outlier?.technicalData).toMatchObject({ kind: "spike", reading_km: 60_000, contradicting_km: 50_001 });
    await ingest([rec(vin, 74, { odometer_km: 50_002 })]);
    const [device] = await api.tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, id)));
    expect(device?.odometerMaxKm).toBe(50_001);
    expect((await storedAlerts(id)).some((a) => a.severity === "CRITICAL" || a.dedupeKey === "odometer_integrity:rollback")).toBe(false);
    expect(tasScoreSchema.parse(await get(`/tas/${id}`)).knockout_flags).toEqual([]);
  });

  it("the same glitch inside one batch [50,000, 60,000, 50,001]: an INFO spike, no rollback", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([rec(vin, 0, { odometer_km: 50_000 }), rec(vin, 72, { odometer_km: 60_000 }), rec(vin, 73, { odometer_km: 50_001 })]);
    expect(await keys(id, "odometer_integrity")).toEqual([["odometer_integrity:outlier", "INFO"]]);
    const [device] = await api.tdb.handle.db
      .select()
      .from(devices)
      .where(and(eq(devices.tenantId, api.t.tenantId), eq(devices.deviceId, id)));
    expect(device?.odometerMaxKm).toBe(50_000);
  });

  it("a fall below the level before the rise is still a rollback: 50,000, 50,100, 49,000 (one record per batch): a rollback WARNING against 50,100", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    for (const [h, km] of [
      [0, 50_000],
      [1, 50_100],
      [2, 49_000],
    ] as const)
      await ingest([rec(vin, h, { odometer_km: km })]);
    expect(await keys(id, "odometer_integrity")).toEqual([["odometer_integrity:rollback", "WARNING"]]);
    const [rollback] = await storedAlerts(id);
    expect(rollback?.technicalData).toMatchObject({ reading_km: 49_000, earlier_max_km: 50_100 });
    const tas = tasScoreSchema.parse(await get(`/tas/${id}`));
    expect(tas.knockout_flags).toEqual(["odometer_manipulation"]);
  });
});

describe("L3: an AGM battery on a charger or maintainer is not a lithium pack", () => {
  it("parked, ignition off, 14.6 V with no chemistry word: vehicle health does not call it a lithium pack; with `lv_battery_chemistry: LFP` it does", async () => {
    const agm = newVin();
    await ingest([rec(agm, 0, { battery_voltage: 14.6 })]);
    const health = vehicleHealthScoreSchema.parse(await get(`/scores/vehicle-health/oem-${agm}`));
    expect(health.limitations.join(" ")).not.toContain("lithium pack");
    const lfp = newVin();
    await ingest([rec(lfp, 0, { battery_voltage: 14.6, raw_data: { ignition: false, lv_battery_chemistry: "LFP", vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } } })]);
    const named = vehicleHealthScoreSchema.parse(await get(`/scores/vehicle-health/oem-${lfp}`));
    expect(named.limitations.join(" ")).toContain("lithium pack");
  });
});
