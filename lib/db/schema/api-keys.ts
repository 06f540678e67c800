import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name"),
    /** Lowercase hex SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text("key_hash").notNull().unique(),
    /** First characters of the key, shown in the dashboard to tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [index("api_keys_tenant_idx").on(t.tenantId)],
);
