/**
 * `npm run bench:seed`: a large, deterministic tenant for the fleet-scale benchmarks (issue 13):
 * by default 10,000 devices × 365 days × 3 readings = 10.95 M telemetry rows, with driving events,
 * alerts, the fleet snapshot and the devices' derived columns, written with set-based SQL
 * (INSERT … SELECT from generate_series, one statement per chunk of devices), never row by row.
 *
 * Env:
 * - DATABASE_URL: the database to seed (migrated first, kept). Without it a throw-away `fdp_bench_*`
 *   database is created on BENCH_PG_ADMIN_URL (bench/lib/database.ts) and dropped at the end, unless
 *   SEED_KEEP_DATABASE=1 (then its URL is printed and it is kept).
 * - SEED_DEVICES (10000), SEED_DAYS (365), SEED_READINGS_PER_DAY (3, at least 3), SEED_TENANT_NAME,
 *   SEED_ANCHOR (ISO time; default the current UTC hour), SEED_CHUNK_DAYS (30).
 *
 * Determinism: every value comes from `hashtext()` of the device id, the day and the reading (never
 * random()), and every time stamp from the anchor: the same options and anchor give the same rows
 * (apart from the tenant id, the alert ids that embed it, and `devices.created_at/updated_at`).
 * The readings cover the SEED_DAYS whole UTC days before the anchor's UTC day, so the default
 * anchor (this hour) makes "the last N days" queries hit the data. See docs/benchmarks.md.
 */
import { runMain } from "./lib/run-main";
import { markTelemetryRollupsStale, refreshTelemetryRollups } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { sql } from "drizzle-orm";
import { pathToFileURL } from "node:url";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import type { Db } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { rootLogger } from "@/lib/log/logger";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getTas } from "@/lib/scores/get-tas";
import { MODELS } from "@/lib/seed/vehicle-catalog";
import { createTenant } from "@/lib/tenants/create-tenant";
import { ALERT_KEYS, diagnosticsKey, type Severity } from "@/lib/vocabulary/alerts";
import type { Powertrain } from "@/lib/vocabulary/powertrain";

export interface SeedOptions {
  devices: number;
  days: number;
  readingsPerDay: number;
  /** Time stamps are relative to this instant (the readings cover the `days` UTC days before its day). */
  anchor: Date;
  /** Days of telemetry per INSERT … SELECT (all devices, in time order). */
  chunkDays?: number;
}

export interface SeedCounts {
  devices: number;
  telemetry: number;
  fleet_snapshot: number;
  driving_events: number;
  alerts: number;
}

export interface SeedResult {
  counts: SeedCounts;
  /** Elapsed milliseconds per step, in run order. */
  steps: { step: string; ms: number }[];
}

/** The highest per-minute limit a tenant may carry (lib/tenants/entitlements.ts), as bench/run.ts gives its tenants. */
export const SEED_RATE_LIMIT_PER_MIN = 100_000;

/** Powertrain mix (cumulative upper bounds of a uniform draw): BEV 40 %, PHEV 15 %, HEV 10 %, ICE 35 %. */
const POWERTRAIN_MIX: [Powertrain, number][] = [
  ["BEV", 0.4],
  ["PHEV", 0.55],
  ["HEV", 0.65],
  ["ICE", 1],
];
/** Weekday driving factors (Monday first), mean 1: a weekday drives more than a weekend day. */
const WEEKDAY_FACTORS = [1.15, 1.1, 1.1, 1.15, 1.2, 0.7, 0.6];
/** Finnish home towns (lat, lon). */
const TOWNS: [number, number][] = [
  [60.1699, 24.9384], // Helsinki
  [60.2055, 24.6559], // Espoo
  [61.4978, 23.761], // Tampere
  [60.4518, 22.2666], // Turku
  [65.0121, 25.4651], // Oulu
  [62.2426, 25.7473], // Jyväskylä
  [62.8924, 27.677], // Kuopio
  [60.9827, 25.6615], // Lahti
];
/** Probability that a day carries one OEM driving event (≈ 3.6 per device-month). */
const EVENT_DAY_P = 0.12;
/** Mean alerts per device-year. */
const ALERTS_PER_DEVICE_YEAR = 2;

// ---------------------------------------------------------------------------------------------
// SQL building blocks (all deterministic)

/** A uniform number in [0, 1) from the hash of a text expression. */
const u = (key: string) => `((hashtext(${key})::bigint + 2147483648)::float8 / 4294967296.0)`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const num = (x: number | null) => (x === null ? "null" : String(x));

/** The vehicle catalog as a VALUES list, numbered within each powertrain (k of cnt). */
function catalogSql(): string {
  const models = Object.values(MODELS);
  const byPt = new Map<string, typeof models>();
  for (const m of models) byPt.set(m.powertrain, [...(byPt.get(m.powertrain) ?? []), m]);
  const rowsSql: string[] = [];
  for (const [pt, list] of byPt) {
    list.forEach((m, k) => {
      rowsSql.push(
        `(${lit(pt)}, ${k}, ${list.length}, ${lit(m.make)}, ${lit(m.model)}, ${lit(m.fuelType)}, ${lit(m.assetClass)}, ${m.priceEur}, ${num(m.batteryKwh)}::float8, ${num(m.kwhPerKm)}::float8, ${num(m.acKw)}::float8, ${num(m.dcKw)}::float8, ${num(m.tankL)}::float8, ${num(m.litresPer100Km)}::float8, ${lit(m.wmi)})`,
      );
    });
  }
  return `(values ${rowsSql.join(",\n")}) as cat(pt, k, cnt, make, model, fuel_type, asset_class, price, battery_kwh, kwh_per_km, ac_kw, dc_kw, tank_l, l_per_100, wmi)`;
}

