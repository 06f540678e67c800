import { boolean, doublePrecision, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const tenants = pgTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  entitlements: text("entitlements").array().notNull().default([]),
  /** Custom per-key request limit (requests per minute); null = the env default. */
  rateLimitPerMin: integer("rate_limit_per_min"),
  /** HMAC-SHA256 key for signed ingest (CONTRACT: the string's UTF-8 bytes). Needed in clear to verify. */
  ingestSecret: text("ingest_secret").notNull(),
  requireSignedIngest: boolean("require_signed_ingest").notNull().default(false),
  /**
   * The emission factor of the tenant's electricity supply contract, g CO2e per kWh (supplier-specific,
   * e.g. from a guarantee of origin): the CSRD report's market-based Scope 2. null = none configured
   * (market-based Scope 2 is then reported as not available).
   */
  electricityContractGPerKwh: doublePrecision("electricity_contract_g_per_kwh"),
  createdAt: createdAt(),
});
