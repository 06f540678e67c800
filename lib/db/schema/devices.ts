import { date, doublePrecision, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this schema without the `@/` path alias.
import type { AssetClass } from "../../vocabulary/master-data";
import type { Powertrain, PowertrainSource } from "../../vocabulary/powertrain";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

/** Vehicle master data. `device_id` is unique per tenant only (CONTRACT "Settled details"). */
export const devices = pgTable(
  "devices",
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    name: text("name").notNull(),
    vin: text("vin"),
    make: text("make"),
    model: text("model"),
    year: integer("year"),
    /** lib/vocabulary/powertrain.ts; null = unknown. */
    powertrain: text("powertrain").$type<Powertrain>(),
    /** How powertrain was learnt: `master_data` (declared) or `inferred` (from the signals). */
    powertrainSource: text("powertrain_source").$type<PowertrainSource>(),
    fuelType: text("fuel_type"),
    batteryKwh: doublePrecision("battery_kwh"),
    originalPriceEur: doublePrecision("original_price_eur"),
    contractKm: integer("contract_km"),
    leaseStart: date("lease_start", { mode: "string" }),
    leaseMonths: integer("lease_months"),
    /** lib/vocabulary/master-data.ts; null = not declared (read as passenger_car). */
    assetClass: text("asset_class").$type<AssetClass>(),
    /** Device timestamp of the record that last wrote master data (older records only fill gaps). */
    masterDataAt: timestamptz("master_data_at"),
    /** Highest odometer reading ever received and its device time (odometer integrity checks). */
    odometerMaxKm: doublePrecision("odometer_max_km"),
    odometerMaxAt: timestamptz("odometer_max_at"),
    /**
     * Device time of the newest record that carried a `raw_data.events` array (even an empty one):
     * the source reports driving events, so "no event" in a window it covers means none happened.
     */
    eventsReportedAt: timestamptz("events_reported_at"),
    /** Device time of the newest pair of speed samples dense enough to derive harsh events from (lib/ingest/driving-events.ts). */
    denseSpeedAt: timestamptz("dense_speed_at"),
    createdAt: createdAt(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deviceId] })],
);
