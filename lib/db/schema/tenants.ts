import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
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
  createdAt: createdAt(),
});
