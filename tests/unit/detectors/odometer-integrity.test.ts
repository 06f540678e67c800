import { describe, expect, it } from "vitest";
import { detectOdometerIntegrity, odometerSpikes } from "@/lib/detectors/odometer-integrity";
import { masterUpdateFor } from "@/lib/ingest/normalize-records";
import { ctx, normalBevDay, normalIceDay, rec, shuffled, t } from "./fixtures";

const odo = (km: number, hhmm: string) => rec({ ts: t(hhmm), odometerKm: km });
const key = (k: string) => (d: { dedupeKey: string }) => d.dedupeKey === k;
const rollback = (records: ReturnType<typeof odo>[], device = ctx()) => detectOdometerIntegrity({ device, records }).filter(key("odometer_integrity:rollback"));
const jump = (records: ReturnType<typeof odo>[], device = ctx()) => detectOdometerIntegrity({ device, records }).filter(key("odometer_integrity:jump"));

describe("detectOdometerIntegrity: rollback (CONTRACT: more than 1 km below the highest earlier reading)", () => {
  it("1.0 km lower is tolerated, 1.01 km lower in one reading is an unconfirmed WARNING, in two a CRITICAL", () => {
    expect(rollback([odo(10_000, "08:00"), odo(9_999, "09:00")])).toEqual([]);
    const [w] = rollback([odo(10_000, "08:00"), odo(9_998.99, "09:00")]);
    expect(w?.severity).toBe("WARNING");
    expect(w?.confidence).toBe(0.5);
    expect(w?.prediction).toContain("below its earlier maximum — unconfirmed");
    expect(w?.technicalData).toMatchObject({ confirmed: false, readings_below_earlier_max: 1 });
    const [d] = rollback([odo(10_000, "08:00"), odo(9_998.99, "09:00"), odo(9_998.99, "09:30")]);
    expect(d?.severity).toBe("CRITICAL");
    expect(d?.technicalData).toMatchObject({ confirmed: true });
    expect(d?.observedAt).toEqual(t("09:00"));
    expect(d?.technicalData).toMatchObject({
      reading_km: 9_998.99,
      earlier_max_km: 10_000,
      earlier_max_ts: "2026-11-17T08:00:00.000Z",
      difference_km: 1.01,
      earlier_max_source: "batch",
      tas_knockout: "odometer_manipulation",
    });
    expect(d?.prediction).toContain("1.01 km below the 10,000 km recorded on 2026-11-17");
  });

  it("floating-point noise does not turn exactly 1 km into more than 1 km", () => {
    expect(rollback([odo(12_345.6, "08:00"), odo(12_344.6, "09:00")])).toEqual([]);
  });

  it("compares with the highest earlier reading, not only the previous one", () => {
    const [d] = rollback([odo(10_000, "08:00"), odo(10_050, "09:00"), odo(10_040, "10:00"), odo(10_045, "11:00")]);
    expect(d?.technicalData).toMatchObject({ reading_km: 10_040, earlier_max_km: 10_050, readings_below_earlier_max: 2, persistent: true });
    expect(d?.confidence).toBe(0.9);
  });

  it("one reading below the maximum per batch: WARNING first, CRITICAL when the next batch's reading stays low (the stored state counts as the first)", () => {
    const max = { km: 50_003, ts: t("01:00") };
    const [first] = rollback([odo(49_990, "02:00")], ctx({ odometerMax: max, previous: { ts: t("01:00"), odometerKm: 50_003, socPct: null, sohPct: null } }));
    expect(first?.severity).toBe("WARNING");
    const [second] = rollback([odo(49_995, "03:00")], ctx({ odometerMax: max, previous: { ts: t("02:00"), odometerKm: 49_990, socPct: null, sohPct: null } }));
    expect(second?.severity).toBe("CRITICAL");
    expect(second?.technicalData).toMatchObject({ stored_state_below_earlier_max: true, confirmed: true });
  });

  it("a stored state held above the stored maximum (an unconfirmed jump) that the batch falls back from is a spike outlier, not the level", () => {
    const device = ctx({ odometerMax: { km: 50_000, ts: t("01:00") }, previous: { ts: t("01:30"), odometerKm: 59_000, socPct: null, sohPct: null } });
    const drafts = detectOdometerIntegrity({ device, records: [odo(50_002, "02:00"), odo(50_010, "03:00")] });
    expect(drafts.map((d) => [d.dedupeKey, d.severity])).toEqual([["odometer_integrity:outlier", "INFO"]]);
    expect(drafts[0]?.technicalData).toMatchObject({ kind: "spike", reading_km: 59_000, level_km: 50_000, level_source: "odometer_max", contradicting_km: 50_002 });
    // Confirmed by the batch (not falling back): it is a level, and a later drop below it is judged against it.
    const confirmed = rollback([odo(59_000.5, "02:00"), odo(58_000, "03:00")], device);
    expect(confirmed[0]?.technicalData).toMatchObject({ earlier_max_km: 59_000.5 });
  });

  it("uses device.odometerMax when it is earlier than the reading", () => {
    const device = ctx({ odometerMax: { km: 50_000, ts: t("00:00") } });
    const [d] = rollback([odo(48_000, "08:00")], device);
    expect(d?.technicalData).toMatchObject({ earlier_max_source: "odometer_max", difference_km: 2_000, earlier_max_ts: "2026-11-17T00:00:00.000Z" });
    expect(rollback([odo(49_999, "08:00")], device)).toEqual([]);
  });

  it("does not flag late-arriving records for being lower than a LATER maximum", () => {
    // The device already reported 50,000 km at 20:00; readings from the morning arrive now.
    const device = ctx({ odometerMax: { km: 50_000, ts: t("20:00") }, previous: { ts: t("20:00"), odometerKm: 50_000, socPct: null, sohPct: null } });
    expect(detectOdometerIntegrity({ device, records: [odo(49_800, "08:00"), odo(49_850, "09:00")] })).toEqual([]);
    // …but a late record is still compared with the earlier records it arrived with
    expect(rollback([odo(49_800, "08:00"), odo(49_700, "09:00")], device)).toHaveLength(1);
  });

  it("records with the same timestamp are not 'earlier' than each other", () => {
    expect(rollback([odo(10_000, "08:00"), odo(9_000, "08:00")])).toEqual([]);
  });

  it("a km→miles ratio is hinted", () => {
    const [miles] = rollback([odo(100_000, "08:00"), odo(62_137, "09:00")]);
    expect(miles?.technicalData.possible_unit_change).toBe(true);
  });

  it("a drop that persists to the batch's end is CRITICAL and says it holds only while no later reading returns", () => {
    const [d] = rollback([odo(50_000, "08:00"), odo(50_003, "09:00"), odo(49_990, "10:00"), odo(49_995, "11:00")]);
    expect(d?.severity).toBe("CRITICAL");
    expect(d?.technicalData).toMatchObject({ reading_km: 49_990, earlier_max_km: 50_003, readings_below_earlier_max: 2, contradicted_readings: 0, persistent: true });
    expect(d?.prediction).toContain("while no later reading returns to the earlier level");
    expect(d?.prediction).not.toContain("until it is explained");
  });
});

