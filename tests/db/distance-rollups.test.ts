import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { periodDistance, type DistanceEvidence } from "@/lib/distance/odometer-distance";
import { loadPeriodDistance, odometerRunsPart, odometerRunsPartRaw } from "@/lib/distance/queries/period-distance-sql";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { refreshTelemetryRollups, settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { telemetryRowsRead } from "../helpers/explain-plan";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * The period distance read from the rollups' odometer chain (lib/distance/queries/period-distance-sql.ts
 * `odometerRunsPart`) gives EXACTLY the evidence of the raw read (`odometerRunsPartRaw`): the same runs
 * (first and highest readings, times, jumps, reading counts), the same spikes, so the same distance,
 * method, rollbacks and note. Constructed odometer series through the real ingest into a real database
 * of each driver: random series (fast-check) of drives, jitter, one-sample spikes, rollbacks, low blips
 * contradicted later, implausible jumps, readings exactly at UTC midnight, duplicate time stamps,
 * readings without an odometer and gaps of days; hand-made series where a day's first and last reading
 * hide what the walk sees; periods with partial days, whole days, one day, a period that starts on a
 * reading; then late readings written into rolled-up days (stale rollups, read raw) and the refresh
 * after them. And the rows read: only the partial and stale days and the days whose chain breaks.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const today0 = Math.floor(Date.now() / DAY) * DAY;
const NOW = Date.now();
const master = { vehicle: { make: "Skoda", model: "Octavia", powertrain: "ICE", fuel_type: "petrol" } };

type Rec = Record<string, unknown>;
type Step =
  | { k: "drive"; dt: number; kmh: number }
  | { k: "trip"; n: number; every: number; kmh: number }
  | { k: "jitter"; dt: number; down: number }
  | { k: "spike"; dt: number; up: number }
  | { k: "blip"; dt: number; down: number }
  | { k: "drop"; dt: number; down: number }
  | { k: "jump"; dt: number; up: number }
  | { k: "midnight" }
  | { k: "dayEnd"; kmh: number }
  | { k: "dup"; dkm: number }
  | { k: "noOdo"; dt: number };

/** Seconds between readings: dense, sparse, overnight, days. */
const dtArb = fc.constantFrom(1, 10, 60, 360, 3_600, 5 * 3_600, 13 * 3_600, 86_400, 3 * 86_400);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ k: fc.constant("trip" as const), n: fc.integer({ min: 2, max: 40 }), every: fc.constantFrom(10, 60, 300, 900), kmh: fc.constantFrom(0, 30, 90, 130) }),
  },
  { weight: 12, arbitrary: fc.record({ k: fc.constant("drive" as const), dt: dtArb, kmh: fc.constantFrom(0, 0, 5, 40, 90, 130) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("jitter" as const), dt: dtArb, down: fc.constantFrom(0.1, 0.5, 1, 1.2) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("spike" as const), dt: dtArb, up: fc.constantFrom(0.5, 1.5, 3, 20, 45, 60, 5_000, 90_000) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("blip" as const), dt: dtArb, down: fc.constantFrom(0.5, 2, 300, 40_000) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("drop" as const), dt: dtArb, down: fc.constantFrom(1.5, 50, 20_000, 1e9) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("jump" as const), dt: dtArb, up: fc.constantFrom(30, 60, 5_000) }) },
  { weight: 1, arbitrary: fc.constant({ k: "midnight" as const }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("dayEnd" as const), kmh: fc.constantFrom(0, 60) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("dup" as const), dkm: fc.constantFrom(-3, 0, 2) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("noOdo" as const), dt: dtArb }) },
);
const seriesArb = fc.record({
  startKm: fc.constantFrom(0, 12.5, 48_000, 250_000),
  startOffsetMin: fc.integer({ min: 0, max: 6 * 24 * 60 }),
  steps: fc.array(stepArb, { minLength: 10, maxLength: 120, size: "max" }),
});
type Series = { startKm: number; startOffsetMin: number; steps: Step[] };

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const clampKm = (x: number) => Math.min(4_999_999, Math.max(0, round3(x)));

