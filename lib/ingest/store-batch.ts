import { type SQL, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { preparedRows } from "@/lib/db/prepared";
import { sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import type { telemetry } from "@/lib/db/schema";
import { RESOLUTION_LEVEL_EPSILON, resolutionRecord, resolverOf } from "@/lib/alerts/alert-lifecycle";
import type { AlertDraft, DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { numberArray, textArray } from "@/lib/db/pg-array";
import { newId } from "@/lib/ids";
import { masterValueMergeSql } from "@/lib/vocabulary/master-data";
import { awakeSql, SETTLE_MS } from "@/lib/vocabulary/readings";
import { normalisePowertrain, type Powertrain, powertrainMergeSql, toPowertrainSource } from "@/lib/vocabulary/powertrain";
import type { DeviceMaster } from "./device-context";
import type { DrivingEventRow } from "./driving-events";
import type { DeviceMasterUpdate } from "./normalize-records";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Set-based SQL for one ingest batch. Every statement handles the whole batch, so a request costs
 * three round trips whatever its size: read the devices' context, store the batch (one statement:
 * devices, history, snapshot, driving events), insert the alerts.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A stored telemetry (and snapshot) row. */
export type TelemetryRow = typeof telemetry.$inferSelect;

/**
 * The row a record becomes in `telemetry` and `fleet_snapshot`: what storeBatch's columns write
 * (it builds the same columns straight from the records, to spare 10,000 objects per batch), and
 * what the sandbox seed inserts. tests/db/ingest-mirrors.test.ts checks both store the same rows.
 */
export function toTelemetryRow(tenantId: string, r: TelemetryRecord, receivedAt: Date): TelemetryRow {
  return {
    tenantId,
    deviceId: r.deviceId,
    ts: r.ts,
    receivedAt,
    lat: r.lat,
    lon: r.lon,
    speedKmh: r.speedKmh,
    batteryVoltage: r.batteryVoltage,
    socPct: r.socPct,
    sohPct: r.sohPct,
    odometerKm: r.odometerKm,
    chargingStatus: r.chargingStatus,
    chargingPowerKw: r.chargingPowerKw,
    fuelLevelPct: r.fuelLevelPct,
    engineHours: r.engineHours,
    dtcCodes: r.dtcCodes,
    ignition: r.ignition,
    weatherTemp: r.weatherTemp,
    rawData: r.rawData,
  };
}

/**
 * An alert's `created_at`: the device time of its evidence, never later than when FDP received the
 * batch (a device clock running ahead cannot date an alert in the future).
 */
export function alertCreatedAt(observedAt: Date, receivedAt: Date): Date {
  return observedAt < receivedAt ? observedAt : receivedAt;
}

/**
 * A record's device time travels as epoch milliseconds (a number per record, 6 ms less client work per
 * 10,000 records than `toISOString`, and no timestamp text for Postgres to parse): whole milliseconds
 * times an interval of 1 ms are exact in float8 (below 2^53 µs), so the instant is the Date's exactly.
 */
const EPOCH_MS_TO_TIMESTAMPTZ = sql.raw(`timestamptz 'epoch' + ts_ms * interval '1 millisecond'`);

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** A stored reading with the vehicle awake (lib/vocabulary/readings.ts `awakeSql`). */
const AWAKE = (alias: string) => sql.raw(awakeSql(alias));

/** A stored device as the ingest finds it before a batch: the detectors' context and its master data as stored (for mergeDeviceMaster). */
interface KnownDevice extends DeviceContext {
  master: DeviceMaster;
}

/**
 * The state before this batch, for the detectors: one query for every device of the batch. The last
 * awake reading is bounded: the latest within SETTLE_MS before the device's newest stored reading (an
 * index range of the device's history); an older one can no longer keep any later reading from settling.
 * When the newest stored reading is itself awake, it is that reading: the snapshot is the history's
 * newest row (storeBatch writes both from the same record, and both keep the first row stored for a
 * timestamp: the history's `on conflict do nothing`, the snapshot's strict `excluded.ts >
 * fleet_snapshot.ts`; a `>=` there would break this), so the history is not read (the range's scans
 * sit under a one-time filter on the snapshot's `awake`). A vehicle that reports while it drives or
 * charges has an awake newest reading; in the ingest benchmark's fleet half of them do, and the read
 * took 30–32 ms instead of 37–41 ms of server time for 2,000 devices.
 *
 * Written so that its plan cannot depend on statistics (a new tenant's first minutes, before anything
 * has analysed its rows; docs/performance.md "Ingest against the raw driver"): each batch device is one
 * primary-key probe of `devices` and of `fleet_snapshot` (LATERAL … LIMIT 1, which Postgres cannot
 * flatten back into a join), and the awake range's upper bound is written as the ROW comparison
 * (device_id, ts) <= (device, snapshot time): only the primary key (tenant_id, device_id, ts) can use it as
 * an index condition (its `ts` lower bound, after the two equalities, still ends the scan), so the
 * (tenant_id, ts) index no longer looks as cheap to a planner without statistics. Before, with plain
 * joins and plain `ts` bounds, a planner that believed the tenant held two rows nested-looped the
 * snapshot against all the tenant's rows (499,500 rows filtered for 1,000 devices) and read the awake
 * range by the (tenant_id, ts) index, i.e. the tenant's whole last SETTLE_MS for every device (3,600 rows
 * filtered per device): 0.3–0.4 s per 1,000-device batch, growing with every batch until ANALYZE.
 * (A ROW comparison for the lower bound too would not end the scan: Postgres 15 only ends a range on a
 * ROW comparison's first column.)
 */
export async function readDeviceContexts(tx: Tx | Db, tenantId: string, deviceIds: string[]): Promise<Map<string, KnownDevice>> {
  const found = await preparedRows(
    tx as Db,
    sql`select d.device_id, d.powertrain, d.powertrain_source, d.battery_kwh, d.master_data_at, d.odometer_max_km, d.odometer_max_at,
               s.ts, s.odometer_km, s.soc_pct, s.soh_pct, s.dtc_codes, s.speed_kmh,
               case when s.awake then s.ts else aw.last_awake_at end as last_awake_at
          from unnest(${textArray(deviceIds)}::text[]) as k(device_id)
          cross join lateral (
            select d.device_id, d.powertrain, d.powertrain_source, d.battery_kwh, d.master_data_at, d.odometer_max_km, d.odometer_max_at from devices d
             where d.tenant_id = ${tenantId} and d.device_id = k.device_id limit 1
          ) d
          left join lateral (
            select s.ts, s.odometer_km, s.soc_pct, s.soh_pct, s.dtc_codes, s.speed_kmh, ${AWAKE("s")} as awake from fleet_snapshot s
             where s.tenant_id = ${tenantId} and s.device_id = k.device_id limit 1
          ) s on true
          left join lateral (
            select max(tw.ts) as last_awake_at from telemetry tw
             where s.awake is not true and tw.tenant_id = ${tenantId} and tw.device_id = k.device_id
               and (tw.device_id, tw.ts) <= (k.device_id, s.ts) and tw.ts > s.ts - make_interval(secs => ${SETTLE_MS / 1000}::float8) and ${AWAKE("tw")}
          ) aw on true`,
  );
  const out = new Map<string, KnownDevice>();
  for (const r of found) {
    const ts = sqlDate(r.ts);
    const maxAt = sqlDate(r.odometer_max_at);
    const maxKm = sqlNumber(r.odometer_max_km);
    const deviceId = String(r.device_id);
    const master: DeviceMaster = {
      powertrain: normalisePowertrain(sqlText(r.powertrain)),
      powertrainSource: toPowertrainSource(r.powertrain_source),
      batteryKwh: sqlNumber(r.battery_kwh),
      masterDataAt: sqlDate(r.master_data_at),
    };
    out.set(deviceId, {
      deviceId,
      master,
      powertrain: master.powertrain,
      batteryKwh: master.batteryKwh,
      previous: ts
        ? {
            ts,
            odometerKm: sqlNumber(r.odometer_km),
            socPct: sqlNumber(r.soc_pct),
            sohPct: sqlNumber(r.soh_pct),
            dtcCodes: sqlTextArray(r.dtc_codes),
            speedKmh: sqlNumber(r.speed_kmh),
          }
        : null,
      odometerMax: maxKm !== null && maxAt ? { km: maxKm, ts: maxAt } : null,
      lastAwakeAt: sqlDate(r.last_awake_at),
    });
  }
  return out;
}

/**
 * CONTRACT master-data rule (a record at least as new overwrites; an older one only fills empty
 * fields) and the powertrain's precedence (a declaration beats an inference): lib/vocabulary/.
 */
const MASTER_COLUMNS = ["make", "model", "year", "fuel_type", "battery_kwh", "original_price_eur", "contract_km", "lease_start", "lease_months", "asset_class"];
const SIGNAL_COLUMNS =
  "device_id, ts, received_at, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data";
const SNAPSHOT_ASSIGNMENTS = SIGNAL_COLUMNS.split(", ")
  .filter((c) => c !== "device_id")
  .map((c) => `${c} = excluded.${c}`)
  .join(", ");

const DEVICE_UPSERT = sql.raw(`
  on conflict (tenant_id, device_id) do update set
    ${MASTER_COLUMNS.map((c) => `${c} = ${masterValueMergeSql(c)}`).join(",\n    ")},
    powertrain = ${powertrainMergeSql("powertrain")},
    powertrain_source = ${powertrainMergeSql("powertrain_source")},
    master_data_at = greatest(devices.master_data_at, excluded.master_data_at),
    vin = coalesce(excluded.vin, devices.vin),
    -- CONTRACT: device_name is "<make> <model>", else the make, else the VIN (from the merged values), else the device id.
    name = coalesce(nullif(concat_ws(' ', ${masterValueMergeSql("make")}, ${masterValueMergeSql("model")}), ''), excluded.vin, devices.vin, devices.device_id),
    odometer_max_km = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_km else devices.odometer_max_km end,
    odometer_max_at = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_at else devices.odometer_max_at end,
    events_reported_at = greatest(devices.events_reported_at, excluded.events_reported_at),
    dense_speed_at = greatest(devices.dense_speed_at, excluded.dense_speed_at),
    updated_at = now()
  returning device_id, powertrain, battery_kwh, (xmax = 0) as created`);

const text = <T>(list: readonly T[], f: (x: T) => string | null) => textArray(list.map(f));
const num = <T>(list: readonly T[], f: (x: T) => number | null) => numberArray(list.map(f));

/** The records' columns as storeBatch sends them (one array literal per column), built apart from the statement. */
interface RecordColumns {
  count: number;
  sql: SQL;
}

/**
 * The `unnest` arguments of storeBatch's records, one array literal per column in SIGNAL_COLUMNS'
 * order (device time as epoch milliseconds). They depend on the records alone, so the ingest builds them
 * while its device-context read is in flight (about 30 ms of client work per 10,000 records).
 */
export function recordColumns(r: readonly TelemetryRecord[]): RecordColumns {
  return {
    count: r.length,
    sql: sql`${text(r, (x) => x.deviceId)}::text[], ${num(r, (x) => x.ts.getTime())}::float8[],
        ${num(r, (x) => x.lat)}::float8[], ${num(r, (x) => x.lon)}::float8[], ${num(r, (x) => x.speedKmh)}::float8[],
        ${num(r, (x) => x.batteryVoltage)}::float8[], ${num(r, (x) => x.socPct)}::float8[], ${num(r, (x) => x.sohPct)}::float8[],
        ${num(r, (x) => x.odometerKm)}::float8[], ${text(r, (x) => x.chargingStatus)}::text[], ${num(r, (x) => x.chargingPowerKw)}::float8[],
        ${num(r, (x) => x.fuelLevelPct)}::float8[], ${num(r, (x) => x.engineHours)}::float8[],
        ${text(r, (x) => (x.dtcCodes ? textArray(x.dtcCodes) : null))}::text[], ${num(r, (x) => x.ignition)}::int2[],
        ${num(r, (x) => x.weatherTemp)}::float8[], ${text(r, (x) => (x.rawData ? JSON.stringify(x.rawData) : null))}::text[]`,
  };
}

/** The device's master data after the upsert, as stored: what the detectors judge the batch with. */
export interface StoredDeviceMaster {
  powertrain: Powertrain | null;
  batteryKwh: number | null;
}

/** A device as the batch's upsert left it: its master data, and whether this batch created it (its `device.created` event). */
export interface StoredDevice extends StoredDeviceMaster {
  created: boolean;
}

/**
 * Devices, history, snapshot and driving events of one batch in ONE statement (data-modifying
 * CTEs), every column sent once as an array literal unpacked by `unnest`:
 * - history: every record, keyed by (tenant, device, device time); a stored one is skipped, so a
 *   re-sent payload changes nothing;
 * - snapshot: each device's newest record (`distinct on`), applied only when newer than the stored
 *   state, so late records never move it back;
 * - driving events: only those of records the history stored just now (so a re-sent record adds
 *   none, even with other events), one per (device, time, kind, source);
 * - devices: created or updated with the master-data merge rules above; the statement returns each
 *   device's merged powertrain and battery size, and whether it created the device (`xmax = 0`: the
 *   row version is the insert's; an upsert that updated it has set xmax).
 * `records` must hold at most one record per (device, timestamp) (see groupByDevice).
 */
export async function storeBatch(
  tx: Tx,
  tenantId: string,
  {
    updates,
    records,
    columns = recordColumns(records),
    events = [],
    receivedAt,
  }: { updates: DeviceMasterUpdate[]; records: TelemetryRecord[]; columns?: RecordColumns; events?: DrivingEventRow[]; receivedAt: Date },
): Promise<Map<string, StoredDevice>> {
  if (columns.count !== records.length) throw new Error(`storeBatch: columns of ${columns.count} records for ${records.length}`);
  const u = updates;
  const e = events;
  const staleFrom = firstDays(records, events);
  // Without events the history CTE need not return its rows (the common, benchmarked case).
  const eventsCte =
    e.length === 0
      ? sql``
      : sql`, stored_events as (
      insert into driving_events (tenant_id, device_id, ts, kind, source, value, duration_s, record_ts, received_at)
      select ${tenantId}, e.device_id, e.ts, e.kind, e.source, e.value, e.duration_s, e.record_ts, ${receivedAt.toISOString()}::timestamptz
        from unnest(
          ${text(e, (x) => x.deviceId)}::text[], ${text(e, (x) => x.ts.toISOString())}::timestamptz[], ${text(e, (x) => x.kind)}::text[],
          ${text(e, (x) => x.source)}::text[], ${num(e, (x) => x.value)}::float8[], ${num(e, (x) => x.durationS)}::float8[],
          ${text(e, (x) => x.recordTs.toISOString())}::timestamptz[])
        as e(device_id, ts, kind, source, value, duration_s, record_ts)
        join history h on h.device_id = e.device_id and h.ts = e.record_ts
      on conflict do nothing
    )`;
  const stored = await preparedRows(
    tx as unknown as Db,
    sql`
    with r as (
      select * from unnest(${columns.sql})
      as r(device_id, ts_ms, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status,
           charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
    ), rows as (
      select ${tenantId}::text as tenant_id, device_id, ${EPOCH_MS_TO_TIMESTAMPTZ} as ts, ${receivedAt.toISOString()}::timestamptz as received_at, lat, lon, speed_kmh,
             battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw, fuel_level_pct, engine_hours,
             dtc_codes::text[] as dtc_codes, ignition, weather_temp, raw_data::jsonb as raw_data
        from r
    ), history as (
      insert into telemetry (tenant_id, ${sql.raw(SIGNAL_COLUMNS)})
      select tenant_id, ${sql.raw(SIGNAL_COLUMNS)} from rows
      on conflict (tenant_id, device_id, ts) do nothing
      ${e.length === 0 ? sql`` : sql`returning device_id, ts`}
    ), rollups_stale as (
      -- The daily rollups (lib/telemetry/rollups/) are valid before the first UTC day this batch writes.
      insert into telemetry_rollup_state (tenant_id, device_id, clean_before)
      select ${tenantId}, m.device_id, m.day
        from unnest(${textArray([...staleFrom.keys()])}::text[], ${textArray([...staleFrom.values()])}::date[]) as m(device_id, day)
       order by m.device_id
      on conflict (tenant_id, device_id) do update set clean_before = excluded.clean_before
      where telemetry_rollup_state.clean_before > excluded.clean_before
    ), snapshot as (
      insert into fleet_snapshot (tenant_id, ${sql.raw(SIGNAL_COLUMNS)})
      select distinct on (device_id) tenant_id, ${sql.raw(SIGNAL_COLUMNS)} from rows order by device_id, ts desc
      on conflict (tenant_id, device_id) do update set ${sql.raw(SNAPSHOT_ASSIGNMENTS)}
      where excluded.ts > fleet_snapshot.ts
    )${eventsCte}
    insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, fuel_type,
                         battery_kwh, original_price_eur, contract_km, lease_start, lease_months, asset_class,
                         master_data_at, odometer_max_km, odometer_max_at, events_reported_at, dense_speed_at, created_at, updated_at)
    select ${tenantId}, d.device_id, coalesce(nullif(concat_ws(' ', d.make, d.model), ''), d.vin, d.device_id), d.vin, d.make, d.model, d.year,
           d.powertrain, d.powertrain_source, d.fuel_type, d.battery_kwh, d.original_price_eur, d.contract_km, d.lease_start,
           d.lease_months, d.asset_class, d.master_data_at, d.odometer_max_km, d.odometer_max_at, d.events_reported_at, d.dense_speed_at, now(), now()
      from unnest(
        ${text(u, (x) => x.deviceId)}::text[], ${text(u, (x) => x.vin)}::text[], ${text(u, (x) => x.make)}::text[],
        ${text(u, (x) => x.model)}::text[], ${num(u, (x) => x.year)}::int4[], ${text(u, (x) => x.powertrain)}::text[],
        ${text(u, (x) => x.powertrainSource)}::text[], ${text(u, (x) => x.fuelType)}::text[], ${num(u, (x) => x.batteryKwh)}::float8[],
        ${num(u, (x) => x.originalPriceEur)}::float8[], ${num(u, (x) => x.contractKm)}::int4[], ${text(u, (x) => x.leaseStart)}::date[],
        ${num(u, (x) => x.leaseMonths)}::int4[], ${text(u, (x) => x.assetClass)}::text[], ${text(u, (x) => iso(x.masterDataAt))}::timestamptz[],
        ${num(u, (x) => x.odometerMaxKm)}::float8[], ${text(u, (x) => iso(x.odometerMaxAt))}::timestamptz[],
        ${text(u, (x) => iso(x.eventsReportedAt))}::timestamptz[], ${text(u, (x) => iso(x.denseSpeedAt))}::timestamptz[])
      as d(device_id, vin, make, model, year, powertrain, powertrain_source, fuel_type, battery_kwh, original_price_eur, contract_km,
           lease_start, lease_months, asset_class, master_data_at, odometer_max_km, odometer_max_at, events_reported_at, dense_speed_at)
    ${DEVICE_UPSERT}`,
  );
  return new Map(
    stored.map((d) => [String(d.device_id), { powertrain: normalisePowertrain(sqlText(d.powertrain)), batteryKwh: sqlNumber(d.battery_kwh), created: d.created === true }]),
  );
}

/** Each device's first UTC day (`YYYY-MM-DD`) among the batch's readings and driving events. */
function firstDays(records: readonly TelemetryRecord[], events: readonly DrivingEventRow[]): Map<string, string> {
  const first = new Map<string, number>();
  const see = (id: string, ms: number) => {
    const was = first.get(id);
    if (was === undefined || ms < was) first.set(id, ms);
  };
  for (const x of records) see(x.deviceId, x.ts.getTime());
  for (const x of events) see(x.deviceId, x.ts.getTime());
  return new Map([...first].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, ms]) => [id, new Date(ms).toISOString().slice(0, 10)]));
}

