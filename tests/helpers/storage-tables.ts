import type postgres from "postgres";

/**
 * The tables that hold a table's rows: itself, or its partitions when it is partitioned (the telemetry
 * history, by month: migration 0010). Storage parameters (autovacuum) and statistics counters
 * (`pg_stat_user_tables`) exist per partition, not on the partitioned parent.
 */
async function storageTables(raw: postgres.Sql, table: string): Promise<string[]> {
  const parts = await raw<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = ${table}::regclass order by c.relname`;
  return parts.length > 0 ? parts.map((p) => p.name) : [table];
}

/** Autovacuum off on `tables` (each partition of a partitioned one), so that "unanalysed" stays so during a test. */
export async function disableAutovacuum(raw: postgres.Sql, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    for (const t of await storageTables(raw, table)) await raw.unsafe(`alter table ${t} set (autovacuum_enabled = false)`);
  }
}
