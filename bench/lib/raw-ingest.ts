import type postgres from "postgres";
import type { OemRecord } from "./fleet";

/**
 * The raw baseline of the ingest benchmark: what the endpoint's storage does, written by hand
 * against postgres.js (no drizzle, no HTTP, no validation, no detectors) in the most efficient
 * form we know for batches of 1,000–10,000 rows:
 *
 *  - every column travels once, as a typed array parameter unpacked server-side by `unnest`
 *    (text-format arrays parse faster than jsonb_to_recordset over a JSON document); the array
 *    literals are written here with the native JSON.stringify (postgres.js's generic per-element
 *    array serializer cost ~80 ms of client CPU per 10,000-record batch);
 *  - one statement with data-modifying CTEs does the history insert (on conflict do nothing), the
 *    stale mark of the daily rollups (each device's first UTC day of the batch, lowered only), the
 *    only-forward snapshot upsert (`distinct on` picks each device's newest record) and the
 *    device upsert, so a batch is a single round trip and a single implicit transaction;
 *  - the statement is prepared once and reused (postgres.js default).
 *
 * Device rows (one per device: newest VIN, newest master data, first day) are folded in JS, as the
 * endpoint does, because a row cannot be upserted twice in one statement. The device upsert applies
 * CONTRACT's master-data rule (a record at least as new overwrites, an older one fills gaps; a declared
 * powertrain beats an inferred one). The highest odometer reading is the endpoint's: the highest
 * CONFIRMED one (a later reading exists, the device's stored newest reading counting as one), one-sample
 * spikes excluded (lib/ingest/normalize-records.ts `confirmedOdometerMax`), computed in the same
 * statement with window functions over the batch and the stored snapshot (which every CTE sees as it
 * was before the statement). Driving events are not handled: the benchmark's payloads carry none and
 * are sampled a minute apart (too sparse for derived harsh events), so FDP stores none either.
 */

/** CONTRACT's master-data rule: the payload's master data is at least as new as the stored one. */
const NEWER = "(excluded.master_data_at is not null and (devices.master_data_at is null or excluded.master_data_at >= devices.master_data_at))";

