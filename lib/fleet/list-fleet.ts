import { and, asc, eq, Param, Placeholder, SQL, sql, StringChunk } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { TenantCtx } from "@/lib/context";
import { alerts, devices, fleetSnapshot } from "@/lib/db/schema";
import { preparedRows } from "@/lib/db/prepared";
import { sqlNumber } from "@/lib/db/sql-values";
import type { FleetList, FleetQuery } from "@/lib/schemas/fleet";
import { SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { alertLevelFromRank, chargingStatusMemo, deriveIgnition, deriveStatus } from "./derive-fleet-state";

/** Rank of a severity (SEVERITY_RANK) for "highest unacknowledged alert". */
const rankCases = sql.raw(SEVERITIES.map((s) => `when '${s}' then ${SEVERITY_RANK[s]}`).join(" "));
const severityRank = sql<number>`max(case ${alerts.severity} ${rankCases} else 0 end)::int`;

/**
 * The statement behind the tenant's fleet snapshot (one round trip, ordered by device_id); exported so
 * that tests can EXPLAIN exactly what runs (tests/db/fleet-query-plan.test.ts).
 *
 * The page is chosen first, from the snapshot alone (its primary key is `(tenant_id, device_id)`, so
 * `ORDER BY device_id LIMIT n` reads n index entries), then each selected vehicle's name and open
 * alerts are looked up with LATERAL index probes. The plan is then the same whatever the statistics
 * say. For a tenant whose rows autovacuum has not analysed yet (a new customer's first bulk ingest),
 * the planner expects one row; the joins written as joins then ran as nested loops that rescanned the
 * tenant's devices once per snapshot row, and aggregated all its open alerts before the LIMIT (issue 13:
 * 22–34 ms for 500 of 10,000 vehicles, against 2 ms once analysed; bench/fleet-plan.ts).
 */
export function fleetPageQuery({ ctx, input }: { ctx: TenantCtx; input: FleetQuery }) {
  const page = ctx.db
    .select({
      deviceId: fleetSnapshot.deviceId,
      ts: fleetSnapshot.ts,
      lat: fleetSnapshot.lat,
      lon: fleetSnapshot.lon,
      speedKmh: fleetSnapshot.speedKmh,
      batteryVoltage: fleetSnapshot.batteryVoltage,
      chargingStatus: fleetSnapshot.chargingStatus,
      chargingPowerKw: fleetSnapshot.chargingPowerKw,
      ignition: fleetSnapshot.ignition,
      weatherTemp: fleetSnapshot.weatherTemp,
    })
    .from(fleetSnapshot)
    .where(eq(fleetSnapshot.tenantId, ctx.tenantId))
    .orderBy(asc(fleetSnapshot.deviceId))
    .limit(input.limit)
    .as("page");

  const device = ctx.db
    .select({ name: devices.name })
    .from(devices)
    .where(and(eq(devices.tenantId, ctx.tenantId), eq(devices.deviceId, page.deviceId)))
    // At most one row anyway (the primary key); the LIMIT keeps Postgres from flattening the probe
    // into a plain join, which it would run as a rescan of the tenant's devices per row when it
    // expects one row (unanalysed tenant).
    .limit(1)
    .as("device");

  const openAlerts = ctx.db
    .select({ rank: severityRank.as("rank") })
    .from(alerts)
    .where(and(eq(alerts.tenantId, ctx.tenantId), eq(alerts.deviceId, page.deviceId), eq(alerts.acknowledged, false)))
    .as("open_alerts");

  return ctx.db
    .select({
      deviceId: page.deviceId,
      name: device.name,
      // The answer's two uses of the time, made by Postgres: no Date object per row in JS.
      updatedAt: sql<string>`to_char(${page.ts} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as("updated_at"),
      tsMs: sql<number>`(extract(epoch from ${page.ts}) * 1000)::float8`.as("ts_ms"),
      lat: page.lat,
      lon: page.lon,
      speedKmh: page.speedKmh,
      batteryVoltage: page.batteryVoltage,
      chargingStatus: page.chargingStatus,
      chargingPowerKw: page.chargingPowerKw,
      ignition: page.ignition,
      weatherTemp: page.weatherTemp,
      rank: openAlerts.rank,
    })
    .from(page)
    .innerJoinLateral(device, sql`true`)
    .leftJoinLateral(openAlerts, sql`true`)
    .orderBy(asc(page.deviceId));
}

/** The fleet statement's text cut at its parameters, and the parameters (placeholders for the request's values). */
interface CompiledFleetStatement {
  parts: string[];
  params: unknown[];
}
let compiled: CompiledFleetStatement | null = null;

function compileFleetStatement(db: Db): CompiledFleetStatement {
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect;
  const ctx = { db, tenantId: sql.placeholder("tenant_id") } as unknown as TenantCtx;
  const input = { limit: sql.placeholder("limit") } as unknown as FleetQuery;
  const q = dialect.sqlToQuery(fleetPageQuery({ ctx, input }).getSQL());
  const parts = q.sql.split(/\$\d+/);
  if (parts.length !== q.params.length + 1) throw new Error("the fleet statement's parameters could not be located");
  return { parts, params: q.params };
}

/**
 * fleetPageQuery's statement for this tenant and page size, without building the query anew: its
 * text is the same for every request (built once per process, with placeholders for the tenant and
 * the page size), only the parameters change. Building it with drizzle's query builder showed as
 * 0.3–0.4 ms of CPU per request in the profile (the subquery aliases, an `is()` check per column;
 * busy machine). The same text and
 * parameters as `fleetPageQuery({ ctx, input }).toSQL()` (tests/db/fleet-named-statement.test.ts).
 */
export function fleetStatement({ ctx, input }: { ctx: TenantCtx; input: FleetQuery }): SQL {
  compiled ??= compileFleetStatement(ctx.db);
  const { parts, params } = compiled;
  const chunks: (StringChunk | Param)[] = [new StringChunk(parts[0]!)];
  params.forEach((p, i) => {
    const value = p instanceof Placeholder ? (p.name === "tenant_id" ? ctx.tenantId : input.limit) : p;
    chunks.push(new Param(value), new StringChunk(parts[i + 1]!));
  });
  return new SQL(chunks);
}

/** One row of the fleet statement as the driver returns it (column names; numbers may be strings on PGlite). */
interface FleetRow extends Record<string, unknown> {
  device_id: string;
  name: string;
  updated_at: string;
  ts_ms: unknown;
  lat: unknown;
  lon: unknown;
  speed_kmh: unknown;
  battery_voltage: unknown;
  charging_status: string | null;
  charging_power_kw: unknown;
  ignition: unknown;
  weather_temp: unknown;
  rank: unknown;
}

export async function listFleet({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: FleetQuery; now?: Date }): Promise<FleetList> {
  // Raw rows, mapped once here: drizzle's own row mapping (an `is()` check per field per row through
  // the subquery aliases) was the largest CPU cost of a 500-row page (docs/performance.md).
  // A named prepared statement (its text is the same for every tenant and page size): parsed once per
  // connection and sent in one round trip, where drizzle's unnamed `execute` costs a Parse/Describe
  // round trip before the Bind/Execute one at every call (lib/db/prepared.ts).
  const found = await preparedRows<FleetRow>(ctx.db, fleetStatement({ ctx, input }));
  const isCharging = chargingStatusMemo();
  const data = found.map((r) => {
    const signals = {
      ts: sqlNumber(r.ts_ms) ?? 0,
      speedKmh: sqlNumber(r.speed_kmh),
      ignition: sqlNumber(r.ignition),
      chargingStatus: r.charging_status,
      chargingPowerKw: sqlNumber(r.charging_power_kw),
    };
    return {
      device_id: r.device_id,
      device_name: r.name,
      vehicle_speed: signals.speedKmh,
      battery_voltage: sqlNumber(r.battery_voltage),
      lat: sqlNumber(r.lat),
      lon: sqlNumber(r.lon),
      status: deriveStatus(signals, now, isCharging),
      alert_level: alertLevelFromRank(sqlNumber(r.rank)),
      weather_temp: sqlNumber(r.weather_temp),
      ignition: deriveIgnition(signals),
      updated_at: r.updated_at,
    };
  });
  return { data, count: data.length, tenant_id: ctx.tenantId };
}
