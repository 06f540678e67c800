/**
 * ONE per-device behaviour and energy aggregate over a time window, as a SQL part correlated on the
 * device row `d` (see lib/devices/device-query.ts). The same part is joined by the fleet scores' query
 * (all devices of the tenant, load-fleet-inputs.ts), by the per-device items of POST /scores/batch
 * (load-device-fleet-inputs.ts) and by the TAS behaviour pillar (load-tas-inputs.ts; all three in
 * lib/scores/queries/), so every score measures driving, speeding, weather exposure, charging and
 * consumption the same way, in the one round trip its loader already makes; the daily rollups
 * (lib/telemetry/rollups/) store its per-day sums. `toBehaviour` turns the row into typed figures.
 *
 * Methodology: docs/methodology/green-fleet.md ("Energy accounting") and fleet-risk.md ("Inputs").
 *
 * The unit of accounting is the PAIR of consecutive samples of a device in the window (sample i and
 * i+1): what changed between them (SOC, odometer) is measured, whatever the sampling interval.
 * - Energy is accounted from SOC changes × usable capacity, not from power × time: a pair whose SOC rose
 *   while charging (or while the odometer stood still) added ΔSOC of the pack; a pair without charging
 *   whose SOC fell used −ΔSOC of the pack over its odometer distance. A 45-minute gap is therefore
 *   bounded by what the SOC change allows instead of a fixed cap.
 * - State TIMES (driving, speeding, night, temperature bands) still hold a sample's state until the next
 *   sample for at most STATE_HOLD_MINUTES, so a parked/offline gap is not driving. Shares of these times
 *   do not depend on the cap as long as every state is sampled alike.
 * - Speeding DISTANCE uses the pair's odometer distance, attributed to the state of its first sample;
 *   a pair longer than STATE_HOLD_MINUTES is credited at most speed × STATE_HOLD_MINUTES (a device
 *   offline while moving does not put hundreds of km into one speed band). Consumption keeps the full
 *   odometer distance: energy needs it.
 * - A SOC rise while parked is a charge when a sample says charging, when it is at least
 *   MIXED_PAIR_SOC_PP points, or when the feed reports no charging status/power at all. A smaller rise
 *   on samples that say "not charging" is SOC noise (70 ↔ 71 flicker) and counts as negative
 *   consumption, so rises and falls of a parked car cancel instead of adding to both sides.
 * - Harsh-event exposure: the km over which the event source covered the window (see `harsh`).
 */
import { sql, type SQL } from "drizzle-orm";
import { textArray as pgTextArray } from "@/lib/db/pg-array";
import { sqlCount, sqlDate, sqlNumber } from "@/lib/db/sql-values";
import { CHARGING_WORDS, chargingWordSql, DC_CHARGING_WORDS, HIGH_POWER_DC_KW, NOT_CHARGING_WORDS } from "@/lib/vocabulary/charging";
import { DENSE_MAX_INTERVAL_S, DENSE_MIN_INTERVAL_S, HARSH_EVENT_KINDS } from "@/lib/vocabulary/driving-events";
import { MOVING_SPEED_KMH } from "@/lib/vocabulary/readings";

/** A sample's state (speed, temperature, charging) holds until the next sample, at most this long. */
const STATE_HOLD_MINUTES = 10;
/** Speed bands (km/h): Finland's 120 km/h maximum + 10 km/h tolerance, and a severe band. */
const OVER_LIMIT_KMH = 130;
const SEVERE_OVER_LIMIT_KMH = 160;
/**
 * Near-freezing band (°C) of the weather component: black ice forms around 0 °C (Liikenneturva;
 * SOURCES.md "Road risk in Finland"). ±3 °C of air temperature covers the road surface lagging the air.
 */
const NEAR_FREEZING_C = { min: -3, max: 3 } as const;
/** Very cold: below −10 °C (dry, cold snow; lower friction risk than near 0 °C, but cold-start/visibility exposure). */
const VERY_COLD_C = -10;
/** Low SOC: below 10 % while not charging. */
const LOW_SOC_PCT = 10;
/**
 * A charging power above this is DC (the AC maximum in Europe is 22 kW, three-phase 32 A); used to
 * choose the charging-loss factor. The status words of DC_CHARGING_WORDS are DC whatever the power.
 */