const STATEMENT = `
with r as (
  select * from unnest($2::text[], $3::timestamptz[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[],
                       $9::float8[], $10::float8[], $11::text[], $12::float8[], $13::float8[], $14::float8[], $15::text[],
                       $16::int2[], $17::float8[], $18::text[])
    as r(device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status,
         charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
), history as (
  insert into telemetry (tenant_id, device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
                         charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
  select $1, device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
         charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes::text[], ignition, weather_temp, raw_data::jsonb
    from r
  on conflict (tenant_id, device_id, ts) do nothing
), rollups_stale as (
  insert into telemetry_rollup_state (tenant_id, device_id, clean_before)
  select $1, m.device_id, m.day from unnest($19::text[], $28::date[]) as m(device_id, day)
   order by m.device_id
  on conflict (tenant_id, device_id) do update set clean_before = excluded.clean_before
  where telemetry_rollup_state.clean_before > excluded.clean_before
), snapshot as (
  insert into fleet_snapshot (tenant_id, device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
                              charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
  select distinct on (device_id) $1, device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
         charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes::text[], ignition, weather_temp, raw_data::jsonb
    from r
   order by device_id, ts desc
  on conflict (tenant_id, device_id) do update set
    ts = excluded.ts, received_at = now(), lat = excluded.lat, lon = excluded.lon, speed_kmh = excluded.speed_kmh,
    battery_voltage = excluded.battery_voltage, soc_pct = excluded.soc_pct, soh_pct = excluded.soh_pct,
    odometer_km = excluded.odometer_km, charging_status = excluded.charging_status,
    charging_power_kw = excluded.charging_power_kw, fuel_level_pct = excluded.fuel_level_pct,
    engine_hours = excluded.engine_hours, dtc_codes = excluded.dtc_codes, ignition = excluded.ignition,
    weather_temp = excluded.weather_temp, raw_data = excluded.raw_data
  where excluded.ts > fleet_snapshot.ts
), odo as (
  -- The odometer readings of the batch and the device's stored newest reading (unless re-sent), in time order.
  select device_id, ts, odometer_km as km from r where odometer_km is not null
  union all
  select s.device_id, s.ts, s.odometer_km from fleet_snapshot s
   where s.tenant_id = $1 and s.device_id = any($19::text[]) and s.odometer_km is not null
     and not exists (select 1 from r where r.device_id = s.device_id and r.ts = s.ts)
), seq as (
  select device_id, ts, km, lag(km) over w as before_km, lead(km) over w as next_km, row_number() over w as i
    from odo window w as (partition by device_id order by ts)
), odo_max as (
  -- The highest CONFIRMED reading (a later one exists), one-sample spikes excluded: the device's stored
  -- maximum, when older, is the reading before the first one.
  select distinct on (q.device_id) q.device_id, q.km, q.ts
    from seq q
    left join devices dv on q.i = 1 and dv.tenant_id = $1 and dv.device_id = q.device_id and dv.odometer_max_at < q.ts
   where q.next_km is not null
     and not (coalesce(q.before_km, dv.odometer_max_km) is not null
              and q.km - q.next_km - 1 > 1e-9
              and not (coalesce(q.before_km, dv.odometer_max_km) - q.next_km - 1 > 1e-9)
              and q.next_km - coalesce(q.before_km, dv.odometer_max_km) < q.km - q.next_km)
   order by q.device_id, q.km desc, q.ts
)
insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, battery_kwh,
                     master_data_at, odometer_max_km, odometer_max_at, created_at, updated_at)
select $1, d.device_id, coalesce(nullif(concat_ws(' ', d.make, d.model), ''), d.vin), d.vin, d.make, d.model, d.year,
       d.powertrain, d.powertrain_source, d.battery_kwh, d.master_data_at, o.km, o.ts, now(), now()
  from unnest($19::text[], $20::text[], $21::text[], $22::text[], $23::int4[], $24::text[], $25::text[], $26::float8[], $27::timestamptz[])
    as d(device_id, vin, make, model, year, powertrain, powertrain_source, battery_kwh, master_data_at)
  left join odo_max o on o.device_id = d.device_id
on conflict (tenant_id, device_id) do update set
  vin = excluded.vin,
  make = case when ${NEWER} then coalesce(excluded.make, devices.make) else coalesce(devices.make, excluded.make) end,
  model = case when ${NEWER} then coalesce(excluded.model, devices.model) else coalesce(devices.model, excluded.model) end,
  year = case when ${NEWER} then coalesce(excluded.year, devices.year) else coalesce(devices.year, excluded.year) end,
  battery_kwh = case when ${NEWER} then coalesce(excluded.battery_kwh, devices.battery_kwh) else coalesce(devices.battery_kwh, excluded.battery_kwh) end,
  powertrain = case when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${NEWER}) then excluded.powertrain
                    when devices.powertrain_source = 'master_data' then devices.powertrain
                    else coalesce(excluded.powertrain, devices.powertrain) end,
  powertrain_source = case when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${NEWER}) then excluded.powertrain_source
                    when devices.powertrain_source = 'master_data' then devices.powertrain_source
                    else coalesce(excluded.powertrain_source, devices.powertrain_source) end,
  master_data_at = greatest(devices.master_data_at, excluded.master_data_at),
  name = coalesce(nullif(concat_ws(' ',
            case when ${NEWER} then coalesce(excluded.make, devices.make) else coalesce(devices.make, excluded.make) end,
            case when ${NEWER} then coalesce(excluded.model, devices.model) else coalesce(devices.model, excluded.model) end), ''),
          excluded.vin, devices.device_id),
  odometer_max_km = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_km else devices.odometer_max_km end,
  odometer_max_at = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_at else devices.odometer_max_at end,
  updated_at = now()`;

