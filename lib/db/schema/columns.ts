import { text, timestamp } from "drizzle-orm/pg-core";

/** Shared column helpers, so every table spells tenancy and time the same way. */
export const tenantId = () => text("tenant_id").notNull();
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => timestamptz("created_at").notNull().defaultNow();
