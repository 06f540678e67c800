import { sql } from "drizzle-orm";
import { doublePrecision, index, jsonb, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { tenantId, timestamptz } from "./columns";

/**
 * The signal columns shared by the latest state (fleet_snapshot) and the history (telemetry).
 * `ts` is the device's own timestamp; `received_at` is when FDP stored the record, so every
 * answer can say how fresh its data is.
 */
const signals = () => ({
  tenantId: tenantId(),
  deviceId: text("device_id").notNull(),
  ts: timestamptz("ts").notNull(),
  receivedAt: timestamptz("received_at").notNull().defaultNow(),
  lat: doublePrecision("lat"),
  lon: doublePrecision("lon"),
  speedKmh: doublePrecision("speed_kmh"),
  batteryVoltage: doublePrecision("battery_voltage"),
  socPct: doublePrecision("soc_pct"),
  sohPct: doublePrecision("soh_pct"),
  odometerKm: doublePrecision("odometer_km"),
  chargingStatus: text("charging_status"),
  chargingPowerKw: doublePrecision("charging_power_kw"),
  fuelLevelPct: doublePrecision("fuel_level_pct"),
  engineHours: doublePrecision("engine_hours"),
  dtcCodes: text("dtc_codes").array(),
  /** 1 on, 0 off; null when the source said nothing and the speed gave no hint. */
  ignition: smallint("ignition"),
  /** Ambient temperature, degrees Celsius. */
  weatherTemp: doublePrecision("weather_temp"),
  rawData: jsonb("raw_data").$type<Record<string, unknown>>(),
});

/** Latest state per device; only ever moves forward in device time. */
export const fleetSnapshot = pgTable("fleet_snapshot", signals(), (t) => [primaryKey({ columns: [t.tenantId, t.deviceId] })]);

/**
 * One row per device and device timestamp; the primary key serves range scans per tenant and device,
 * which is what every statement reads. No `(tenant_id, ts)` index (dropped in migration 0021): no
 * statement reads a tenant's telemetry by time alone, and before any ANALYZE (PGlite never runs
 * autovacuum; Postgres waits for 10 % of a table to change) the planner took it for the cheaper path
 * into a device's range and read the tenant's whole period once per device (docs/performance.md).
 */
export const telemetry = pgTable("telemetry", signals(), (t) => [
  primaryKey({ columns: [t.tenantId, t.deviceId, t.ts] }),
  // The newest record that carried diagnostic trouble codes (the TAS's and vehicle health's active
  // DTCs): most records carry none, so without it the probe walks a device's history back to the last
  // one that did. Only those records are indexed, so the ingest barely pays for it.
  index("telemetry_dtc_idx")
    .on(t.tenantId, t.deviceId, t.ts)
    .where(sql`dtc_codes is not null`),
]);
