import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { seedSandbox } from "@/lib/seed/seed-sandbox";

/**
 * Migrated (and sandbox-seeded) template databases, made once per Vitest run by the global setup of the
 * first project that asks for each, and copied for each test file: `CREATE DATABASE … TEMPLATE` on Postgres
 * (~50 ms against ~0.3 s to migrate, ~10 s more to seed the sandbox), a copied data directory for the
 * embedded PGlite (0.03 s on tmpfs, 0.5–0.8 s on this machine's ext4, against 3–10 s to open and migrate). What a copy holds is exactly what the migrations (and the sandbox
 * seed) write, since the template is made by the same `migrateWithPartitions` and `seedSandbox` calls as the app.
 */

interface DatabaseTemplates {
  /** Postgres database names on PG_ADMIN_URL's server. */
  postgresMigrated?: string;
  postgresSeeded?: string;
  /** Seeded with the sandbox at SANDBOX_TEMPLATE_NOW: a known fleet for the tests that read its stories. */
  postgresSandboxFixed?: string;
  /** A PGlite data directory (closed; copy before opening). */
  pgliteMigrated?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    fdpDatabaseTemplates: DatabaseTemplates;
  }
}

/** The clock the fixed sandbox template is seeded at (tests/db's sandbox stories, detectors and distances read that fleet). */
export const SANDBOX_TEMPLATE_NOW = new Date("2025-03-14T10:37:12Z");

const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function pgUrlFor(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(run: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

/** The templates this process's tests were given, or none (a file run outside a project that makes them). */
export function providedTemplates(): DatabaseTemplates {
  try {
    return inject("fdpDatabaseTemplates") ?? {};
  } catch {
    return {};
  }
}

/** A copy of a closed PGlite data directory, in a fresh temporary folder. */
export function copyPgliteTemplate(template: string, prefix = "fdp-pglite-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** A new Postgres database on PG_ADMIN_URL's server, empty or cloned from `template`; returns its name. */
export async function createPostgresDatabaseNamed(prefix: string, template?: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin((admin) => admin.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`));
  return name;
}

/** Drops a database of PG_ADMIN_URL's server, closing its sessions. */
export async function dropPostgresDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.unsafe(`drop database if exists "${name}" with (force)`));
}

type TemplateKind = keyof DatabaseTemplates;

/**
 * The templates of this Vitest process, shared by its projects: each project's global setup runs in the
 * main process, so the db, API and transport projects of one run migrate (and seed) each template once
 * instead of once per project. Dropped when the last project that asked for any has torn down.
 */
interface SharedTemplates {
  made: Map<TemplateKind, Promise<string>>;
  pgNames: string[];
  dirs: string[];
  users: number;
}
const processWide = globalThis as { __fdpTemplates?: SharedTemplates };
const shared: SharedTemplates = (processWide.__fdpTemplates ??= { made: new Map(), pgNames: [], dirs: [], users: 0 });
const tag = `${process.pid}_${Date.now().toString(36)}`;

/** A clone of the migrated Postgres template, prepared by `prepare` (a seed). */
async function preparedClone(name: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const migrated = await template("postgresMigrated");
  await withAdmin((admin) => admin.unsafe(`create database "${name}" template "${migrated}"`));
  shared.pgNames.push(name);
  await prepare(pgUrlFor(name));
  return name;
}

async function seededWith(url: string, now?: Date): Promise<void> {
  const h = await openDatabase({ url });
  try {
    await seedSandbox({ db: h.db, now });
  } finally {
    await h.close();
  }
}

async function makeTemplate(kind: TemplateKind): Promise<string> {
  switch (kind) {
    case "postgresMigrated": {
      const name = `fdp_tpl_${tag}`;
      await withAdmin((admin) => admin.unsafe(`create database "${name}"`));
      shared.pgNames.push(name);
      const handle = await openDatabase({ url: pgUrlFor(name) });
      await migrateWithPartitions(handle);
      await handle.close();
      return name;
    }
    case "postgresSeeded":
      return preparedClone(`fdp_tpl_seeded_${tag}`, (url) => seededWith(url));
    case "postgresSandboxFixed":
      return preparedClone(`fdp_tpl_sandbox_${tag}`, (url) => seededWith(url, SANDBOX_TEMPLATE_NOW));
    case "pgliteMigrated": {
      const dir = mkdtempSync(path.join(tmpdir(), "fdp-tpl-pglite-"));
      shared.dirs.push(dir);
      const handle = await openDatabase({ dataDir: dir, url: null });
      await migrateWithPartitions(handle);
      await handle.close();
      return dir;
    }
  }
}

/** The template of `kind`, made on the first request of this process. */
function template(kind: TemplateKind): Promise<string> {
  let made = shared.made.get(kind);
  if (!made) {
    made = makeTemplate(kind);
    shared.made.set(kind, made);
  }
  return made;
}

/**
 * The global setup: `kinds` says which templates the project's files use. Returns the teardown, which
 * drops the templates once no project of the run uses them.
 */
export function makeTemplates(kinds: TemplateKind[]) {
  return async function setup(project: TestProject): Promise<() => Promise<void>> {
    shared.users++;
    const made: DatabaseTemplates = {};
    for (const kind of kinds) made[kind] = await template(kind);
    project.provide("fdpDatabaseTemplates", made);
    return async () => {
      if (--shared.users > 0) return;
      // Seeded clones first: a template cannot be dropped while a clone of it is being made (none is now).
      for (const name of shared.pgNames.splice(0).reverse()) await dropPostgresDatabase(name);
      for (const dir of shared.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      shared.made.clear();
    };
  };
}