const AC_MAX_KW = 22;
/** High-power DC charging relevant for battery wear: above 100 kW (lib/vocabulary/charging.ts, Geotab). */
/** A SOC rise while the odometer advanced by at least this much (km) is a mixed drive/charge pair: not consumption. */
const MOVING_PAIR_KM = 1;
/** A SOC rise of at least this many points in a moving pair cannot be quantisation or regeneration: a charge happened in between. */
const MIXED_PAIR_SOC_PP = 2;
/**
 * Floor of battery-side consumption (kWh per km) below which a non-charging pair cannot be driving on
 * its SOC alone: half the lowest WLTP figure of any car on sale (Dacia Spring, about 12 kWh/100 km at
 * the plug; pistonudos.com "the 10 most efficient electric cars in Europe"). A pair that drove 80 km on
 * an unchanged SOC (readings a day apart) charged in between unobserved: its energy is unknown, so it
 * is left out of consumption instead of counting as 80 km on 0 kWh. One SOC point of rounding is
 * allowed before a pair is judged.
 */
const MIN_BATTERY_KWH_PER_KM = 0.06;
/** Power × time cross-check: only pairs at most this long (a longer interval's power is not constant). */
const SHORT_PAIR_MINUTES = 15;
/** Harsh events at or above this magnitude (g) are "severe" (weight 2); 0.3 g–0.5 g "moderate" (weight 1). FDP choice. */
const SEVERE_HARSH_G = 0.5;
const HARSH_SEVERITY_WEIGHTS = { moderate: 1, severe: 2 } as const;

const textList = (words: readonly string[]) => sql.raw(words.map((w) => `'${w}'`).join(", "));

/** Tolerance (s) on the dense-pair interval, as in the ingest's derivation (timestamps are whole milliseconds). */
const DENSE_EPSILON_S = 1e-6;

/**
 * What a caller needs of the behaviour part. "all": every figure (the fleet scores and the per-device
 * batch: energy accounting included). "driving": the driving exposure only (driving, speeding, night
 * and temperature-band minutes, moving and speeding km, harsh events), what the TAS usage pillar reads:
 * its window functions then carry the time stamp, speed, temperature, odometer and whether the reading
 * carried OEM events only, not the SOC, charging power and charging-status columns (nor the
 * charging-word regular expression) the energy figures need.
 * The figures both choices compute are computed by the same SQL, so they are identical.
 */
export type BehaviourMeasures = "all" | "driving";

/**
 * Where a pipeline's samples come from. Every stream yields the device's telemetry in time order as
 * rows (ts, v, temp, odo, ev, seg[, soc, kw, cw][, day, soh][, a]); `seg` says which rows count: the
 * others are there only as the partner of the pair before them (the pair belongs to the day, or the
 * window part, of its FIRST sample).
 * - `window`: the readings in [from, until] (the raw measure of a window);
 * - `split`: a window read around its rolled-up days (behaviour-rollup-sql.ts): the head, the readings
 *   in [from, before) (the part before the window's first whole UTC day, `a` true); as a partner only,
 *   the first reading in [before, tailFrom); and the tail, the readings in [tailFrom, until]. Every
 *   reading is at most `until`. When tailFrom = before (no rolled-up days) it is the raw window.
 *   The head's last pair reaches its partner (or, with no reading in [before, tailFrom), the tail's
 *   first reading), and the partner's own pair is not counted: of the readings between the two parts
 *   only the partner is read, and only as a pair's end (the rollups count the rest);
 * - `days`: every reading from `from` on, counted by UTC day for the days before `daysBefore` (the
 *   later ones are partners only): the rollup refresh (behaviour-rollup-sql.ts).
 * Bounds are SQL expressions (timestamptz), so a part may start at a per-device time.
 */
type SampleStream = { kind: "window"; from: SQL; until: SQL } | { kind: "split"; from: SQL; before: SQL; tailFrom: SQL; until: SQL } | { kind: "days"; from: SQL; daysBefore: SQL };

const sampleCols = (energy: boolean, soh: boolean) =>
  sql`t.ts, t.speed_kmh as v, t.weather_temp as temp, t.odometer_km as odo,
      jsonb_typeof(t.raw_data -> 'events') = 'array' as ev${energy ? sql`, t.soc_pct as soc, t.charging_power_kw as kw, ${sql.raw(chargingWordSql("t.charging_status"))} as cw` : sql``}${soh ? sql`, t.soh_pct as soh` : sql``}`;
const ofDevice = sql`t.tenant_id = d.tenant_id and t.device_id = d.device_id`;

