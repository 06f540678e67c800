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
 *    only-forward snapshot upsert (`distinct on` picks each device's newest record) and the
 *    device upsert, so a batch is a single round trip and a single implicit transaction;
 *  - the statement is prepared once and reused (postgres.js default).
 *
 * Device rows (one per device: newest VIN, newest master data, highest odometer) are folded in
 * JS, as the endpoint does, because a row cannot be upserted twice in one statement.
 */

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
)
insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, battery_kwh,
                     master_data_at, odometer_max_km, odometer_max_at, created_at, updated_at)
select $1, d.device_id, coalesce(nullif(concat_ws(' ', d.make, d.model), ''), d.vin), d.vin, d.make, d.model, d.year,
       d.powertrain, d.powertrain_source, d.battery_kwh, d.master_data_at, d.odometer_max_km, d.odometer_max_at, now(), now()
  from unnest($19::text[], $20::text[], $21::text[], $22::text[], $23::int4[], $24::text[], $25::text[], $26::float8[],
              $27::timestamptz[], $28::float8[], $29::timestamptz[])
    as d(device_id, vin, make, model, year, powertrain, powertrain_source, battery_kwh, master_data_at, odometer_max_km, odometer_max_at)
on conflict (tenant_id, device_id) do update set
  vin = excluded.vin,
  make = coalesce(excluded.make, devices.make),
  model = coalesce(excluded.model, devices.model),
  year = coalesce(excluded.year, devices.year),
  battery_kwh = coalesce(excluded.battery_kwh, devices.battery_kwh),
  powertrain = case when excluded.powertrain_source = 'master_data' or devices.powertrain is null
                    then coalesce(excluded.powertrain, devices.powertrain) else devices.powertrain end,
  powertrain_source = case when excluded.powertrain_source = 'master_data' or devices.powertrain is null
                    then coalesce(excluded.powertrain_source, devices.powertrain_source) else devices.powertrain_source end,
  master_data_at = greatest(devices.master_data_at, excluded.master_data_at),
  name = coalesce(nullif(concat_ws(' ', coalesce(excluded.make, devices.make), coalesce(excluded.model, devices.model)), ''), excluded.vin),
  odometer_max_km = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_km else devices.odometer_max_km end,
  odometer_max_at = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_at else devices.odometer_max_at end,
  updated_at = now()`;

const ARRAY_QUOTE = /[\\"]/g;
/** Characters JSON.stringify escapes in a way the array-literal parser would read differently. */
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
  odoMax: number | null;
  odoMaxAt: number | null;
}

/** Stores one batch of OEM records for `tenantId` in one statement (one implicit transaction). */
export async function rawIngestBatch(sql: postgres.Sql, tenantId: string, records: readonly OemRecord[]): Promise<void> {
  const n = records.length;
  const deviceId: string[] = new Array(n);
  const ts: string[] = new Array(n);
  const lat: (number | null)[] = new Array(n);
  const lon: (number | null)[] = new Array(n);
  const speed: (number | null)[] = new Array(n);
  const voltage: (number | null)[] = new Array(n);
  const soc: (number | null)[] = new Array(n);
  const soh: (number | null)[] = new Array(n);
  const odo: (number | null)[] = new Array(n);
  const charging: (string | null)[] = new Array(n);
  const chargingKw: (number | null)[] = new Array(n);
  const fuel: (number | null)[] = new Array(n);
  const engineHours: (number | null)[] = new Array(n);
  const dtc: (string | null)[] = new Array(n);
  const ignition: (number | null)[] = new Array(n);
  const temp: (number | null)[] = new Array(n);
  const raw: (string | null)[] = new Array(n);
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
      d = { vin: r.vin, latestTs: t, make: null, model: null, year: null, powertrain: null, powertrainSource: null, batteryKwh: null, masterDataAt: null, hasSoc: false, hasFuel: false, odoMax: null, odoMaxAt: null };
      devices.set(id, d);
    }
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
    if (r.odometer_km != null && (d.odoMax === null || r.odometer_km > d.odoMax)) {
      d.odoMax = r.odometer_km;
      d.odoMaxAt = t;
    }
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
  const dOdo: (number | null)[] = [];
  const dOdoAt: (string | null)[] = [];
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
    dOdo.push(d.odoMax);
    dOdoAt.push(d.odoMaxAt === null ? null : new Date(d.odoMaxAt).toISOString());
  }

  // Literals go as strings: postgres.js passes a non-array value through its array serializer as is.
  const params = [
    tenantId,
    textArray(deviceId), textArray(ts), numberArray(lat), numberArray(lon), numberArray(speed), numberArray(voltage),
    numberArray(soc), numberArray(soh), numberArray(odo), textArray(charging), numberArray(chargingKw), numberArray(fuel),
    numberArray(engineHours), textArray(dtc), numberArray(ignition), numberArray(temp), textArray(raw),
    textArray(dId), textArray(dVin), textArray(dMake), textArray(dModel), numberArray(dYear), textArray(dPt),
    textArray(dPtSrc), numberArray(dKwh), textArray(dMdAt), numberArray(dOdo), textArray(dOdoAt),
  ];
  await sql.unsafe(STATEMENT, params, { prepare: true });
}
