import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/** Small key/value table for service state such as the sandbox seed's anchor and version. */
export const serviceMeta = pgTable("service_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
});