describe("detectOdometerIntegrity: outliers (CONTRACT: a reading the next one contradicts is data quality, not manipulation)", () => {
  const outlier = (records: ReturnType<typeof odo>[], device = ctx()) => detectOdometerIntegrity({ device, records }).filter(key("odometer_integrity:outlier"));

  it("50000 → 50003 → 49990 → 50008: an INFO outlier, no CRITICAL rollback", () => {
    const records = [odo(50_000, "08:00"), odo(50_003, "09:00"), odo(49_990, "10:00"), odo(50_008, "11:00")];
    expect(rollback(records)).toEqual([]);
    const [d] = outlier(records);
    expect(d?.severity).toBe("INFO");
    expect(d?.observedAt).toEqual(t("10:00"));
    expect(d?.technicalData).toMatchObject({ kind: "drop", reading_km: 49_990, level_km: 50_003, contradicting_km: 50_008, deviation_km: 13, tas_knockout: null });
    expect(d?.prediction).toContain("not odometer manipulation");
  });

  it("a drop contradicted later, then a drop that persists: an outlier and a rollback", () => {
    const records = [odo(50_000, "08:00"), odo(49_990, "09:00"), odo(50_010, "10:00"), odo(49_000, "11:00"), odo(49_010, "12:00")];
    const [r] = rollback(records);
    expect(r?.technicalData).toMatchObject({ reading_km: 49_000, earlier_max_km: 50_010, contradicted_readings: 1 });
    expect(outlier(records)[0]?.technicalData).toMatchObject({ reading_km: 49_990, contradicting_km: 50_010 });
  });

  it("an implausible upward spike the next reading falls back from is an outlier, not the level later readings are judged against", () => {
    const records = [odo(50_000, "08:00"), odo(59_000, "08:10"), odo(50_010, "08:20"), odo(50_020, "08:30")];
    const drafts = detectOdometerIntegrity({ device: ctx(), records });
    expect(drafts.map((d) => d.dedupeKey)).toEqual(["odometer_integrity:outlier"]);
    expect(drafts[0]?.technicalData).toMatchObject({ kind: "spike", reading_km: 59_000, level_km: 50_000, contradicting_km: 50_010, deviation_km: 9_000 });
    // A jump the next reading confirms is still a jump (and the level).
    expect(jump([odo(50_000, "08:00"), odo(59_000, "08:10"), odo(59_010, "08:20")])).toHaveLength(1);
  });

  it("a stored drop that this batch contradicts is reported as an outlier (the rollback alert no longer holds)", () => {
    const device = ctx({ odometerMax: { km: 50_003, ts: t("07:00") }, previous: { ts: t("08:00"), odometerKm: 49_990, socPct: null, sohPct: null } });
    const records = [odo(50_008, "09:00"), odo(50_012, "10:00")];
    expect(rollback(records, device)).toEqual([]);
    const [d] = outlier(records, device);
    expect(d?.observedAt).toEqual(t("09:00"));
    expect(d?.technicalData).toMatchObject({ kind: "earlier_drop", reading_km: 49_990, level_km: 50_003, level_source: "odometer_max", contradicting_km: 50_008 });
    expect(d?.prediction).toContain("no longer holds");
    // Still low: the drop persists, and is judged against the stored maximum again.
    expect(rollback([odo(49_995, "09:00")], device)).toHaveLength(1);
    expect(outlier([odo(49_995, "09:00")], device)).toEqual([]);
  });

  it("a contradicted drop resolves the open rollback alerts it contradicts (the contradicting reading, the level it is back at)", () => {
    const device = ctx({ odometerMax: { km: 50_003, ts: t("07:00") }, previous: { ts: t("08:00"), odometerKm: 49_990, socPct: null, sohPct: null } });
    const [d] = outlier([odo(50_008, "09:00"), odo(50_012, "10:00")], device);
    expect(d?.resolves).toEqual({
      dedupeKey: "odometer_integrity:rollback",
      evidenceBefore: t("09:00"),
      levelAtMost: { field: "earlier_max_km", value: 50_009 },
      reason: expect.stringMatching(
        /^Resolved by FDP: the odometer reads 50,008 km on 2026-11-17, back at the 50,003 km it had fallen from \(49,990 km on 2026-11-17\): .*data error, not odometer manipulation/,
      ),
      evidence: { contradicting_km: 50_008, contradicting_ts: "2026-11-17T09:00:00.000Z", low_reading_km: 49_990, low_reading_ts: "2026-11-17T08:00:00.000Z", level_km: 50_003 },
    });
    // Within one batch (a drop the batch itself contradicts), too: an alert raised for an earlier low reading is resolved.
    const [inBatch] = outlier([odo(50_000, "08:00"), odo(50_003, "08:10"), odo(49_990, "08:20"), odo(50_008, "08:30")]);
    expect(inBatch?.resolves).toMatchObject({ evidenceBefore: t("08:30"), levelAtMost: { field: "earlier_max_km", value: 50_009 } });
    // A spike outlier resolves nothing (no rollback was raised for it).
    const [spike] = outlier([odo(50_000, "08:00"), odo(59_000, "08:10"), odo(50_002, "08:20")]);
    expect(spike?.technicalData).toMatchObject({ kind: "spike" });
    expect(spike?.resolves).toBeUndefined();
  });

  it("the stored maximum ignores a spike the batch contradicts (odometerSpikes), and rises to a reading only once the next one confirms it", () => {
    const records = [odo(50_000, "08:00"), odo(59_000, "08:10"), odo(50_010, "08:20")];
    expect([...odometerSpikes(records)].map((r) => r.odometerKm)).toEqual([59_000]);
    // The batch's last reading waits for the next batch (review L4: any rise may be a one-sample spike).
    expect(masterUpdateFor("dev-1", records, null)).toMatchObject({ odometerMaxKm: 50_000, odometerMaxAt: t("08:00") });
    expect(masterUpdateFor("dev-1", [odo(50_000, "08:00"), odo(59_000, "08:10")], null)).toMatchObject({ odometerMaxKm: 50_000, odometerMaxAt: t("08:00") });
    const held = { ts: t("08:10"), odometerKm: 59_000, socPct: null, sohPct: null };
    const storedMax = { km: 50_000, ts: t("08:00") };
    expect(masterUpdateFor("dev-1", [odo(59_000.5, "08:20")], held, storedMax)).toMatchObject({ odometerMaxKm: 59_000, odometerMaxAt: t("08:10") });
    expect(masterUpdateFor("dev-1", [odo(59_000.5, "08:20"), odo(59_001, "08:30")], held, storedMax)).toMatchObject({ odometerMaxKm: 59_000.5 });
    expect(masterUpdateFor("dev-1", [odo(58_999.5, "08:20")], held, storedMax)).toMatchObject({ odometerMaxKm: 59_000, odometerMaxAt: t("08:10") });
    // The stored 59,000 was a spike (the next reading is back near the stored maximum): it never counts.
    expect(masterUpdateFor("dev-1", [odo(50_002, "08:20"), odo(50_003, "08:30")], held, storedMax)).toMatchObject({ odometerMaxKm: 50_002 });
    // A fall far below the level before it is a possible rollback: the stored state is the level it is judged against.
    expect(masterUpdateFor("dev-1", [odo(40_000, "08:20")], held, storedMax)).toMatchObject({ odometerMaxKm: 59_000 });
    // One record per batch: a jump from the stored state is held back too.
    expect(masterUpdateFor("dev-1", [odo(59_000, "08:20")], { ...held, odometerKm: 50_000 })).toMatchObject({ odometerMaxKm: 50_000 });
  });
});

