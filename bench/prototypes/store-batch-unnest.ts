/**
 * Measured prototype (not used by the app): lib/ingest/store-batch.ts's devices upsert + name update
 * + history insert + snapshot upsert as ONE statement whose rows travel once, as typed arrays
 * unpacked by `unnest`, with the device name folded into the upsert. It runs the current functions
 * and this statement on the same batches (two tenants of one fresh database), prints both median
 * times, then checks that both stored exactly the same rows.
 *
 *   npx tsx bench/prototypes/store-batch-unnest.ts [vehicles=2000] [recordsPerVehicle=5] [batches=8]
 *
 * The merge rules are copied from store-batch.ts as of 2026-11-22; re-copy them before reusing.
 */
import { sql } from "drizzle-orm";
import { createTenant } from "@/lib/tenants/create-tenant";
import { parseJsonObject } from "@/lib/http/read-body";
import { groupByDevice, masterUpdateFor, toTelemetryRecords, type DeviceMasterUpdate } from "@/lib/ingest/normalize-records";
import { insertHistory, upsertDevices, upsertSnapshots } from "@/lib/ingest/store-batch";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { parseInput } from "@/lib/validation";
import type { TelemetryRecord } from "@/lib/detectors/types";
import type { Db } from "@/lib/db/client";
import { FleetSimulator } from "../lib/fleet";
import { prepareDatabase } from "../lib/database";
import { median } from "../lib/timing";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const SAFE = /[\u0000-\u001f\ud800-\udfff]/;
const tArr = (l: readonly (string | null)[]) => {
  if (l.some((v) => v !== null && SAFE.test(v))) throw new Error("slow path not in prototype");
  return `{${JSON.stringify(l).slice(1, -1)}}`;
};
const nArr = (l: readonly (number | null)[]) => `{${JSON.stringify(l).slice(1, -1)}}`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const newerText = "(excluded.master_data_at is not null and (devices.master_data_at is null or excluded.master_data_at >= devices.master_data_at))";
const mergeExpr = (col: string) => `case when ${newerText} then coalesce(excluded.${col}, devices.${col}) else coalesce(devices.${col}, excluded.${col}) end`;
const masterCols = ["make", "model", "year", "fuel_type", "battery_kwh", "original_price_eur", "contract_km", "lease_start", "lease_months", "asset_class"];
const SIG = ["device_id", "ts", "lat", "lon", "speed_kmh", "battery_voltage", "soc_pct", "soh_pct", "odometer_km", "charging_status", "charging_power_kw", "fuel_level_pct", "engine_hours", "dtc_codes", "ignition", "weather_temp", "raw_data"];
const SIG_OUT = "device_id, ts, received_at, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data";

/** Prototype: devices + history + snapshot in one statement, columns as typed arrays. */
async function storeProto(tx: Tx, tenantId: string, updates: DeviceMasterUpdate[], records: TelemetryRecord[], now: Date) {
  const col = <T>(f: (r: TelemetryRecord) => T) => records.map(f);
  const dcol = <T>(f: (u: DeviceMasterUpdate) => T) => updates.map(f);
  const p = sql.raw;
  await tx.execute(sql`
    with r as (
      select * from unnest(${tArr(col((r) => r.deviceId))}::text[], ${tArr(col((r) => r.ts.toISOString()))}::timestamptz[],
        ${nArr(col((r) => r.lat))}::float8[], ${nArr(col((r) => r.lon))}::float8[], ${nArr(col((r) => r.speedKmh))}::float8[],
        ${nArr(col((r) => r.batteryVoltage))}::float8[], ${nArr(col((r) => r.socPct))}::float8[], ${nArr(col((r) => r.sohPct))}::float8[],
        ${nArr(col((r) => r.odometerKm))}::float8[], ${tArr(col((r) => r.chargingStatus))}::text[], ${nArr(col((r) => r.chargingPowerKw))}::float8[],
        ${nArr(col((r) => r.fuelLevelPct))}::float8[], ${nArr(col((r) => r.engineHours))}::float8[],
        ${tArr(col((r) => (r.dtcCodes ? tArr(r.dtcCodes) : null)))}::text[], ${nArr(col((r) => r.ignition))}::int2[],
        ${nArr(col((r) => r.weatherTemp))}::float8[], ${tArr(col((r) => (r.rawData ? JSON.stringify(r.rawData) : null)))}::text[])
      as r(${p(SIG.join(", "))})
    ), history as (
      insert into telemetry (tenant_id, ${p(SIG_OUT)})
      select ${tenantId}, device_id, ts, ${iso(now)}::timestamptz, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status,
             charging_power_kw, fuel_level_pct, engine_hours, dtc_codes::text[], ignition, weather_temp, raw_data::jsonb from r
      on conflict (tenant_id, device_id, ts) do nothing
    ), snapshot as (
      insert into fleet_snapshot (tenant_id, ${p(SIG_OUT)})
      select distinct on (device_id) ${tenantId}, device_id, ts, ${iso(now)}::timestamptz, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status,
             charging_power_kw, fuel_level_pct, engine_hours, dtc_codes::text[], ignition, weather_temp, raw_data::jsonb from r order by device_id, ts desc
      on conflict (tenant_id, device_id) do update set ${p(SIG_OUT.split(", ").filter((c) => c !== "device_id").map((c) => `${c} = excluded.${c}`).join(", "))}
      where excluded.ts > fleet_snapshot.ts
    )
    insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, fuel_type,
                         battery_kwh, original_price_eur, contract_km, lease_start, lease_months, asset_class,
                         master_data_at, odometer_max_km, odometer_max_at, created_at, updated_at)
    select ${tenantId}, d.device_id, coalesce(nullif(concat_ws(' ', d.make, d.model), ''), d.vin), d.vin, d.make, d.model, d.year,
           d.powertrain, d.powertrain_source, d.fuel_type, d.battery_kwh, d.original_price_eur, d.contract_km, d.lease_start,
           d.lease_months, d.asset_class, d.master_data_at, d.odometer_max_km, d.odometer_max_at, now(), now()
      from unnest(${tArr(dcol((u) => u.deviceId))}::text[], ${tArr(dcol((u) => u.vin))}::text[], ${tArr(dcol((u) => u.make))}::text[],
        ${tArr(dcol((u) => u.model))}::text[], ${nArr(dcol((u) => u.year))}::int4[], ${tArr(dcol((u) => u.powertrain))}::text[],
        ${tArr(dcol((u) => u.powertrainSource))}::text[], ${tArr(dcol((u) => u.fuelType))}::text[], ${nArr(dcol((u) => u.batteryKwh))}::float8[],
        ${nArr(dcol((u) => u.originalPriceEur))}::float8[], ${nArr(dcol((u) => u.contractKm))}::int4[], ${tArr(dcol((u) => u.leaseStart))}::date[],
        ${nArr(dcol((u) => u.leaseMonths))}::int4[], ${tArr(dcol((u) => u.assetClass))}::text[], ${tArr(dcol((u) => iso(u.masterDataAt)))}::timestamptz[],
        ${nArr(dcol((u) => u.odometerMaxKm))}::float8[], ${tArr(dcol((u) => iso(u.odometerMaxAt)))}::timestamptz[])
      as d(device_id, vin, make, model, year, powertrain, powertrain_source, fuel_type, battery_kwh, original_price_eur, contract_km,
           lease_start, lease_months, asset_class, master_data_at, odometer_max_km, odometer_max_at)
    on conflict (tenant_id, device_id) do update set
      ${p(masterCols.map((c) => `${c} = ${mergeExpr(c)}`).join(", "))},
      powertrain = case
        when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${p(newerText)}) then excluded.powertrain
        when devices.powertrain_source = 'master_data' then devices.powertrain
        else coalesce(excluded.powertrain, devices.powertrain) end,
      powertrain_source = case
        when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${p(newerText)}) then excluded.powertrain_source
        when devices.powertrain_source = 'master_data' then devices.powertrain_source
        else coalesce(excluded.powertrain_source, devices.powertrain_source) end,
      master_data_at = greatest(devices.master_data_at, excluded.master_data_at),
      vin = excluded.vin,
      name = coalesce(nullif(concat_ws(' ', ${p(mergeExpr("make"))}, ${p(mergeExpr("model"))}), ''), excluded.vin, devices.device_id),
      odometer_max_km = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_km else devices.odometer_max_km end,
      odometer_max_at = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_at else devices.odometer_max_at end,
      updated_at = now()`);
}