function streamSql(stream: SampleStream, energy: boolean): SQL {
  switch (stream.kind) {
    case "window":
      return sql`select ${sampleCols(energy, false)}, true as seg
            from telemetry t
            where ${ofDevice} and t.ts >= ${stream.from} and t.ts <= ${stream.until}
            order by t.ts offset 0`;
    case "split":
      return sql`select u.* from (
              (select ${sampleCols(energy, false)}, true as seg, true as a from telemetry t
                where ${ofDevice} and t.ts >= ${stream.from} and t.ts < ${stream.before} and t.ts <= ${stream.until})
              union all
              (select ${sampleCols(energy, false)}, false as seg, false as a from telemetry t
                where ${ofDevice} and t.ts >= ${stream.before} and t.ts < ${stream.tailFrom} and t.ts <= ${stream.until} order by t.ts limit 1)
              union all
              (select ${sampleCols(energy, false)}, true as seg, false as a from telemetry t
                where ${ofDevice} and t.ts >= ${stream.tailFrom} and t.ts <= ${stream.until})
            ) u order by u.ts offset 0`;
    case "days":
      return sql`select ${sampleCols(energy, true)}, (t.ts at time zone 'UTC')::date as day,
              (t.ts at time zone 'UTC')::date < ${stream.daysBefore} as seg
            from telemetry t
            where ${ofDevice} and t.ts >= ${stream.from}
            order by t.ts offset 0`;
  }
}

/**
 * The aggregate select of the behaviour measures over one sample stream, correlated on the device row
 * `d`: one row (columns `bh_*`), or with a `days` stream one row per UTC day (plus `day` and the day's
 * timestamps and latest plausible SoH as timestamptz columns, for the rollups). The ONE place the
 * pair rules live: the raw window, the parts of a window around its rolled-up days and the daily
 * rollups are all this SQL, so they measure alike.
 *
 * Cost (one window pass over the stream): the charging word is normalised once per reading in a
 * fenced subquery (OFFSET 0, so the planner does not inline it into the select list and the `lead()`
 * again), and the aggregates need no sort: days with telemetry count the day changes between
 * consecutive readings (the readings come in time order, so that is the number of distinct days), and
 * the first and last odometer readings are the ones whose running count of odometer readings is 1
 * and the total.
 */
