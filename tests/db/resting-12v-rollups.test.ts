import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { queryDevices } from "@/lib/devices/device-query";
import { windowsAt } from "@/lib/scores/derived-measures";
import { electricalPart } from "@/lib/telemetry/queries/resting-12v-sql";
import { refreshTelemetryRollups, settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { telemetryRowsRead as telemetryRowsOf } from "../helpers/explain-plan";
import { createTenantWithKey } from "../helpers/fixtures";
import { resetEnvCache } from "@/lib/env";

/**
 * The latest resting 12 V reading (vehicle health's electrical_12v, the TAS's weak 12 V flag) read from
 * the daily rollups where they are valid and from raw telemetry after them (resting-12v-sql.ts) must be
 * the raw walk's answer, whatever state the rollups are in: never built, fresh, built only up to a day in
 * the middle of the history, stale after late data, set aside after a battery-size change. Telemetry with
 * a known answer goes in through the real ingest: rests that settle across midnight, a candidate one
 * minute short of the settle time next to one exactly at it, a lithium pack with its chemistry word, a
 * rest today, a rest only 100 days ago, one just before the 90-day window on the window's first day,
 * readings that a refresh, or a raw read, starting on their day must judge by the evening before, a rest
 * that late data unsettles, and a vehicle that never rests. And the rollups are read: for a
 * vehicle that never rests, the statement reads today's readings, not its whole history.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
const now = new Date(Math.floor(Date.now() / MIN) * MIN - 10 * MIN);
const nowMs = now.getTime();
const today0 = Math.floor(nowMs / DAY) * DAY;
/** `h` hours into the UTC day `k` days ago. */
const at = (k: number, h: number) => today0 - k * DAY + h * HOUR;

type Rec = Record<string, unknown>;
const iso = (t: number) => new Date(t).toISOString();
const awake = (vin: string, t: number): Rec => ({ vin, timestamp: iso(t), speed_kmh: 40, battery_voltage: 14.1, raw_data: { ignition: true } });
const parked = (vin: string, t: number, volts: number, raw: Rec = {}): Rec => ({
  vin,
  timestamp: iso(t),
  speed_kmh: 0,
  battery_voltage: volts,
  raw_data: { ignition: false, ...raw },
});
/** Every `stepMin` minutes in [from, to): awake every third reading, parked 12.5 V between: never settles. */
function restless(vin: string, from: number, to: number, stepMin: number): Rec[] {
  const out: Rec[] = [];
  for (let t = from, i = 0; t < to; t += stepMin * MIN, i++) out.push(i % 3 === 0 ? awake(vin, t) : parked(vin, t, 12.5));
  return out;
}

/** REST1: drives day −6, parked from 20:30 to 09:00 the next morning (every 30 min, 12.70 V falling 0.01 V a reading), then never rests. */
function rest1(): Rec[] {
  const out: Rec[] = [];
  for (let h = 8; h <= 20; h += 0.5) out.push(awake("REST1", at(6, h)));
  for (let i = 0; i <= 25; i++) out.push(parked("REST1", at(6, 20.5) + i * 30 * MIN, Math.round((12.7 - 0.01 * i) * 100) / 100));
  return [...out, ...restless("REST1", at(5, 9.5), nowMs - 20 * MIN, 30)];
}
/** EDGE1: awake at 21:00 on day −3; parked 02:59 (12.30 V, 5 h 59 min later: not settled) and 03:00 (12.20 V, exactly 6 h: settled) on day −2. */
function edge1(): Rec[] {
  return [
    ...restless("EDGE1", at(4, 0), at(3, 20.5), 30),
    awake("EDGE1", at(3, 21)),
    parked("EDGE1", at(2, 2 + 59 / 60), 12.3),
    parked("EDGE1", at(2, 3), 12.2),
    ...restless("EDGE1", at(2, 3 + 10 / 60), nowMs - 20 * MIN, 30),
  ];
}
/** LITH1: a lithium pack resting at 13.4 V 7 h after driving (its chemistry word and voltage kind), then 13.9 V without a word (a charge voltage), then never rests. */
function lith1(): Rec[] {
  return [
    ...restless("LITH1", at(5, 0), at(4, 10), 30),
    awake("LITH1", at(4, 10)),
    parked("LITH1", at(4, 17), 13.4, { lv_battery_chemistry: "LiFePO4", voltage_kind: "aux" }),
    parked("LITH1", at(4, 17.5), 13.9),
    ...restless("LITH1", at(4, 18), nowMs - 20 * MIN, 30),
  ];
}
/** RECENT1: rested on day −8; awake 8 h ago, parked 1.5 h and 1 h ago (both settled): the latest, 12.33 V, is today's or yesterday's, by the hour the test runs. */
function recent1(): Rec[] {
  return [
    awake("RECENT1", at(8, 6)),
    parked("RECENT1", at(8, 14), 12.6),
    ...restless("RECENT1", at(8, 15), nowMs - 8 * HOUR, 45),
    awake("RECENT1", nowMs - 8 * HOUR),
    parked("RECENT1", nowMs - 1.5 * HOUR, 12.35),
    parked("RECENT1", nowMs - HOUR, 12.33),
  ];
}
/** OLD1: rested 100 days ago (outside the 90-day window), never since. */
function old1(): Rec[] {
  return [awake("OLD1", nowMs - 100 * DAY), parked("OLD1", nowMs - 100 * DAY + 8 * HOUR, 12.4), ...restless("OLD1", at(3, 0), nowMs - 20 * MIN, 30)];
}
/**
 * MID1: awake at 23:00 on day −5, parked at 02:00 on day −4 (3 h later: not settled), nothing else that
 * day. A refresh that starts at day −4 must still see the awake reading of the evening before.
 */
function mid1(): Rec[] {
  return [...restless("MID1", at(6, 0), at(5, 23), 30), awake("MID1", at(5, 23)), parked("MID1", at(4, 2), 12.1), ...restless("MID1", at(1, 0), nowMs - 20 * MIN, 30)];
}
/** LATE1: awake at 18:00 on day −5, parked 00:00–04:00 on day −4 (12.40 V falling 0.01 V a reading; all settled), then never rests. */
function late1(): Rec[] {
  const out: Rec[] = [...restless("LATE1", at(6, 0), at(5, 18), 30), awake("LATE1", at(5, 18))];
  for (let i = 0; i <= 8; i++) out.push(parked("LATE1", at(4, 0) + i * 30 * MIN, Math.round((12.4 - 0.01 * i) * 100) / 100));
  return [...out, ...restless("LATE1", at(4, 4.5), nowMs - 20 * MIN, 30)];
}
/**
 * NIGHT1: rested on day −6; awake at 22:00 on day −4, parked at 01:00 on day −3 (3 h later: not settled),
 * then never rests. When the raw part starts at midnight of day −3, it must still see the evening before.
 */
function night1(): Rec[] {
  return [
    awake("NIGHT1", at(6, 6)),
    parked("NIGHT1", at(6, 14), 12.6),
    ...restless("NIGHT1", at(6, 15), at(4, 21.5), 30),
    awake("NIGHT1", at(4, 22)),
    parked("NIGHT1", at(3, 1), 12.0),
    ...restless("NIGHT1", at(3, 2), nowMs - 20 * MIN, 30),
  ];
}
/**
 * EDGE90: settled a little before the 90-day window's start, on the same UTC day (so its rolled-up day is
 * in the window), then never rests: the window has no resting reading. (When the test runs within minutes
 * of midnight UTC the window starts at its day's midnight, and the reading falls inside it.)
 */
const since90 = nowMs - 90 * DAY;
const edge90At = since90 - Math.min(30 * MIN, (since90 - Math.floor(since90 / DAY) * DAY) / 2);
function edge90(): Rec[] {
  return [awake("EDGE90", edge90At - 8 * HOUR), parked("EDGE90", edge90At, 12.4), ...restless("EDGE90", at(2, 0), nowMs - 20 * MIN, 30)];
}
/** NEVER1: a reading every 5 minutes for 4 days, never resting the settle time. */
const never1 = () => restless("NEVER1", at(4, 0), nowMs - 5 * MIN, 5);

const DEVICES = ["oem-REST1", "oem-EDGE1", "oem-LITH1", "oem-RECENT1", "oem-OLD1", "oem-MID1", "oem-LATE1", "oem-NIGHT1", "oem-EDGE90", "oem-NEVER1"];
type Resting = { v: number | null; chemistry: string | null; kind: string | null };
const TRUTH: Record<string, Resting> = {
  "oem-REST1": { v: 12.45, chemistry: null, kind: null }, // 09:00 on day −5: 25 readings after 20:30
  "oem-EDGE1": { v: 12.2, chemistry: null, kind: null },
  "oem-LITH1": { v: 13.4, chemistry: "LiFePO4", kind: "aux" },
  "oem-RECENT1": { v: 12.33, chemistry: null, kind: null },
  "oem-OLD1": { v: null, chemistry: null, kind: null },
  "oem-MID1": { v: null, chemistry: null, kind: null },
  "oem-LATE1": { v: 12.32, chemistry: null, kind: null },
  "oem-NIGHT1": { v: 12.6, chemistry: null, kind: null },
  "oem-EDGE90": { v: edge90At < since90 ? null : 12.4, chemistry: null, kind: null },
  "oem-NEVER1": { v: null, chemistry: null, kind: null },
};

let tdb: TestDatabase;
let ctx: TenantCtx;
const q = (query: ReturnType<typeof sql>) => rows<Record<string, unknown>>(tdb.handle.db, query);
/** A timestamptz column as epoch ms, from either driver (a Date, or text). */
const msOf = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());

