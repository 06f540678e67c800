/**
 * The behaviour part of the scores (behaviour-sql.ts) read from the daily rollups
 * (lib/db/schema/telemetry-rollups.ts) wherever they are valid, so a 365-day window costs a handful
 * of index probes per device instead of a pass over a year of telemetry. The figures are the raw
 * window's (`behaviourPartRaw`), up to the order of floating-point additions: every part below runs
 * the same pair rules (`behaviourAggregates`), and the window is cut where the pairs allow it.
 *
 * A window [since, until] is read in three parts, per device:
 * - A, the head: the readings before the window's first whole UTC day H, raw, with the pair from the
 *   last of them to the next reading (A's partner: the first reading in [H, K), else C's first);
 * - B, whole days [H, K) from the rollups: running totals of day K−1's row minus those of the last
 *   row before H. A pair belongs to the day of its first reading, so day K−1's last pair reaches the
 *   first reading of K;
 * - C, the tail: raw readings from the start of K to `until`.
 * K is the latest rolled-up day with readings that is before until's day and valid (before the
 * device's `clean_before`, rolled with the device's current battery size). Reading K raw means no
 * rollup pair ever reaches past K: a reading stored later than the rollups (late data, a reading
 * after `until` for a window in the past) cannot make B wrong, and a device without valid rollups
 * is read wholly raw (B empty, C = [H, until]).
 * A and C are read by ONE pipeline per device (the "split" stream of `behaviourAggregates`: A's
 * readings, A's partner, C's readings), so each device pays for one sort and one set of window
 * functions and aggregates, not two; its sums are A's plus C's.
 * Facts that are not sums: the odometer's first reading is A's, else B's first day with one, else
 * C's (the last: C, B, A); OEM event coverage runs from the window's first reading that carried
 * events: A's own, then B's (all of B's km once A had one; else from B's first day with one), then C's.
 * The pipeline tells A from C for these by A's and C's own counts (`bh_ev_a`, `bh_odo_a`, `bh_odo_c`,
 * and C's km `bh_dkm_c`).
 */
import { sql, type SQL } from "drizzle-orm";
import type { DevicePart } from "@/lib/devices/device-query";
import {
  behaviourAggregates,
  DRIVING_MEASURES,
  harshAggregates,
  HARSH_MEASURES,
  measureColumns,
  SOURCE_COLUMNS,
  type BehaviourFigure,
  type BehaviourMeasures,
} from "./behaviour-sql";
import { odometerChainRows } from "@/lib/distance/queries/odometer-chain-sql";
import { greatCircleDays } from "./great-circle-sql";
import { restingDays } from "./resting-12v-sql";
import { latestValidDay, windowBounds, type WindowBounds } from "./rollup-window";

/** Sum measures whose running totals the rollups hold (`c_<name>`), from the `bh_` column of the same name. */
const SUMS = [...DRIVING_MEASURES.filter((n) => n !== "oem_cover_km"), "dkm_all", "ev_samples"] as const;
const ENERGY_SUMS = [
  "readings",
  "pairs",
  "charging_min",
  "soc_known_min",
  "low_soc_min",
  "charged_ac_pp",
  "charged_dc_pp",
  "charged_hpc_pp",
  "cons_pp",
  "cons_km",
  "pt_kwh",
  "pt_pp",
  "kw_count",
] as const;

/** The whole days' part of a running total: day K−1's row minus the last row before H (0 when B is empty). */
const b = (name: string) => sql.raw(`coalesce(brx.c_${name} - coalesce(bry.c_${name}, 0), 0)`);
const r = (alias: string, name: string) => sql.raw(`${alias}.bh_${name}`);

/**
 * The behaviour part over `[since, until]` (ISO strings), columns `bh_*` as `behaviourPartRaw`'s,
 * for the device row `d` of any device query.
 */
