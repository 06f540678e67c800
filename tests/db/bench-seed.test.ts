import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceIdOf, seedLargeTenant, type SeedOptions, type SeedResult } from "@/bench/seed-large-tenant";
import type { Db } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { rootLogger } from "@/lib/log/logger";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";
import { getTas } from "@/lib/scores/get-tas";
import { createTenant } from "@/lib/tenants/create-tenant";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * `npm run bench:seed` (bench/seed-large-tenant.ts) at small scale on a fresh Postgres database:
 * row counts, determinism, physical consistency, and the scores computing on what it wrote.
 */

const ANCHOR = new Date("2025-03-14T10:00:00Z");
const OPTIONS: SeedOptions = { devices: 20, days: 30, readingsPerDay: 3, anchor: ANCHOR, chunkDays: 7 };
const SIGNALS = `ts, received_at, lat, lon, speed_kmh, battery_voltage, soc_pct, soh_pct, odometer_km, charging_status, charging_power_kw,
  fuel_level_pct, engine_hours, dtc_codes, ignition, weather_temp, raw_data`;

let database: TestDatabase;
let db: Db;
let tenantA: string;
let tenantB: string;
let seedA: SeedResult;
let seedB: SeedResult;

const one = async (query: string): Promise<Record<string, unknown>> => (await rows<Record<string, unknown>>(db, sql.raw(query)))[0] ?? {};

beforeAll(async () => {
  database = await createTestDatabase("postgres");
  db = database.handle.db;
  tenantA = (await createTenant({ ctx: { db }, input: { name: "bench seed A" } })).tenantId;
  tenantB = (await createTenant({ ctx: { db }, input: { name: "bench seed B" } })).tenantId;
  seedA = await seedLargeTenant({ db, tenantId: tenantA, options: OPTIONS });
  seedB = await seedLargeTenant({ db, tenantId: tenantB, options: OPTIONS });
});

afterAll(async () => {
  await database?.dispose();
});

