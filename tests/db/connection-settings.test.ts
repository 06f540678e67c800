import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { rows } from "@/lib/db/sql-values";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * The app's Postgres connections run without JIT compilation (docs/performance.md "JIT compilation":
 * 3.8 s of LLVM compilation for a 1.2 s fleet statement). Read from the server, on the app's own pool.
 */
describe("Postgres connection settings", () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DbHandle;
  beforeAll(async () => {
    database = await createPostgresDatabase("fdp_connset");
    handle = await openDatabase({ url: database.url });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("turns JIT off on every connection of the pool", async () => {
    // Ten concurrent statements spread over the pool's connections.
    const seen = await Promise.all(
      Array.from({ length: 10 }, () => rows<{ jit: string; pid: number }>(handle.db, sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`)),
    );
    expect(new Set(seen.map((r) => r[0]!.jit))).toEqual(new Set(["off"]));
    expect(new Set(seen.map((r) => r[0]!.pid)).size).toBeGreaterThan(1);
  });
});
