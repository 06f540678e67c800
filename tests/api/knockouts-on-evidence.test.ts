import { describe, expect, it } from "vitest";
import { DAY, HOUR, MIN, iso, type Rec, useIngestApi, vinSequence } from "../helpers/ingest-api";

/**
 * Issue 8, "knockouts on evidence": telemetry through the real ingest verb (POST /oem/ingest, its
 * normalisation and detectors), then the device score endpoints (TAS, EOL, vehicle health, battery
 * snapshot). Every score must treat the same reading the same way (lib/vocabulary/readings.ts).
 */

const api = useIngestApi("Knockouts on evidence");
const { ingest, tas, eol, health, battery } = api;
/** Three days ago on the whole minute: inside every window, in the past. */
const BASE = Math.floor((Date.now() - 3 * DAY) / MIN) * MIN;
const newVin = vinSequence("KNA8EVD0000");

/** Hourly parked records of one vehicle from `startH`, with master data; `each(i)` adds fields per record. */
function records(vin: string, n: number, each: (i: number) => Rec, powertrain = "BEV", startH = 0): Rec[] {
  return Array.from({ length: n }, (_, i) => ({
    vin,
    timestamp: iso(BASE + (startH + i) * HOUR),
    speed_kmh: 0,
    raw_data: { ignition: false, vehicle: { make: "Kia", model: "EV6", powertrain } },
    ...each(i),
  }));
}

describe("odometer manipulation on evidence", () => {
  it("a glitching odometer (50000 → 50003 → 49990 → 50008) is not a knockout", async () => {
    const vin = newVin();
    const km = [50_000, 50_003, 49_990, 50_008];
    await ingest(records(vin, km.length, (i) => ({ odometer_km: km[i], soh_percent: 92, soc_percent: 70 })));
    const id = `oem-${vin}`;
    const score = await tas(id);
    expect(score.knockout_flags).toEqual([]);
    expect(score.data_quality.knockout_evidence).toEqual([]);
    const e = await eol(id);
    expect(e.condition_grade).not.toBe("F");
    expect(e.knockout_evidence).toEqual([]);
    expect((await health(id)).components.odometer_integrity).toBe(100);
  });

  it("an implausible upward spike that falls back is not the level later readings are judged against", async () => {
    const vin = newVin();
    // 500 km in one hour, then back: a spike, not a clocked odometer.
    const km = [50_000, 50_500, 50_010, 50_020];
    await ingest(records(vin, km.length, (i) => ({ odometer_km: km[i], soh_percent: 92, soc_percent: 70 })));
    expect((await tas(`oem-${vin}`)).knockout_flags).toEqual([]);
    expect((await eol(`oem-${vin}`)).condition_grade).not.toBe("F");
  });

  it("a clocked odometer is a knockout F naming its readings; a later reading back at the earlier level clears it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const km = [80_000, 80_100, 80_200, 15_000, 15_040, 15_080];
    await ingest(records(vin, km.length, (i) => ({ odometer_km: km[i], soh_percent: 92, soc_percent: 70 })));
    const score = await tas(id);
    expect(score.tas_grade).toBe("F");
    expect(score.knockout_flags).toEqual(["odometer_manipulation"]);
    expect(score.data_quality.knockout_evidence).toEqual([
      {
        knockout: "odometer_manipulation",
        statement: expect.stringContaining("80200 km"),
        readings: [
          { role: "highest_earlier", value: 80_200, unit: "km", at: iso(BASE + 2 * HOUR) },
          { role: "first_lower", value: 15_000, unit: "km", at: iso(BASE + 3 * HOUR) },
          { role: "latest", value: 15_080, unit: "km", at: iso(BASE + 5 * HOUR) },
        ],
        readings_since: 3,
      },
    ]);
    const e = await eol(id);
    expect(e.condition_grade).toBe("F");
    expect(e.knockout_evidence.map((k) => k.knockout)).toEqual(["odometer_manipulation"]);
    expect(e.limitations.join(" ")).toContain("15000 km at " + iso(BASE + 3 * HOUR));
    expect((await health(id)).components.odometer_integrity).toBe(0);

    // The evidence is withdrawn: the odometer reads the earlier level again.
    await ingest(records(vin, 1, () => ({ odometer_km: 80_250, soh_percent: 92, soc_percent: 70 }), "BEV", 6));
    const cleared = await tas(id);
    expect(cleared.knockout_flags).toEqual([]);
    expect(cleared.tas_grade).not.toBe("F");
    expect((await eol(id)).knockout_evidence).toEqual([]);
    expect((await health(id)).components.odometer_integrity).not.toBe(0);
  });
});

