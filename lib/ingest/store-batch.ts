import { sql } from "drizzle-orm";
import { rows, type Db } from "@/lib/db/client";
import type { AlertDraft, DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { newId } from "@/lib/ids";
import type { DeviceMasterUpdate } from "./normalize-records";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Set-based SQL for one ingest batch. Every statement handles the whole batch (rows travel as one
 * JSON parameter unpacked by `jsonb_to_recordset`), so a request costs a fixed number of round
 * trips whatever its size: 1 read + 1 device upsert + 1 name update + ⌈records / 5000⌉ history
 * inserts + 1 snapshot upsert + 1 alert insert.
 */
const HISTORY_CHUNK = 5000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** The state before this batch, for the detectors: one query for every device of the batch. */
export async function readDeviceContexts(tx: Tx | Db, tenantId: string, deviceIds: string[]): Promise<Map<string, DeviceContext>> {
  const found = await rows<{
    device_id: string;
    powertrain: DeviceContext["powertrain"];
    battery_kwh: number | null;
    odometer_max_km: number | null;
    odometer_max_at: string | Date | null;
    ts: string | Date | null;
    odometer_km: number | null;
    soc_pct: number | null;
    soh_pct: number | null;
    dtc_codes: string[] | null;
  }>(
    tx as Db,
    sql`select d.device_id, d.powertrain, d.battery_kwh, d.odometer_max_km, d.odometer_max_at,
               s.ts, s.odometer_km, s.soc_pct, s.soh_pct, s.dtc_codes
          from devices d
          left join fleet_snapshot s on s.tenant_id = d.tenant_id and s.device_id = d.device_id
         where d.tenant_id = ${tenantId} and d.device_id in (select jsonb_array_elements_text(${json(deviceIds)}))`,
  );
  const date = (v: string | Date | null) => (v === null ? null : new Date(v));
  const out = new Map<string, DeviceContext>();
  for (const r of found) {
    const ts = date(r.ts);
    const maxAt = date(r.odometer_max_at);
    out.set(r.device_id, {
      deviceId: r.device_id,
      powertrain: r.powertrain,
      batteryKwh: r.battery_kwh,
      previous: ts ? { ts, odometerKm: r.odometer_km, socPct: r.soc_pct, sohPct: r.soh_pct, dtcCodes: r.dtc_codes } : null,
      odometerMax: r.odometer_max_km !== null && maxAt ? { km: r.odometer_max_km, ts: maxAt } : null,
    });
  }
  return out;
}

/**
 * Upserts devices with CONTRACT's master-data rule: values from a record at least as new as the
 * stored master data overwrite, an older record only fills empty fields. A declared powertrain
 * always beats an inferred one; a newer inference replaces an older inference.
 */
export async function upsertDevices(tx: Tx, tenantId: string, updates: DeviceMasterUpdate[]): Promise<void> {
  const payload = updates.map((u) => ({
    device_id: u.deviceId,
    vin: u.vin,
    make: u.make,
    model: u.model,
    year: u.year,
    powertrain: u.powertrain,
    powertrain_source: u.powertrainSource,
    fuel_type: u.fuelType,
    battery_kwh: u.batteryKwh,
    original_price_eur: u.originalPriceEur,
    contract_km: u.contractKm,
    lease_start: u.leaseStart,
    lease_months: u.leaseMonths,
    asset_class: u.assetClass,
    master_data_at: iso(u.masterDataAt),
    latest_ts: iso(u.latestTs),
    odometer_max_km: u.odometerMaxKm,
    odometer_max_at: iso(u.odometerMaxAt),
  }));
  const newerText = "(excluded.master_data_at is not null and (devices.master_data_at is null or excluded.master_data_at >= devices.master_data_at))";
  const newer = sql.raw(newerText);
  const merge = (col: string) => sql.raw(`${col} = case when ${newerText} then coalesce(excluded.${col}, devices.${col}) else coalesce(devices.${col}, excluded.${col}) end`);
  const masterCols = ["make", "model", "year", "fuel_type", "battery_kwh", "original_price_eur", "contract_km", "lease_start", "lease_months", "asset_class"];
  await tx.execute(sql`
    insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, fuel_type,
                         battery_kwh, original_price_eur, contract_km, lease_start, lease_months, asset_class,
                         master_data_at, odometer_max_km, odometer_max_at, created_at, updated_at)
    select ${tenantId}, r.device_id, coalesce(nullif(concat_ws(' ', r.make, r.model), ''), r.vin), r.vin, r.make, r.model, r.year,
           r.powertrain, r.powertrain_source, r.fuel_type, r.battery_kwh, r.original_price_eur, r.contract_km, r.lease_start,
           r.lease_months, r.asset_class, r.master_data_at, r.odometer_max_km, r.odometer_max_at, now(), now()
      from jsonb_to_recordset(${json(payload)}) as r(
           device_id text, vin text, make text, model text, year integer, powertrain text, powertrain_source text,
           fuel_type text, battery_kwh double precision, original_price_eur double precision, contract_km integer,
           lease_start date, lease_months integer, asset_class text, master_data_at timestamptz, latest_ts timestamptz,
           odometer_max_km double precision, odometer_max_at timestamptz)
    on conflict (tenant_id, device_id) do update set
      ${sql.join(masterCols.map(merge), sql`, `)},
      powertrain = case
        when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${newer}) then excluded.powertrain
        when devices.powertrain_source = 'master_data' then devices.powertrain
        else coalesce(excluded.powertrain, devices.powertrain) end,
      powertrain_source = case
        when excluded.powertrain_source = 'master_data' and (devices.powertrain_source is distinct from 'master_data' or ${newer}) then excluded.powertrain_source
        when devices.powertrain_source = 'master_data' then devices.powertrain_source
        else coalesce(excluded.powertrain_source, devices.powertrain_source) end,
      master_data_at = greatest(devices.master_data_at, excluded.master_data_at),
      vin = excluded.vin,
      odometer_max_km = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_km else devices.odometer_max_km end,
      odometer_max_at = case when excluded.odometer_max_km > coalesce(devices.odometer_max_km, '-infinity') then excluded.odometer_max_at else devices.odometer_max_at end,
      updated_at = now()`);
  // CONTRACT: device_name is "<make> <model>", else the make, else the VIN — from the merged values.
  await tx.execute(sql`
    update devices set name = coalesce(nullif(concat_ws(' ', make, model), ''), vin, device_id)
     where tenant_id = ${tenantId} and device_id in (select jsonb_array_elements_text(${json(updates.map((u) => u.deviceId))}))`);
}

function signalRow(r: TelemetryRecord, receivedAt: Date) {
  return {
    device_id: r.deviceId,
    ts: r.ts.toISOString(),
    received_at: receivedAt.toISOString(),
    lat: r.lat,
    lon: r.lon,
    speed_kmh: r.speedKmh,
    battery_voltage: r.batteryVoltage,
    soc_pct: r.socPct,
    soh_pct: r.sohPct,
    odometer_km: r.odometerKm,
    charging_status: r.chargingStatus,
    charging_power_kw: r.chargingPowerKw,
    fuel_level_pct: r.fuelLevelPct,
    engine_hours: r.engineHours,
    dtc_codes: r.dtcCodes,
    ignition: r.ignition,
    weather_temp: r.weatherTemp,
    raw_data: r.rawData,
  };
}

const SIGNAL_COLUMN_NAMES = [
  "device_id", "ts", "received_at", "lat", "lon", "speed_kmh", "battery_voltage", "soc_pct", "soh_pct", "odometer_km",
  "charging_status", "charging_power_kw", "fuel_level_pct", "engine_hours", "dtc_codes", "ignition", "weather_temp", "raw_data",
] as const;
const SIGNAL_COLUMNS = sql.raw(SIGNAL_COLUMN_NAMES.join(", "));
const SIGNAL_RECORD = sql.raw(
  "device_id text, ts timestamptz, received_at timestamptz, lat double precision, lon double precision, speed_kmh double precision, battery_voltage double precision, soc_pct double precision, soh_pct double precision, odometer_km double precision, charging_status text, charging_power_kw double precision, fuel_level_pct double precision, engine_hours double precision, dtc_codes text[], ignition smallint, weather_temp double precision, raw_data jsonb",
);

/** History: every record, de-duplicated on (device, timestamp): a re-sent payload changes nothing. */
export async function insertHistory(tx: Tx, tenantId: string, records: TelemetryRecord[], receivedAt: Date): Promise<void> {
  for (let i = 0; i < records.length; i += HISTORY_CHUNK) {
    const chunk = records.slice(i, i + HISTORY_CHUNK).map((r) => signalRow(r, receivedAt));
    await tx.execute(sql`
      insert into telemetry (tenant_id, ${SIGNAL_COLUMNS})
      select ${tenantId}, ${SIGNAL_COLUMNS} from jsonb_to_recordset(${json(chunk)}) as r(${SIGNAL_RECORD})
      on conflict (tenant_id, device_id, ts) do nothing`);
  }
}

/** Snapshot: each device's newest record of the batch, applied only if newer than the stored state. */
export async function upsertSnapshots(tx: Tx, tenantId: string, latest: TelemetryRecord[], receivedAt: Date): Promise<void> {
  const assignments = sql.raw(
    SIGNAL_COLUMN_NAMES.filter((c) => c !== "device_id")
      .map((c) => `${c} = excluded.${c}`)
      .join(", "),
  );
  await tx.execute(sql`
    insert into fleet_snapshot (tenant_id, ${SIGNAL_COLUMNS})
    select ${tenantId}, ${SIGNAL_COLUMNS} from jsonb_to_recordset(${json(latest.map((r) => signalRow(r, receivedAt)))}) as r(${SIGNAL_RECORD})
    on conflict (tenant_id, device_id) do update set ${assignments}
    where excluded.ts > fleet_snapshot.ts`);
}

/** Alerts: a draft whose open twin (same device and dedupe key, unacknowledged) exists is dropped. */
export async function insertAlerts(tx: Tx, tenantId: string, drafts: AlertDraft[], receivedAt: Date): Promise<number> {
  if (drafts.length === 0) return 0;
  const payload = drafts.map((d) => ({
    id: newId("alt"),
    device_id: d.deviceId,
    agent: d.agent,
    severity: d.severity,
    prediction: d.prediction,
    confidence: d.confidence,
    technical_data: d.technicalData,
    dedupe_key: d.dedupeKey,
    // An alert exists from when FDP learnt of it, never from a future device clock.
    created_at: (d.observedAt < receivedAt ? d.observedAt : receivedAt).toISOString(),
  }));
  const inserted = await rows<{ id: string }>(
    tx as unknown as Db,
    sql`insert into alerts (id, tenant_id, device_id, agent, severity, prediction, confidence, technical_data, dedupe_key, acknowledged, created_at)
        select r.id, ${tenantId}, r.device_id, r.agent, r.severity, r.prediction, r.confidence, r.technical_data, r.dedupe_key, false, r.created_at
          from jsonb_to_recordset(${json(payload)}) as r(id text, device_id text, agent text, severity text, prediction text,
               confidence double precision, technical_data jsonb, dedupe_key text, created_at timestamptz)
        on conflict (tenant_id, device_id, dedupe_key) where acknowledged = false and dedupe_key is not null do nothing
        returning id`,
  );
  return inserted.length;
}
