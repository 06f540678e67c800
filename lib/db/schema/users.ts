import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tenantId } from "./columns";
import { tenants } from "./tenants";

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    /** Stored lower-cased; unique across tenants because sign-in starts from the e-mail alone. */
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("users_tenant_idx").on(t.tenantId)],
);
