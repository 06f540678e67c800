import { date, doublePrecision, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

export const POWERTRAINS = ["BEV", "PHEV", "HEV", "ICE"] as const;
export const ASSET_CLASSES = ["passenger_car", "light_commercial", "heavy_truck", "other"] as const;

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
    /** BEV | PHEV | HEV | ICE; null = unknown. */
    powertrain: text("powertrain"),
    /** How powertrain was learnt: `master_data` (declared) or `inferred` (from the signals). */
    powertrainSource: text("powertrain_source"),
    fuelType: text("fuel_type"),
    batteryKwh: doublePrecision("battery_kwh"),
    originalPriceEur: doublePrecision("original_price_eur"),
    contractKm: integer("contract_km"),
    leaseStart: date("lease_start", { mode: "string" }),
    leaseMonths: integer("lease_months"),
    /** passenger_car | light_commercial | heavy_truck | other; null = not declared (read as passenger_car). */
    assetClass: text("asset_class"),
    /** Device timestamp of the record that last wrote master data (older records only fill gaps). */
    masterDataAt: timestamptz("master_data_at"),
    /** Highest odometer reading ever received and its device time (odometer integrity checks). */
    odometerMaxKm: doublePrecision("odometer_max_km"),
    odometerMaxAt: timestamptz("odometer_max_at"),
    createdAt: createdAt(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deviceId] })],
);
