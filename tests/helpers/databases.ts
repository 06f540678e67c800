import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { migrateDatabase, openDatabase, type DbHandle } from "@/lib/db/client";

/** Server used for throw-away test databases (CI and the dev machines run Postgres here). */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  handle: DbHandle;
  kind: "postgres" | "pglite";
  /** DATABASE_URL for child processes (postgres only). */
  url?: string;
  /** FDP_DATA_DIR for child processes (pglite only; usable once `handle` is closed). */
  dataDir?: string;
  dispose(): Promise<void>;
}

export function pgUrlFor(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh Postgres database, dropped on dispose. */
export async function createPostgresDatabase(prefix = "fdp_test"): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  return {
    url: pgUrlFor(name),
    async drop() {
      const a = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

/** A fresh, migrated database of the kind this test project runs on (FDP_TEST_DB). */
export async function createTestDatabase(kind = (process.env.FDP_TEST_DB ?? "postgres") as "postgres" | "pglite"): Promise<TestDatabase> {
  if (kind === "postgres") {
    const pg = await createPostgresDatabase();
    const handle = await openDatabase({ url: pg.url });
    await migrateDatabase(handle);
    return {
      handle,
      kind,
      url: pg.url,
      async dispose() {
        await handle.close();
        await pg.drop();
      },
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "fdp-pglite-"));
  const handle = await openDatabase({ dataDir, url: null });
  await migrateDatabase(handle);
  return {
    handle,
    kind,
    dataDir,
    async dispose() {
      await handle.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
