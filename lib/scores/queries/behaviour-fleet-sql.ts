/**
 * The behaviour part (behaviour-rollup-sql.ts) of EVERY device of a tenant in one set-based statement,
 * for the fleet scores (load-fleet-inputs.ts). `behaviourPart` reads a window per device with about a
 * dozen correlated probes and two small window pipelines; over 10,000 devices that is 10,000 rescans of
 * each, about 85 µs of fixed cost per device before a single reading is aggregated (docs/performance.md,
 * "Daily rollups"). Here each part is read once for all devices:
 * - K (the latest valid rolled-up day) and the row before it (brx) from the rollup rows of the last
 *   RECENT_ROLLUP_DAYS days, one range scan of the (tenant_id, day) index;
 * - the row before the window's first whole day (bry) by its exact day, the same index, with a probe
 *   only for a device that has no row that day;
 * - the head (A) and the tail (C) from one range scan each of the (tenant_id, ts) index of telemetry,
 *   through the same pair rules (`behaviourAggregates` with a fleet stream, windows partitioned by
 *   device); the head's partner reading (the first at or after the first whole day) from the next day's
 *   readings, with a probe only for a device that has none that day;
 * - harsh events of A and C from the (tenant_id, ts) index of driving_events.
 * The figures are put together by the same `rolledColumn` as the per-device part, from parts with the
 * same names, so the two cannot measure differently.
 *
 * A device whose K is older than RECENT_ROLLUP_DAYS (no valid rollups, stale ones, a device that stopped
 * reporting), or whose brx cannot be told from the recent rows, is read by the per-device part in the
 * same statement (`union all`): the same figures, at the per-device cost. A fleet whose rollups are
 * refreshed daily has (almost) none of those.
 */
import { sql, type SQL } from "drizzle-orm";
import { behaviourPart, boundaryLookups, rolledColumn, utcDay, windowBounds } from "./behaviour-rollup-sql";
import {
  AGGREGATE_COLUMNS,
  behaviourAggregates,
  emptyAggregate,
  harshAggregatesByDevice,
  HARSH_MEASURES,
  measureColumns,
  sampleColumns,
  SOURCE_COLUMNS,
} from "./behaviour-sql";

/**
 * How far back (UTC days before the window's last day) the set-based path looks for a device's latest
 * rolled-up day. The rollups are refreshed after every ingest and at least daily for a reporting device,
 * so K is yesterday for almost every device; a few days more keep a device that was parked (no readings,
 * hence no rollup row) for a weekend on the set-based path. The tail scan starts at the oldest K of the
 * devices it serves, so a larger value would make every device's tail longer.
 */
export const RECENT_ROLLUP_DAYS = 4;

const DAY_MS = 86_400_000;

/** The master-data columns the fleet scores read, besides the behaviour part. */
const MASTER = sql.raw(["device_id", "powertrain", "fuel_type", "asset_class", "battery_kwh"].map((c) => `d.${c}`).join(", "));

/**
 * One row per device of the tenant that `inSlice` keeps (a filter on the device id column given; empty
 * for all): the master columns above, every `bh_` column of `behaviourPart({ since, until })` and the
 * source columns, with the same values; and `fl_set`: whether the device was read by the set-based
 * path (true) or by the per-device part (a diagnostic: the tests check which path a device took).
 */