export function behaviourPart({
  since,
  until,
  measures = "all",
  telemetryDays = false,
  bounds = windowBounds(since, until),
  figures,
}: {
  since: string;
  until: string;
  measures?: BehaviourMeasures;
  /**
   * With the "driving" measures: add `bh_telemetry_days` (days with telemetry in the window, which "all"
   * has anyway) without the energy measures' window functions: A's day if it has a reading, B's from the
   * rollups' running day count, C's counted on the primary key.
   */
  telemetryDays?: boolean;
  /** `windowBounds(since, until)`, given apart only by a statement template whose values are placeholders (lib/devices/device-query.ts). */
  bounds?: WindowBounds;
  /** Only these figures (default: every figure of `measures`); the rollup probes no selected figure needs are left out. */
  figures?: readonly BehaviourFigure[];
}): DevicePart {
  const energy = measures === "all";
  const wants = (...names: BehaviourFigure[]) => figures === undefined || names.some((n) => figures.includes(n));
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const hAt = sql`${bounds.headEnd}::timestamptz`;
  const hDay = sql`${bounds.headDay}::date`;
  const tailFrom = sql`coalesce(brk.day::timestamp at time zone 'UTC', ${hAt})`;
  const dev = (a: string) => sql.raw(`${a}.tenant_id = d.tenant_id and ${a}.device_id = d.device_id`);
  const inB = sql`r.day >= ${hDay} and r.day <= brx.day`;

  // A and C are one pipeline (`bac`, the "split" stream): its sums are A's plus C's, and what is not a
  // sum is told apart by the head's and the tail's own counts (bh_ev_a, bh_odo_a, bh_odo_c, bh_dkm_c).
  const column = (name: string): SQL => {
    if (name === "oem_cover_km") {
      // Coverage runs from the window's first reading that carried events. In the stream, A's and C's
      // pairs are covered from the first such reading of A or C on; B decides only when A had none.
      return sql`case when bac.bh_ev_a > 0 then bac.bh_oem_cover_km + ${b("dkm_all")}
        when ${b("ev_samples")} > 0 then coalesce(brf.ev_cover_km + (brx.c_dkm_all - brf.c_dkm_all), 0) + bac.bh_dkm_c
        else bac.bh_oem_cover_km end`;
    }
    if (name === "kw_reported") return sql`(bac.bh_kw_count + ${b("kw_count")}) > 0`;
    if (name === "telemetry_days") return sql`bac.bh_telemetry_days + ${b("days")}`;
    // C has readings whenever B is not empty (day K), so the stream's newest reading is the window's.
    if (name === "newest_ms") return sql`bac.bh_newest_ms`;
    // The stream's first odometer reading is A's when A has one, else C's; its last is C's when C has one.
    if (name === "odo_first") return sql`case when bac.bh_odo_a > 0 then bac.bh_odo_first else coalesce(bro.odo_first, bac.bh_odo_first) end`;
    if (name === "odo_first_ms") {
      return sql`case when bac.bh_odo_a > 0 then bac.bh_odo_first_ms else coalesce((extract(epoch from bro.odo_first_ts) * 1000)::float8, bac.bh_odo_first_ms) end`;
    }
    if (name === "odo_last") return sql`case when bac.bh_odo_c > 0 then bac.bh_odo_last else coalesce(brl.odo_last, bac.bh_odo_last) end`;
    if (name === "odo_last_ms") {
      return sql`case when bac.bh_odo_c > 0 then bac.bh_odo_last_ms else coalesce((extract(epoch from brl.odo_last_ts) * 1000)::float8, bac.bh_odo_last_ms) end`;
    }
    if ((HARSH_MEASURES as readonly string[]).includes(name)) return sql`${r("brh", name)} + ${b(name)}`;
    return sql`${r("bac", name)} + ${b(name)}`;
  };

  const days =
    telemetryDays && !energy
      ? sql`, (case when exists (select 1 from telemetry ta where ${dev("ta")} and ta.ts >= ${from} and ta.ts < ${hAt} and ta.ts <= ${to}) then 1 else 0 end
          + ${b("days")}
          + (select count(distinct (tc.ts at time zone 'UTC')::date) from telemetry tc where ${dev("tc")} and tc.ts >= ${tailFrom} and tc.ts <= ${to}))::int as bh_telemetry_days`
      : sql``;
  return {
    columns: sql`${measureColumns(measures, column, figures)}, ${SOURCE_COLUMNS}${days}`,
    join: sql`left join lateral (${latestValidDay(bounds, sql`r.last_ts is not null`)}) brk on true
    left join lateral (
      select r.* from telemetry_daily r where ${dev("r")} and r.day >= ${hDay} and r.day < brk.day order by r.day desc limit 1
    ) brx on true
    left join lateral (
      select r.* from telemetry_daily r where ${dev("r")} and r.day < ${hDay} and brx.day is not null order by r.day desc limit 1
    ) bry on true
    left join lateral (${behaviourAggregates({ stream: { kind: "split", from, before: hAt, tailFrom, until: to }, measures: energy ? "all" : "driving" })}) bac on true${
      wants("oem_cover_km")
        ? sql`
    left join lateral (
      select r.day, r.ev_cover_km, r.c_dkm_all from telemetry_daily r
      where ${dev("r")} and ${inB} and r.c_ev_samples > coalesce(bry.c_ev_samples, 0)
        and bac.bh_ev_a = 0 and ${b("ev_samples")} > 0
      order by r.day limit 1
    ) brf on true`
        : sql``
    }${
      energy && wants("odo_first", "odo_first_ms")
        ? sql`
    left join lateral (
      select r.odo_first, r.odo_first_ts from telemetry_daily r
      where ${dev("r")} and ${inB} and r.odo_first is not null and bac.bh_odo_a = 0
      order by r.day limit 1
    ) bro on true`
        : sql``
    }${
      energy && wants("odo_last", "odo_last_ms")
        ? sql`
    left join lateral (
      select r.odo_last, r.odo_last_ts from telemetry_daily r
      where ${dev("r")} and ${inB} and r.odo_last is not null and bac.bh_odo_c = 0
      order by r.day desc limit 1
    ) brl on true`
        : sql``
    }
    left join lateral (
      ${harshAggregates(sql`(de.ts >= ${from} and de.ts < ${hAt} and de.ts <= ${to}) or (de.ts >= ${tailFrom} and de.ts <= ${to})`)}
    ) brh on true`,
  };
}