async function ingest(records: Rec[]): Promise<void> {
  const sorted = [...records].sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
  for (let i = 0; i < sorted.length; i += 2_000) await ingestTelemetry({ ctx, input: { vehicles: sorted.slice(i, i + 2_000) } as never, now: new Date() });
  // The cases drive the refreshes themselves.
  await settleBackgroundRollupRefresh(ctx.tenantId);
}

/** Each device's resting reading, read with the rollups (the scores' part) and by the raw walk alone (the reference). */
async function resting(): Promise<{ rolled: Record<string, Resting>; raw: Record<string, Resting> }> {
  const w = windowsAt(now);
  const read = async (rollups: boolean) => {
    const found = await queryDevices("electrical", { ctx, deviceIds: DEVICES }, [electricalPart(w, { rollups })]);
    return Object.fromEntries(
      found.map((r) => [
        String(r.device_id),
        {
          v: r.resting_12v === null ? null : Number(r.resting_12v),
          chemistry: (r.resting_12v_chemistry as string | null) ?? null,
          kind: (r.resting_12v_kind as string | null) ?? null,
        },
      ]),
    );
  };
  const [rolled, raw] = await Promise.all([read(true), read(false)]);
  return { rolled, raw };
}

async function expectTruth(truth: Record<string, Resting> = TRUTH): Promise<void> {
  const { rolled, raw } = await resting();
  expect(raw).toEqual(truth);
  expect(rolled).toEqual(raw);
}

