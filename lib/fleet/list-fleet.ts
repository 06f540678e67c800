import { and, asc, eq, sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { alerts, devices, fleetSnapshot } from "@/lib/db/schema";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import type { FleetList, FleetQuery } from "@/lib/schemas/fleet";
import { SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { alertLevelFromRank, deriveIgnition, deriveStatus } from "./derive-fleet-state";

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
  const found = await rows<FleetRow>(ctx.db, fleetPageQuery({ ctx, input }).getSQL());
  const data = found.map((r) => {
    const signals = { ts: sqlNumber(r.ts_ms) ?? 0, speedKmh: sqlNumber(r.speed_kmh), ignition: sqlNumber(r.ignition), chargingStatus: r.charging_status, chargingPowerKw: sqlNumber(r.charging_power_kw) };
    return {
      device_id: r.device_id,
      device_name: r.name,
      vehicle_speed: signals.speedKmh,
      battery_voltage: sqlNumber(r.battery_voltage),
      lat: sqlNumber(r.lat),
      lon: sqlNumber(r.lon),
      status: deriveStatus(signals, now),
      alert_level: alertLevelFromRank(sqlNumber(r.rank)),
      weather_temp: sqlNumber(r.weather_temp),
      ignition: deriveIgnition(signals),
      updated_at: r.updated_at,
    };
  });
  return { data, count: data.length, tenant_id: ctx.tenantId };
}
