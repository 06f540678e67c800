import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * The spot-price cache (endpoint 14, docs/spot-prices.md): the last series fetched from each source,
 * one row per source key (`porssisahko:<base url>`). It lives in the database so every app instance
 * shares it: one instance's fetch serves the others for 15 minutes, and for up to 24 h as a stale
 * answer while the source is down.
 */
export const spotPriceCache = pgTable("spot_price_cache", {
  sourceKey: text("source_key").primaryKey(),
  /** The normalised series (lib/energy/series.ts `SpotSeries`), exactly as served. */
  series: jsonb("series").notNull(),
  fetchedAt: timestamptz("fetched_at").notNull(),
});
