import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, integer, pgTable, text } from "drizzle-orm/pg-core";
// Relative import: drizzle-kit loads this schema without the `@/` path alias.
import { DEFAULT_REPORTING_ROLE, REPORTING_ROLES, type ReportingRole } from "../../vocabulary/reporting-role";
import { createdAt } from "./columns";

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export const tenants = pgTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    entitlements: text("entitlements").array().notNull().default([]),
    /** Custom per-key request limit (requests per minute); null = the env default. */
    rateLimitPerMin: integer("rate_limit_per_min"),
    /** HMAC-SHA256 key for signed ingest (CONTRACT: the string's UTF-8 bytes). Needed in clear to verify. */
    ingestSecret: text("ingest_secret").notNull(),
    requireSignedIngest: boolean("require_signed_ingest").notNull().default(false),
    /**
     * With requireSignedIngest: only a timestamped `X-FDP-Signature: t=…,sha256=…` is accepted
     * (`tenant:update --require-signed-ingest timestamped`); the plain header and `hmac_signature` are refused.
     */
    requireTimestampedSignature: boolean("require_timestamped_signature").notNull().default(false),
    /**
     * The emission factor of the tenant's electricity supply contract, g CO2e per kWh (supplier-specific,
     * e.g. from a guarantee of origin): the CSRD report's market-based Scope 2. null = none configured
     * (market-based Scope 2 is then reported as not available).
     */
    electricityContractGPerKwh: doublePrecision("electricity_contract_g_per_kwh"),
    /**
     * The CSRD reporting role (lib/vocabulary/reporting-role.ts): `operator` (default) or `lessor`;
     * where the fleet's emissions land in the CSRD report (Scope 1/2, or Scope 3 category 13 for the
     * days a lease covers). Set with `tenant:update --reporting-role`.
     */
    reportingRole: text("reporting_role").$type<ReportingRole>().notNull().default(DEFAULT_REPORTING_ROLE),
    createdAt: createdAt(),
  },
  (t) => [check("tenants_reporting_role_check", sql`${t.reportingRole} in (${list(REPORTING_ROLES)})`)],
);