const cleanBefore = async (device: string) =>
  String((await q(sql`select clean_before::text as d from telemetry_rollup_state where tenant_id = ${ctx.tenantId} and device_id = ${device}`))[0]?.d);

/** Telemetry rows the resting-12 V part reads for one device (tests/helpers/explain-plan.ts). */
async function telemetryRowsRead(rollups: boolean, device: string): Promise<number> {
  const part = electricalPart(windowsAt(now), { rollups });
  return (
    await telemetryRowsOf(
      tdb.handle.db,
      sql`select d.device_id, ${part.columns} from devices d ${part.join ?? sql``} where d.tenant_id = ${ctx.tenantId} and d.device_id = ${device}`,
    )
  ).rows;
}

// The cases drive the refreshes: an ingest's background refresh (at most one per interval) must not run
// between a case's steps, however slow the machine.
const previousInterval = process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;
beforeAll(() => {
  process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = "3600";
  resetEnvCache();
});
afterAll(() => {
  if (previousInterval === undefined) delete process.env.ROLLUP_REFRESH_INTERVAL_SECONDS;
  else process.env.ROLLUP_REFRESH_INTERVAL_SECONDS = previousInterval;
  resetEnvCache();
});

describe.each(["postgres", "pglite"] as const)("the resting 12 V reading from the daily rollups (%s)", (kind) => {
  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
    await ingest([...rest1(), ...edge1(), ...lith1(), ...recent1(), ...old1(), ...mid1(), ...late1(), ...night1(), ...edge90(), ...never1()]);
  }, 120_000);

  afterAll(async () => {
    await tdb?.dispose();
  });

  it("never built: every device read raw, the known answers", async () => {
    await q(sql`delete from telemetry_daily where tenant_id = ${ctx.tenantId}`);
    await q(sql`update telemetry_rollup_state set clean_before = '-infinity' where tenant_id = ${ctx.tenantId}`);
    await expectTruth();
  });

  it("fresh rollups: each day keeps its latest settled reading and how many settled, judged across midnight; the answers stay", async () => {
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId, now });
    const day = (k: number) => new Date(today0 - k * DAY).toISOString().slice(0, 10);
    const rolled = await q(sql`select device_id, day::text as day, rest12_ts, rest12_v, rest12_chem, rest12_kind, rest12_settled from telemetry_daily
      where tenant_id = ${ctx.tenantId} and device_id in ('oem-REST1', 'oem-EDGE1', 'oem-LITH1') and day >= ${day(6)}::date and day <= ${day(2)}::date order by device_id, day`);
    const of = (device: string, k: number) => rolled.find((r) => r.device_id === device && r.day === day(k));
    // REST1: parked from 20:30 on day −6; settled from 02:00 on day −5 (6 h after the 20:00 drive) to 09:00: 15 readings.
    expect(of("oem-REST1", 6)).toMatchObject({ rest12_ts: null, rest12_settled: 0 });
    expect(of("oem-REST1", 5)).toMatchObject({ rest12_v: 12.45, rest12_settled: 15 });
    expect(msOf(of("oem-REST1", 5)!.rest12_ts)).toBe(at(5, 9));
    // EDGE1: 02:59 is a minute short of the settle time after 21:00 the day before, 03:00 is exactly at it.
    expect(of("oem-EDGE1", 2)).toMatchObject({ rest12_v: 12.2, rest12_settled: 1 });
    expect(of("oem-LITH1", 4)).toMatchObject({ rest12_v: 13.4, rest12_chem: "LiFePO4", rest12_kind: "aux", rest12_settled: 1 });
    await expectTruth();
  });

  it("reads the rollups: for a vehicle that never rests, today's readings instead of its whole history", async () => {
    const stored = Number((await q(sql`select count(*)::int as n from telemetry where tenant_id = ${ctx.tenantId} and device_id = 'oem-NEVER1'`))[0]!.n);
    const sinceMidnight6h = Number(
      (await q(sql`select count(*)::int as n from telemetry where tenant_id = ${ctx.tenantId} and device_id = 'oem-NEVER1' and ts >= ${iso(today0 - 6 * HOUR)}::timestamptz`))[0]!
        .n,
    );
    const raw = await telemetryRowsRead(false, "oem-NEVER1");
    const rolled = await telemetryRowsRead(true, "oem-NEVER1");
    // The raw walk reads every awake reading of the window (a third of the readings) and a probe per gap.
    expect(raw).toBeGreaterThanOrEqual(stored / 3);
    // With the rollups: today's readings and the settle time before midnight (at most twice: the walk's
    // awake readings, and the probes of the time before the first of them).
    expect(rolled).toBeLessThanOrEqual(2 * sinceMidnight6h + 10);
    expect(rolled).toBeLessThan(raw / 3);
  });

  it("built only up to a day in the middle of the history: the rest is read raw, the same answers", async () => {
    await q(sql`delete from telemetry_daily where tenant_id = ${ctx.tenantId}`);
    await q(sql`update telemetry_rollup_state set clean_before = '-infinity' where tenant_id = ${ctx.tenantId}`);
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId, now: new Date(at(3, 12)) });
    expect(await cleanBefore("oem-REST1")).toBe(new Date(today0 - 3 * DAY).toISOString().slice(0, 10));
    await expectTruth();
  });

  it("late data: an awake reading inside the rolled-up rest unsettles its later readings; the ingest marks the day stale, and a refresh rolls it up again", async () => {
    // From the middle build (clean_before day −3) this refresh recomputes MID1 from day −4, its last rolled day.
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId, now });
    await expectTruth();
    // REST1 awake at 05:10 on day −5: the readings 05:30–09:00 are within 6 h of it; 05:00 (12.53 V) is now the
    // latest settled. LATE1 awake at 23:30 on day −5: none of its rest (00:00–04:00 on day −4) settles any
    // more, and its stale rolled-up day −4 (after clean_before) must not answer.
    await ingest([awake("REST1", at(5, 5 + 10 / 60)), awake("LATE1", at(5, 23.5))]);
    expect(await cleanBefore("oem-REST1")).toBe(new Date(today0 - 5 * DAY).toISOString().slice(0, 10));
    expect(await cleanBefore("oem-LATE1")).toBe(new Date(today0 - 5 * DAY).toISOString().slice(0, 10));
    const truth = { ...TRUTH, "oem-REST1": { v: 12.53, chemistry: null, kind: null }, "oem-LATE1": { v: null, chemistry: null, kind: null } };
    await expectTruth(truth);
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId, now });
    const [row] = await q(
      sql`select rest12_ts, rest12_v from telemetry_daily where tenant_id = ${ctx.tenantId} and device_id = 'oem-REST1' and day = ${new Date(today0 - 5 * DAY).toISOString().slice(0, 10)}::date`,
    );
    expect(row!.rest12_v).toBe(12.53);
    expect(msOf(row!.rest12_ts)).toBe(at(5, 5));
    await expectTruth(truth);
  });

  it("a battery-size change sets the device's rollups aside until rebuilt: read raw, the same answer", async () => {
    await q(sql`update devices set battery_kwh = 9.5 where tenant_id = ${ctx.tenantId} and device_id = 'oem-LITH1'`);
    const { rolled } = await resting();
    expect(rolled["oem-LITH1"]).toEqual(TRUTH["oem-LITH1"]);
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId, now });
    expect((await resting()).rolled["oem-LITH1"]).toEqual(TRUTH["oem-LITH1"]);
  });
});
