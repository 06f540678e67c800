/**
 * Vehicle master data (CONTRACT "Settled details"): the asset classes, and the precedence rule that
 * merges what a payload declares into what a device already holds. The rule exists twice by
 * necessity: as SQL (the ingest's set-based device upsert, lib/ingest/store-batch.ts) and as a JS
 * mirror (the sandbox replay, lib/seed/, and the ingest's prediction while its upsert runs); both live
 * here, next to each other, and tests/db/ingest-mirrors.test.ts checks on a real database that they agree.
 *
 * No imports: the drizzle schema (loaded by drizzle-kit without the `@/` alias) depends on this file.
 */

export const ASSET_CLASSES = ["passenger_car", "light_commercial", "heavy_truck", "other"] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];
/** CONTRACT: an undeclared asset class reads as a passenger car. */
export const DEFAULT_ASSET_CLASS: AssetClass = "passenger_car";

export function isAssetClass(x: unknown): x is AssetClass {
  return typeof x === "string" && (ASSET_CLASSES as readonly string[]).includes(x);
}

// ---------------------------------------------------------------------------------------------
// Precedence: "values from a record at least as new as the device's latest overwrite; an older
// record only fills fields still empty". `master_data_at` is the device time of the newest record
// that carried master data.

/** Incoming master data is at least as new as the stored one (and there is incoming master data at all). */
export function isNewerMasterData(incomingAt: Date | null, storedAt: Date | null): boolean {
  return incomingAt !== null && (storedAt === null || incomingAt.getTime() >= storedAt.getTime());
}

/** One master-data field: a newer declaration overwrites (an absent value keeps the stored one); an older one only fills a gap. */
export function mergeMasterValue<T>(stored: T | null, incoming: T | null, incomingIsNewer: boolean): T | null {
  return incomingIsNewer ? (incoming ?? stored) : (stored ?? incoming);
}

/** `master_data_at` after the merge: the newer of the two (SQL `greatest`, which ignores nulls). */
export function mergeMasterDataAt(stored: Date | null, incoming: Date | null): Date | null {
  if (stored === null) return incoming;
  if (incoming === null) return stored;
  return incoming.getTime() > stored.getTime() ? incoming : stored;
}

/**
 * The same rule as SQL text for `insert into devices … on conflict do update set <col> = …`, where
 * `excluded` is the payload's row and `devices` the stored one.
 */
export const NEWER_MASTER_DATA_SQL = "(excluded.master_data_at is not null and (devices.master_data_at is null or excluded.master_data_at >= devices.master_data_at))";

export function masterValueMergeSql(column: string): string {
  return `case when ${NEWER_MASTER_DATA_SQL} then coalesce(excluded.${column}, devices.${column}) else coalesce(devices.${column}, excluded.${column}) end`;
}
