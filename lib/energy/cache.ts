import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { spotPriceCache } from "@/lib/db/schema";
import type { SpotSeries } from "./series";

/**
 * The shared cache (table spot_price_cache): every instance reads and writes the same row per source,
 * so "cached" means cached for the whole deployment, not for one process.
 */
export interface CachedSeries {
  series: SpotSeries;
  fetchedAt: Date;
}

export async function readCachedSeries(db: Db, key: string): Promise<CachedSeries | null> {
  const [row] = await db.select().from(spotPriceCache).where(eq(spotPriceCache.sourceKey, key)).limit(1);
  return row ? { series: row.series as SpotSeries, fetchedAt: row.fetchedAt } : null;
}

export async function writeCachedSeries(db: Db, key: string, entry: CachedSeries): Promise<void> {
  await db
    .insert(spotPriceCache)
    .values({ sourceKey: key, series: entry.series, fetchedAt: entry.fetchedAt })
    .onConflictDoUpdate({ target: spotPriceCache.sourceKey, set: { series: entry.series, fetchedAt: entry.fetchedAt } });
}
