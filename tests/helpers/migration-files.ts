import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type postgres from "postgres";

/**
 * The project's SQL migrations in order, and a runner that applies one of them statement by statement,
 * as drizzle's migrator does: for tests of a migration on data written by the migrations before it.
 */
const dir = path.join(process.cwd(), "drizzle");

const migrationFiles = (): string[] =>
  readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();

export async function runMigrationFile(pg: postgres.Sql, file: string): Promise<void> {
  for (const statement of readFileSync(path.join(dir, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim() !== "") await pg.unsafe(statement);
  }
}

/** Applies every migration before the one whose file name starts with `prefix` (e.g. "0012_"), and returns that one's file name. */
export async function migrateUpTo(pg: postgres.Sql, prefix: string): Promise<string> {
  const files = migrationFiles();
  const index = files.findIndex((f) => f.startsWith(prefix));
  if (index < 0) throw new Error(`no migration ${prefix}*`);
  for (const f of files.slice(0, index)) await runMigrationFile(pg, f);
  return files[index]!;
}