/** The records of a series: from 26 days ago (plus the offset) until a minute ago at most. */
function recordsOf(vin: string, s: Series): Rec[] {
  let t = today0 - 26 * DAY + s.startOffsetMin * MIN;
  let km = s.startKm;
  const out: Rec[] = [{ vin, timestamp: iso(t), odometer_km: clampKm(km), speed_kmh: 0, raw_data: master }];
  const at = (ms: number, odo: number | null): Rec => ({ vin, timestamp: iso(ms), ...(odo === null ? {} : { odometer_km: clampKm(odo) }), speed_kmh: 50, raw_data: master });
  for (const st of s.steps) {
    if (st.k === "dup") {
      out.push(at(t, km + st.dkm));
      continue;
    }
    if (st.k === "trip") {
      // n readings `every` seconds apart after t, stopping before now.
      for (let j = 0; j < st.n && t + st.every * 1000 < NOW - MIN; j++) {
        t += st.every * 1000;
        km = clampKm(km + (st.kmh * st.every) / 3600);
        out.push(at(t, km));
      }
      continue;
    }
    // "midnight": exactly the next UTC midnight; "dayEnd": the last millisecond of the day (or of the next, at midnight).
    const next =
      st.k === "midnight" ? Math.floor(t / DAY) * DAY + DAY : st.k === "dayEnd" ? Math.floor(t / DAY) * DAY + DAY - 1 + (t % DAY === DAY - 1 ? DAY : 0) : t + st.dt * 1000;
    if (next > NOW - MIN) break;
    const h = (next - t) / HOUR;
    t = next;
    switch (st.k) {
      case "drive":
        km += st.kmh * h;
        out.push(at(t, km));
        break;
      case "jitter":
        km -= st.down;
        out.push(at(t, km));
        break;
      case "spike":
        out.push(at(t, km + st.up));
        break;
      case "blip":
        out.push(at(t, km - st.down));
        break;
      case "drop":
        km = Math.max(0, km - st.down);
        out.push(at(t, km));
        break;
      case "jump":
        km += st.up;
        out.push(at(t, km));
        break;
      case "midnight":
        out.push(at(t, km));
        break;
      case "dayEnd":
        km += st.kmh * h;
        out.push(at(t, km));
        break;
      case "noOdo":
        out.push(at(t, null));
        break;
    }
    km = clampKm(km);
  }
  return out;
}

/** Periods: long and partial, whole days, one day, until at midnight, until now, starting on a reading. */
function periods(startOn: number): { since: string; until: string }[] {
  return [
    { since: iso(today0 - 30 * DAY), until: iso(NOW) },
    { since: iso(today0 - 20 * DAY + 13 * HOUR + 37 * MIN), until: iso(today0 - 2 * DAY + 8 * HOUR + 15 * MIN) },
    { since: iso(today0 - 10 * DAY), until: iso(today0 - DAY - 1) },
    { since: iso(today0 - 15 * DAY + 30 * MIN), until: iso(today0 - 15 * DAY + 20 * HOUR) },
    { since: iso(today0 - 7 * DAY), until: iso(today0 - 3 * DAY) },
    { since: iso(startOn), until: iso(today0 - DAY + 12 * HOUR) },
  ];
}

