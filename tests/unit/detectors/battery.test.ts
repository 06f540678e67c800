import { describe, expect, it } from "vitest";
import { detectBattery } from "@/lib/detectors/battery";
import { ctx, normalBevDay, normalIceDay, rec, t } from "./fixtures";

const soc = (pct: number, extra: Parameters<typeof rec>[0] | object = {}) =>
  rec({ ts: t("09:00"), socPct: pct, speedKmh: 0, ignition: 0, chargingStatus: "not_charging", chargingPowerKw: 0, ...extra });
const byKey = (drafts: ReturnType<typeof detectBattery>, key: string) => drafts.filter((d) => d.dedupeKey === key);

describe("detectBattery: low state of charge", () => {
  it("is quiet at 10 % and above, WARNING below 10 %, CRITICAL below 5 % (boundaries 10/9.9 and 5/4.9)", () => {
    const run = (pct: number) => byKey(detectBattery({ device: ctx(), records: [soc(pct)] }), "battery:low_soc");
    expect(run(10)).toEqual([]);
    expect(run(9.9).map((d) => d.severity)).toEqual(["WARNING"]);
    expect(run(5).map((d) => d.severity)).toEqual(["WARNING"]);
    expect(run(4.9).map((d) => d.severity)).toEqual(["CRITICAL"]);
    expect(run(0).map((d) => d.severity)).toEqual(["CRITICAL"]);
  });

  it("judges the latest SOC of the batch and names value and threshold", () => {
    const drafts = detectBattery({ device: ctx(), records: [soc(4, { ts: t("08:00") }), soc(12, { ts: t("09:00") })] });
    expect(byKey(drafts, "battery:low_soc")).toEqual([]);
    const [d] = byKey(detectBattery({ device: ctx(), records: [soc(12, { ts: t("08:00") }), soc(4, { ts: t("09:00") })] }), "battery:low_soc");
    expect(d?.prediction).toBe("State of charge is 4 %, below the 5 % critical level: the vehicle may strand its driver; charge it before any further driving.");
    expect(d?.observedAt).toEqual(t("09:00"));
    expect(d?.technicalData).toMatchObject({ soc_pct: 4, threshold_pct: 5, detector_version: "alerts-2027.02", value_field: "soc_pct", worse_when: "lower" });
    expect(d?.measure).toEqual({ field: "soc_pct", value: 4, worst: 4, worse: "lower" });
  });

  it("is quiet while charging (status or positive power while standing)", () => {
    expect(detectBattery({ device: ctx(), records: [soc(3, { chargingStatus: "charging", chargingPowerKw: 11 })] })).toEqual([]);
    expect(detectBattery({ device: ctx(), records: [soc(3, { chargingStatus: "DC_CHARGING" })] })).toEqual([]);
    expect(detectBattery({ device: ctx(), records: [soc(3, { chargingStatus: null, chargingPowerKw: 7.4 })] })).toEqual([]);
  });

  it("does not judge a late-arriving batch older than the state FDP already holds", () => {
    const newer = ctx({ previous: { ts: t("12:00"), odometerKm: null, socPct: 60, sohPct: null } });
    expect(detectBattery({ device: newer, records: [soc(3)] })).toEqual([]);
    const older = ctx({ previous: { ts: t("08:00"), odometerKm: null, socPct: 60, sohPct: null } });
    expect(detectBattery({ device: older, records: [soc(3)] }).map((d) => d.dedupeKey)).toEqual(["battery:low_soc"]);
  });

  it("confidence grows with corroborating low readings", () => {
    const one = byKey(detectBattery({ device: ctx(), records: [soc(8)] }), "battery:low_soc")[0];
    const three = byKey(detectBattery({ device: ctx(), records: [soc(9, { ts: t("08:00") }), soc(8.5, { ts: t("08:30") }), soc(8, { ts: t("09:00") })] }), "battery:low_soc")[0];
    expect(one?.confidence).toBe(0.8);
    expect(three?.confidence).toBe(0.9);
  });

  it("downgrades a plug-in hybrid one level (it runs on fuel) unless its tank is low too", () => {
    const phev = ctx({ powertrain: "PHEV", batteryKwh: 14 });
    expect(detectBattery({ device: phev, records: [soc(4, { fuelLevelPct: 55 })] }).map((d) => d.severity)).toEqual(["WARNING"]);
    expect(detectBattery({ device: phev, records: [soc(8, { fuelLevelPct: 55 })] }).map((d) => d.severity)).toEqual(["INFO"]);
    expect(detectBattery({ device: phev, records: [soc(4, { fuelLevelPct: 6 })] }).map((d) => d.severity)).toEqual(["CRITICAL"]);
  });

  it("ignores HEV and ICE; infers BEV/PHEV for an unknown powertrain like ingest does", () => {
    expect(detectBattery({ device: ctx({ powertrain: "HEV" }), records: [soc(3)] })).toEqual([]);
    expect(detectBattery({ device: ctx({ powertrain: "ICE" }), records: [soc(3)] })).toEqual([]);
    const unknown = ctx({ powertrain: null, batteryKwh: null });
    const [bev] = detectBattery({ device: unknown, records: [soc(3)] });
    expect(bev?.severity).toBe("CRITICAL");
    expect(bev?.technicalData.powertrain_assumed).toBe("BEV");
    const [phev] = detectBattery({ device: unknown, records: [soc(3, { fuelLevelPct: 40 })] });
    expect(phev?.severity).toBe("WARNING");
    expect(phev?.technicalData.powertrain_assumed).toBe("PHEV");
  });
});