interface AlertRule {
  key: string;
  severity: Severity;
  prediction: string;
  valueField: string | null;
  min: number;
  max: number;
  powertrains: Powertrain[];
  weight: number;
}

const ALL: Powertrain[] = ["BEV", "PHEV", "HEV", "ICE"];
const PLUG: Powertrain[] = ["BEV", "PHEV"];
const FUEL: Powertrain[] = ["PHEV", "HEV", "ICE"];
const ALERT_RULES: AlertRule[] = [
  {
    key: ALERT_KEYS.batteryLow12v,
    severity: "WARNING",
    prediction: "12 V battery resting voltage is low: the vehicle may fail to start.",
    valueField: "battery_voltage",
    min: 11.3,
    max: 11.8,
    powertrains: ALL,
    weight: 3,
  },
  {
    key: ALERT_KEYS.batteryLow12v,
    severity: "CRITICAL",
    prediction: "12 V battery resting voltage is critically low: replace the battery.",
    valueField: "battery_voltage",
    min: 10.6,
    max: 11.2,
    powertrains: ALL,
    weight: 1,
  },
  {
    key: ALERT_KEYS.batteryLowSoc,
    severity: "WARNING",
    prediction: "State of charge below 10 % while not charging.",
    valueField: "soc_pct",
    min: 4,
    max: 9.5,
    powertrains: PLUG,
    weight: 3,
  },
  {
    key: ALERT_KEYS.batterySohDrop,
    severity: "WARNING",
    prediction: "State of health fell faster than expected.",
    valueField: "soh_pct",
    min: 84,
    max: 92,
    powertrains: PLUG,
    weight: 1,
  },
  { key: ALERT_KEYS.drivingOverspeed, severity: "INFO", prediction: "Speed above 130 km/h.", valueField: "speed_kmh", min: 131, max: 150, powertrains: ALL, weight: 5 },
  { key: ALERT_KEYS.drivingOverspeed, severity: "WARNING", prediction: "Speed above 160 km/h.", valueField: "speed_kmh", min: 161, max: 175, powertrains: ALL, weight: 1 },
  {
    key: ALERT_KEYS.chargingStalled,
    severity: "INFO",
    prediction: "Charging stalled: the state of charge did not rise.",
    valueField: "soc_pct",
    min: 20,
    max: 70,
    powertrains: PLUG,
    weight: 2,
  },
  {
    key: ALERT_KEYS.chargingHighCRate,
    severity: "INFO",
    prediction: "High charging C-rate.",
    valueField: "charging_power_kw",
    min: 120,
    max: 200,
    powertrains: ["BEV"],
    weight: 1,
  },
  {
    key: ALERT_KEYS.odometerOutlier,
    severity: "INFO",
    prediction: "An odometer reading later readings contradicted (data quality).",
    valueField: "odometer_km",
    min: 10_000,
    max: 90_000,
    powertrains: ALL,
    weight: 1,
  },
  {
    key: diagnosticsKey("P0420"),
    severity: "WARNING",
    prediction: "Catalyst system efficiency below threshold (P0420).",
    valueField: null,
    min: 0,
    max: 0,
    powertrains: FUEL,
    weight: 2,
  },
  {
    key: diagnosticsKey("P0300"),
    severity: "CRITICAL",
    prediction: "Random/multiple cylinder misfire detected (P0300).",
    valueField: null,
    min: 0,
    max: 0,
    powertrains: ["ICE"],
    weight: 1,
  },
  {
    key: diagnosticsKey("P0A80"),
    severity: "CRITICAL",
    prediction: "Replace hybrid battery pack (P0A80).",
    valueField: null,
    min: 0,
    max: 0,
    powertrains: ["HEV", "PHEV"],
    weight: 1,
  },
  { key: diagnosticsKey("U0100"), severity: "WARNING", prediction: "Lost communication with ECM/PCM (U0100).", valueField: null, min: 0, max: 0, powertrains: ALL, weight: 1 },
];

/** The alert rules as a VALUES list: per powertrain, each rule repeated `weight` times, numbered k of cnt. */
function alertRulesSql(): string {
  const out: string[] = [];
  for (const pt of ALL) {
    const list = ALERT_RULES.filter((r) => r.powertrains.includes(pt)).flatMap((r) => Array.from({ length: r.weight }, () => r));
    list.forEach((r, k) => {
      out.push(
        `(${lit(pt)}, ${k}, ${list.length}, ${lit(r.key.slice(0, r.key.indexOf(":")))}, ${lit(r.key)}, ${lit(r.severity)}, ${lit(r.prediction)}, ${r.valueField === null ? "null" : lit(r.valueField)}, ${r.min}::float8, ${r.max}::float8)`,
      );
    });
  }
  return `(values ${out.join(",\n")}) as ar(pt, k, cnt, agent, dedupe_key, severity, prediction, value_field, vmin, vmax)`;
}