export function behaviourAggregates({ stream, measures = "all" }: { stream: SampleStream; measures?: BehaviourMeasures }): SQL {
  const energy = measures === "all";
  const perDay = stream.kind === "days";
  const split = stream.kind === "split";
  const chg = sql`(coalesce(f.cw, '') in (${textList(CHARGING_WORDS)}) or (coalesce(f.kw, 0) > 0 and coalesce(f.v, 0) < ${MOVING_SPEED_KMH}))`;
  const dcw = sql`(coalesce(f.cw, '') in (${textList(DC_CHARGING_WORDS)}))`;
  // The sample says whether it is charging (a status word of the charging vocabulary, either way, or a
  // power): then a small SOC rise without charging is noise, not a charge (H2). A feed that says
  // neither (no status, or a word FDP does not know, and no power) keeps the rule "a parked rise is a charge".
  const chgKnown = sql`(coalesce(f.cw, '') in (${textList([...CHARGING_WORDS, ...NOT_CHARGING_WORDS])}) or f.kw is not null)`;
  const helsinkiHour = sql`extract(hour from (q.ts at time zone 'Europe/Helsinki'))`;
  const utcDay = sql`(f.ts at time zone 'UTC')::date`;
  // Coverage of OEM events and the first/last odometer reading run from the start of the window, or of the day.
  const part = perDay ? sql`partition by f.day` : sql``;
  const drivingAggregates = sql`coalesce(sum(q.dur) filter (where q.drv), 0)::float8 as bh_driving_min,
        coalesce(sum(q.dur) filter (where q.drv and q.v > ${OVER_LIMIT_KMH}), 0)::float8 as bh_over130_min,
        coalesce(sum(q.dur) filter (where q.drv and q.v > ${SEVERE_OVER_LIMIT_KMH}), 0)::float8 as bh_over160_min,
        coalesce(sum(q.dur) filter (where q.drv and (${helsinkiHour} >= 22 or ${helsinkiHour} < 6)), 0)::float8 as bh_night_min,
        coalesce(sum(q.dur) filter (where q.drv and q.temp is not null), 0)::float8 as bh_temp_known_min,
        coalesce(sum(q.dur) filter (where q.drv and q.temp between ${NEAR_FREEZING_C.min} and ${NEAR_FREEZING_C.max}), 0)::float8 as bh_near0_min,
        coalesce(sum(q.dur) filter (where q.drv and q.temp < ${NEAR_FREEZING_C.min} and q.temp >= ${VERY_COLD_C}), 0)::float8 as bh_cold_min,
        coalesce(sum(q.dur) filter (where q.drv and q.temp < 0), 0)::float8 as bh_below0_min,
        coalesce(sum(q.dur) filter (where q.drv and q.temp < ${VERY_COLD_C}), 0)::float8 as bh_very_cold_min,
        coalesce(sum(q.skm) filter (where q.drv), 0)::float8 as bh_moving_km,
        coalesce(sum(q.skm) filter (where q.drv and q.v > ${OVER_LIMIT_KMH}), 0)::float8 as bh_over130_km,
        coalesce(sum(q.skm) filter (where q.drv and q.v > ${SEVERE_OVER_LIMIT_KMH}), 0)::float8 as bh_over160_km,
        coalesce(sum(q.dkm) filter (where q.ev_cov), 0)::float8 as bh_oem_cover_km,
        coalesce(sum(coalesce(q.v, 0) * q.gap / 60.0) filter (where q.gap * 60 between ${DENSE_MIN_INTERVAL_S - DENSE_EPSILON_S}::float8 and ${DENSE_MAX_INTERVAL_S + DENSE_EPSILON_S}::float8), 0)::float8 as bh_dense_km,
        coalesce(sum(q.dkm), 0)::float8 as bh_dkm_all,
        count(*) filter (where q.ev)::int as bh_ev_samples`;
  const energyAggregates = sql`count(*)::int as bh_readings,
        count(q.ts2)::int as bh_pairs,
        coalesce(sum(q.dur) filter (where q.chg_pair), 0)::float8 as bh_charging_min,
        coalesce(sum(q.dur) filter (where q.soc is not null), 0)::float8 as bh_soc_known_min,
        coalesce(sum(q.dur) filter (where q.soc < ${LOW_SOC_PCT} and not q.chg), 0)::float8 as bh_low_soc_min,
        coalesce(sum(q.dsoc) filter (where q.chg_pair and q.dsoc > 0 and not q.dc_pair), 0)::float8 as bh_charged_ac_pp,
        coalesce(sum(q.dsoc) filter (where q.chg_pair and q.dsoc > 0 and q.dc_pair), 0)::float8 as bh_charged_dc_pp,
        coalesce(sum(q.dsoc) filter (where q.chg_pair and q.dsoc > 0 and q.hpc_pair), 0)::float8 as bh_charged_hpc_pp,
        coalesce(sum(-q.dsoc) filter (where q.cons_pair), 0)::float8 as bh_cons_pp,
        coalesce(sum(q.dkm) filter (where q.cons_pair), 0)::float8 as bh_cons_km,
        coalesce(sum(q.kw * q.gap / 60.0) filter (where q.chg_pair and q.dsoc > 0 and q.kw > 0 and q.gap <= ${SHORT_PAIR_MINUTES}), 0)::float8 as bh_pt_kwh,
        coalesce(sum(q.dsoc) filter (where q.chg_pair and q.dsoc > 0 and q.kw > 0 and q.gap <= ${SHORT_PAIR_MINUTES}), 0)::float8 as bh_pt_pp,
        (count(q.kw) > 0) as bh_kw_reported,
        count(q.kw)::int as bh_kw_count,
        count(*) filter (where q.new_day)::int as bh_telemetry_days,
        (extract(epoch from max(q.ts)) * 1000)::float8 as bh_newest_ms,
        max(q.odo) filter (where q.odo is not null and q.odo_rank = 1)::float8 as bh_odo_first,
        max(q.odo) filter (where q.odo is not null and q.odo_rank = q.odo_count)::float8 as bh_odo_last,
        (extract(epoch from min(q.ts) filter (where q.odo is not null)) * 1000)::float8 as bh_odo_first_ms,
        (extract(epoch from max(q.ts) filter (where q.odo is not null)) * 1000)::float8 as bh_odo_last_ms`;
  const dayAggregates = sql`q.day, max(q.ts) as last_ts, min(q.ts) filter (where q.odo is not null) as odo_first_ts,
        max(q.ts) filter (where q.odo is not null) as odo_last_ts,
        (array_agg(q.soh order by q.ts desc) filter (where q.soh > 0 and q.soh <= 100))[1]::float8 as soh_last,
        max(q.ts) filter (where q.soh > 0 and q.soh <= 100) as soh_last_ts`;
  const energyPairs = sql`,
          (p.soc2 - p.soc) as dsoc,
          (p.chg or coalesce(p.chg2, false) or (coalesce(p.odo2 - p.odo, 0) < ${MOVING_PAIR_KM}
            and (p.soc2 - p.soc >= ${MIXED_PAIR_SOC_PP} or (p.soc2 > p.soc and not (p.chg_known or coalesce(p.chg_known2, false)))))) as chg_pair,
          (p.dcw or coalesce(p.dcw2, false) or greatest(coalesce(p.kw, 0), coalesce(p.kw2, 0)) > ${AC_MAX_KW}) as dc_pair,
          (greatest(coalesce(p.kw, 0), coalesce(p.kw2, 0)) > ${HIGH_POWER_DC_KW}
            or ((p.dcw or coalesce(p.dcw2, false)) and p.kw is null and p.kw2 is null)) as hpc_pair,
          (not (p.chg or coalesce(p.chg2, false)) and p.soc2 is not null and p.soc is not null and p.odo2 >= p.odo
            and not (p.soc2 - p.soc >= ${MIXED_PAIR_SOC_PP})
            and not (p.soc2 > p.soc and p.odo2 - p.odo < ${MOVING_PAIR_KM} and not (p.chg_known or coalesce(p.chg_known2, false)))
            and not (coalesce(d.battery_kwh, 0) > 0
              and (greatest(p.soc - p.soc2, 0) + 1) / 100.0 * d.battery_kwh < (p.odo2 - p.odo) * ${MIN_BATTERY_KWH_PER_KM})) as cons_pair`;
  const energyWindow = sql`,
            f.soc, f.kw, ${chg} as chg, ${dcw} as dcw, ${chgKnown} as chg_known,
            lead(f.soc) over w as soc2, lead(f.kw) over w as kw2, lead(${chg}) over w as chg2, lead(${dcw}) over w as dcw2,
            lead(${chgKnown}) over w as chg_known2,
            (${utcDay} is distinct from lag(${utcDay}) over w) as new_day,
            count(f.odo) filter (where f.seg) over wr as odo_rank, count(f.odo) filter (where f.seg) over wp as odo_count`;
  // What the rollup part needs to tell the head from the tail (behaviour-rollup-sql.ts): the head's OEM
  // event samples and odometer readings, the tail's odometer readings and km. (OEM-event coverage,
  // `ev_cov`, counts only the stream's own readings: a partner that carried events belongs to the
  // rolled-up days, whose events the rollup part weighs itself.)
  const splitAggregates = sql`, count(*) filter (where q.ev and q.a)::int as bh_ev_a,
        coalesce(sum(q.dkm) filter (where not q.a), 0)::float8 as bh_dkm_c${
          energy
            ? sql`,
        count(q.odo) filter (where q.a)::int as bh_odo_a,
        count(q.odo) filter (where not q.a)::int as bh_odo_c`
            : sql``
        }`;
  return sql`select ${perDay ? sql`${dayAggregates}, ` : sql``}${drivingAggregates}${energy ? sql`, ${energyAggregates}` : sql``}${split ? splitAggregates : sql``}
      from (
        select p.*,
          coalesce(p.v, 0) >= ${MOVING_SPEED_KMH} as drv,
          least(coalesce(p.gap, 0)::float8, ${STATE_HOLD_MINUTES}::float8) as dur,
          case when p.odo2 >= p.odo then (p.odo2 - p.odo) end as dkm,
          case when p.odo2 >= p.odo then
            case when p.gap <= ${STATE_HOLD_MINUTES}::float8 then p.odo2 - p.odo
              else least(p.odo2 - p.odo, coalesce(p.v, 0) * ${STATE_HOLD_MINUTES}::float8 / 60.0) end end as skm${energy ? energyPairs : sql``}
        from (
          select f.ts, f.v, f.temp, f.odo, f.ev, f.seg${perDay ? sql`, f.day, f.soh` : sql``}${split ? sql`, f.a` : sql``},
            bool_or(f.ev and f.seg) over wr as ev_cov,
            lead(f.ts) over w as ts2,
            extract(epoch from (lead(f.ts) over w - f.ts)) / 60.0 as gap,
            lead(f.odo) over w as odo2${energy ? energyWindow : sql``}
          from (${streamSql(stream, energy)}) f
          window w as (order by f.ts), wr as (${part} order by f.ts), wp as (${part})
        ) p
      ) q
      where q.seg${perDay ? sql` group by q.day` : sql``}`;
}