describe("detectOdometerIntegrity: implausible jump", () => {
  it("WARNING when more than 50 km at more than 250 km/h average", () => {
    const [d] = jump([odo(10_000, "08:00"), odo(10_100, "08:10")]);
    expect(d?.severity).toBe("WARNING");
    expect(d?.technicalData).toMatchObject({ difference_km: 100, prior_km: 10_000, average_kmh: 600, prior_source: "batch" });
    expect(d?.prediction).toMatch(/^Odometer jumped 100 km in 10 min \(from 10,000 to 10,100 km\), an average of 600 km\/h, above the 250 km\/h/);
    expect(jump([odo(10_000, "08:00"), odo(10_100, "09:00")])).toEqual([]); // 100 km/h
    expect(jump([odo(10_000, "08:00"), odo(10_050, "08:01")])).toEqual([]); // not more than 50 km
    expect(jump([odo(10_000, "08:00"), odo(10_250, "09:00")])).toEqual([]); // exactly 250 km/h
    expect(jump([odo(10_000, "08:00"), odo(10_251, "09:00")])).toHaveLength(1);
  });

  it("a return from a low glitch to the level is no jump; a rise is judged from the level, not from the glitch", () => {
    // Stored: the level 10,003 km, then one low reading of 9,000 km; the batch is back at 10,010 km ten minutes later.
    const device = ctx({ odometerMax: { km: 10_003, ts: t("07:40") }, previous: { ts: t("07:50"), odometerKm: 9_000, socPct: null, sohPct: null } });
    expect(jump([odo(10_010, "08:00")], device)).toEqual([]);
    expect(jump([odo(10_000, "07:00"), odo(10_003, "07:40"), odo(9_000, "07:50"), odo(10_010, "08:00")])).toEqual([]);
    // 2,000 km above the level 20 min after it was read: a jump, from the level.
    const [d] = jump([odo(12_003, "08:00")], device);
    expect(d?.technicalData).toMatchObject({ prior_km: 10_003, prior_source: "odometer_max", difference_km: 2_000 });
  });

  it("uses the device's previous state for the first reading of the batch", () => {
    const device = ctx({ previous: { ts: t("07:00"), odometerKm: 20_000, socPct: null, sohPct: null } });
    const [d] = jump([odo(32_187, "07:30")], device);
    expect(d?.technicalData).toMatchObject({ prior_source: "previous_state", possible_unit_change: true });
  });
});

