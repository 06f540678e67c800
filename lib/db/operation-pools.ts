import { env } from "@/lib/env";
import { openPostgresDatabase, type Db, type DbHandle } from "./client";

/**
 * The operations' own connection pools on the primary (docs/scaling.md "Budgets: heavy and interactive
 * operations"), so that no tenant's long reads take the connections everyone else's short ones need:
 *
 * - `heavy`: fleet-wide scores, batches, reports, certificate generation (operations with
 *   `cost: "heavy"`, lib/operations/define-operation.ts). HEAVY_POOL_MAX connections, each statement cut
 *   after STATEMENT_TIMEOUT_MS (default 30 s).
 * - `interactive`: the other read-only operations (`reads: "replica"`: the fleet, alerts, one vehicle's
 *   scores). INTERACTIVE_POOL_MAX connections, each statement cut after INTERACTIVE_STATEMENT_TIMEOUT_MS
 *   (default 10 s): an interactive read that runs that long is already a failure for its user, and
 *   cutting it returns its connection to the others.
 *
 * Everything else (the ingest, certificate verification, authentication and rate limits, the
 * dashboard, the CLI, start-up migrations and the rollup refresh) keeps the process-wide pool of
 * lib/db/client.ts, so none of them is cut by a timeout chosen for reads.
 *
 * Only with DATABASE_URL (Postgres): the embedded database serves one connection at a time, so there is
 * no pool to split, and the operations keep the context's db. Each pool opens on its first use.
 */
type PoolKind = "heavy" | "interactive";

const APPLICATION_NAMES: Record<PoolKind, string> = { heavy: "fdp-heavy", interactive: "fdp-interactive" };

interface PoolSettings {
  url: string;
  max: number;
  statementTimeoutMs: number;
}

function settingsFor(kind: PoolKind): PoolSettings | null {
  const e = env();
  if (!e.DATABASE_URL) return null;
  return kind === "heavy"
    ? { url: e.DATABASE_URL, max: e.HEAVY_POOL_MAX, statementTimeoutMs: e.STATEMENT_TIMEOUT_MS }
    : // Never longer than STATEMENT_TIMEOUT_MS, which the CONTRACT makes the limit of every statement.
      { url: e.DATABASE_URL, max: e.INTERACTIVE_POOL_MAX, statementTimeoutMs: Math.min(e.INTERACTIVE_STATEMENT_TIMEOUT_MS, e.STATEMENT_TIMEOUT_MS) };
}

interface OpenPool {
  /** The settings it was opened with (tests change the env between files: a change opens a new pool). */
  key: string;
  handle: Promise<DbHandle>;
}

const g = globalThis as typeof globalThis & { __fdpOperationPools?: Map<PoolKind, OpenPool> };
const pools = (g.__fdpOperationPools ??= new Map<PoolKind, OpenPool>());

/** The pool of `kind`'s db, or null when there is none (no DATABASE_URL: the caller keeps its own db). */
export async function operationPoolDb(kind: PoolKind): Promise<Db | null> {
  const settings = settingsFor(kind);
  if (!settings) return null;
  const key = JSON.stringify(settings);
  let pool = pools.get(kind);
  if (pool?.key !== key) {
    if (pool) void pool.handle.then((h) => h.close()).catch(() => {});
    const handle = openPostgresDatabase(settings.url, {
      max: settings.max,
      applicationName: APPLICATION_NAMES[kind],
      statementTimeoutMs: settings.statementTimeoutMs,
    });
    pool = { key, handle };
    pools.set(kind, pool);
    const opened = pool;
    // A failed open is not cached: the next request tries again.
    handle.catch(() => {
      if (pools.get(kind) === opened) pools.delete(kind);
    });
  }
  return (await pool.handle).db;
}

/** Closes both pools (tests, shutdown); the next operation reopens them. */
export async function closeOperationPools(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((p) => p.handle.then((h) => h.close()).catch(() => {})));
}