/** Harsh driving events of the device in the ranges (each `[from, to]` or `[from, to)`), by source, with severity weights. */
export function harshAggregates(ranges: SQL, { perDay = false }: { perDay?: boolean } = {}): SQL {
  return sql`select ${perDay ? sql`(de.ts at time zone 'UTC')::date as eday, ` : sql``}count(*) filter (where de.source = 'oem')::int as bh_harsh_oem,
        count(*) filter (where de.source = 'derived')::int as bh_harsh_derived,
        coalesce(sum(case when de.value >= ${SEVERE_HARSH_G} then ${HARSH_SEVERITY_WEIGHTS.severe}::float8 else ${HARSH_SEVERITY_WEIGHTS.moderate}::float8 end) filter (where de.source = 'oem'), 0)::float8 as bh_harsh_oem_w,
        coalesce(sum(case when de.value >= ${SEVERE_HARSH_G} then ${HARSH_SEVERITY_WEIGHTS.severe}::float8 else ${HARSH_SEVERITY_WEIGHTS.moderate}::float8 end) filter (where de.source = 'derived'), 0)::float8 as bh_harsh_derived_w
      from driving_events de
      where de.tenant_id = d.tenant_id and de.device_id = d.device_id and (${ranges})
        and de.kind = any(${pgTextArray(HARSH_EVENT_KINDS)}::text[])${perDay ? sql` group by 1` : sql``}`;
}