/** An occurrence's columns, as SQL expressions (a draft row, or `excluded` in an upsert). */
interface Occurrence {
  observedAt: string;
  firstObservedAt: string;
  severity: string;
  prediction: string;
  confidence: string;
  technicalData: string;
  value: string;
  worst: string;
  worse: string;
}

const draftColumns = (n: string): Occurrence => ({
  observedAt: `${n}.observed_at`,
  firstObservedAt: `${n}.first_observed_at`,
  severity: `${n}.severity`,
  prediction: `${n}.prediction`,
  confidence: `${n}.confidence`,
  technicalData: `${n}.technical_data`,
  value: `${n}.value`,
  worst: `${n}.worst`,
  worse: `${n}.worse`,
});

/** The occurrence an upsert tried to insert (insertAlerts writes a raised alert's columns from it). */
const EXCLUDED: Occurrence = {
  observedAt: "excluded.last_seen_at",
  firstObservedAt: "excluded.first_seen_at",
  severity: "excluded.severity",
  prediction: "excluded.prediction",
  confidence: "excluded.confidence",
  technicalData: "excluded.technical_data",
  value: "excluded.latest_value",
  worst: "excluded.worst_value",
  worse: "excluded.technical_data->>'worse_when'",
};

/**
 * How an occurrence `n` updates an open alert `a`: lib/alerts/alert-lifecycle.ts `updatedEvidence`, in
 * SQL. `a`'s columns on the right-hand side are the values before the update.
 */