const ARRAY_QUOTE = /[\\"]/g;
/** Characters JSON.stringify escapes in a way the array-literal parser would read differently. */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const JSON_ONLY_ESCAPES = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * A Postgres text-array literal such as {"a","say \"hi\"",null}. Fast path: the native
 * JSON.stringify writes exactly the quoting an array literal wants (backslash before a double quote
 * or a backslash) unless a string holds a control character or a lone surrogate, which JSON would
 * escape differently (\n, \uXXXX); arrays holding such strings take the per-element path.
 */
function textArray(list: readonly (string | null)[]): string {
  if (!list.some((v) => v !== null && JSON_ONLY_ESCAPES.test(v))) return `{${JSON.stringify(list).slice(1, -1)}}`;
  return `{${list.map((v) => (v === null ? "NULL" : `"${v.replace(ARRAY_QUOTE, "\\$&")}"`)).join(",")}}`;
}

/** A Postgres numeric-array literal: `{1.5,null,3}` (JSON's number syntax is a subset of float8's). */
function numberArray(list: readonly (number | null)[]): string {
  return `{${JSON.stringify(list).slice(1, -1)}}`;
}

interface DeviceRow {
  vin: string;
  latestTs: number;
  make: string | null;
  model: string | null;
  year: number | null;
  powertrain: string | null;
  powertrainSource: string | null;
  batteryKwh: number | null;
  masterDataAt: number | null;
  hasSoc: boolean;
  hasFuel: boolean;
  /** Device time of the device's earliest record in the batch (its first UTC day makes the rollups stale). */
  firstTs: number;
}

/** Stores one batch of OEM records for `tenantId` in one statement (one implicit transaction). */
export async function rawIngestBatch(sql: postgres.Sql, tenantId: string, records: readonly OemRecord[]): Promise<void> {
  const n = records.length;
  const deviceId = new Array<string>(n);
  const ts = new Array<string>(n);
  const lat = new Array<number | null>(n);
  const lon = new Array<number | null>(n);
  const speed = new Array<number | null>(n);
  const voltage = new Array<number | null>(n);
  const soc = new Array<number | null>(n);
  const soh = new Array<number | null>(n);
  const odo = new Array<number | null>(n);
  const charging = new Array<string | null>(n);
  const chargingKw = new Array<number | null>(n);
  const fuel = new Array<number | null>(n);
  const engineHours = new Array<number | null>(n);
  const dtc = new Array<string | null>(n);
  const ignition = new Array<number | null>(n);
  const temp = new Array<number | null>(n);
  const raw = new Array<string | null>(n);
  const devices = new Map<string, DeviceRow>();

  for (let i = 0; i < n; i++) {
    const r = records[i]!;
    const id = `oem-${r.vin}`;
    const t = Date.parse(r.timestamp);
    deviceId[i] = id;
    ts[i] = r.timestamp;
    lat[i] = r.lat ?? null;
    lon[i] = r.lon ?? null;
    speed[i] = r.speed_kmh ?? null;
    voltage[i] = r.battery_voltage ?? null;
    soc[i] = r.soc_percent ?? null;
    soh[i] = r.soh_percent ?? null;
    odo[i] = r.odometer_km ?? null;
    charging[i] = r.charging_status ?? null;
    const rd = r.raw_data as Record<string, unknown> | undefined;
    chargingKw[i] = typeof rd?.charging_power_kw === "number" ? rd.charging_power_kw : null;
    fuel[i] = r.fuel_level_pct ?? null;
    engineHours[i] = null;
    dtc[i] = r.dtc_codes ? textArray(r.dtc_codes) : null;
    ignition[i] = r.raw_data.ignition === true ? 1 : r.raw_data.ignition === false ? 0 : null;
    temp[i] = r.raw_data.ambient_temp_c ?? null;
    raw[i] = JSON.stringify(r.raw_data);

    let d = devices.get(id);
    if (!d) {
      d = {
        vin: r.vin,
        latestTs: t,
        make: null,
        model: null,
        year: null,
        powertrain: null,
        powertrainSource: null,
        batteryKwh: null,
        masterDataAt: null,
        hasSoc: false,
        hasFuel: false,
        firstTs: t,
      };
      devices.set(id, d);
    }
    if (t < d.firstTs) d.firstTs = t;
    if (t >= d.latestTs) {
      d.latestTs = t;
      d.vin = r.vin;
    }
    const v = r.raw_data.vehicle;
    if (v && (d.masterDataAt === null || t >= d.masterDataAt)) {
      d.make = v.make;
      d.model = v.model;
      d.year = v.year;
      d.powertrain = v.powertrain;
      d.powertrainSource = "master_data";
      d.batteryKwh = v.battery_kwh ?? d.batteryKwh;
      d.masterDataAt = t;
    }
    if (r.soc_percent != null) d.hasSoc = true;
    if (r.fuel_level_pct != null) d.hasFuel = true;
  }

  const dId: string[] = [];
  const dVin: string[] = [];
  const dMake: (string | null)[] = [];
  const dModel: (string | null)[] = [];
  const dYear: (number | null)[] = [];
  const dPt: (string | null)[] = [];
  const dPtSrc: (string | null)[] = [];
  const dKwh: (number | null)[] = [];
  const dMdAt: (string | null)[] = [];
  const dFirstDay: string[] = [];
  for (const [id, d] of devices) {
    if (d.powertrainSource === null) {
      d.powertrain = d.hasSoc ? (d.hasFuel ? "PHEV" : "BEV") : d.hasFuel ? "ICE" : null;
      d.powertrainSource = d.powertrain ? "inferred" : null;
    }
    dId.push(id);
    dVin.push(d.vin);
    dMake.push(d.make);
    dModel.push(d.model);
    dYear.push(d.year);
    dPt.push(d.powertrain);
    dPtSrc.push(d.powertrainSource);
    dKwh.push(d.batteryKwh);
    dMdAt.push(d.masterDataAt === null ? null : new Date(d.masterDataAt).toISOString());
    dFirstDay.push(new Date(d.firstTs).toISOString().slice(0, 10));
  }

  // Literals go as strings: postgres.js passes a non-array value through its array serializer as is.
  const params = [
    tenantId,
    textArray(deviceId),
    textArray(ts),
    numberArray(lat),
    numberArray(lon),
    numberArray(speed),
    numberArray(voltage),
    numberArray(soc),
    numberArray(soh),
    numberArray(odo),
    textArray(charging),
    numberArray(chargingKw),
    numberArray(fuel),
    numberArray(engineHours),
    textArray(dtc),
    numberArray(ignition),
    numberArray(temp),
    textArray(raw),
    textArray(dId),
    textArray(dVin),
    textArray(dMake),
    textArray(dModel),
    numberArray(dYear),
    textArray(dPt),
    textArray(dPtSrc),
    numberArray(dKwh),
    textArray(dMdAt),
    textArray(dFirstDay),
  ];
  await sql.unsafe(STATEMENT, params, { prepare: true });
}