describe("detectBattery: low 12 V battery", () => {
  const v = (volts: number, extra: object = {}) => rec({ ts: t("06:00"), batteryVoltage: volts, speedKmh: 0, ignition: 0, ...extra });
  const run = (volts: number, extra: object = {}) =>
    byKey(detectBattery({ device: ctx({ powertrain: "ICE" }), records: [v(volts, extra)] }), "battery:low_12v").map((d) => d.severity);

  it("WARNING below 11.8 V, CRITICAL below 11.0 V (boundaries 11.8/11.79 and 11.0/10.99)", () => {
    expect(run(12.6)).toEqual([]);
    expect(run(11.8)).toEqual([]);
    expect(run(11.79)).toEqual(["WARNING"]);
    expect(run(11.0)).toEqual(["WARNING"]);
    expect(run(10.99)).toEqual(["CRITICAL"]);
  });

  it("only judges a resting 12 V reading", () => {
    expect(run(11.5, { ignition: 1 })).toEqual([]); // engine running
    expect(run(11.5, { speedKmh: 30, ignition: null })).toEqual([]);
    expect(run(11.5, { ignition: null, speedKmh: 0 })).toEqual(["WARNING"]);
    expect(run(11.5, { ignition: null, speedKmh: null })).toEqual([]); // cannot tell
    expect(run(5.9)).toEqual([]); // not a plausible 12 V reading (missing value sent as ~0)
    expect(run(16.01)).toEqual([]);
    expect(run(355)).toEqual([]); // traction pack
    expect(run(11.5, { rawData: { voltage_kind: "traction" } })).toEqual([]);
    expect(run(11.5, { rawData: { voltage_kind: "12V" } })).toEqual(["WARNING"]);
  });

  it("takes the lowest resting reading as evidence and notes a later recovery", () => {
    const records = [v(12.4, { ts: t("01:00") }), v(11.6, { ts: t("05:00") }), v(11.7, { ts: t("06:00") }), v(12.5, { ts: t("18:00") })];
    const [d] = byKey(detectBattery({ device: ctx({ powertrain: "ICE" }), records }), "battery:low_12v");
    expect(d?.severity).toBe("WARNING");
    expect(d?.observedAt).toEqual(t("05:00"));
    expect(d?.technicalData).toMatchObject({ voltage_v: 11.6, threshold_v: 11.8, readings_below_warning: 2, recovered_since: true });
    expect(d?.confidence).toBe(0.6);
    expect(d?.prediction).toMatch(/^12 V battery reads 11\.6 V with the vehicle switched off, below the 11\.8 V warning level/);
  });
});

