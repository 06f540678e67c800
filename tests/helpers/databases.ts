import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
import { copyPgliteTemplate, createPostgresDatabaseNamed, dropPostgresDatabase, pgUrlFor, providedTemplates } from "./database-templates";

export interface TestDatabase {
  handle: DbHandle;
  kind: "postgres" | "pglite";
  /** DATABASE_URL for child processes (postgres only). */
  url?: string;
  /** FDP_DATA_DIR for child processes (pglite only; usable once `handle` is closed). */
  dataDir?: string;
  dispose(): Promise<void>;
}

/**
 * A fresh Postgres database, dropped on dispose: empty, or a clone of the project's migrated or seeded
 * template (tests/helpers/database-templates.ts) when `from` names one the project made.
 */
export async function createPostgresDatabase(
  prefix = "fdp_test",
  from?: "migrated" | "seeded" | "sandboxFixed",
): Promise<{ url: string; fromTemplate: boolean; drop(): Promise<void> }> {
  const templates = providedTemplates();
  const template = { seeded: templates.postgresSeeded, sandboxFixed: templates.postgresSandboxFixed, migrated: templates.postgresMigrated, none: undefined }[from ?? "none"];
  if ((from === "seeded" || from === "sandboxFixed") && !template) {
    throw new Error(`no ${from} Postgres template: add it to makeTemplates([…]) in this project's globalSetup`);
  }
  const name = await createPostgresDatabaseNamed(prefix, template);
  return { url: pgUrlFor(name), fromTemplate: Boolean(template), drop: () => dropPostgresDatabase(name) };
}

/**
 * A fresh Postgres database holding the sandbox fleet seeded at SANDBOX_TEMPLATE_NOW (a clone of the
 * project's fixed sandbox template: what `seedSandbox({ now: SANDBOX_TEMPLATE_NOW })` writes on a
 * migrated database).
 */
export async function createSandboxDatabase(): Promise<TestDatabase> {
  return openPostgresTestDatabase(await createPostgresDatabase("fdp_test", "sandboxFixed"));
}

/** A handle on a fresh Postgres database (migrated here unless cloned from a template); dispose closes it and drops the database. */
async function openPostgresTestDatabase(pg: Awaited<ReturnType<typeof createPostgresDatabase>>): Promise<TestDatabase> {
  const handle = await openDatabase({ url: pg.url });
  if (!pg.fromTemplate) await migrateWithPartitions(handle);
  return {
    handle,
    kind: "postgres",
    url: pg.url,
    async dispose() {
      await handle.close();
      await pg.drop();
    },
  };
}

/**
 * A fresh database of the kind this test project runs on (FDP_TEST_DB) holding the sandbox fleet seeded at
 * about now, as an app's start seeds it: on Postgres a clone of the run's seeded template (one
 * `seedSandbox` for every file that asks), on PGlite a migrated copy seeded here.
 */
export async function createSeededTestDatabase(kind = (process.env.FDP_TEST_DB ?? "postgres") as "postgres" | "pglite"): Promise<TestDatabase> {
  if (kind === "postgres") return openPostgresTestDatabase(await createPostgresDatabase("fdp_test", "seeded"));
  const tdb = await createTestDatabase(kind);
  await seedSandbox({ db: tdb.handle.db });
  return tdb;
}

/**
 * A fresh, migrated database of the kind this test project runs on (FDP_TEST_DB): a copy of the
 * project's migrated template when it has one, else created and migrated here.
 */
export async function createTestDatabase(kind = (process.env.FDP_TEST_DB ?? "postgres") as "postgres" | "pglite"): Promise<TestDatabase> {
  if (kind === "postgres") return openPostgresTestDatabase(await createPostgresDatabase("fdp_test", "migrated"));
  const template = providedTemplates().pgliteMigrated;
  const dataDir = template ? copyPgliteTemplate(template) : mkdtempSync(path.join(tmpdir(), "fdp-pglite-"));
  const handle = await openDatabase({ dataDir, url: null });
  if (!template) await migrateWithPartitions(handle);
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