export function fleetBehaviourSelect({
  tenantId,
  since,
  until,
  inSlice,
}: {
  tenantId: string;
  since: string;
  until: string;
  inSlice: (column: string) => SQL;
}): SQL {
  const bounds = windowBounds(since, until);
  const recent = utcDay(new Date(Date.parse(`${bounds.untilDay}T00:00:00Z`) - RECENT_ROLLUP_DAYS * DAY_MS));
  const tenant = sql`${tenantId}::text`;
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  const hAt = sql`${bounds.headEnd}::timestamptz`;
  const hDay = sql`${bounds.headDay}::date`;
  const untilDay = sql`${bounds.untilDay}::date`;
  const recentDay = sql`${recent}::date`;
  const recentAt = sql`${`${recent}T00:00:00Z`}::timestamptz`;
  // A range of all the tenant's rows, fenced (OFFSET 0) so that Postgres reads it by its (tenant_id, …)
  // index once and hash-joins it to the devices, instead of probing the range once per device.
  const readings = (range: SQL, seg: boolean) =>
    sql`(select t.device_id, ${sampleColumns(true)}, ${sql.raw(String(seg))} as seg from telemetry t where t.tenant_id = ${tenant} and ${range} offset 0)`;
  const events = (range: SQL) => sql`(select de.* from driving_events de where de.tenant_id = ${tenant} and ${range} offset 0)`;
  const minTail = sql`(select min(tail_from) from fl_fast)`;
  const withEmpty = (alias: string, names: readonly string[]) =>
    sql.join(names.map((n) => sql`coalesce(${sql.raw(`${alias}.bh_${n}`)}, ${emptyAggregate(n)}) as ${sql.raw(`bh_${n}`)}`), sql`, `);
  const aggregates = (rows: SQL) => behaviourAggregates({ stream: { kind: "fleet", rows } });
  const slow = behaviourPart({ since, until, bounds });

  return sql`with fl_dv as materialized (
      select d.tenant_id, d.device_id, d.powertrain, d.fuel_type, d.asset_class, d.battery_kwh, d.events_reported_at, d.dense_speed_at
      from devices d where d.tenant_id = ${tenant}${inSlice("d.device_id")}
    ),
    fl_rr as materialized (
      select r.* from telemetry_daily r
      where r.tenant_id = ${tenant} and r.day >= ${hDay} and r.day >= ${recentDay} and r.day < ${untilDay}
    ),
    fl_k as materialized (
      select distinct on (r.device_id) r.device_id, r.day as kday
      from fl_rr r
      join fl_dv dv on dv.device_id = r.device_id
      join telemetry_rollup_state rs on rs.tenant_id = ${tenant} and rs.device_id = r.device_id
      where r.day < rs.clean_before and r.last_ts is not null and rs.rolled_battery_kwh is not distinct from dv.battery_kwh
      order by r.device_id, r.day desc
    ),
    fl_x as materialized (
      select distinct on (r.device_id) r.* from fl_rr r join fl_k k on k.device_id = r.device_id
      where r.day < k.kday
      order by r.device_id, r.day desc
    ),
    fl_fast as materialized (
      select dv.*, k.kday::timestamp at time zone 'UTC' as tail_from
      from fl_dv dv join fl_k k on k.device_id = dv.device_id
      where ${hDay} >= ${recentDay} or exists (select 1 from fl_x x where x.device_id = dv.device_id)
    ),
    fl_y0 as materialized (
      select r.* from telemetry_daily r where r.tenant_id = ${tenant} and r.day = ${hDay} - 1
    ),
    fl_y as (
      select * from fl_y0
      union all
      select p.* from fl_fast f
      cross join lateral (
        select r.* from telemetry_daily r where r.tenant_id = ${tenant} and r.device_id = f.device_id and r.day < ${hDay} - 1
        order by r.day desc limit 1
      ) p
      where not exists (select 1 from fl_y0 y where y.device_id = f.device_id)
    ),
    fl_head as materialized (
      select h.*, f.battery_kwh from ${readings(sql`t.ts >= ${from} and t.ts < ${hAt} and t.ts <= ${to}`, true)} h
      join fl_fast f on f.device_id = h.device_id
    ),
    fl_partner0 as materialized (
      select distinct on (p.device_id) p.*, f.battery_kwh
      from ${readings(sql`t.ts >= ${hAt} and t.ts < ${hAt} + interval '1 day' and t.ts <= ${to}`, false)} p
      join fl_fast f on f.device_id = p.device_id
      order by p.device_id, p.ts
    ),
    fl_partner as (
      select * from fl_partner0
      union all
      select p.*, f.battery_kwh from (select distinct h.device_id, h.battery_kwh from fl_head h) f
      cross join lateral (
        select t.device_id, ${sampleColumns(true)}, false as seg from telemetry t
        where t.tenant_id = ${tenant} and t.device_id = f.device_id and t.ts >= ${hAt} + interval '1 day' and t.ts <= ${to}
        order by t.ts limit 1
      ) p
      where not exists (select 1 from fl_partner0 p0 where p0.device_id = f.device_id)
    ),
    fl_a as (
      select f.device_id, ${withEmpty("a", AGGREGATE_COLUMNS)}
      from fl_fast f
      left join (${aggregates(sql`(select * from fl_head union all select * from fl_partner)`)}) a on a.device_id = f.device_id
    ),
    fl_c as (
      select f.device_id, ${withEmpty("c", AGGREGATE_COLUMNS)}
      from fl_fast f
      left join (${aggregates(sql`(select c.*, f.battery_kwh
          from ${readings(sql`t.ts >= ${recentAt} and t.ts >= ${minTail} and t.ts <= ${to}`, true)} c
          join fl_fast f on f.device_id = c.device_id and c.ts >= f.tail_from)`)}) c on c.device_id = f.device_id
    ),
    fl_h as (
      select f.device_id, ${withEmpty("h", HARSH_MEASURES)}
      from fl_fast f
      left join (${harshAggregatesByDevice(sql`(
        select de.* from ${events(sql`de.ts >= ${from} and de.ts < ${hAt} and de.ts <= ${to}`)} de join fl_fast f on f.device_id = de.device_id
        union all
        select de.* from ${events(sql`de.ts >= ${recentAt} and de.ts >= ${minTail} and de.ts <= ${to}`)} de
        join fl_fast f on f.device_id = de.device_id and de.ts >= f.tail_from
      ) de`)}) h on h.device_id = f.device_id
    )
    select ${MASTER}, ${measureColumns("all", rolledColumn)}, ${SOURCE_COLUMNS}, true as fl_set
    from fl_fast d
    left join fl_a bra on bra.device_id = d.device_id
    left join fl_c brc on brc.device_id = d.device_id
    left join fl_x brx on brx.device_id = d.device_id
    left join fl_y bry on bry.device_id = d.device_id
    left join fl_h brh on brh.device_id = d.device_id
    ${boundaryLookups(hDay, true)}
    union all
    select ${MASTER}, ${slow.columns}, false as fl_set
    from fl_dv d
    ${slow.join ?? sql``}
    where not exists (select 1 from fl_fast f where f.device_id = d.device_id)`;
}
