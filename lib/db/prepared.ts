/**
 * Named prepared statements, for the statements FDP sends often and whose text never changes (the
 * parameters do). drizzle's `db.execute` sends every statement unnamed: postgres.js then needs two
 * round trips (Parse/Describe, then Bind/Execute) and Postgres parses and plans it at every call.
 * A named statement is parsed once per connection; postgres.js keeps one per distinct text per
 * connection, so only fixed-text statements belong here (an `in (…)` list of variable length would
 * add a statement per length).
 *
 * `genericPlanRows` goes further for statements whose PLANNING costs more than their execution and whose
 * plan does not depend on the parameters' values: it runs them on a small second pool whose connections
 * have `plan_cache_mode = force_generic_plan`, so Postgres plans the statement once per connection
 * instead of at every call. The TAS statement is the case in point (about 25 lateral index probes over
 * every monthly partition of the telemetry: 7 ms of planning for 3 ms of execution; docs/performance.md
 * "Generic plans for the TAS statement"). The setting cannot be given per statement, and on the main
 * pool it would also turn drizzle's unnamed statements into generic plans (planned without their
 * parameters at every call), hence the separate pool.
 *
 * The embedded database (PGlite) has neither: both functions run the statement as `db.execute` does.
 */
import type { SQL } from "drizzle-orm";
import type { Db } from "./db-type";
import { rows } from "./sql-values";

/** The part of a postgres.js client these functions use. */
interface UnsafeClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown>;
}

interface DbInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: { client?: unknown };
}

/** A postgres.js `Sql` (pool) or `TransactionSql` is a tagged-template function with `unsafe`; PGlite is an object. */
const isPostgresJs = (c: unknown): c is UnsafeClient => typeof c === "function" && typeof (c as { unsafe?: unknown }).unsafe === "function";

/** The postgres.js client behind `db` (the pool, or the transaction's connection), or null for PGlite. */
function postgresClientOf(db: Db): UnsafeClient | null {
  const client = (db as unknown as DbInternals).session?.client;
  return isPostgresJs(client) ? client : null;
}

async function runPrepared<T>(client: UnsafeClient, db: Db, query: SQL): Promise<T[]> {
  const q = (db as unknown as DbInternals).dialect.sqlToQuery(query);
  return (await client.unsafe(q.sql, q.params, { prepare: true })) as T[];
}

/** The rows of `query` through a named prepared statement (see above); PGlite: `db.execute`. */
export async function preparedRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const client = postgresClientOf(db);
  return client ? runPrepared<T>(client, db, query) : rows<T>(db, query);
}

/** Pools of generic-plan connections, by the database handle they belong to (see `registerGenericPlanPool`). */
const pools = new WeakMap<Db, { open: () => UnsafeClient; client?: UnsafeClient; close?: () => Promise<void> }>();

/**
 * Called by lib/db/client.ts when it opens a Postgres pool: how to open its generic-plan pool, lazily
 * (a process that never scores a TAS never opens it). Returns the function that closes it, if opened.
 */
export function registerGenericPlanPool(db: Db, open: () => { client: unknown; close: () => Promise<void> }): () => Promise<void> {
  const entry: { open: () => UnsafeClient; client?: UnsafeClient; close?: () => Promise<void> } = {
    open: () => {
      const opened = open();
      if (!isPostgresJs(opened.client)) throw new Error("the generic-plan pool is not a postgres.js client");
      entry.close = opened.close;
      return opened.client;
    },
  };
  pools.set(db, entry);
  return async () => {
    pools.delete(db);
    await entry.close?.();
  };
}

/** Whether `db` is a Postgres pool of the app (not a transaction, not PGlite): statements sent together may run on several connections at once. */
export const isPostgresPool = (db: Db): boolean => pools.has(db);

/**
 * The rows of `query` through a named statement with a generic plan, on the generic-plan pool of `db`.
 * Outside a registered pool (a transaction, the replica's pool, PGlite) it is `preparedRows`: a
 * transaction's statements must run on its own connection.
 */
export async function genericPlanRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const entry = pools.get(db);
  if (!entry) return preparedRows<T>(db, query);
  entry.client ??= entry.open();
  return runPrepared<T>(entry.client, db, query);
}

/** A statement as text and parameters, as drizzle sends it. */
export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/** The text and parameters of `query`, built by `db`'s dialect (the same for both drivers). */
export const buildQuery = (db: Db, query: SQL): BuiltQuery => (db as unknown as DbInternals).dialect.sqlToQuery(query);

/**
 * Runs a statement built beforehand (`buildQuery`) as `genericPlanRows` (or `preparedRows`) runs an SQL
 * object; null on the embedded database, whose caller then runs the SQL object itself.
 */
export async function runBuiltQuery<T extends Record<string, unknown>>(db: Db, query: BuiltQuery, { genericPlan }: { genericPlan: boolean }): Promise<T[] | null> {
  const entry = genericPlan ? pools.get(db) : undefined;
  if (entry) entry.client ??= entry.open();
  const client = entry?.client ?? postgresClientOf(db);
  if (!client) return null;
  return (await client.unsafe(query.sql, query.params, { prepare: true })) as T[];
}