describe.each(["postgres", "pglite"] as const)("period distance from the rollups' odometer chain equals the raw read (%s)", (kind) => {
  let tdb: TestDatabase;
  const ctxFor = async (): Promise<TenantCtx> => ({ db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() });
  const ingest = async (ctx: TenantCtx, records: Rec[]) => {
    for (let i = 0; i < records.length; i += 2000) await ingestTelemetry({ ctx, input: { vehicles: records.slice(i, i + 2000) } as never });
    await settleBackgroundRollupRefresh(ctx.tenantId);
  };
  const devicesOf = async (ctx: TenantCtx) =>
    (await rows<{ device_id: string }>(ctx.db, sql`select device_id from devices where tenant_id = ${ctx.tenantId} order by device_id`)).map((r) => r.device_id);

  /** Every period: the rollup read's evidence and answer are the raw read's, device by device. Returns how many devices had a rollback or spike (the series are not vacuous). */
  async function expectSameAsRaw(ctx: TenantCtx, startOn: number, label: string): Promise<{ compared: number; irregular: number }> {
    const ids = await devicesOf(ctx);
    let compared = 0;
    let irregular = 0;
    for (const p of periods(startOn)) {
      const rolled = await loadPeriodDistance({ ctx, deviceIds: ids, ...p });
      const raw = await loadPeriodDistance({ ctx, deviceIds: ids, ...p, read: "raw" });
      for (const id of ids) {
        const a = rolled.get(id) as DistanceEvidence;
        const b = raw.get(id) as DistanceEvidence;
        expect(a, `${label} ${id} ${p.since} → ${p.until}`).toEqual(b);
        const pa = periodDistance(a);
        expect(pa, `${label} ${id} ${p.since} → ${p.until}`).toEqual(periodDistance(b));
        compared += 1;
        if (pa.odometer && pa.odometer.rollbacks.length + pa.odometer.spikes + pa.odometer.contradicted_drops + pa.odometer.jumps > 0) irregular += 1;
      }
    }
    return { compared, irregular };
  }

  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
  }, 180_000);
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("hand-made series whose days' first and last readings hide what the walk sees", async () => {
    const ctx = await ctxFor();
    const d = (n: number, h: number, m = 0) => today0 - n * DAY + h * HOUR + m * MIN;
    const r = (vin: string, ms: number, km: number | null): Rec => ({ vin, timestamp: iso(ms), ...(km === null ? {} : { odometer_km: km }), speed_kmh: 50, raw_data: master });
    const drive = (vin: string, from: number, km0: number, n: number, everyMin: number, kmPer: number) =>
      Array.from({ length: n }, (_, i) => r(vin, from + i * everyMin * MIN, km0 + i * kmPer));
    const records: Rec[] = [
      // A rollback inside a day not contradicted, then driving above the pre-drop level the same day: last ≥ first.
      ...drive("HANDROLLCLIMB0001", d(12, 6), 1_000, 10, 30, 10),
      r("HANDROLLCLIMB0001", d(12, 12), 500),
      ...drive("HANDROLLCLIMB0001", d(12, 13), 520, 10, 30, 100),
      ...drive("HANDROLLCLIMB0001", d(11, 6), 1_500, 20, 30, 5),
      ...drive("HANDROLLCLIMB0001", d(10, 6), 1_600, 20, 30, 5),
      // A one-sample spike as a day's very LAST reading (the next day's first falls back).
      ...drive("HANDSPIKEEND00001", d(12, 6), 5_000, 10, 30, 4),
      r("HANDSPIKEEND00001", d(12, 23, 59), 9_999),
      ...drive("HANDSPIKEEND00001", d(11, 0), 5_040, 20, 30, 4),
      ...drive("HANDSPIKEEND00001", d(10, 0), 5_200, 20, 30, 4),
      // A spike as a day's FIRST reading, at exactly midnight.
      ...drive("HANDSPIKEMIDN0001", d(12, 6), 7_000, 10, 30, 4),
      r("HANDSPIKEMIDN0001", d(11, 0), 17_000),
      ...drive("HANDSPIKEMIDN0001", d(11, 1), 7_040, 20, 30, 4),
      ...drive("HANDSPIKEMIDN0001", d(10, 1), 7_200, 20, 30, 4),
      // An implausible jump inside a day whose net over the day is slow (70 km in 10 h).
      r("HANDJUMPSLOW00001", d(12, 6), 100),
      r("HANDJUMPSLOW00001", d(12, 6, 1), 160),
      r("HANDJUMPSLOW00001", d(12, 16), 170),
      ...drive("HANDJUMPSLOW00001", d(11, 6), 180, 20, 30, 5),
      // A drop contradicted later in the same day, and one contradicted only days later.
      ...drive("HANDCONTRADICT001", d(12, 6), 3_000, 10, 30, 5),
      r("HANDCONTRADICT001", d(12, 12), 2_000),
      ...drive("HANDCONTRADICT001", d(12, 13), 3_060, 10, 30, 5),
      ...drive("HANDCONTRADICT001", d(11, 6), 3_200, 10, 30, 5),
      r("HANDCONTRADICT001", d(10, 12), 100),
      ...drive("HANDCONTRADICT001", d(9, 6), 110, 10, 30, 5),
      ...drive("HANDCONTRADICT001", d(5, 6), 3_300, 10, 30, 5),
      // A small spike (+30 km, chained: no jump) as a day's very last reading; the next day's first falls back.
      ...drive("HANDSPIKESMALL001", d(12, 6), 6_000, 10, 30, 4),
      r("HANDSPIKESMALL001", d(12, 23, 59), 6_066),
      ...drive("HANDSPIKESMALL001", d(11, 0), 6_040, 20, 30, 4),
      ...drive("HANDSPIKESMALL001", d(10, 0), 6_200, 20, 30, 4),
      // Many small steps at an impossible speed (40 km a minute, none a jump alone): a day's net is one.
      ...drive("HANDFASTSTEPS0001", d(12, 6), 8_000, 10, 30, 4),
      ...drive("HANDFASTSTEPS0001", d(11, 6), 8_100, 5, 1, 40),
      ...drive("HANDFASTSTEPS0001", d(10, 6), 8_400, 20, 30, 4),
      // Jitter down by up to 1 km (no drop), a reading without an odometer, clean days around.
      ...drive("HANDJITTER0000001", d(12, 6), 9_000, 10, 30, 5),
      r("HANDJITTER0000001", d(12, 12), 9_044.5),
      r("HANDJITTER0000001", d(12, 12, 30), null),
      ...drive("HANDJITTER0000001", d(11, 6), 9_100, 20, 30, 5),
      ...drive("HANDJITTER0000001", d(10, 6), 9_300, 20, 30, 5),
      // Clean for three weeks, one reading a day at midnight exactly.
      ...Array.from({ length: 21 }, (_, i) => r("HANDMIDNIGHTS0001", d(22 - i, 0), 40_000 + 123.4 * i)),
    ];
    await ingest(ctx, records);
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId });
    const { irregular } = await expectSameAsRaw(ctx, d(12, 12), "hand-made");
    expect(irregular).toBeGreaterThan(5);
  });

  it("random series, then late readings into rolled-up days (stale), then the refresh", async () => {
    const runs = fc.sample(fc.array(seriesArb, { minLength: 40, maxLength: 40 }), { numRuns: kind === "postgres" ? 6 : 3, seed: 27_2026 });
    let total = { compared: 0, irregular: 0 };
    for (const [run, list] of runs.entries()) {
      const ctx = await ctxFor();
      const records = list.flatMap((s, i) => recordsOf(`PROPSERIES${String(run)}${String(i).padStart(6, "0")}`, s));
      await ingest(ctx, records);
      await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId });
      const startOn = Date.parse(String(records[Math.floor(records.length / 2)]!.timestamp));
      // Not vacuous: stretches of chained days are read from the rollups, so fewer raw rows are read.
      const ids = await devicesOf(ctx);
      const statement = (part: ReturnType<typeof odometerRunsPart>) =>
        sql`select d.device_id, ${part.columns} from devices d ${part.join} where d.tenant_id = ${ctx.tenantId} and d.device_id = any(${`{${ids.join(",")}}`}::text[])`;
      const whole = { since: iso(today0 - 30 * DAY), until: iso(NOW) };
      const rolledRows = (await telemetryRowsRead(ctx.db, statement(odometerRunsPart(whole)))).visited;
      const rawRows = (await telemetryRowsRead(ctx.db, statement(odometerRunsPartRaw(whole)))).visited;
      expect(rolledRows).toBeLessThan(rawRows * 0.8);
      const add = (x: { compared: number; irregular: number }) => (total = { compared: total.compared + x.compared, irregular: total.irregular + x.irregular });
      add(await expectSameAsRaw(ctx, startOn, `run ${run} rolled`));

      // Late readings into past days of a third of the devices: a spike, a low blip, a high level.
      const late = records
        .filter((_, i) => i % 7 === 3)
        .flatMap((x, i) => {
          const ms = Date.parse(String(x.timestamp)) + 1_000;
          const km = typeof x.odometer_km === "number" ? x.odometer_km : 1_000;
          return ms < NOW - MIN ? [{ ...x, timestamp: iso(ms), odometer_km: clampKm(i % 3 === 0 ? km + 5_000 : i % 3 === 1 ? km - 300 : km + 0.5) }] : [];
        });
      await ingest(ctx, late);
      const [stale] = await rows<{ n: number }>(
        ctx.db,
        sql`select count(*)::int as n from telemetry_rollup_state where tenant_id = ${ctx.tenantId} and clean_before < ${iso(today0).slice(0, 10)}::date`,
      );
      expect(stale!.n).toBeGreaterThan(0);
      add(await expectSameAsRaw(ctx, startOn, `run ${run} stale`));
      await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId });
      add(await expectSameAsRaw(ctx, startOn, `run ${run} refreshed`));
    }
    expect(total.irregular).toBeGreaterThan(total.compared / 10);
    // Six (three on PGlite) random fleets of 40 devices, each ingested, refreshed and compared three
    // times over every period: about a minute on a loaded 2-core machine, 210 s on CI at half speed
    // (stop 40), so a limit of its own: a bound for a hang, not a speed check.
  }, 360_000);

  it("reads raw only the partial days, the days from K on and the days whose chain breaks", async () => {
    const ctx = await ctxFor();
    // Five clean cars (a reading every 10 minutes, 60 km a day) for 40 days, and one with a spike on day −15.
    const every = 10;
    const perDay = (24 * 60) / every;
    const car = (vin: string, spikeDay?: number) =>
      Array.from({ length: 40 * perDay }, (_, i) => {
        const ms = today0 - 40 * DAY + i * every * MIN;
        const onSpike = spikeDay !== undefined && ms === today0 - spikeDay * DAY + 12 * HOUR;
        return { vin, timestamp: iso(ms), odometer_km: round3(10_000 + (60 * i) / perDay + (onSpike ? 5_000 : 0)), speed_kmh: 40, raw_data: master };
      });
    await ingest(ctx, [
      ...["PLANCLEAN00000001", "PLANCLEAN00000002", "PLANCLEAN00000003", "PLANCLEAN00000004", "PLANCLEAN00000005"].flatMap((v) => car(v)),
      ...car("PLANSPIKE00000001", 15),
    ]);
    await refreshTelemetryRollups({ db: ctx.db, tenantId: ctx.tenantId });
    const ids = await devicesOf(ctx);
    const statement = (part: ReturnType<typeof odometerRunsPart>) =>
      sql`select d.device_id, ${part.columns} from devices d ${part.join} where d.tenant_id = ${ctx.tenantId} and d.device_id = any(${`{${ids.join(",")}}`}::text[])`;
    // Period: from noon 30 days ago to the last reading; K is yesterday, so the raw part is 12 h + yesterday + today.
    const until = iso(NOW);
    const rawRows = (days: number) => telemetryRowsRead(ctx.db, statement(odometerRunsPartRaw({ since: iso(today0 - days * DAY + 12 * HOUR), until })));
    const rolledRows = (days: number) => telemetryRowsRead(ctx.db, statement(odometerRunsPart({ since: iso(today0 - days * DAY + 12 * HOUR), until })));
    const head = perDay / 2;
    const tail = perDay; // yesterday (day K), read raw from its start
    for (const days of [10, 30]) {
      const raw = await rawRows(days);
      const rolled = await rolledRows(days);
      // The raw read reads the whole period.
      expect(raw.rows + raw.rounding).toBeGreaterThanOrEqual(6 * (days - 1) * perDay);
      // The clean cars: head and tail only; the spike car: plus its spike day when the period holds it. Rows
      // visited, not only returned: each device's own range, never other devices' rows read and filtered out.
      const spikeDay = days > 15 ? perDay : 0;
      expect(rolled.visited).toBeLessThanOrEqual(6 * (head + tail) + spikeDay + 6 /* the reading at since's noon */);
      expect(rolled.rows + rolled.rounding).toBeGreaterThanOrEqual(6 * (head + tail) + spikeDay - 6);
    }
    // Same answers.
    const p = { since: iso(today0 - 30 * DAY + 12 * HOUR), until };
    expect(await loadPeriodDistance({ ctx, deviceIds: ids, ...p })).toEqual(await loadPeriodDistance({ ctx, deviceIds: ids, ...p, read: "raw" }));
  });
});