function evidenceUpdate(a: string, n: Occurrence) {
  const seen = `coalesce(${a}.last_seen_at, ${a}.created_at)`;
  const latest = `${n.observedAt} >= ${seen}`;
  const same = `(${latest} and ${n.severity} = ${a}.severity)`;
  return sql.raw(`
    occurrences = ${a}.occurrences + 1,
    first_seen_at = least(coalesce(${a}.first_seen_at, ${a}.created_at), ${n.firstObservedAt}),
    last_seen_at = greatest(${seen}, ${n.observedAt}),
    worst_value = case when ${n.worst} is null then ${a}.worst_value when ${a}.worst_value is null then ${n.worst}
                       when ${n.worse} = 'lower' then least(${a}.worst_value, ${n.worst}) else greatest(${a}.worst_value, ${n.worst}) end,
    latest_value = case when ${latest} and ${n.value} is not null then ${n.value} else ${a}.latest_value end,
    prediction = case when ${same} then ${n.prediction} else ${a}.prediction end,
    confidence = case when ${same} then ${n.confidence} else ${a}.confidence end,
    technical_data = case when ${same} then ${n.technicalData} else ${a}.technical_data end`);
}

const SEVERITY_ORDER = sql.raw(`array['INFO', 'WARNING', 'CRITICAL']`);