/** Zero-padded device ids: big-00001 … (at least 5 digits). */
const idWidth = (devices: number) => Math.max(5, String(devices).length);
export const deviceIdOf = (n: number, devices: number) => `big-${String(n).padStart(idWidth(devices), "0")}`;

function assertOptions(o: SeedOptions): void {
  const int = (name: string, x: number, min: number, max: number) => {
    if (!Number.isInteger(x) || x < min || x > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${x}).`);
  };
  int("devices", o.devices, 1, 1_000_000);
  int("days", o.days, 1, 3650);
  int("readingsPerDay", o.readingsPerDay, 3, 48);
  int("chunkDays", o.chunkDays ?? 30, 1, 3650);
  if (!Number.isFinite(o.anchor.getTime())) throw new Error("anchor must be a valid date.");
}

/**
 * Per-device parameters shared by the telemetry and event statements (SQL select-list over `d`, the
 * devices row, joined to the catalog `cat`). `day0` is the first day's midnight (UTC).
 */
function deviceParams(o: SeedOptions): string {
  const towns = `array[${TOWNS.map((t) => t[0]).join(",")}]::float8[]`;
  const townsLon = `array[${TOWNS.map((t) => t[1]).join(",")}]::float8[]`;
  return `
    (15000 + 15000 * ${u(`d.device_id || ':km'`)}) / 365.0 as km_day,
    round((5000 + 60000 * ${u(`d.device_id || ':odo'`)})::numeric, 1)::float8 as base_km,
    floor(7 * ${u(`d.device_id || ':wk'`)})::int as phase,
    (${towns})[1 + floor(${TOWNS.length} * ${u(`d.device_id || ':town'`)})::int] + (${u(`d.device_id || ':hlat'`)} - 0.5) * 0.12 as home_lat,
    (${townsLon})[1 + floor(${TOWNS.length} * ${u(`d.device_id || ':town'`)})::int] + (${u(`d.device_id || ':hlon'`)} - 0.5) * 0.24 as home_lon,
    ${u(`d.device_id || ':speeder'`)} < 0.1 as speeder,
    ${u(`d.device_id || ':12v'`)} < 0.03 as weak_12v,
    ${u(`d.device_id || ':dtc'`)} < 0.03 and d.powertrain <> 'BEV' as has_dtc,
    -- SoH at the first day: about 2 pp per year of age before the window, and 1.5–3 pp/yr during it.
    greatest(70, 99 - 2 * greatest(0, (('${o.anchor.toISOString()}'::timestamptz at time zone 'UTC')::date - d.lease_start) / 365.0 - ${o.days} / 365.0) - 3 * ${u(`d.device_id || ':soh'`)}) as soh0,
    1.5 + 1.5 * ${u(`d.device_id || ':sohr'`)} as soh_rate,
    ${u(`d.device_id || ':fuel'`)} * 80 as fuel_offset`;
}

/** The telemetry rows of devices [from, to] (by id) and days [dayFrom, dayTo] (0 = the first), as one SELECT with the final column list. */
function telemetrySelect(o: SeedOptions, tenantId: string, from: string, to: string, dayFrom: number, dayTo: number): string {
  const R = o.readingsPerDay;
  const day0 = `('${o.anchor.toISOString()}'::timestamptz at time zone 'UTC')::date - ${o.days}`;
  // cumulative weekday factors: cum(j) = 7·floor(j/7) + C[j mod 7]
  const cumArr = `array[${WEEKDAY_FACTORS.reduce<number[]>((acc, f, k) => [...acc, (acc[k] ?? 0) + f], [0])
    .slice(0, 7)
    .map((x) => x.toFixed(2))
    .join(",")}]::float8[]`;
  const cum = (j: string) => `(7 * floor((${j}) / 7.0) + (${cumArr})[1 + ((${j}) % 7)])`;
  const facArr = `array[${WEEKDAY_FACTORS.join(",")}]::float8[]`;
  const key = `x.device_id || ':' || x.i || ':' || x.r`;
  return `
  select x.device_id, x.ts, x.ts + interval '30 seconds' as received_at,
    round((case when x.drv then x.home_lat + (${u(`${key} || ':lat'`)} - 0.5) * 0.4 else x.home_lat + (${u(`${key} || ':lat'`)} - 0.5) * 0.002 end)::numeric, 5)::float8 as lat,
    round((case when x.drv then x.home_lon + (${u(`${key} || ':lon'`)} - 0.5) * 0.8 else x.home_lon + (${u(`${key} || ':lon'`)} - 0.5) * 0.004 end)::numeric, 5)::float8 as lon,
    x.speed as speed_kmh,
    round((case when x.drv then 13.9 + 0.5 * ${u(`${key} || ':v12'`)}
                when x.chg_word is not null and x.chg_word <> 'not_charging' then 13.4 + 0.2 * ${u(`${key} || ':v12'`)}
                when x.weak_12v and x.r = 0 then 11.5 + 0.28 * ${u(`${key} || ':v12'`)}
                else 12.45 + 0.3 * ${u(`${key} || ':v12'`)} end)::numeric, 2)::float8 as battery_voltage,
    case when x.powertrain in ('BEV', 'PHEV') then round(x.soc::numeric, 1)::float8 end as soc_pct,
    case when x.powertrain in ('BEV', 'PHEV') then round((x.soh0 - x.soh_rate * x.i / 365.0 + (${u(`x.device_id || ':' || x.i || ':soh'`)} - 0.5) * 0.4)::numeric, 1)::float8 end as soh_pct,
    round(x.odo::numeric, 1)::float8 as odometer_km,
    case when x.powertrain in ('BEV', 'PHEV') then x.chg_word end as charging_status,
    x.chg_kw as charging_power_kw,
    case when x.powertrain <> 'BEV' then round((95 - mod((((x.odo - x.base_km) * x.l_per_100 / 100.0 * (case when x.powertrain = 'PHEV' then 0.4 else 1 end)) / x.tank_l * 100 + x.fuel_offset)::numeric, 80))::numeric, 1)::float8 end as fuel_level_pct,
    case when x.powertrain <> 'BEV' then round((x.odo / 45.0)::numeric, 1)::float8 end as engine_hours,
    case when x.has_dtc and x.i >= ${o.days - 14} then array['P0420']::text[] when x.r = 0 then array[]::text[] end as dtc_codes,
    case when x.drv then 1 else 0 end::smallint as ignition,
    round((4.5 - 11.5 * cos(2 * pi() * (extract(doy from x.day) - 20) / 365.25)
      - case when x.home_lat > 64 then 3 else 0 end
      + case when x.drv then 2 when x.r = 0 then -1.5 else 0.5 end
      + (${u(`${key} || ':temp'`)} - 0.5) * 6)::numeric, 1)::float8 as weather_temp,
    case when x.drv then jsonb_build_object('events', case when x.r = 1 and x.ev_day then jsonb_build_array(jsonb_build_object(
        'kind', x.ev_kind, 'ts', to_char((x.ts - make_interval(secs => x.ev_back_s)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'value', x.ev_value, 'duration_s', x.ev_duration)) else '[]'::jsonb end) end as raw_data
  from (
    select w.*,
      -- SoC: charged overnight to 86–90 %, used in proportion to the km since the morning reading.
      case when w.powertrain = 'BEV' then greatest(5, w.soc_m - (w.odo - w.day_odo) * w.kwh_per_km / w.battery_kwh * 100)
           when w.powertrain = 'PHEV' then greatest(12 + 3 * ${u(`w.device_id || ':' || w.i || ':hold'`)}, w.soc_m - (w.odo - w.day_odo) * w.kwh_per_km / w.battery_kwh * 100) end as soc,
      case when w.r = ${R - 1} and w.powertrain in ('BEV', 'PHEV') then
             case when w.powertrain = 'BEV' and w.cu < 0.08 then 'dc_charging' when w.cu < 0.6 then 'charging' else 'not_charging' end
           when w.powertrain in ('BEV', 'PHEV') then 'not_charging' end as chg_word,
      case when w.r = ${R - 1} and w.powertrain = 'BEV' and w.cu < 0.08 then round((40 + (w.dc_kw - 40) * ${u(`w.device_id || ':' || w.i || ':dckw'`)})::numeric, 1)::float8
           when w.r = ${R - 1} and w.powertrain in ('BEV', 'PHEV') and w.cu < 0.6 then w.ac_kw end as chg_kw
    from (
      select v.*,
        v.day_odo + v.day_km * v.r / ${R - 1}.0 as odo,
        ${u(`v.device_id || ':' || v.i || ':chg'`)} as cu,
        case when v.drv then round((case when (v.speeder and ${u(`v.device_id || ':' || v.i || ':' || v.r || ':fast'`)} < 0.15)
                                          or ${u(`v.device_id || ':' || v.i || ':' || v.r || ':fast'`)} < 0.02
                                         then 131 + 34 * ${u(`v.device_id || ':' || v.i || ':' || v.r || ':v'`)}
                                         else 25 + 75 * ${u(`v.device_id || ':' || v.i || ':' || v.r || ':v'`)} end)::numeric)::float8
             else 0 end as speed,
        86 + 4 * ${u(`v.device_id || ':' || v.i || ':soc'`)} as soc_m
      from (
        select p.*, i.i, r.r, ${day0} + i.i as day,
          (${day0} + i.i)::timestamp at time zone 'UTC'
            + make_interval(hours => 5, secs => floor(r.r * ${Math.floor((12 * 3600) / (R - 1))} + 1200 * ${u(`p.device_id || ':' || i.i || ':' || r.r || ':ts'`)})::int) as ts,
          (r.r > 0 and r.r < ${R - 1}) as drv,
          p.base_km + p.km_day * (${cum(`i.i + p.phase`)} - ${cum("p.phase")}) as day_odo,
          p.km_day * (${facArr})[1 + ((i.i + p.phase) % 7)] as day_km,
          ${u(`p.device_id || ':' || i.i || ':ev'`)} < ${EVENT_DAY_P} as ev_day,
          ${EVENT_KIND_SQL("p.device_id", "i.i")} as ev_kind,
          ${EVENT_VALUE_SQL("p.device_id", "i.i")} as ev_value,
          ${EVENT_DURATION_SQL("p.device_id", "i.i")} as ev_duration,
          ${EVENT_BACK_SQL("p.device_id", "i.i")} as ev_back_s
        from (
          select d.device_id, d.powertrain, d.lease_start, cat.battery_kwh, cat.kwh_per_km, cat.ac_kw, cat.dc_kw, cat.tank_l, cat.l_per_100, ${deviceParams(o)}
          from devices d join ${catalogSql()} on cat.make = d.make and cat.model = d.model and cat.pt = d.powertrain
          where d.tenant_id = '${tenantId}' and d.device_id >= '${from}' and d.device_id <= '${to}'
        ) p
        cross join generate_series(${dayFrom}, ${dayTo}) as i(i)
        cross join generate_series(0, ${R - 1}) as r(r)
      ) v
    ) w
  ) x`;
}

// The OEM event of a day (at most one, carried by the day's reading r = 1): the same expressions build
// the telemetry's raw_data.events and the driving_events rows.
const EVENT_KIND_SQL = (dev: string, day: string) => {
  const k = u(`${dev} || ':' || ${day} || ':evk'`);
  return `(case when ${k} < 0.4 then 'harsh_braking' when ${k} < 0.7 then 'harsh_acceleration' when ${k} < 0.9 then 'harsh_cornering' else 'overspeed' end)`;
};
const EVENT_VALUE_SQL = (dev: string, day: string) => {
  const k = u(`${dev} || ':' || ${day} || ':evk'`);
  const v = u(`${dev} || ':' || ${day} || ':evv'`);
  return `(case when ${k} < 0.9 then round((0.3 + 0.4 * ${v} * ${v})::numeric, 2)::float8 else round((131 + 30 * ${v})::numeric)::float8 end)`;
};
const EVENT_DURATION_SQL = (dev: string, day: string) => {
  const k = u(`${dev} || ':' || ${day} || ':evk'`);
  const v = u(`${dev} || ':' || ${day} || ':evd'`);
  return `(case when ${k} < 0.9 then round((0.5 + 2 * ${v})::numeric, 1)::float8 else round((10 + 110 * ${v})::numeric)::float8 end)`;
};
const EVENT_BACK_SQL = (dev: string, day: string) => `(5 + floor(300 * ${u(`${dev} || ':' || ${day} || ':evt'`)}))::int`;

/** Runs one statement in its own transaction with synchronous_commit off (a bulk load: a crash loses at most the last commits). */
async function bulk(db: Db, text: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw("set local synchronous_commit = off"));
    await tx.execute(sql.raw(text));
  });
}

/**
 * Seeds the tenant `tenantId` (which must exist and hold no `big-*` devices) with the large fleet.
 * Set-based: a handful of INSERT … SELECT statements, telemetry in chunks of `chunkDays` days.
 *
 * Telemetry is laid out as a customer's history is: in its month's partition (created before the rows
 * go in, as a month's partition is created before its readings arrive) and in time order within it (an
 * ingest appends what the fleet sent since the last one, all devices interleaved). Inserted device by
 * device, a day of the fleet would sit on one page per device, and a year before this month would wait
 * in the default partition: neither is what a statement meets on a customer's database.
 */
export async function seedLargeTenant({
  db,
  tenantId,
  options,
  log = () => {},
}: {
  db: Db;
  tenantId: string;
  options: SeedOptions;
  log?: (m: string) => void;
}): Promise<SeedResult> {
  assertOptions(options);
  if (!/^[A-Za-z0-9_-]+$/.test(tenantId)) throw new Error(`unexpected tenant id ${tenantId}`);
  const o = { ...options, chunkDays: options.chunkDays ?? 30 };
  const steps: SeedResult["steps"] = [];
  const step = async (name: string, fn: () => Promise<void>) => {
    const t0 = performance.now();
    await fn();
    const ms = performance.now() - t0;
    steps.push({ step: name, ms });
    log(`${name}: ${(ms / 1000).toFixed(1)} s`);
  };
  const anchorIso = o.anchor.toISOString();
  const day0 = `('${anchorIso}'::timestamptz at time zone 'UTC')::date - ${o.days}`;
  const width = idWidth(o.devices);
  const pick = (what: string) => u(`g.id || ':${what}'`);
  const ptCase = `case ${POWERTRAIN_MIX.map(([pt, hi]) => `when ${pick("pt")} < ${hi} then '${pt}'`).join(" ")} end`;

  await step("devices", () =>
    bulk(
      db,
      `insert into devices (tenant_id, device_id, name, vin, make, model, year, powertrain, powertrain_source, fuel_type,
         battery_kwh, original_price_eur, contract_km, lease_start, lease_months, asset_class, master_data_at)
       select '${tenantId}', g.id, cat.make || ' ' || cat.model || ' (' || g.id || ')',
         cat.wmi || upper(substr(md5(g.id), 1, 6)) || lpad(g.n::text, 8, '0'),
         cat.make, cat.model, extract(year from l.lease_start)::int - case when ${pick("year")} < 0.25 then 1 else 0 end,
         p.pt, 'master_data', cat.fuel_type, cat.battery_kwh,
         round(cat.price * (0.95 + 0.1 * ${pick("price")}) / 100) * 100,
         (round((15000 + 15000 * ${pick("km")}) * (0.9 + 0.3 * ${pick("contract")}) * l.months / 12 / 5000) * 5000)::int,
         l.lease_start, l.months, cat.asset_class,
         (${day0})::timestamp at time zone 'UTC'
       from (select n, 'big-' || lpad(n::text, ${width}, '0') as id from generate_series(1, ${o.devices}) as n) g
       cross join lateral (select ${ptCase} as pt) p
       join ${catalogSql()} on cat.pt = p.pt and cat.k = floor(${pick("model")} * cat.cnt)::int
       cross join lateral (select (array[24, 36, 48])[1 + floor(3 * ${pick("lease")})::int] as months) lm
       -- The lease started before the first reading and, when the window is shorter than the lease, still runs at the anchor.
       cross join lateral (select lm.months,
         ('${anchorIso}'::timestamptz at time zone 'UTC')::date - ${o.days} - floor(${pick("leasestart")} * greatest(30, lm.months * 30.4 - ${o.days}))::int as lease_start) l
       order by g.id`,
    ),
  );

  // The history's monthly partitions first, as the months of a customer's history were created while it
  // arrived (lib/db/telemetry-partitions.ts); otherwise every past month would wait in the default partition.
  await step("telemetry partitions", async () => {
    await db.execute(
      sql.raw(`select fdp_ensure_telemetry_partition(m::date)
                 from generate_series(date_trunc('month', (${day0})::timestamp), date_trunc('month', '${anchorIso}'::timestamptz at time zone 'UTC'), interval '1 month') as m`),
    );
  });
  const first = deviceIdOf(1, o.devices);
  const last = deviceIdOf(o.devices, o.devices);
  const t0 = performance.now();
  for (let d0 = 0; d0 < o.days; d0 += o.chunkDays) {
    const d1 = Math.min(o.days, d0 + o.chunkDays) - 1;
    await step(`telemetry days ${d0}…${d1}`, () =>
      bulk(
        db,
        `insert into telemetry (tenant_id, device_id, ts, received_at, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
           charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
         select '${tenantId}', t.* from (${telemetrySelect(o, tenantId, first, last, d0, d1)}) t order by t.ts, t.device_id`,
      ),
    );
  }
  steps.push({ step: "telemetry (all chunks)", ms: performance.now() - t0 });

  // Driving events: exactly those in the telemetry's raw_data.events (the OEM source), one row each.
  await step("driving_events", () =>
    bulk(
      db,
      `insert into driving_events (tenant_id, device_id, ts, kind, source, value, duration_s, record_ts, received_at)
       select t.tenant_id, t.device_id, (e ->> 'ts')::timestamptz, e ->> 'kind', 'oem', (e ->> 'value')::float8, (e ->> 'duration_s')::float8,
         t.ts, t.received_at
       from telemetry t cross join lateral jsonb_array_elements(t.raw_data -> 'events') e
       where t.tenant_id = '${tenantId}' and t.raw_data is not null and jsonb_array_length(t.raw_data -> 'events') > 0`,
    ),
  );

  await step("fleet_snapshot", () =>
    bulk(
      db,
      `insert into fleet_snapshot (tenant_id, device_id, ts, received_at, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km,
         charging_status, charging_power_kw, fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data)
       select t.tenant_id, t.device_id, t.ts, t.received_at, t.lat, t.lon, t.speed_kmh, t.battery_voltage, t.soc_pct, t.soh_pct, t.odometer_km,
         t.charging_status, t.charging_power_kw, t.fuel_level_pct, t.engine_hours, t.dtc_codes, t.ignition, t.weather_temp, t.raw_data
       from devices d cross join lateral (
         select * from telemetry t where t.tenant_id = d.tenant_id and t.device_id = d.device_id order by t.ts desc limit 1) t
       where d.tenant_id = '${tenantId}'`,
    ),
  );

  // What the ingest keeps on the device row: the highest odometer (first reached), the newest record with
  // an events array. No dense speed samples (3 a day), so dense_speed_at stays null.
  await step("devices (derived columns)", () =>
    bulk(
      db,
      `update devices d set odometer_max_km = om.odometer_km, odometer_max_at = om.ts, events_reported_at = ev.ts
       from devices d2
       cross join lateral (select t.odometer_km, t.ts from telemetry t where t.tenant_id = d2.tenant_id and t.device_id = d2.device_id
                           and t.odometer_km is not null order by t.odometer_km desc, t.ts asc limit 1) om
       left join lateral (select t.ts from telemetry t where t.tenant_id = d2.tenant_id and t.device_id = d2.device_id
                          and t.raw_data is not null order by t.ts desc limit 1) ev on true
       where d.tenant_id = '${tenantId}' and d2.tenant_id = d.tenant_id and d2.device_id = d.device_id`,
    ),
  );

  // Alerts: ~2 per device-year, rules by powertrain; at most one open alert per (device, key, severity).
  const key = `d.device_id || ':' || a.k`;
  await step("alerts", () =>
    bulk(
      db,
      `insert into alerts (id, tenant_id, device_id, agent, severity, prediction, confidence, technical_data, dedupe_key, occurrences,
         first_seen_at, last_seen_at, worst_value, latest_value, acknowledged, acknowledged_by, acknowledged_at, created_at)
       select z.id, '${tenantId}', z.device_id, z.agent, z.severity, z.prediction, z.confidence, z.technical_data, z.dedupe_key, z.occurrences,
         z.created_at, z.last_seen_at, z.worst_value, z.latest_value, z.ack, case when z.ack then 'fleet.manager@bench.example' end,
         case when z.ack then least('${anchorIso}'::timestamptz, z.last_seen_at + make_interval(hours => z.ack_h)) end, z.created_at
       from (
         select y.*, (y.ack_u < 0.65 or row_number() over (partition by y.device_id, y.dedupe_key, y.severity order by y.created_at desc, y.id) > 1) as ack
         from (
           select 'alt_' || substr(md5('${tenantId}:' || ${key}), 1, 20) as id, d.device_id, ar.agent, ar.severity, ar.prediction,
             round((0.6 + 0.35 * ${u(`${key} || ':conf'`)})::numeric, 2)::float8 as confidence,
             jsonb_strip_nulls(jsonb_build_object('rule', ar.dedupe_key, 'value_field', ar.value_field, 'value',
               case when ar.value_field is not null then round((ar.vmin + (ar.vmax - ar.vmin) * ${u(`${key} || ':val'`)})::numeric, 1) end,
               'source', 'bench-seed')) as technical_data,
             ar.dedupe_key, o.occ as occurrences, c.created_at,
             least('${anchorIso}'::timestamptz, c.created_at + make_interval(hours => (o.occ - 1) * floor(1 + 47 * ${u(`${key} || ':span'`)})::int)) as last_seen_at,
             case when ar.value_field is not null then round((ar.vmin + (ar.vmax - ar.vmin) * ${u(`${key} || ':val'`)})::numeric, 1)::float8 end as worst_value,
             case when ar.value_field is not null then round((ar.vmin + (ar.vmax - ar.vmin) * greatest(${u(`${key} || ':val'`)}, ${u(`${key} || ':lval'`)}))::numeric, 1)::float8 end as latest_value,
             ${u(`${key} || ':ack'`)} as ack_u, floor(2 + 70 * ${u(`${key} || ':ackh'`)})::int as ack_h
           from devices d
           cross join lateral generate_series(0, floor(${ALERTS_PER_DEVICE_YEAR} * ${o.days} / 365.0 * (0.3 + 1.4 * ${u(`d.device_id || ':alerts'`)}) + ${u(`d.device_id || ':alerts2'`)})::int - 1) as a(k)
           join ${alertRulesSql()} on ar.pt = d.powertrain and ar.k = floor(${u(`${key} || ':rule'`)} * ar.cnt)::int
           cross join lateral (select 1 + floor(4 * power(${u(`${key} || ':occ'`)}, 3))::int as occ) o
           cross join lateral (select (${day0})::timestamp at time zone 'UTC' + make_interval(secs => floor(${o.days} * 86400 * ${u(`${key} || ':at'`)})::int) as created_at) c
           where d.tenant_id = '${tenantId}'
         ) y
       ) z`,
    ),
  );

  // Statistics of the new rows before the rollups are built from them: the history's months are new
  // partitions that Postgres knows nothing about yet, and the refresh's plans for 10,000 devices depend on
  // it (a bulk ingest of a new customer analyses the same way: lib/db/analyze-after-bulk-ingest.ts).
  await step("analyze telemetry", async () => {
    for (const t of ["devices", "telemetry", "driving_events"]) await db.execute(sql.raw(`analyze ${t}`));
  });

  // The daily rollups a customer's ingest keeps up to date (lib/telemetry/rollups/): rebuilt by the same code.
  await step("daily rollups", async () => {
    await markTelemetryRollupsStale({ db, tenantId });
    await refreshTelemetryRollups({ db, tenantId, now: options.anchor });
  });

  await step("analyze", async () => {
    for (const t of ["devices", "telemetry", "fleet_snapshot", "driving_events", "alerts", "telemetry_daily", "telemetry_rollup_state"]) await db.execute(sql.raw(`analyze ${t}`));
  });

  const [c] = await rows<Record<string, unknown>>(
    db,
    sql`select (select count(*) from devices where tenant_id = ${tenantId})::int as devices,
      (select count(*) from telemetry where tenant_id = ${tenantId})::int as telemetry,
      (select count(*) from fleet_snapshot where tenant_id = ${tenantId})::int as fleet_snapshot,
      (select count(*) from driving_events where tenant_id = ${tenantId})::int as driving_events,
      (select count(*) from alerts where tenant_id = ${tenantId})::int as alerts`,
  );
  const counts: SeedCounts = {
    devices: Number(c?.devices),
    telemetry: Number(c?.telemetry),
    fleet_snapshot: Number(c?.fleet_snapshot),
    driving_events: Number(c?.driving_events),
    alerts: Number(c?.alerts),
  };
  return { counts, steps };
}

/** The current UTC hour. */
export function currentUtcHour(now = new Date()): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
}

/** Options from the environment (see the header). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): SeedOptions {
  const int = (name: string, dflt: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return dflt;
    const x = Number(raw);
    if (!Number.isInteger(x)) throw new Error(`${name} must be a whole number (got ${raw}).`);
    return x;
  };
  const anchor = env.SEED_ANCHOR ? new Date(env.SEED_ANCHOR) : currentUtcHour();
  if (!Number.isFinite(anchor.getTime())) throw new Error(`SEED_ANCHOR is not a date: ${env.SEED_ANCHOR}`);
  return {
    devices: int("SEED_DEVICES", 10_000),
    days: int("SEED_DAYS", 365),
    readingsPerDay: int("SEED_READINGS_PER_DAY", 3),
    anchor,
    chunkDays: int("SEED_CHUNK_DAYS", 30),
  };
}

async function main(): Promise<void> {
  const { prepareDatabase } = await import("./lib/database");
  const log = (m: string) => process.stderr.write(`[bench:seed] ${m}\n`);
  const options = optionsFromEnv();
  log(
    `options: ${options.devices} devices × ${options.days} days × ${options.readingsPerDay} readings = ${(options.devices * options.days * options.readingsPerDay).toLocaleString("en")} telemetry rows; anchor ${options.anchor.toISOString()}`,
  );
  const database = await prepareDatabase(log);
  const keep = !database.owned || process.env.SEED_KEEP_DATABASE === "1";
  try {
    const { db } = database.handle;
    const started = performance.now();
    const tenant = await createTenant({
      ctx: { db },
      input: { name: process.env.SEED_TENANT_NAME ?? `bench large tenant ${options.anchor.toISOString()}`, rateLimitPerMin: SEED_RATE_LIMIT_PER_MIN },
    });
    const key = await createApiKey({ ctx: { db }, input: { tenantId: tenant.tenantId, name: "bench:seed" } });
    const result = await seedLargeTenant({ db, tenantId: tenant.tenantId, options, log });
    const seedSeconds = (performance.now() - started) / 1000;

    const [size] = await rows<Record<string, unknown>>(
      db,
      sql`select pg_size_pretty(pg_database_size(current_database())) as db,
        pg_size_pretty(pg_total_relation_size('telemetry')) as telemetry,
        pg_size_pretty(pg_total_relation_size('alerts')) as alerts,
        pg_size_pretty(pg_total_relation_size('driving_events')) as driving_events`,
    );

    // Sanity check through the app's verbs, in-process, at the anchor.
    const ctx = { db, tenantId: tenant.tenantId, isSandbox: false, log: rootLogger() };
    let t = performance.now();
    const risk = await getFleetRisk({ ctx, input: { period: 365 }, now: options.anchor });
    const riskMs = performance.now() - t;
    t = performance.now();
    const tas = await getTas({ ctx, input: { device_id: deviceIdOf(1, options.devices) }, now: options.anchor });
    const tasMs = performance.now() - t;

    const out = process.stdout;
    out.write(`\nTenant: ${tenant.tenantId}\nAPI key: ${key.key}\n`);
    if (database.owned && keep) out.write(`Database (kept): ${database.url}\n`);
    out.write(
      `\nRows:\n${Object.entries(result.counts)
        .map(([k, v]) => `  ${k.padEnd(16)} ${(v as number).toLocaleString("en")}`)
        .join("\n")}\n`,
    );
    out.write(
      `\nSteps:\n${result.steps
        .filter((s) => !s.step.startsWith("telemetry big-"))
        .map((s) => `  ${s.step.padEnd(26)} ${(s.ms / 1000).toFixed(1)} s`)
        .join("\n")}\n`,
    );
    out.write(`\nSeed time (tenant, key, rows, analyze): ${seedSeconds.toFixed(1)} s\n`);
    out.write(`Database size: ${String(size?.db)} (telemetry ${String(size?.telemetry)}, alerts ${String(size?.alerts)}, driving_events ${String(size?.driving_events)})\n`);
    out.write(`\nSanity check at the anchor:\n`);
    out.write(
      `  getFleetRisk(period 365): fleet_risk_score ${risk.fleet_risk_score}, device_count ${risk.device_count}, severity ${JSON.stringify(risk.severity_distribution)} in ${riskMs.toFixed(0)} ms\n`,
    );
    out.write(`  getTas(${deviceIdOf(1, options.devices)}): tas_score ${tas.tas_score}, tas_grade ${tas.tas_grade} in ${tasMs.toFixed(0)} ms\n`);
  } finally {
    if (keep) await database.handle.close();
    else {
      log("dropping the throw-away database (SEED_KEEP_DATABASE=1 keeps it)");
      await database.dispose();
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(main, (m) => process.stderr.write(`[bench:seed] ${m}\n`));
}
