import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/** Counters for rate-limiter-flexible's RateLimiterDrizzle (used on Postgres when no Redis is configured). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull(),
  expire: timestamptz("expire"),
});
