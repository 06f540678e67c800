/**
 * The SQL parts that device-level inputs are made of (run by `queryDevices`, device-query.ts). Each
 * loader picks the parts it needs and runs them as ONE query for any number of devices: the TAS batch
 * never pays for the battery snapshot's joins, nor the battery snapshot for the TAS telemetry windows.
 * Every part correlates on the device row `d` of the tenant (`d.tenant_id`, `d.device_id`).
 * reading-rows.ts turns the parts' validity columns into judged readings.
 */
import { sql } from "drizzle-orm";
import { ROLLBACK_TOLERANCE_KM } from "@/lib/detectors/odometer-integrity";
import { electricalPart } from "@/lib/telemetry/queries/resting-12v-sql";
import { ALERT_KEYS, type AlertAgent, type Severity } from "@/lib/vocabulary/alerts";
import { CHARGING_WORDS, DC_CHARGING_WORDS, chargingWordSql } from "@/lib/vocabulary/charging";
import { SOH_CONFIRM_PP, SOH_IMPLAUSIBLE_LISTED, SOH_JUMP_PP, SOH_RECENT_READINGS, SOH_TREND_LOOKBACK_DAYS } from "@/lib/vocabulary/readings";
import type { DevicePart } from "./device-query";

/** At most this many dismissed knockout alerts per device are read (the newest): a reviewer dismisses a handful. */
const DISMISSALS_LISTED = 20;

/** A telemetry/driving-event alias correlated with the device row. */
const onDevice = (alias: string) => sql.raw(`${alias}.tenant_id = d.tenant_id and ${alias}.device_id = d.device_id`);