/**
 * Resolves the open alerts that this batch's drafts show to be wrong (`draft.resolves`, e.g. a rollback
 * alert whose drop a later reading contradicts): lib/alerts/alert-lifecycle.ts `resolvesAlert` in SQL,
 * one statement, run before insertAlerts (so a new occurrence of the problem in the same batch raises a
 * new alert instead of folding into the one being closed). Only a contradiction whose reading is new to
 * FDP counts (a re-sent payload changes nothing). The alert is kept: acknowledged by `fdp:<agent>` at
 * `receivedAt`, its text and lifecycle untouched, `technical_data.resolution` added. Skipped (no round
 * trip) when no draft resolves anything. Returns the alerts resolved.
 */
export async function resolveAlerts(tx: Tx, tenantId: string, drafts: readonly AlertDraft[], receivedAt: Date): Promise<ChangedAlert[]> {
  const payload = drafts.flatMap((d) => {
    const r = d.resolves;
    if (!r) return [];
    const by = resolverOf(d.agent);
    return [
      {
        device_id: d.deviceId,
        dedupe_key: r.dedupeKey,
        before: r.evidenceBefore.toISOString(),
        level_field: r.levelAtMost.field,
        level_max: r.levelAtMost.value + RESOLUTION_LEVEL_EPSILON,
        resolved_by: by,
        resolution: resolutionRecord(r, receivedAt, by),
      },
    ];
  });
  if (payload.length === 0) return [];
  const rows = await preparedRows<{ id: unknown; device_id: unknown; agent: unknown; severity: unknown }>(
    tx,
    sql`with r as (
          select r.* from jsonb_to_recordset(${json(payload)}) as r(device_id text, dedupe_key text, before timestamptz, level_field text,
                 level_max double precision, resolved_by text, resolution jsonb)
           where exists (select 1 from telemetry t
                          where t.tenant_id = ${tenantId} and t.device_id = r.device_id and t.ts = r.before
                            and t.received_at = ${receivedAt.toISOString()}::timestamptz)
        )
        update alerts a
           set acknowledged = true, acknowledged_by = r.resolved_by, acknowledged_at = ${receivedAt.toISOString()}::timestamptz,
               technical_data = a.technical_data || jsonb_build_object('resolution', r.resolution)
          from r
         where a.tenant_id = ${tenantId} and a.device_id = r.device_id and a.dedupe_key = r.dedupe_key and a.acknowledged = false
           and coalesce(a.last_seen_at, a.created_at) < r.before
           and jsonb_typeof(a.technical_data -> r.level_field) = 'number'
           and (a.technical_data ->> r.level_field)::double precision <= r.level_max
        returning a.id, a.device_id, a.agent, a.severity`,
  );
  return rows.map((r) => ({ id: String(r.id), deviceId: String(r.device_id), agent: String(r.agent), severity: String(r.severity), raised: false }));
}