describe("state of health plausibility: the same treatment in TAS, EOL, vehicle health and the battery snapshot", () => {
  it("SoH 0 after plausible readings: no knockout, flagged, the previous reading used everywhere", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const soh = [90, 90, 0];
    await ingest(records(vin, soh.length, (i) => ({ soh_percent: soh[i], odometer_km: 20_000 + i, soc_percent: 70 })));
    const score = await tas(id);
    expect(score.knockout_flags).toEqual([]);
    expect(score.pillars.battery_health.source).toBe("oem_bms");
    expect(score.data_quality.excluded_readings).toEqual([expect.objectContaining({ signal: "soh_pct", value: 0, reason: "implausible_value", at: iso(BASE + 2 * HOUR) })]);
    const e = await eol(id);
    expect(e.condition_grade).not.toBe("F");
    expect(e.excluded_readings.map((x) => x.value)).toEqual([0]);
    const vh = await health(id);
    expect(vh.components.battery).not.toBeNull();
    expect(vh.limitations.join(" ")).toMatch(/reading 0 % .* not used/);
    const b = await battery(id);
    expect(b.data_quality.soh_pct).toBe(90);
    expect(b.data_quality.excluded_readings.map((x) => x.value)).toEqual([0]);
  });

  it("a BMS that only ever sent 0: no SoH in any score", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest(records(vin, 2, (i) => ({ soh_percent: 0, odometer_km: 20_000 + i, soc_percent: 70 })));
    const score = await tas(id);
    expect(score.knockout_flags).toEqual([]);
    expect(score.pillars.battery_health.source).toBe("insufficient_data");
    expect((await eol(id)).condition_grade).not.toBe("F");
    const vh = await health(id);
    expect(vh.components.battery).toBeNull();
    expect(vh.missing_signals).toContain("soh_pct");
    expect((await battery(id)).data_quality.soh_pct).toBeNull();
  });

  it("an unconfirmed SoH jump is not used; once the next reading confirms it, it is (and knocks out below 60 %)", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const soh = [90, 90, 50];
    await ingest(records(vin, soh.length, (i) => ({ soh_percent: soh[i], odometer_km: 20_000 + i, soc_percent: 70 })));
    const pending = await tas(id);
    expect(pending.knockout_flags).toEqual([]);
    expect(pending.data_quality.excluded_readings).toEqual([expect.objectContaining({ value: 50, reason: "unconfirmed_jump" })]);
    expect((await eol(id)).condition_grade).not.toBe("F");
    expect((await battery(id)).data_quality.soh_pct).toBe(90);

    await ingest(records(vin, 1, () => ({ soh_percent: 51, odometer_km: 20_010, soc_percent: 70 }), "BEV", 3));
    const confirmed = await tas(id);
    expect(confirmed.knockout_flags).toEqual(["soh_below_60"]);
    expect(confirmed.data_quality.knockout_evidence).toEqual([
      expect.objectContaining({ knockout: "soh_below_60", readings: [{ role: "latest_plausible_soh", value: 51, unit: "%", at: iso(BASE + 3 * HOUR) }] }),
    ]);
    expect(confirmed.data_quality.excluded_readings).toEqual([]);
    const e = await eol(id);
    expect(e.condition_grade).toBe("F");
    expect(e.knockout_evidence.map((k) => k.knockout)).toEqual(["soh_below_60"]);
    expect((await battery(id)).data_quality.soh_pct).toBe(51);
  });
});

describe("device scores agree with each other", () => {
  it("an HEV without SoH: not applicable in TAS, not missing in vehicle health, no battery gap in EOL", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest(records(vin, 3, (i) => ({ odometer_km: 30_000 + i, fuel_level_pct: 50, dtc_codes: [], battery_voltage: 12.6 }), "HEV"));
    expect((await tas(id)).pillars.battery_health.source).toBe("not_applicable");
    const vh = await health(id);
    expect(vh.missing_signals).not.toContain("soh_pct");
    expect((await eol(id)).limitations.join(" ")).not.toMatch(/state of health/);
    expect((await battery(id)).data_quality.not_applicable_fields).toContain("soh_pct");
  });

  it("a 12 V reading while charging (DC-DC converter at 13.4 V) or just after driving is not a resting reading", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([
      // Driving, then parked 30 minutes (not settled), then parked and charging for hours.
      { vin, timestamp: iso(BASE), speed_kmh: 60, odometer_km: 40_000, soc_percent: 40, battery_voltage: 14.1, raw_data: { ignition: true, vehicle: { powertrain: "BEV" } } },
      { vin, timestamp: iso(BASE + 30 * MIN), speed_kmh: 0, odometer_km: 40_030, soc_percent: 38, battery_voltage: 12.3, raw_data: { ignition: false } },
      ...[1, 3, 6].map((h) => ({
        vin,
        timestamp: iso(BASE + h * HOUR),
        speed_kmh: 0,
        odometer_km: 40_030,
        soc_percent: 40 + h * 5,
        battery_voltage: 13.4,
        charging_status: "charging",
        raw_data: { ignition: false, charging_power_kw: 11 },
      })),
    ]);
    const vh = await health(id);
    expect(vh.components.electrical_12v).toBeNull();
    expect(vh.limitations.join(" ")).toMatch(/no resting 12 V reading/);
  });

  it("a settled, parked, not-charging 12 V reading is scored", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([
      { vin, timestamp: iso(BASE), speed_kmh: 60, odometer_km: 40_000, soc_percent: 60, battery_voltage: 14.1, raw_data: { ignition: true, vehicle: { powertrain: "BEV" } } },
      { vin, timestamp: iso(BASE + 8 * HOUR), speed_kmh: 0, odometer_km: 40_030, soc_percent: 58, battery_voltage: 12.6, raw_data: { ignition: false } },
    ]);
    expect((await health(id)).components.electrical_12v).toBe(100);
  });

  it("EOL with no measured signal says so: no score, confidence low, 'Not measured'", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest([{ vin, timestamp: iso(BASE), speed_kmh: 0, fuel_level_pct: 40, raw_data: { vehicle: { powertrain: "ICE" } } }]);
    const e = await eol(id);
    expect(e.vehicle_health_score).toBeNull();
    expect(e.confidence).toBe("low");
    expect(e.limitations[0]).toMatch(/^Not measured:/);
    expect(e.condition_grade).not.toBe("A");
  });
});