/** Columns of the behaviour part besides the measures: when the device's sources started reporting events and dense speed. */
export const SOURCE_COLUMNS = sql`(extract(epoch from d.events_reported_at) * 1000)::float8 as bh_events_reported_ms,
      (extract(epoch from d.dense_speed_at) * 1000)::float8 as bh_dense_speed_ms`;

/** The `bh_` columns of the driving measures, and those the energy measures add. */
export const DRIVING_MEASURES = [
  "driving_min",
  "over130_min",
  "over160_min",
  "night_min",
  "temp_known_min",
  "near0_min",
  "cold_min",
  "below0_min",
  "very_cold_min",
  "moving_km",
  "over130_km",
  "over160_km",
  "oem_cover_km",
  "dense_km",
] as const;
export const ENERGY_MEASURES = [
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
  "kw_reported",
  "telemetry_days",
  "newest_ms",
  "odo_first",
  "odo_last",
  "odo_first_ms",
  "odo_last_ms",
] as const;
export const HARSH_MEASURES = ["harsh_oem", "harsh_derived", "harsh_oem_w", "harsh_derived_w"] as const;

/** One figure of the behaviour part (its column is `bh_<name>`). */
export type BehaviourFigure = (typeof DRIVING_MEASURES)[number] | (typeof ENERGY_MEASURES)[number] | (typeof HARSH_MEASURES)[number];

/**
 * The figures fleet risk reads (`toFleetRiskBehaviour`): the driving measures, the harsh events, and of
 * the energy measures only the charging and SOC figures of its EV charging component, the coverage
 * and the freshness. The fleet risk verb selects only these: Postgres then computes no other
 * aggregate (the odometer ranks, the consumption pairs), makes none of the odometer probes, and
 * sends 29 `bh_` columns instead of 39 (docs/performance.md, "Fleet risk: one pipeline for the head and the
 * tail, and only its own figures").
 */
export const FLEET_RISK_FIGURES = [
  ...DRIVING_MEASURES,
  ...HARSH_MEASURES,
  "soc_known_min",
  "low_soc_min",
  "charged_ac_pp",
  "charged_dc_pp",
  "charged_hpc_pp",
  "pt_kwh",
  "pt_pp",
  "telemetry_days",
  "newest_ms",
] as const satisfies readonly BehaviourFigure[];

/**
 * The `bh_` column list of a part (what `toBehaviour` / `toDrivingBehaviour` read), from the lateral
 * aliases given; only `figures` when given (each must be one `measures` computes).
 */
export function measureColumns(measures: BehaviourMeasures, alias: (name: string) => SQL, figures?: readonly BehaviourFigure[]): SQL {
  const all: readonly BehaviourFigure[] = [...DRIVING_MEASURES, ...(measures === "all" ? ENERGY_MEASURES : []), ...HARSH_MEASURES];
  if (figures?.length === 0) throw new Error("behaviour figures: an empty list selects nothing");
  const missing = figures?.filter((f) => !all.includes(f)) ?? [];
  if (missing.length > 0) throw new Error(`behaviour figures ${missing.join(", ")} are not among the "${measures}" measures`);
  const names = figures ? all.filter((n) => figures.includes(n)) : all;
  return sql.join(
    names.map((n) => sql`${alias(n)} as ${sql.raw(`bh_${n}`)}`),
    sql`, `,
  );
}