/**
 * The open alerts that the batch's newly raised alerts escalate: of the same device and problem, less
 * severe, still unacknowledged (the lifecycle raises a more severe occurrence beside the open alert:
 * docs/methodology/alerts.md "Lifecycle"). No round trip when nothing was raised.
 */
export async function escalatedAlerts(tx: Tx, tenantId: string, changed: readonly ChangedAlert[]): Promise<(ChangedAlert & { escalatedTo: string })[]> {
  const raised = changed.filter((c) => c.raised).map((c) => c.id);
  if (raised.length === 0) return [];
  const found = await preparedRows<{ id: unknown; device_id: unknown; agent: unknown; severity: unknown; escalated_to: unknown }>(
    tx,
    sql`select o.id, o.device_id, o.agent, o.severity, r.id as escalated_to
          from alerts r
          join alerts o on o.tenant_id = r.tenant_id and o.device_id = r.device_id and o.dedupe_key = r.dedupe_key and o.acknowledged = false and o.id <> r.id
         where r.tenant_id = ${tenantId} and r.id = any(${textArray(raised)}::text[])
           and array_position(${SEVERITY_ORDER}, o.severity) < array_position(${SEVERITY_ORDER}, r.severity)
         order by r.id, o.id`,
  );
  return found.map((r) => ({
    id: String(r.id),
    deviceId: String(r.device_id),
    agent: String(r.agent),
    severity: String(r.severity),
    raised: false,
    escalatedTo: String(r.escalated_to),
  }));
}

