import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/lib/db/schema";
import { rows } from "@/lib/db/sql-values";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * Citus readiness (issue 13 point 6, docs/scaling.md "Citus"): read from the migrated schema itself,
 * every table is either a tenant table, distributable on `tenant_id` (the column exists, is NOT NULL,
 * and is part of the primary key, of every unique constraint and unique index, and of every foreign
 * key between tenant tables, so that rows and joins of one tenant live on one shard), or a global
 * table listed below with the Citus role it would take and why. A new table in neither list fails.
 * The SQL in lib/ is scanned for joins of tenant tables that do not mention `tenant_id` (co-location).
 *
 * KNOWN_GAPS pins what does not hold today, each with the change Citus needs: the test fails when a
 * new gap appears and also when a listed gap is fixed (so the list shrinks with the schema).
 */

/** Distributed on tenant_id. Monthly partitions of `telemetry` are checked as their parent. */
const TENANT_TABLES = [
  "alerts",
  "audit_events",
  "certificates",
  "devices",
  "driving_events",
  "fleet_snapshot",
  "ingest_signatures",
  "score_snapshots",
  "telemetry",
  "telemetry_daily",
  "telemetry_rollup_state",
] as const;

/** Not distributed: the role each would take in Citus, and why. Schema-qualified when not `public`. */
const GLOBAL_TABLES: Record<string, string> = {
  tenants: "reference table: the tenant list itself, small, the target of every tenant table's foreign key (Citus allows distributed → reference keys)",
  api_keys:
    "reference table: authentication finds a key by its hash before the tenant is known (UNIQUE key_hash across tenants); a few rows per tenant, read on every request (cached), written rarely",
  users: "reference table: sign-in finds a user by e-mail before the tenant is known (UNIQUE email across tenants); small",
  certificate_signing_keys: "reference table: the service's public signing keys, the same for every tenant",
  spot_price_cache: "reference table: Finnish market prices shared by all tenants",
  rate_limits: "local table on the coordinator (or Redis, REDIS_URL): counters keyed by API key or client IP, not by tenant",
  service_meta: "local table on the coordinator: service bookkeeping (sandbox seed version)",
  "drizzle.__drizzle_migrations": "local table on the coordinator: the migrator's bookkeeping",
  // The webhooks outbox (docs/webhooks.md): not yet distributable, and said so.
  events:
    "local table on the coordinator for now: the changes feed's order is one identity sequence drawn under the tenant's event lock; distributing it needs a per-tenant position ((tenant_id, seq) primary key, the position kept per tenant)",
  webhook_endpoints: "local table on the coordinator for now: a tenant's few webhook endpoints, read with the outbox in the same statement",
  mqtt_bridges:
    "local table on the coordinator: the operator's few MQTT bridges, taken across tenants by one lease statement per instance; client ids are unique across tenants (they name the broker's sessions)",
  webhook_deliveries:
    "local table on the coordinator for now: the delivery worker claims across tenants in one statement (round robin, FOR UPDATE SKIP LOCKED); distributed with the outbox once it has per-tenant positions",
};

/**
 * Gaps in today's schema, with the change each needs before distributing (a migration; not made here,
 * drizzle/ belongs to another change in flight). Format: `<table>: <constraint kind> <columns>`.
 */
const KNOWN_GAPS: Record<string, string> = {
  "alerts: primary key (id)": "make it (tenant_id, id); every query of an alert by id already filters by tenant",
  "audit_events: primary key (id)": "make it (tenant_id, id)",
  "certificates: primary key (number)":
    "make it (tenant_id, number); the public verification (no tenant known) then looks a number up across shards, or through a small reference table number → tenant_id",
};

interface Constraint {
  table: string;
  kind: string;
  name: string;
  columns: string[];
  foreign: string | null;
}

let tdb: TestDatabase;
let tables: { name: string; partitionOf: string | null }[];
let constraints: Constraint[];
let uniqueIndexes: { table: string; name: string; columns: string[] }[];
let tenantIdColumns: Map<string, boolean>;