/**
 * A row that must carry every column of `figures` (and the source columns): a figure the statement did not
 * select would otherwise read as 0 (`sqlCount(undefined)`), a wrong score instead of an error.
 * Checked on one row: every row of a statement has the same columns.
 */
export function assertFigureColumns(row: Record<string, unknown> | undefined, figures: readonly BehaviourFigure[]): void {
  if (row === undefined) return;
  const missing = [...figures.map((f) => `bh_${f}`), "bh_events_reported_ms", "bh_dense_speed_ms"].filter((c) => !(c in row));
  if (missing.length > 0) throw new Error(`the statement did not select ${missing.join(", ")}`);
}

/** The figures of the "driving" measures (minutes, km, harsh events), typed. */
export interface DrivingBehaviourRow {
  driving_minutes: number;
  minutes_over_130: number;
  minutes_over_160: number;
  night_driving_minutes: number;
  temp_known_driving_minutes: number;
  /** Driving minutes at −3…+3 °C (near freezing), below −3 down to −10 °C (cold), below −10 °C (very cold). */
  driving_minutes_near_0c: number;
  driving_minutes_cold: number;
  driving_minutes_below_0c: number;
  driving_minutes_below_minus10c: number;
  /** Odometer km over pairs whose first sample was moving (speed known). */
  moving_km: number;
  km_over_130: number;
  km_over_160: number;
  harsh: {
    oem: number;
    derived: number;
    oem_weighted: number;
    derived_weighted: number;
    reported_at: Date | null;
    dense_speed_at: Date | null;
    /**
     * The km each source covered in the window (the exposure of its events): OEM = odometer km of the
     * pairs from the first sample that carried a `raw_data.events` array on; derived = Σ speed × time
     * over the dense pairs (0.5–2 s apart) the ingest derives events from.
     */
    oem_km: number;
    derived_km: number;
  };
}

/** The figures fleet risk reads (FLEET_RISK_FIGURES), typed. */
export interface FleetRiskBehaviourRow extends DrivingBehaviourRow {
  soc_known_minutes: number;
  low_soc_minutes: number;
  /** SOC points added by charging pairs: AC, DC, and DC above 100 kW (subset of DC). */
  charged_ac_pp: number;
  charged_dc_pp: number;
  charged_high_power_pp: number;
  /** Power × time (kWh) and the SOC points it added, over short charging pairs (cross-check, capacity estimate). */
  power_time_kwh: number;
  power_time_pp: number;
  telemetry_days: number;
  newest_telemetry_at: Date | null;
}

/** The raw figures of one device's behaviour part, all measures (minutes, km, SOC points), typed. */
export interface BehaviourRow extends FleetRiskBehaviourRow {
  readings: number;
  charging_minutes: number;
  /** SOC points used and odometer km over non-charging pairs with both known (consumption). */
  consumption_pp: number;
  consumption_km: number;
  charging_power_reported: boolean;
  /** Odometer of the first and last sample with one in the window, and when. */
  odometer_first_km: number | null;
  odometer_last_km: number | null;
  odometer_first_at: Date | null;
  odometer_last_at: Date | null;
}

/** The row of a `behaviourPart({ measures: "driving" })`. */
export function toDrivingBehaviour(r: Record<string, unknown>): DrivingBehaviourRow {
  return {
    driving_minutes: sqlCount(r.bh_driving_min),
    minutes_over_130: sqlCount(r.bh_over130_min),
    minutes_over_160: sqlCount(r.bh_over160_min),
    night_driving_minutes: sqlCount(r.bh_night_min),
    temp_known_driving_minutes: sqlCount(r.bh_temp_known_min),
    driving_minutes_near_0c: sqlCount(r.bh_near0_min),
    driving_minutes_cold: sqlCount(r.bh_cold_min),
    driving_minutes_below_0c: sqlCount(r.bh_below0_min),
    driving_minutes_below_minus10c: sqlCount(r.bh_very_cold_min),
    moving_km: sqlCount(r.bh_moving_km),
    km_over_130: sqlCount(r.bh_over130_km),
    km_over_160: sqlCount(r.bh_over160_km),
    harsh: {
      oem: sqlCount(r.bh_harsh_oem),
      derived: sqlCount(r.bh_harsh_derived),
      oem_weighted: sqlCount(r.bh_harsh_oem_w),
      derived_weighted: sqlCount(r.bh_harsh_derived_w),
      reported_at: sqlDate(sqlNumber(r.bh_events_reported_ms)),
      dense_speed_at: sqlDate(sqlNumber(r.bh_dense_speed_ms)),
      oem_km: sqlCount(r.bh_oem_cover_km),
      derived_km: sqlCount(r.bh_dense_km),
    },
  };
}