describe("detectOdometerIntegrity: normal data", () => {
  it("is quiet on normal days and on shuffled (out-of-order) records", () => {
    for (const day of [normalBevDay(), normalIceDay()]) {
      expect(detectOdometerIntegrity(day)).toEqual([]);
      expect(detectOdometerIntegrity({ device: day.device, records: shuffled(day.records, 7) })).toEqual([]);
    }
  });

  it("review L4: a one-sample spike is an outlier whatever the speed it implies (+10,000 km after 3 days parked)", () => {
    const at = (hoursLater: number, km: number) => ({ ...odo(km, "08:00"), ts: new Date(t("08:00").getTime() + hoursLater * 3_600_000) });
    const records = [at(0, 50_000), at(72, 60_000), at(73, 50_001)];
    expect([...odometerSpikes(records)].map((r) => r.odometerKm)).toEqual([60_000]);
    expect(rollback(records)).toEqual([]);
    const outliers = detectOdometerIntegrity({ device: ctx(), records }).filter((d) => d.dedupeKey === "odometer_integrity:outlier");
    expect(outliers.map((d) => d.technicalData)).toEqual([expect.objectContaining({ kind: "spike", reading_km: 60_000, contradicting_km: 50_001 })]);
  });

  it("review L4: the batch's first reading is judged against the stored state; a next reading below the earlier level, or keeping most of the rise, is no spike's contradiction", () => {
    const previous = { ts: t("07:00"), odometerKm: 50_000, socPct: null, sohPct: null };
    expect([...odometerSpikes([odo(60_000, "08:00"), odo(50_001, "09:00")], { km: 50_000, ts: previous.ts })].map((r) => r.odometerKm)).toEqual([60_000]);
    expect(rollback([odo(60_000, "08:00"), odo(50_001, "09:00")], ctx({ previous, odometerMax: { km: 50_000, ts: previous.ts } }))).toEqual([]);
    expect([...odometerSpikes([odo(50_000, "08:00"), odo(50_100, "09:00"), odo(49_000, "10:00")])]).toEqual([]);
    expect([...odometerSpikes([odo(10_000, "08:00"), odo(10_050, "09:00"), odo(10_040, "10:00")])]).toEqual([]);
  });
});