const qualified = (schemaName: string, table: string) => (schemaName === "public" ? table : `${schemaName}.${table}`);

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  const db = tdb.handle.db;
  const { sql } = await import("drizzle-orm");
  tables = (
    await rows<{ nspname: string; relname: string; parent: string | null }>(
      db,
      sql`select n.nspname, c.relname, (select p.relname from pg_inherits i join pg_class p on p.oid = i.inhparent where i.inhrelid = c.oid) as parent
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    )
  ).map((r) => ({ name: qualified(r.nspname, r.relname), partitionOf: r.parent }));
  constraints = (
    await rows<{ nspname: string; relname: string; contype: string; conname: string; cols: string[] | string; ftable: string | null }>(
      db,
      sql`select n.nspname, c.relname, con.contype, con.conname, f.relname as ftable,
            array(select a.attname::text from unnest(con.conkey) k join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k) as cols
          from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
          left join pg_class f on f.oid = con.confrelid
          where con.contype in ('p', 'u', 'f', 'x') and n.nspname not in ('pg_catalog', 'information_schema') and not c.relispartition`,
    )
  ).map((r) => ({
    table: qualified(r.nspname, r.relname),
    kind: { p: "primary key", u: "unique", f: "foreign key", x: "exclusion" }[r.contype] ?? r.contype,
    name: r.conname,
    columns: Array.isArray(r.cols) ? r.cols : String(r.cols).replace(/[{}]/g, "").split(","),
    foreign: r.ftable,
  }));
  uniqueIndexes = (
    await rows<{ relname: string; indexname: string; cols: string[] | string }>(
      db,
      sql`select c.relname, i.relname as indexname,
            array(select coalesce(a.attname::text, '<expr>') from unnest(x.indkey) k left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k) as cols
          from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = c.relnamespace
          where x.indisunique and n.nspname = 'public' and not c.relispartition
            and not exists (select 1 from pg_constraint con where con.conindid = x.indexrelid)`,
    )
  ).map((r) => ({ table: r.relname, name: r.indexname, columns: Array.isArray(r.cols) ? r.cols : String(r.cols).replace(/[{}]/g, "").split(",") }));
  tenantIdColumns = new Map(
    (
      await rows<{ table_name: string; is_nullable: string }>(
        db,
        sql`select table_name, is_nullable from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id'`,
      )
    ).map((r) => [r.table_name, r.is_nullable === "NO"]),
  );
}, 120_000);

afterAll(async () => {
  await tdb?.dispose();
});