describe("detectBattery: state of health", () => {
  const s = (pct: number, hhmm = "12:00") => rec({ ts: t(hhmm), sohPct: pct });
  const prev = (pct: number, ts = t("00:00")) => ctx({ previous: { ts, odometerKm: null, socPct: null, sohPct: pct } });

  it("WARNING on a drop of 3 percentage points or more from the previous known SoH", () => {
    expect(byKey(detectBattery({ device: prev(90), records: [s(87.01)] }), "battery:soh_drop")).toEqual([]);
    const [d] = byKey(detectBattery({ device: prev(90), records: [s(87)] }), "battery:soh_drop");
    expect(d?.severity).toBe("WARNING");
    expect(d?.technicalData).toMatchObject({ reference_soh_pct: 90, drop_pp: 3, reference_source: "previous_state" });
    // floating-point noise does not hide an exact 3-point drop
    expect(byKey(detectBattery({ device: prev(90.1), records: [s(87.1)] }), "battery:soh_drop")).toHaveLength(1);
  });

  it("falls back to the batch's first reading; ignores a previous state newer than the batch", () => {
    expect(byKey(detectBattery({ device: ctx(), records: [s(91, "01:00"), s(87.5, "12:00")] }), "battery:soh_drop")).toHaveLength(1);
    expect(byKey(detectBattery({ device: ctx(), records: [s(87.5)] }), "battery:soh_drop")).toEqual([]);
    const newer = prev(95, t("23:00"));
    expect(byKey(detectBattery({ device: newer, records: [s(90, "01:00"), s(89, "12:00")] }), "battery:soh_drop")).toEqual([]);
  });

  it("soh_low: WARNING below 70 %, CRITICAL below 60 % (TAS knockout)", () => {
    const run = (pct: number) => byKey(detectBattery({ device: ctx(), records: [s(pct)] }), "battery:soh_low");
    expect(run(70)).toEqual([]);
    expect(run(69.9).map((d) => d.severity)).toEqual(["WARNING"]);
    expect(run(60).map((d) => d.severity)).toEqual(["WARNING"]);
    expect(run(59.9).map((d) => d.severity)).toEqual(["CRITICAL"]);
    expect(run(59.9)[0]?.technicalData.tas_knockout).toBe("soh_below_60");
    expect(run(59.9)[0]?.prediction).toContain("59.9 %, below 60 %");
    expect(run(65)[0]?.prediction).toContain("below the 70 %");
    const newer = ctx({ previous: { ts: t("23:00"), odometerKm: null, socPct: null, sohPct: 75 } });
    expect(byKey(detectBattery({ device: newer, records: [s(59)] }), "battery:soh_low")).toEqual([]);
    expect(run(59.9)[0]?.measure).toMatchObject({ field: "soh_pct", value: 59.9, worse: "lower" });
  });

  it("a SoH of 0 is no reading: no soh_low or soh_drop from it, and it supersedes nothing", () => {
    const soh = (pct: number, hhmm: string) => rec({ ts: t(hhmm), sohPct: pct });
    const keys = (drafts: { dedupeKey: string }[]) => drafts.map((d) => d.dedupeKey).filter((k) => k.startsWith("battery:soh"));
    expect(keys(detectBattery({ device: ctx(), records: [soh(0, "09:00")] }))).toEqual([]);
    expect(keys(detectBattery({ device: ctx(), records: [soh(88, "08:00"), soh(0, "09:00")] }))).toEqual([]);
    const prev0 = ctx({ previous: { ts: t("08:00"), odometerKm: null, socPct: null, sohPct: 0 } });
    expect(keys(detectBattery({ device: prev0, records: [soh(90, "09:00")] }))).toEqual([]);
    // A stored SoH of 0 newer than the batch does not make a real low reading "superseded".
    const newer0 = ctx({ previous: { ts: t("23:00"), odometerKm: null, socPct: null, sohPct: 0 } });
    expect(byKey(detectBattery({ device: newer0, records: [soh(59, "09:00")] }), "battery:soh_low").map((d) => d.severity)).toEqual(["CRITICAL"]);
  });

  it("68 % then 58 %: WARNING then CRITICAL (the lifecycle raises the CRITICAL alongside)", () => {
    const at = (pct: number, hhmm: string) => byKey(detectBattery({ device: ctx(), records: [rec({ ts: t(hhmm), sohPct: pct })] }), "battery:soh_low");
    expect(at(68, "08:00").map((d) => d.severity)).toEqual(["WARNING"]);
    expect(at(58, "09:00").map((d) => d.severity)).toEqual(["CRITICAL"]);
  });

  it("an unconfirmed jump (91 → 50) is not a knockout: only the soh_drop WARNING, marked unconfirmed; a confirming reading makes it CRITICAL (review M1)", () => {
    const sohLow = (device: ReturnType<typeof ctx>, records: ReturnType<typeof rec>[]) => byKey(detectBattery({ device, records }), "battery:soh_low");
    // 91 % stored, the batch sends 50 %: the scores set it aside (judgeSohReadings), so must the detector.
    expect(sohLow(prev(91), [s(50)])).toEqual([]);
    const [drop] = byKey(detectBattery({ device: prev(91), records: [s(50)] }), "battery:soh_drop");
    expect(drop?.severity).toBe("WARNING");
    expect(drop?.technicalData).toMatchObject({ unconfirmed_jump: true });
    expect(drop?.prediction).toContain("unconfirmed");
    // In one batch: 91 then 50 (unconfirmed) — nothing; 91, 50, 50.5 — confirmed, CRITICAL on 50.5.
    expect(sohLow(ctx(), [s(91, "08:00"), s(50, "09:00")])).toEqual([]);
    const [confirmed] = sohLow(ctx(), [s(91, "08:00"), s(50, "09:00"), s(50.5, "10:00")]);
    expect(confirmed?.severity).toBe("CRITICAL");
    expect(confirmed?.technicalData).toMatchObject({ soh_pct: 50.5, tas_knockout: "soh_below_60" });
    // Across batches: the stored 50 is confirmed by the batch's 50.5.
    expect(sohLow(prev(50), [s(50.5)]).map((d) => d.severity)).toEqual(["CRITICAL"]);
    // A real decline within the noise band (62 → 58) is judged at once.
    expect(sohLow(prev(62), [s(58)]).map((d) => d.severity)).toEqual(["CRITICAL"]);
  });
});

describe("detectBattery: normal data", () => {
  it("is quiet on a normal BEV day and a normal diesel day", () => {
    expect(detectBattery(normalBevDay())).toEqual([]);
    expect(detectBattery(normalIceDay())).toEqual([]);
  });
});