export const parts = {
  /** Master data columns of the device, by name. */
  master: (...names: ("name" | "vin" | "make" | "model" | "powertrain" | "fuel_type" | "asset_class" | "year" | "battery_kwh" | "contract_km" | "lease_months")[]): DevicePart => ({
    columns: sql.raw(names.map((n) => `d.${n}`).join(", ")),
  }),
  leaseStart: (): DevicePart => ({ columns: sql`d.lease_start::text as lease_start` }),

  /** The latest state (fleet_snapshot). */
  snapshot: (): DevicePart => ({
    columns: sql`s.ts as snap_ts, s.soc_pct, s.battery_voltage, s.charging_status, s.charging_power_kw, s.weather_temp`,
    join: sql`left join fleet_snapshot s on s.tenant_id = d.tenant_id and s.device_id = d.device_id`,
  }),

  /** Readings of the 30-day window (vehicle health's data freshness): a count over the short range only. */
  records30: ({ since30 }: { since30: string }): DevicePart => ({
    columns: sql`w30.records_30d`,
    join: sql`left join lateral (
      select count(*)::int as records_30d from telemetry t where ${onDevice("t")} and t.ts >= ${since30}::timestamptz
    ) w30 on true`,
  }),

  /**
   * The first and last odometer reading of the window from `since` on, and when (the TAS's distance
   * and km per year): index probes, not a sort of the window. The distance is last − first, as in the
   * fleet scores (lib/scores/queries/load-fleet-inputs.ts), not max − min, which one high glitch inside the window inflates.
   */
  windowOdometer: ({ since }: { since: string }): DevicePart => ({
    columns: sql`wf.odometer_km as odo_first_km, wf.ts as odo_first_ts, wl.odometer_km as odo_last_km, wl.ts as odo_last_ts`,
    join: sql`left join lateral (
      select tf.odometer_km, tf.ts from telemetry tf
      where ${onDevice("tf")} and tf.ts >= ${since}::timestamptz and tf.odometer_km is not null order by tf.ts asc limit 1
    ) wf on true
    left join lateral (
      select tl.odometer_km, tl.ts from telemetry tl
      where ${onDevice("tl")} and tl.ts >= ${since}::timestamptz and tl.odometer_km is not null order by tl.ts desc limit 1
    ) wl on true`,
  }),

  /**
   * Device time of the newest telemetry record: the snapshot's, which every writer of the history keeps
   * as its newest row (the ingest's `snapshot` upsert only replaces it with a newer reading; the sandbox
   * and bench seeds copy the newest row). One primary-key probe instead of a `max(ts)` over every
   * monthly partition of the history.
   */
  newest: (): DevicePart => ({
    columns: sql`n.ts as newest_ts`,
    join: sql`left join lateral (select sn.ts from fleet_snapshot sn where ${onDevice("sn")} limit 1) n on true`,
  }),

  /**
   * The latest SOH_RECENT_READINGS state of health readings that are plausible by value (0 < SoH ≤ 100),
   * and the implausible ones (0, outside the range) newer than the oldest of those (at most
   * SOH_IMPLAUSIBLE_LISTED, the newest): oldest first, as JSON `[{pct, at_ms}]`, judged by
   * `judgeSohReadings` (lib/vocabulary/readings.ts), one plausibility rule for every score. The two are
   * read apart so that a BMS sending 0 on every later record cannot push the plausible readings out of
   * the window (a 55 % pack followed by zeros stays a 55 % pack); the zeros are only there to be flagged.
   * `soh_latest_ts`: the latest plausible reading's time (the trend's end).
   */
  recentSoh: (): DevicePart => ({
    columns: sql`sohr.soh_recent, sohr.soh_latest_ts`,
    join: sql`left join lateral (
      with p as (
        select ts1.ts, ts1.soh_pct from telemetry ts1 where ${onDevice("ts1")} and ts1.soh_pct > 0 and ts1.soh_pct <= 100
        order by ts1.ts desc limit ${SOH_RECENT_READINGS}
      )
      select json_agg(json_build_object('pct', x.soh_pct, 'at_ms', (extract(epoch from x.ts) * 1000)::float8) order by x.ts) as soh_recent,
        (select max(p2.ts) from p p2) as soh_latest_ts
      from (
        select p.ts, p.soh_pct from p
        union all
        (select ts2.ts, ts2.soh_pct from telemetry ts2
         where ${onDevice("ts2")} and ts2.soh_pct is not null and not (ts2.soh_pct > 0 and ts2.soh_pct <= 100)
           and ts2.ts > coalesce((select min(p1.ts) from p p1), '-infinity'::timestamptz)
         order by ts2.ts desc limit ${SOH_IMPLAUSIBLE_LISTED})
      ) x
    ) sohr on true`,
  }),

  /**
   * The trend's base (needs `recentSoh`): the oldest SoH reading within the trend look-back before the
   * latest plausible one that the plausibility rule (`judgeSohReadings`, lib/vocabulary/readings.ts)
   * would not set aside: 0 < SoH ≤ 100, and not a jump of more than SOH_JUMP_PP from the reading before
   * it (the latest one before the look-back included) that the next reading does not confirm (within
   * SOH_CONFIRM_PP). Judged against the neighbouring readings, not the previous accepted one: the base
   * is one row, and a bounded number of readings (the first SOH_RECENT_READINGS of the look-back) is read.
   * Without a reading before it, the oldest reading is the base, as in `judgeSohReadings`.
   */
  earlySoh: (): DevicePart => ({
    columns: sql`soh0.soh_pct as early_soh, soh0.ts as early_soh_ts`,
    join: sql`left join lateral (
      select e.ts, e.soh_pct from (
        select y.ts, y.soh_pct, lag(y.soh_pct) over (order by y.ts) as prev_pct, lead(y.soh_pct) over (order by y.ts) as next_pct
        from (
          (select tb.ts, tb.soh_pct from telemetry tb
           where ${onDevice("tb")} and tb.soh_pct > 0 and tb.soh_pct <= 100 and tb.ts < sohr.soh_latest_ts - make_interval(days => ${SOH_TREND_LOOKBACK_DAYS}::int)
           order by tb.ts desc limit 1)
          union all
          (select ts0.ts, ts0.soh_pct from telemetry ts0
           where ${onDevice("ts0")} and ts0.soh_pct > 0 and ts0.soh_pct <= 100 and ts0.ts >= sohr.soh_latest_ts - make_interval(days => ${SOH_TREND_LOOKBACK_DAYS}::int)
           order by ts0.ts asc limit ${SOH_RECENT_READINGS})
        ) y
      ) e
      where e.ts >= sohr.soh_latest_ts - make_interval(days => ${SOH_TREND_LOOKBACK_DAYS}::int)
        and not (abs(e.soh_pct - coalesce(e.prev_pct, e.soh_pct)) > ${SOH_JUMP_PP}::float8
          and (e.next_pct is null or abs(e.next_pct - e.soh_pct) > ${SOH_CONFIRM_PP}::float8))
      order by e.ts asc limit 1
    ) soh0 on true`,
  }),

  latestOdometer: (): DevicePart => ({
    columns: sql`odo.odometer_km as latest_odo, odo.ts as latest_odo_ts`,
    join: sql`left join lateral (
      select tod.odometer_km, tod.ts from telemetry tod where ${onDevice("tod")} and tod.odometer_km is not null order by tod.ts desc limit 1
    ) odo on true`,
  }),

  /** The latest usable state of charge (0–100 %, lib/vocabulary/readings.ts usableSocPct) and when: an index probe. */
  latestSoc: (): DevicePart => ({
    columns: sql`soc.soc_pct as latest_soc, soc.ts as latest_soc_ts`,
    join: sql`left join lateral (
      select tsoc.soc_pct, tsoc.ts from telemetry tsoc where ${onDevice("tsoc")} and tsoc.soc_pct >= 0 and tsoc.soc_pct <= 100 order by tsoc.ts desc limit 1
    ) soc on true`,
  }),

  /**
   * The vehicle's usual AC and DC charging powers since `since` (the charging recommendation's default
   * powers): the median of its readings of each kind (lib/vocabulary/charging-defaults.ts says why).
   * A reading is DC when its status word says so (DC_CHARGING_WORDS) or its power is above `acMaxKw`
   * (no car charges faster on AC); AC when it carries a charging word (CHARGING_WORDS) and no DC-level
   * reading lies within `sessionMs` of it — OEMs that report a DC session as plain `charging` also
   * report its taper below `acMaxKw`, and those readings are not the car's AC power. Readings below
   * the kind's lower bound are not charging levels.
   */
  observedChargingPower: ({ since, acMaxKw, acMinKw, dcMinKw, sessionMs }: { since: string; acMaxKw: number; acMinKw: number; dcMinKw: number; sessionMs: number }): DevicePart => {
    const dcWords = sql.raw(DC_CHARGING_WORDS.map((w) => `'${w}'`).join(", "));
    const chargingWords = sql.raw(CHARGING_WORDS.map((w) => `'${w}'`).join(", "));
    const isDc = (a: string) => sql`(coalesce(${sql.raw(chargingWordSql(`${a}.charging_status`))} in (${dcWords}), false) or ${sql.raw(a)}.charging_power_kw > ${acMaxKw}::float8)`;
    return {
      columns: sql`cp.ac_median_kw, cp.dc_median_kw`,
      join: sql`left join lateral (
        select percentile_cont(0.5) within group (order by tcp.charging_power_kw) filter (
                 where not ${isDc("tcp")} and coalesce(${sql.raw(chargingWordSql("tcp.charging_status"))} in (${chargingWords}), false)
                   and not exists (
                     select 1 from telemetry tdc where ${onDevice("tdc")} and tdc.charging_power_kw > 0 and ${isDc("tdc")}
                       and tdc.ts between tcp.ts - make_interval(secs => ${sessionMs / 1000}::float8) and tcp.ts + make_interval(secs => ${sessionMs / 1000}::float8))
               ) as ac_median_kw,
               percentile_cont(0.5) within group (order by tcp.charging_power_kw) filter (where ${isDc("tcp")} and tcp.charging_power_kw >= ${dcMinKw}::float8) as dc_median_kw
        from telemetry tcp where ${onDevice("tcp")} and tcp.ts >= ${since}::timestamptz and tcp.charging_power_kw >= ${acMinKw}::float8
      ) cp on true`,
    };
  },

  /**
   * Evidence of odometer manipulation (needs `latestOdometer`), CONTRACT knockout: the latest reading
   * is more than ROLLBACK_TOLERANCE_KM below the highest earlier reading, so no later reading
   * contradicts the drop. A one-sample upward spike (`isOdometerSpike`, the detector's rule: the next
   * reading falls back from it to within the tolerance of the reading before it, whatever speed the
   * spike implies) is not the level later readings are judged against. Only candidates pay for the history
   * scan: the device's stored maximum gates it (a one-time filter), so a batch of clean devices costs
   * one index probe each. Columns: the highest reading, the first lower reading after the last reading
   * at that level, and the number of readings since (through the latest). `lvl` is MATERIALIZED: inlined,
   * its aggregate over `r` was the inner side of the join with `r` and ran once per reading (quadratic:
   * seconds for one clocked device on the embedded database, which has no planner statistics).
   */
  odometerEvidence: (): DevicePart => ({
    columns: sql`oe.odo_high_km, oe.odo_high_ts, oe.odo_lower_km, oe.odo_lower_ts, oe.odo_readings_since`,
    join: sql`left join lateral (
      with r as (
        select t.odometer_km as km, t.ts,
          -- isOdometerSpike (lib/detectors/odometer-integrity.ts): the next reading falls back from this one,
          -- to within the tolerance of the reading before it, and nearer to that than to this one.
          (lead(t.odometer_km) over w < t.odometer_km - ${ROLLBACK_TOLERANCE_KM}::float8
            and lead(t.odometer_km) over w >= lag(t.odometer_km) over w - ${ROLLBACK_TOLERANCE_KM}::float8
            and lead(t.odometer_km) over w - lag(t.odometer_km) over w < t.odometer_km - lead(t.odometer_km) over w) as spike
        from telemetry t
        where ${onDevice("t")} and t.odometer_km is not null and t.ts <= odo.ts
          and odo.odometer_km < coalesce(d.odometer_max_km, 'infinity'::float8) - ${ROLLBACK_TOLERANCE_KM}::float8
        window w as (order by t.ts)
      ),
      hi as (select r.km, r.ts from r where r.ts < odo.ts and r.spike is not true order by r.km desc, r.ts asc limit 1),
      lvl as materialized (select max(r.ts) as ts from r, hi where r.ts < odo.ts and r.spike is not true and r.km >= hi.km - ${ROLLBACK_TOLERANCE_KM}::float8),
      since as (select r.km, r.ts from r, lvl where r.ts > lvl.ts)
      select hi.km as odo_high_km, hi.ts as odo_high_ts,
        (select s1.km from since s1 order by s1.ts asc limit 1) as odo_lower_km,
        (select min(s2.ts) from since s2) as odo_lower_ts,
        (select count(*)::int from since s3) as odo_readings_since
      from hi where odo.odometer_km < hi.km - ${ROLLBACK_TOLERANCE_KM}::float8
    ) oe on true`,
  }),

  /** The DTC list of the latest record that carried one (the active codes). */
  activeDtcs: (): DevicePart => ({
    columns: sql`dtc.dtc_codes`,
    join: sql`left join lateral (
      select td.dtc_codes from telemetry td where ${onDevice("td")} and td.dtc_codes is not null order by td.ts desc limit 1
    ) dtc on true`,
  }),

  /**
   * Whether any voltage was reported, and the latest resting 12 V reading of the 90-day device window
   * (DEVICE_WINDOW_DAYS): raw telemetry since the device's rollups end, else its rolled-up days
   * (lib/telemetry/queries/resting-12v-sql.ts).
   */
  electrical: ({ since90 }: { since90: string }): DevicePart => electricalPart({ since90 }),

  /**
   * Alert facts of the device: the open implausible-odometer-jump problems (vehicle health's
   * odometer_integrity; one problem key, so 0 or 1: under the lifecycle repeats fold into one row and
   * each acknowledgement cycle adds one, so rows measure batching and acknowledgement habits, not jumps;
   * acknowledging says the jump was checked) and the alerts of the short window by severity (the
   * per-device `alerts_period` facts of the scores batch). No score counts alert rows as behaviour
   * (docs/methodology/alerts.md "Lifecycle").
   */
  alertCounts: ({ since30 }: { since30: string }): DevicePart => {
    const [critical, warning, info]: Severity[] = ["CRITICAL", "WARNING", "INFO"];
    return {
      columns: sql`ac.odo_jumps, ac.critical_30, ac.warning_30, ac.info_30`,
      join: sql`left join lateral (
        select count(distinct a.dedupe_key) filter (where a.dedupe_key = ${ALERT_KEYS.odometerJump} and not a.acknowledged)::int as odo_jumps,
          count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = ${critical})::int as critical_30,
          count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = ${warning})::int as warning_30,
          count(*) filter (where a.created_at >= ${since30}::timestamptz and a.severity = ${info})::int as info_30
        from alerts a where ${onDevice("a")}
      ) ac on true`,
    };
  },

  /**
   * Knockout alerts a reviewer dismissed as a false alarm (lib/alerts/dismiss-alert.ts): odometer rollback
   * and low state of health, each with the device-time span of the readings it cited (first to latest
   * occurrence), as JSON `[{key, alert_id, from_ms, to_ms, at_ms, reason}]` for `knockoutDismissalsOf`
   * (reading-rows.ts). The newest DISMISSALS_LISTED only, so the part stays one bounded index probe.
   */
  dismissedKnockoutAlerts: (): DevicePart => ({
    columns: sql`dk.ko_dismissals`,
    join: sql`left join lateral (
      select json_agg(json_build_object(
        'key', k.dedupe_key, 'alert_id', k.id, 'reason', k.dismissal_reason,
        'from_ms', (extract(epoch from coalesce(k.first_seen_at, k.created_at)) * 1000)::float8,
        'to_ms', (extract(epoch from coalesce(k.last_seen_at, k.first_seen_at, k.created_at)) * 1000)::float8,
        'at_ms', (extract(epoch from k.dismissed_at) * 1000)::float8) order by k.dismissed_at) as ko_dismissals
      from (
        select k0.* from alerts k0
        where ${onDevice("k0")} and k0.dismissed_at is not null
          and k0.dedupe_key in (${ALERT_KEYS.odometerRollback}, ${ALERT_KEYS.batterySohLow})
        order by k0.dismissed_at desc limit ${DISMISSALS_LISTED}
      ) k
    ) dk on true`,
  }),

  /** The newest alert of the battery detector. */
  lastBatteryAlert: (): DevicePart => {
    const battery: AlertAgent = "battery";
    return {
      columns: sql`lb.severity as lb_severity, lb.prediction as lb_prediction, lb.confidence as lb_confidence, lb.created_at as lb_created_at`,
      join: sql`left join lateral (
        select b.severity, b.prediction, b.confidence, b.created_at from alerts b
        where ${onDevice("b")} and b.agent = ${battery}
        order by b.created_at desc, b.id desc limit 1
      ) lb on true`,
    };
  },
} as const;