describe("Citus readiness: tenant_id is every tenant table's distribution key", () => {
  it("classifies every table: tenant (distributed) or global (reference/local, with a reason)", () => {
    const classified = new Set<string>([...TENANT_TABLES, ...Object.keys(GLOBAL_TABLES)]);
    const unclassified = tables.filter((t) => t.partitionOf === null && !classified.has(t.name)).map((t) => t.name);
    expect(unclassified, "new table(s): add each to TENANT_TABLES or GLOBAL_TABLES (with its Citus role and why)").toEqual([]);
    // Partitions are their parent's (telemetry by month): the parent is classified.
    for (const t of tables.filter((t) => t.partitionOf !== null)) expect(classified.has(t.partitionOf!), t.name).toBe(true);
    // And the lists name only tables that exist.
    const existing = new Set(tables.map((t) => t.name));
    expect([...classified].filter((n) => !existing.has(n))).toEqual([]);
  });

  it("every tenant table has a NOT NULL tenant_id", () => {
    for (const t of TENANT_TABLES) expect(tenantIdColumns.get(t), t).toBe(true);
  });

  it("tenant_id is in every tenant table's primary key, unique constraints and unique indexes (except the pinned gaps)", () => {
    const gaps: string[] = [];
    for (const t of TENANT_TABLES) {
      const keys = constraints.filter((c) => c.table === t && (c.kind === "primary key" || c.kind === "unique" || c.kind === "exclusion"));
      expect(
        keys.some((c) => c.kind === "primary key"),
        `${t} has a primary key`,
      ).toBe(true);
      for (const c of keys) if (!c.columns.includes("tenant_id")) gaps.push(`${t}: ${c.kind} (${c.columns.join(", ")})`);
      for (const i of uniqueIndexes.filter((i) => i.table === t)) if (!i.columns.includes("tenant_id")) gaps.push(`${t}: unique index ${i.name} (${i.columns.join(", ")})`);
    }
    expect(gaps.sort()).toEqual(Object.keys(KNOWN_GAPS).sort());
  });

  it("every foreign key of a tenant table points at a global reference table or carries tenant_id (co-located)", () => {
    for (const c of constraints.filter((c) => c.kind === "foreign key" && (TENANT_TABLES as readonly string[]).includes(c.table))) {
      const target = c.foreign ?? "";
      if ((TENANT_TABLES as readonly string[]).includes(target)) expect(c.columns, `${c.table} → ${target} (${c.name})`).toContain("tenant_id");
      else expect(GLOBAL_TABLES[target], `${c.table} → ${target} (${c.name}): a key to a table that is not a reference table`).toMatch(/^reference table/);
    }
  });

  it("no tenant table takes its key from a sequence (ids are generated in the app, unique across shards)", async () => {
    const { sql } = await import("drizzle-orm");
    const sequenced = await rows<{ table_name: string; column_name: string }>(
      tdb.handle.db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and (column_default like 'nextval(%' or is_identity = 'YES')`,
    );
    expect(sequenced.filter((r) => (TENANT_TABLES as readonly string[]).includes(r.table_name))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The static scan of lib/: joins of tenant tables mention tenant_id.

const LIB = path.resolve(import.meta.dirname, "../../lib");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.startsWith(`db${path.sep}schema${path.sep}`))
    .map((f) => path.join(dir, f));
}

/** The text from `start` up to where the clause ends: a keyword at depth 0, an unbalanced `)`, or the template's end. */
function clauseFrom(text: string, start: number): string {
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(" || ch === "{") depth++;
    else if (ch === ")" || ch === "}") {
      if (depth === 0) break;
      depth--;
    } else if (ch === "`" && depth === 0) break;
    else if (depth === 0 && /^\s(join|where|group\s+by|order\s+by|limit|union|returning|window|left|right|inner|full|cross)\b/i.test(text.slice(i, i + 12))) break;
  }
  return text.slice(start, i);
}

/** The text of the parenthesis opening at `open`. */
function parenthesised(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/**
 * An `${helper(...)}` in a join condition counts when the helper, defined in the same file, writes
 * tenant_id (itself, or through a helper it interpolates in turn).
 */
function helperMentionsTenant(file: string, condition: string, depth = 0): boolean {
  if (depth > 3) return false;
  for (const m of condition.matchAll(/\$\{\s*([A-Za-z_][\w]*)/g)) {
    const def = new RegExp(`(?:const|function)\\s+${m[1]}\\b[^\\n]*`).exec(file);
    if (!def) continue;
    const body = file.slice(def.index, def.index + 400).split(/\n\s*(?:const|function|export)\s/)[0]!;
    if (/tenant_?id/i.test(body) || helperMentionsTenant(file, body.slice(def[0].indexOf("=") + 1 || 1), depth + 1)) return true;
  }
  return false;
}

const mentionsTenant = (s: string) => /tenant_id|tenantId/.test(s);

/** Drizzle's table variables of the tenant tables (`fleetSnapshot` for fleet_snapshot). */
function tenantTableVariables(): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of Object.entries(schema)) {
    if (is(value, PgTable) && (TENANT_TABLES as readonly string[]).includes(getTableName(value))) names.add(name);
  }
  return names;
}

describe("Citus readiness: the SQL in lib/ joins tenant tables on tenant_id", () => {
  const tableAlternation = TENANT_TABLES.join("|");
  const findings: string[] = [];
  const checked = { rawJoins: 0, subqueries: 0, builderJoins: 0 };

  for (const file of sourceFiles(LIB)) {
    const text = readFileSync(file, "utf8");
    const where = (index: number) => `${path.relative(LIB, file)}:${text.slice(0, index).split("\n").length}`;

    // `join <tenant table> x on …` / `… using (…)`.
    for (const m of text.matchAll(new RegExp(`\\bjoin\\s+(${tableAlternation})\\b(\\s+(?:as\\s+)?(?!on\\b|using\\b)[a-z_]\\w*)?\\s+(on|using)\\b`, "gi"))) {
      checked.rawJoins++;
      const condition = clauseFrom(text, m.index + m[0].length);
      if (!mentionsTenant(condition) && !helperMentionsTenant(text, condition)) findings.push(`${where(m.index)}: ${m[0]}${condition.slice(0, 80)}`);
    }
    // Every parenthesised select reading a tenant table (laterals, correlated subqueries) filters by tenant.
    for (const m of text.matchAll(/\(\s*select\b/gi)) {
      const sub = parenthesised(text, m.index);
      if (!new RegExp(`\\b(from|join)\\s+(${tableAlternation})\\b`, "i").test(sub)) continue;
      checked.subqueries++;
      if (!mentionsTenant(sub) && !helperMentionsTenant(text, sub)) findings.push(`${where(m.index)}: ${sub.slice(0, 100).replace(/\s+/g, " ")}`);
    }
  }

  // Drizzle's builder: `.innerJoin(devices, and(eq(devices.tenantId, …), …))`; laterals by their subquery's definition.
  const tableVars = tenantTableVariables();
  for (const file of sourceFiles(LIB)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/\.(inner|left|right|full)Join(Lateral)?\(\s*(\w+)\s*,/g)) {
      const [, , lateral, target] = m;
      const where = `${path.relative(LIB, file)}:${text.slice(0, m.index).split("\n").length}`;
      if (lateral) {
        const def = new RegExp(`const\\s+${target}\\s*=([\\s\\S]*?)\\.as\\(`).exec(text);
        if (!def) continue;
        if (![...tableVars].some((v) => new RegExp(`\\.from\\(\\s*${v}\\s*\\)`).test(def[1]!))) continue;
        checked.builderJoins++;
        if (!mentionsTenant(def[1]!)) findings.push(`${where}: lateral ${target} reads a tenant table without tenantId`);
      } else if (tableVars.has(target!)) {
        checked.builderJoins++;
        const condition = parenthesised(text, text.indexOf("(", m.index + 1));
        if (!mentionsTenant(condition)) findings.push(`${where}: ${condition.slice(0, 100)}`);
      }
    }
  }

  it("finds the joins it checks (the scan is not vacuous)", () => {
    expect(checked.rawJoins).toBeGreaterThan(5);
    expect(checked.subqueries).toBeGreaterThan(5);
    expect(checked.builderJoins).toBeGreaterThan(2);
  });

  it("finds no join of a tenant table that leaves tenant_id out", () => {
    expect(findings).toEqual([]);
  });
});