const log = (m: string) => process.stdout.write(`${m}\n`);
const database = await prepareDatabase(log);
const db = database.handle.db;
try {
  const [vehicles, per, n] = [Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 5), Number(process.argv[4] ?? 8)];
  const tCur = await createTenant({ ctx: { db }, input: { name: "cur" } });
  const tNew = await createTenant({ ctx: { db }, input: { name: "proto" } });
  const f = new FleetSimulator({ seed: 7, vehicles, recordsPerVehicle: per, vinTag: "P00000", startMs: Date.now() - 8 * 3600_000, stepMs: 60_000 });
  const cur: number[] = [], proto: number[] = [];
  for (let it = 0; it < n; it++) {
    const body = parseJsonObject(new TextEncoder().encode(JSON.stringify({ vehicles: f.nextBatch() })));
    const now = new Date();
    const byDevice = groupByDevice(toTelemetryRecords(parseInput(ingestBodySchema, body), now));
    const ids = [...byDevice.keys()];
    const updates = ids.map((id) => masterUpdateFor(id, byDevice.get(id) ?? []));
    const unique = [...byDevice.values()].flat();
    let t0 = performance.now();
    await db.transaction(async (tx) => {
      await upsertDevices(tx, tCur.tenantId, updates);
      await insertHistory(tx, tCur.tenantId, unique, now);
      await upsertSnapshots(tx, tCur.tenantId, [...byDevice.values()].map((l) => l[l.length - 1]!), now);
    });
    if (it >= 2) cur.push(performance.now() - t0);
    t0 = performance.now();
    await db.transaction(async (tx) => storeProto(tx, tNew.tenantId, updates, unique, now));
    if (it >= 2) proto.push(performance.now() - t0);
  }
  log(`${vehicles}x${per}: current devices+history+snapshot p50 ${median(cur).toFixed(1)} ms, prototype single statement p50 ${median(proto).toFixed(1)} ms`);
  // Same rows?
  const cols = "device_id, ts, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data";
  for (const [table, c] of [["telemetry", cols], ["fleet_snapshot", cols], ["devices", "device_id, name, vin, make, model, year, powertrain, powertrain_source, battery_kwh, master_data_at, odometer_max_km, odometer_max_at"]] as const) {
    const res = (await db.execute(sql.raw(`select count(*)::int as n from ((select ${c} from ${table} where tenant_id = '${tCur.tenantId}' except all select ${c} from ${table} where tenant_id = '${tNew.tenantId}') union all (select ${c} from ${table} where tenant_id = '${tNew.tenantId}' except all select ${c} from ${table} where tenant_id = '${tCur.tenantId}')) x`))) as unknown as { n: number }[];
    log(`  ${table}: ${res[0]?.n} rows differ`);
  }
} finally {
  await database.dispose();
}