/** An alert a batch raised (`raised`), updated or resolved: what its event says (lib/ingest/ingest-events.ts). */
export interface ChangedAlert {
  id: string;
  deviceId: string;
  agent: string;
  severity: string;
  raised: boolean;
}

/**
 * The alert lifecycle (lib/alerts/alert-lifecycle.ts, docs/methodology/alerts.md#lifecycle) for one
 * batch's drafts, in ONE statement:
 * - news: only drafts whose evidence record (device, observed_at) the history stored in this batch
 *   (its `received_at` is this batch's): a re-sent payload, or the re-sent part of an overlapping one,
 *   raises and counts nothing. Each ingest call has its own `receivedAt` (the request's clock).
 * - target: the problem's most severe open alert when at least as severe as the draft → its evidence
 *   is updated (one more occurrence, first/last seen, worst/latest value, latest text of its severity);
 * - otherwise the draft is raised as a new alert alongside (its severity's slot is free, since every
 *   open alert of the problem is less severe). A concurrent batch that raised the same slot first is
 *   met by the unique index, and the draft updates that alert instead.
 * `drafts` holds at most one draft per (device, dedupe key) (dedupeDrafts). Returns the numbers of
 * alerts raised and updated, and each of them.
 */
export async function insertAlerts(tx: Tx, tenantId: string, drafts: AlertDraft[], receivedAt: Date): Promise<{ raised: number; updated: number; changed: ChangedAlert[] }> {
  if (drafts.length === 0) return { raised: 0, updated: 0, changed: [] };
  const payload = drafts.map((d) => ({
    id: newId("alt"),
    device_id: d.deviceId,
    agent: d.agent,
    severity: d.severity,
    prediction: d.prediction,
    confidence: d.confidence,
    technical_data: d.technicalData,
    dedupe_key: d.dedupeKey,
    observed_at: d.observedAt.toISOString(),
    first_observed_at: d.firstObservedAt.toISOString(),
    value: d.measure?.value ?? null,
    worst: d.measure?.worst ?? null,
    worse: d.measure?.worse ?? null,
    created_at: alertCreatedAt(d.observedAt, receivedAt).toISOString(),
  }));
  const result = await preparedRows<{ id: unknown; device_id: unknown; agent: unknown; severity: unknown; raised: unknown }>(
    tx,
    sql`with n as (
          select r.* from jsonb_to_recordset(${json(payload)}) as r(id text, device_id text, agent text, severity text, prediction text,
                 confidence double precision, technical_data jsonb, dedupe_key text, observed_at timestamptz, first_observed_at timestamptz,
                 value double precision, worst double precision, worse text, created_at timestamptz)
           where exists (select 1 from telemetry t
                          where t.tenant_id = ${tenantId} and t.device_id = r.device_id and t.ts = r.observed_at
                            and t.received_at = ${receivedAt.toISOString()}::timestamptz)
        ), target as (
          select distinct on (n.id) n.id as draft_id, a.id as alert_id
            from n
            join alerts a on a.tenant_id = ${tenantId} and a.device_id = n.device_id and a.dedupe_key = n.dedupe_key and a.acknowledged = false
           where array_position(${SEVERITY_ORDER}, a.severity) >= array_position(${SEVERITY_ORDER}, n.severity)
           order by n.id, array_position(${SEVERITY_ORDER}, a.severity) desc
        ), updated as (
          update alerts a set ${evidenceUpdate("a", draftColumns("n"))}
            from target t join n on n.id = t.draft_id
           where a.tenant_id = ${tenantId} and a.id = t.alert_id
          returning a.id, a.device_id, a.agent, a.severity
        ), raised as (
          insert into alerts as a (id, tenant_id, device_id, agent, severity, prediction, confidence, technical_data, dedupe_key, acknowledged,
                                   created_at, occurrences, first_seen_at, last_seen_at, worst_value, latest_value)
          select n.id, ${tenantId}, n.device_id, n.agent, n.severity, n.prediction, n.confidence, n.technical_data, n.dedupe_key, false,
                 n.created_at, 1, n.first_observed_at, n.observed_at, n.worst, n.value
            from n
           where not exists (select 1 from target t where t.draft_id = n.id)
          on conflict (tenant_id, device_id, dedupe_key, severity) where acknowledged = false and dedupe_key is not null
          do update set ${evidenceUpdate("a", EXCLUDED)}
          -- a raised alert has its first occurrence; one met by the index has more
          returning a.id, a.device_id, a.agent, a.severity, a.occurrences
        )
        select id, device_id, agent, severity, occurrences = 1 as raised from raised
        union all
        select id, device_id, agent, severity, false from updated`,
  );
  const changed = result.map((r) => ({ id: String(r.id), deviceId: String(r.device_id), agent: String(r.agent), severity: String(r.severity), raised: r.raised === true }));
  return { raised: changed.filter((c) => c.raised).length, updated: changed.filter((c) => !c.raised).length, changed };
}