describe("bench:seed (small scale)", () => {
  it("writes exactly devices × days × readings telemetry rows, one snapshot per device, and events and alerts", async () => {
    const c = await one(`select
      (select count(*) from devices where tenant_id = '${tenantA}')::int as devices,
      (select count(*) from telemetry where tenant_id = '${tenantA}')::int as telemetry,
      (select count(*) from fleet_snapshot where tenant_id = '${tenantA}')::int as fleet_snapshot,
      (select count(*) from driving_events where tenant_id = '${tenantA}')::int as driving_events,
      (select count(*) from alerts where tenant_id = '${tenantA}')::int as alerts,
      (select count(*) from telemetry where tenant_id = '${tenantA}' and jsonb_array_length(raw_data -> 'events') > 0)::int as event_records`);
    expect(c).toEqual({ ...seedA.counts, event_records: seedA.counts.driving_events });
    expect(seedA.counts.devices).toBe(20);
    expect(seedA.counts.telemetry).toBe(20 * 30 * 3);
    expect(seedA.counts.fleet_snapshot).toBe(20);
    expect(seedA.counts.driving_events).toBeGreaterThan(0);
    expect(seedA.counts.alerts).toBeGreaterThanOrEqual(0);
    expect(seedB.counts).toEqual(seedA.counts);
    const ids = await rows<{ device_id: string }>(db, sql`select device_id from devices where tenant_id = ${tenantA} order by device_id`);
    expect(ids.map((r) => r.device_id)).toEqual(Array.from({ length: 20 }, (_, i) => deviceIdOf(i + 1, 20)));
    expect(ids[0]?.device_id).toBe("big-00001");
  });

  it("lays the telemetry out as a customer's history: each month in its partition, in time order", async () => {
    // The anchor's 30 days are 2025-02-12 … 2025-03-13: months that have no partition on a database
    // migrated today, so without the seed's own partitions they would all wait in the default one.
    const parts = await rows<{ part: string; n: number }>(
      db,
      sql`select tableoid::regclass::text as part, count(*)::int as n from telemetry where tenant_id = ${tenantA} group by 1 order by 1`,
    );
    expect(parts).toEqual([
      { part: "telemetry_2025_02", n: 17 * 20 * 3 },
      { part: "telemetry_2025_03", n: 13 * 20 * 3 },
    ]);
    // On disk the rows follow device time across all devices, as appended by ingests: a heap page holds
    // readings of about a day (60 a day here, about 45 a page; a row that does not fit on a page may
    // land on an earlier one with room left). Device by device, a page would hold some 15 days of one device.
    const pages = await one(`select max(span_h)::float8 as max_span_h, max(devices)::int as max_devices from (
        select (ctid::text::point)[0] as page, tableoid, extract(epoch from max(ts) - min(ts)) / 3600 as span_h, count(distinct device_id) as devices
        from telemetry where tenant_id = '${tenantA}' group by 1, 2
      ) x`);
    expect(Number(pages.max_span_h)).toBeLessThan(72);
    expect(Number(pages.max_devices)).toBeGreaterThan(10);
  });

  it("builds the daily rollups with the ingest's refresh: one row per device and day, all valid", async () => {
    const c = await one(`select
      (select count(*) from telemetry_daily where tenant_id = '${tenantA}')::int as rollup_days,
      (select sum(c_readings) from telemetry_daily r where tenant_id = '${tenantA}'
         and day = (select max(day) from telemetry_daily r2 where r2.tenant_id = r.tenant_id and r2.device_id = r.device_id))::int as readings,
      (select count(*) from telemetry_rollup_state where tenant_id = '${tenantA}' and clean_before > (select max(day) from telemetry_daily where tenant_id = '${tenantA}'))::int as valid_devices`);
    expect(c).toEqual({ rollup_days: 20 * 30, readings: 20 * 30 * 3, valid_devices: 20 });
  });

  it("is deterministic: the same options and anchor give the same rows in another tenant", async () => {
    const diff = async (table: string, columns: string) =>
      one(`select count(*)::int as n from (
        (select device_id, ${columns} from ${table} where tenant_id = '${tenantA}' except all select device_id, ${columns} from ${table} where tenant_id = '${tenantB}')
        union all
        (select device_id, ${columns} from ${table} where tenant_id = '${tenantB}' except all select device_id, ${columns} from ${table} where tenant_id = '${tenantA}')) x`);
    // jsonb and arrays compare by value; text casts keep EXCEPT away from types without equality.
    expect(await diff("telemetry", SIGNALS.replace("raw_data", "raw_data::text").replace("dtc_codes", "dtc_codes::text"))).toEqual({ n: 0 });
    expect(await diff("fleet_snapshot", SIGNALS.replace("raw_data", "raw_data::text").replace("dtc_codes", "dtc_codes::text"))).toEqual({ n: 0 });
    expect(await diff("driving_events", "ts, kind, source, value, duration_s, record_ts, received_at")).toEqual({ n: 0 });
    expect(
      await diff(
        "devices",
        "name, vin, make, model, year, powertrain, powertrain_source, fuel_type, battery_kwh, original_price_eur, contract_km, lease_start, lease_months, asset_class, master_data_at, odometer_max_km, odometer_max_at, events_reported_at",
      ),
    ).toEqual({ n: 0 });
    expect(
      await diff(
        "alerts",
        "agent, severity, prediction, confidence, technical_data::text, dedupe_key, occurrences, first_seen_at, last_seen_at, worst_value, latest_value, acknowledged, acknowledged_at, created_at",
      ),
    ).toEqual({ n: 0 });
    // And the digest of the ordered telemetry, for the record.
    const md5 = async (t: string) =>
      (await one(`select md5(string_agg(row(device_id, ${SIGNALS})::text, '|' order by device_id, ts)) as h from telemetry where tenant_id = '${t}'`)).h;
    expect(await md5(tenantA)).toBe(await md5(tenantB));
  });

  it("keeps the readings inside the window before the anchor's day, every device every day", async () => {
    const r = await one(`select min(ts) as first, max(ts) as last, count(distinct (ts at time zone 'UTC')::date)::int as days,
      count(*) filter (where ts >= '${ANCHOR.toISOString()}')::int as future
      from telemetry where tenant_id = '${tenantA}'`);
    expect(r.future).toBe(0);
    expect(r.days).toBe(30);
    expect(new Date(String(r.first)).getTime()).toBeGreaterThanOrEqual(Date.parse("2025-02-12T00:00:00Z"));
    expect(new Date(String(r.last)).getTime()).toBeLessThan(Date.parse("2025-03-14T00:00:00Z"));
  });

  it("has a monotonic odometer per device, and the device row holds its maximum", async () => {
    const r = await one(`select count(*)::int as backwards from (
      select odometer_km - lag(odometer_km) over (partition by device_id order by ts) as d from telemetry where tenant_id = '${tenantA}') x where d < 0`);
    expect(r.backwards).toBe(0);
    const m = await one(`select count(*)::int as wrong from devices d
      where d.tenant_id = '${tenantA}' and d.odometer_max_km is distinct from (select max(odometer_km) from telemetry t where t.tenant_id = d.tenant_id and t.device_id = d.device_id)`);
    expect(m.wrong).toBe(0);
    const km = await one(`select min(k)::float8 as lo, max(k)::float8 as hi from (
      select (max(odometer_km) - min(odometer_km)) * 365.0 / 30 as k from telemetry where tenant_id = '${tenantA}' group by device_id) x`);
    expect(Number(km.lo)).toBeGreaterThan(10_000);
    expect(Number(km.hi)).toBeLessThan(35_000);
  });

  it("stores each device's latest telemetry row as its snapshot", async () => {
    const r = await one(`select count(*)::int as n from (
      (select device_id, ${SIGNALS.replace("raw_data", "raw_data::text").replace("dtc_codes", "dtc_codes::text")} from fleet_snapshot where tenant_id = '${tenantA}')
      except all
      (select distinct on (device_id) device_id, ${SIGNALS.replace("raw_data", "raw_data::text").replace("dtc_codes", "dtc_codes::text")}
       from telemetry where tenant_id = '${tenantA}' order by device_id, ts desc)) x`);
    expect(r.n).toBe(0);
  });

  it("leaves EV-only columns null for combustion vehicles and fills them for plug-ins", async () => {
    const r = await rows<Record<string, unknown>>(
      db,
      sql`select d.powertrain, count(distinct d.device_id)::int as devices,
        count(t.soc_pct)::int as soc, count(t.soh_pct)::int as soh, count(t.charging_status)::int as chg_status,
        count(t.charging_power_kw)::int as chg_kw, count(d.battery_kwh)::int as battery, count(t.fuel_level_pct)::int as fuel, count(*)::int as readings
      from devices d join telemetry t on t.tenant_id = d.tenant_id and t.device_id = d.device_id
      where d.tenant_id = ${tenantA} group by d.powertrain`,
    );
    const by = new Map(r.map((x) => [String(x.powertrain), x]));
    for (const pt of ["ICE", "HEV"]) {
      const x = by.get(pt);
      if (!x) continue;
      expect(x).toMatchObject({ soc: 0, soh: 0, chg_status: 0, chg_kw: 0, battery: 0, fuel: x.readings });
    }
    const bev = by.get("BEV");
    expect(bev).toBeDefined();
    expect(bev).toMatchObject({ soc: bev?.readings, soh: bev?.readings, battery: bev?.readings, fuel: 0 });
    expect(Number(bev?.chg_kw)).toBeGreaterThan(0);
    // Every row of the seed carries the declared master data.
    const src = await one(`select count(*) filter (where powertrain_source <> 'master_data' or powertrain is null)::int as n from devices where tenant_id = '${tenantA}'`);
    expect(src.n).toBe(0);
  });

  it("keeps at most one open alert per device, problem and severity, and alerts before the anchor", async () => {
    const r = await one(`select count(*)::int as n from (select 1 from alerts where tenant_id = '${tenantA}' and not acknowledged and dedupe_key is not null
      group by device_id, dedupe_key, severity having count(*) > 1) x`);
    expect(r.n).toBe(0);
    const late = await one(`select count(*)::int as n from alerts where tenant_id = '${tenantA}'
      and (created_at > '${ANCHOR.toISOString()}' or last_seen_at > '${ANCHOR.toISOString()}' or acknowledged_at > '${ANCHOR.toISOString()}')`);
    expect(late.n).toBe(0);
  });

  it("computes every device's TAS and the 30-day fleet risk through the verbs", async () => {
    const ctx = { db, tenantId: tenantA, isSandbox: false, log: rootLogger() };
    const risk = await getFleetRisk({ ctx, input: { period: 30 }, now: ANCHOR });
    expect(risk.device_count).toBe(20);
    expect(risk.fleet_risk_score).toBeGreaterThanOrEqual(0);
    for (let n = 1; n <= 20; n++) {
      const tas = await getTas({ ctx, input: { device_id: deviceIdOf(n, 20) }, now: ANCHOR });
      expect(tas.tas_score).toBeGreaterThanOrEqual(0);
      expect(tas.tas_score).toBeLessThanOrEqual(100);
    }
  });
});
