import postgres from "postgres";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";

/** Server on which the bench creates (and later drops) its throw-away database. */
const BENCH_PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  url: string;
  /** True when the bench created the database (and will drop it). */
  owned: boolean;
  handle: DbHandle;
  /** Closes the handle; drops the database if the bench created it. */
  dispose(): Promise<void>;
}

/** Hides the password of a database URL for log lines. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable url)";
  }
}

/**
 * The database to benchmark on, migrated: `DATABASE_URL` when the user set it (kept afterwards),
 * else a fresh `fdp_bench_*` database on BENCH_PG_ADMIN_URL (dropped afterwards).
 */
export async function prepareDatabase(log: (m: string) => void): Promise<BenchDatabase> {
  const given = process.env.DATABASE_URL;
  let url: string;
  let drop: (() => Promise<void>) | undefined;
  if (given) {
    url = given;
    log(`database: DATABASE_URL ${redactUrl(url)} (kept after the run)`);
  } else {
    const name = `fdp_bench_${new Date().toISOString().slice(0, 10).replace(/-/g, "")}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(BENCH_PG_ADMIN_URL, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}"`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    const u = new URL(BENCH_PG_ADMIN_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    drop = async () => {
      const a = postgres(BENCH_PG_ADMIN_URL, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end({ timeout: 5 });
      }
    };
    log(`database: created ${name} on ${redactUrl(BENCH_PG_ADMIN_URL)} (dropped after the run)`);
  }
  let handle: DbHandle;
  try {
    handle = await openDatabase({ url });
    await migrateWithPartitions(handle);
  } catch (err) {
    await drop?.().catch(() => {});
    throw err;
  }
  return {
    url,
    owned: drop !== undefined,
    handle,
    async dispose() {
      await handle.close().catch(() => {});
      await drop?.();
    },
  };
}

/** `select version()` of the server, for the results file. */
export async function serverVersion(sql: postgres.Sql): Promise<string> {
  const [row] = await sql<{ version: string }[]>`select version()`;
  return row?.version ?? "unknown";
}
