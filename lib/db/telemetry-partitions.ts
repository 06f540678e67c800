import { sql } from "drizzle-orm";
import { migrateDatabase, type Db, type DbHandle } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import type { Logger } from "@/lib/log/logger";

/**
 * Monthly partitions of the telemetry history (migration 0010, docs/performance.md "Monthly
 * partitions"). A month's partition must exist before its readings arrive, or they wait in
 * `telemetry_default` (still stored and read, only not in their month's partition). This keeps the
 * previous month, the current one and the next PARTITION_MONTHS_AHEAD ready: at start-up and at most
 * once an hour after an ingest. The previous month because readings arrive late: a vehicle offline
 * overnight sends the last evening of a month on the 1st, and a database first started (or migrated)
 * that day would otherwise keep them in the default partition for good (no later call creates a past
 * month). The SQL function moves readings that did land in the default partition, and serialises
 * concurrent callers, so any instance may call it at any time.
 */

const PARTITION_MONTHS_BEHIND = 1;
const PARTITION_MONTHS_AHEAD = 2;
const MIN_INTERVAL_MS = 3_600_000;

/** `YYYY-MM-01` of the UTC month `offset` months after the one holding `now`. */
export function monthStart(now: Date, offset = 0): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

/** Creates the partitions of the previous month, this one and the next ones when missing; returns the months it created. */
export async function ensureTelemetryPartitions({ db, now = new Date() }: { db: Db; now?: Date }): Promise<string[]> {
  const months = Array.from({ length: PARTITION_MONTHS_BEHIND + 1 + PARTITION_MONTHS_AHEAD }, (_, i) => monthStart(now, i - PARTITION_MONTHS_BEHIND));
  const created: string[] = [];
  for (const m of months) {
    const [r] = await rows<{ created: unknown }>(db, sql`select fdp_ensure_telemetry_partition(${m}::date) as created`);
    if (r?.created === true || r?.created === "t") created.push(m);
  }
  return created;
}

/**
 * The schema the app runs on: the migrations, then the telemetry partitions of the months around now
 * (a migration creates them only the first time it runs). Every process that opens the database calls
 * this, never migrateDatabase alone (tests/unit/db/migrate-entry-points.test.ts): the server's start-up,
 * `npm run db:migrate`, `npm run db:seed`, the admin CLI, the scripts and the test databases. Through the
 * embedded socket the serving process has migrated already (migrateDatabase does nothing there); the
 * partitions are still made sure of, as `npm run db:migrate` always did. Returns the months whose
 * partitions it created.
 */
export async function migrateWithPartitions(handle: DbHandle): Promise<string[]> {
  await migrateDatabase(handle);
  return ensureTelemetryPartitions({ db: handle.db });
}

/** The telemetry partitions and their bounds, oldest first (the default partition last). */
export async function listTelemetryPartitions(db: Db): Promise<{ name: string; bound: string }[]> {
  const found = await rows<{ name: string; bound: string }>(
    db,
    sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
          from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
         where p.relname = 'telemetry' and p.relnamespace = c.relnamespace
         order by c.relname = 'telemetry_default', c.relname`,
  );
  return found.map((r) => ({ name: String(r.name), bound: String(r.bound) }));
}

type State = { lastAt: number; running: Promise<void> | null };
const g = globalThis as typeof globalThis & { __fdpPartitionState?: State };
const state = (g.__fdpPartitionState ??= { lastAt: 0, running: null });

/** After an ingest: the hourly check, in the background. */
export function ensureTelemetryPartitionsSoon({ db, log, now = Date.now() }: { db: Db; log: Logger; now?: number }): Promise<void> | null {
  if (state.running || now - state.lastAt < MIN_INTERVAL_MS) return null;
  state.lastAt = now;
  state.running = ensureTelemetryPartitions({ db, now: new Date(now) })
    .then((created) => {
      if (created.length > 0) log.info({ months: created }, "telemetry partitions created");
    })
    .catch((err: unknown) => log.warn({ err }, "telemetry partition check failed (readings wait in the default partition)"))
    .finally(() => {
      state.running = null;
    });
  return state.running;
}
