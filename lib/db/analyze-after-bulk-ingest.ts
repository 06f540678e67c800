import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { Logger } from "@/lib/log/logger";

/**
 * Fresh planner statistics right after a large ingest. Autovacuum analyses a table once 10 % of it
 * has changed (`autovacuum_analyze_scale_factor`), checked every minute (`autovacuum_naptime`): a new
 * customer's first 10,000 vehicles can be queried for minutes with statistics that say the tenant has
 * none, and a statement shaped as a join then gets a plan fit for one row (docs/performance.md). The
 * read statements are shaped not to depend on it (the fleet snapshot); this refreshes the statistics
 * every other statement (scores, reports) plans from.
 *
 * After an ingest that created at least ANALYZE_AFTER_NEW_DEVICES devices, the tables an ingest fills
 * are analysed in the background: never in the request (the answer does not wait; read-your-writes
 * does not depend on statistics), at most one run at a time per process and at most one per
 * MIN_INTERVAL_MS, so a stream of bulk ingests costs one ANALYZE a minute (each samples 30,000 rows
 * per table at the default statistics target, whatever the table's size).
 */

export const ANALYZE_AFTER_NEW_DEVICES = 1_000;
const MIN_INTERVAL_MS = 60_000;
/** The tables an ingest writes, in the order the fleet and score statements read them. */
const TABLES = ["devices", "fleet_snapshot", "alerts", "telemetry", "driving_events"] as const;

type State = { running: Promise<void> | null; lastStartedAt: number };
const g = globalThis as typeof globalThis & { __fdpAnalyzeState?: State };
const state = (g.__fdpAnalyzeState ??= { running: null, lastStartedAt: 0 });

/** Starts the background ANALYZE when this ingest created enough devices; returns the run (or null when none started). */
export function analyzeAfterBulkIngest({ db, log, newDevices, now = Date.now() }: { db: Db; log: Logger; newDevices: number; now?: number }): Promise<void> | null {
  if (newDevices < ANALYZE_AFTER_NEW_DEVICES) return null;
  if (state.running || now - state.lastStartedAt < MIN_INTERVAL_MS) return null;
  state.lastStartedAt = now;
  const started = performance.now();
  state.running = (async () => {
    for (const table of TABLES) await db.execute(sql.raw(`analyze ${table}`));
    log.info({ new_devices: newDevices, ms: Math.round(performance.now() - started) }, "statistics refreshed after a bulk ingest");
  })()
    .catch((err: unknown) => log.warn({ err }, "ANALYZE after a bulk ingest failed (autovacuum will catch up)"))
    .finally(() => {
      state.running = null;
    });
  return state.running;
}

/**
 * For tests that check what an ingest started: waits for the background ANALYZE in flight, if any.
 * Returns whether there was one.
 */
export async function settleAnalyzeAfterBulkIngest(): Promise<boolean> {
  const running = state.running;
  if (running) await running;
  return Boolean(running);
}