/** The row of a `behaviourPart({ figures: FLEET_RISK_FIGURES })` (or of any part with all measures). */
export function toFleetRiskBehaviour(r: Record<string, unknown>): FleetRiskBehaviourRow {
  const d = toDrivingBehaviour(r);
  return {
    driving_minutes: d.driving_minutes,
    minutes_over_130: d.minutes_over_130,
    minutes_over_160: d.minutes_over_160,
    night_driving_minutes: d.night_driving_minutes,
    temp_known_driving_minutes: d.temp_known_driving_minutes,
    driving_minutes_near_0c: d.driving_minutes_near_0c,
    driving_minutes_cold: d.driving_minutes_cold,
    driving_minutes_below_0c: d.driving_minutes_below_0c,
    driving_minutes_below_minus10c: d.driving_minutes_below_minus10c,
    moving_km: d.moving_km,
    km_over_130: d.km_over_130,
    km_over_160: d.km_over_160,
    harsh: d.harsh,
    soc_known_minutes: sqlCount(r.bh_soc_known_min),
    low_soc_minutes: sqlCount(r.bh_low_soc_min),
    charged_ac_pp: sqlCount(r.bh_charged_ac_pp),
    charged_dc_pp: sqlCount(r.bh_charged_dc_pp),
    charged_high_power_pp: sqlCount(r.bh_charged_hpc_pp),
    power_time_kwh: sqlCount(r.bh_pt_kwh),
    power_time_pp: sqlCount(r.bh_pt_pp),
    telemetry_days: sqlCount(r.bh_telemetry_days),
    newest_telemetry_at: sqlDate(sqlNumber(r.bh_newest_ms)),
  };
}

/**
 * The row of a `behaviourPart()` with all measures. One object literal of a fixed shape, not a spread of
 * the driving figures into it: V8 builds a 32-property object from a spread on its slow path, about
 * 60 µs a row, which was 0.6 s of a 10,000-vehicle fleet score (docs/performance.md, "Fleet scores").
 */
export function toBehaviour(r: Record<string, unknown>): BehaviourRow {
  const d = toFleetRiskBehaviour(r);
  return {
    driving_minutes: d.driving_minutes,
    minutes_over_130: d.minutes_over_130,
    minutes_over_160: d.minutes_over_160,
    night_driving_minutes: d.night_driving_minutes,
    temp_known_driving_minutes: d.temp_known_driving_minutes,
    driving_minutes_near_0c: d.driving_minutes_near_0c,
    driving_minutes_cold: d.driving_minutes_cold,
    driving_minutes_below_0c: d.driving_minutes_below_0c,
    driving_minutes_below_minus10c: d.driving_minutes_below_minus10c,
    moving_km: d.moving_km,
    km_over_130: d.km_over_130,
    km_over_160: d.km_over_160,
    harsh: d.harsh,
    readings: sqlCount(r.bh_readings),
    charging_minutes: sqlCount(r.bh_charging_min),
    soc_known_minutes: d.soc_known_minutes,
    low_soc_minutes: d.low_soc_minutes,
    charged_ac_pp: d.charged_ac_pp,
    charged_dc_pp: d.charged_dc_pp,
    charged_high_power_pp: d.charged_high_power_pp,
    consumption_pp: sqlCount(r.bh_cons_pp),
    consumption_km: sqlCount(r.bh_cons_km),
    power_time_kwh: d.power_time_kwh,
    power_time_pp: d.power_time_pp,
    charging_power_reported: r.bh_kw_reported === true || r.bh_kw_reported === "t",
    telemetry_days: d.telemetry_days,
    newest_telemetry_at: d.newest_telemetry_at,
    odometer_first_km: sqlNumber(r.bh_odo_first),
    odometer_last_km: sqlNumber(r.bh_odo_last),
    odometer_first_at: sqlDate(sqlNumber(r.bh_odo_first_ms)),
    odometer_last_at: sqlDate(sqlNumber(r.bh_odo_last_ms)),
  };
}