/** The rollups' running totals in the order of their columns, each with the per-day figure it adds up. */
const ROLLUP_SUMS: { column: string; perDay: string; int: boolean }[] = [
  { column: "c_readings", perDay: "coalesce(g.bh_readings, 0)", int: true },
  { column: "c_pairs", perDay: "coalesce(g.bh_pairs, 0)", int: true },
  { column: "c_days", perDay: "case when coalesce(g.bh_readings, 0) > 0 then 1 else 0 end", int: true },
  { column: "c_ev_samples", perDay: "coalesce(g.bh_ev_samples, 0)", int: true },
  { column: "c_kw_count", perDay: "coalesce(g.bh_kw_count, 0)", int: true },
  ...SUMS.filter((n) => n !== "ev_samples").map((n) => ({ column: `c_${n}`, perDay: `coalesce(g.bh_${n}, 0)`, int: false })),
  ...ENERGY_SUMS.filter((n) => !["readings", "pairs", "kw_count"].includes(n)).map((n) => ({ column: `c_${n}`, perDay: `coalesce(g.bh_${n}, 0)`, int: false })),
  ...HARSH_MEASURES.map((n) => ({ column: `c_${n}`, perDay: `coalesce(g.bh_${n}, 0)`, int: !n.endsWith("_w") })),
  { column: "c_gc_km", perDay: "coalesce(g.gc_km, 0)", int: false },
  { column: "c_odo_readings", perDay: "coalesce(g.odo_readings, 0)", int: true },
];

/**
 * The rows of the rollups for the devices `x(device_id, from_day)` (a FROM item the caller supplies):
 * every UTC day from `from_day` (null: the device's first day) up to the day before `today` that has
 * readings or harsh events, with running totals on top of the device's last row before `from_day`.
 * The caller has deleted the device's rows from `from_day` on, and chosen `from_day` no later than the
 * device's last day with a position before the stale days: that day's last great-circle pair reaches
 * the next position, which may be among the new readings.
 *
 * The listed devices are joined to `devices` behind a fence (OFFSET 0), so the per-day pipelines run
 * once per listed device whatever the statistics say. Without it, on a tenant the planner believed
 * to have one device (its rows not analysed yet, right after a bulk ingest), Postgres scanned the
 * tenant's devices and ran the pipelines for every pair of a device and a listed device before
 * matching them: a chunk of 200 devices of a 1,000-device tenant ran for minutes (`npm run bench`'s
 * score batches, whose tenant is seeded by ingests right before the refresh).
 */
export function rollupRowsSelect({ tenantId, devices, today }: { tenantId: string; devices: SQL; today: string }): SQL {
  const todaySql = sql`${today}::date`;
  const fromAt = sql`coalesce(x.from_day::timestamp at time zone 'UTC', '-infinity'::timestamptz)`;
  const sums = ROLLUP_SUMS.map((s) => sql.raw(`(coalesce(base.${s.column}, 0) + sum(${s.perDay}) over wc)${s.int ? "::int" : "::float8"}`));
  return sql`
    select ${tenantId}::text, x.device_id, g.gday, ${sql.join(sums, sql`, `)},
      g.last_ts, g.bh_odo_first, g.odo_first_ts, g.bh_odo_last, g.odo_last_ts, coalesce(g.bh_oem_cover_km, 0)::float8, g.soh_last, g.soh_last_ts,
      coalesce(g.positions, 0), g.rest12_ts, g.rest12_v, g.rest12_chem, g.rest12_kind, coalesce(g.rest12_settled, 0),
      coalesce(g.odo_readings, 0), coalesce(g.odo_joined, false), g.odo_chain_from
    from (
      select x.device_id, x.from_day, d.tenant_id, d.battery_kwh
      from ${devices}
      join devices d on d.tenant_id = ${tenantId} and d.device_id = x.device_id
      offset 0
    ) x
    cross join lateral (select x.tenant_id, x.device_id, x.battery_kwh) d
    cross join lateral (
      -- Materialized: computed once per device. As a plain subquery on the inner side of a nested loop,
      -- Postgres was seen to run it once per day row of the device (600 scans for 200 devices of 3 days,
      -- on the unanalysed tenant of tests/db/rollup-refresh-plan.test.ts, without the fence on the devices).
      with gc as materialized (${greatCircleDays({ from: fromAt, daysBefore: todaySql })}),
      rest as materialized (${restingDays({ from: fromAt, before: sql`${todaySql}::timestamp at time zone 'UTC'` })}),
      odo as materialized (${odometerChainRows({ from: fromAt, fromDay: sql`x.from_day`, daysBefore: todaySql })})
      select coalesce(tel.day, ev.eday) as gday, tel.*, ev.*, gc.gc_km, gc.positions,
        rest.rest12_ts, rest.rest12_v, rest.rest12_chem, rest.rest12_kind, rest.rest12_settled,
        odo.odo_readings, odo.odo_joined, odo.odo_chain_from
      from (${behaviourAggregates({ stream: { kind: "days", from: fromAt, daysBefore: todaySql } })}) tel
      full join (
        ${harshAggregates(sql`de.ts >= ${fromAt} and de.ts < ${todaySql}::timestamp at time zone 'UTC'`, { perDay: true })}
      ) ev on ev.eday = tel.day
      left join gc on gc.pday = tel.day
      left join rest on rest.rday = tel.day
      left join odo on odo.oday = tel.day
    ) g
    left join lateral (
      select * from telemetry_daily r where r.tenant_id = d.tenant_id and r.device_id = d.device_id order by r.day desc limit 1
    ) base on true
    window wc as (partition by x.device_id order by g.gday)`;
}

/** The insert's column list, in `rollupRowsSelect`'s order. */
export const ROLLUP_INSERT_COLUMNS = sql.raw(
  `tenant_id, device_id, day, ${ROLLUP_SUMS.map((s) => s.column).join(", ")}, last_ts, odo_first, odo_first_ts, odo_last, odo_last_ts, ev_cover_km, soh_last, soh_last_ts, positions, rest12_ts, rest12_v, rest12_chem, rest12_kind, rest12_settled, odo_readings, odo_joined, odo_chain_from`,
);
