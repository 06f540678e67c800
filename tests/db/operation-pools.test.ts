import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnv } from "../helpers/test-env";
import { closeOperationPools, operationPoolDb } from "@/lib/db/operation-pools";
import { rows } from "@/lib/db/sql-values";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * The operations' pools (lib/db/operation-pools.ts), read from the server: each pool's own
 * statement_timeout and application name, a bounded number of connections, statements cut at the
 * pool's timeout (the interactive one lower than the heavy one), and no pool without DATABASE_URL.
 */
const SETTINGS = {
  HEAVY_POOL_MAX: "3",
  INTERACTIVE_POOL_MAX: "4",
  STATEMENT_TIMEOUT_MS: "1500",
  INTERACTIVE_STATEMENT_TIMEOUT_MS: "200",
};

/** SQLSTATE 57014 (query_canceled) on the error or its cause (drizzle wraps the driver's error). */
function canceledByTimeout(err: unknown): boolean {
  for (let e = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) if ((e as { code?: unknown }).code === "57014") return true;
  return false;
}

let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  database = await createPostgresDatabase("fdp_oppools");
  setEnv({ ...SETTINGS, DATABASE_URL: database.url });
});

afterAll(async () => {
  await closeOperationPools();
  setEnv({ DATABASE_URL: undefined, ...Object.fromEntries(Object.keys(SETTINGS).map((k) => [k, undefined])) });
  await database?.drop();
});

describe("operation pools", () => {
  it("give each pool its own statement_timeout and application name", async () => {
    const heavy = (await operationPoolDb("heavy"))!;
    const interactive = (await operationPoolDb("interactive"))!;
    const [h] = await rows<{ t: string; app: string }>(heavy, sql`select current_setting('statement_timeout') as t, current_setting('application_name') as app`);
    const [i] = await rows<{ t: string; app: string }>(interactive, sql`select current_setting('statement_timeout') as t, current_setting('application_name') as app`);
    expect(h).toEqual({ t: "1500ms", app: "fdp-heavy" });
    expect(i).toEqual({ t: "200ms", app: "fdp-interactive" });
  });

  it("cut a statement at the pool's timeout: 57014 on the interactive pool where the heavy pool lets it finish", async () => {
    const interactive = (await operationPoolDb("interactive"))!;
    const heavy = (await operationPoolDb("heavy"))!;
    await expect(rows(interactive, sql`select pg_sleep(0.5)`)).rejects.toSatisfy(canceledByTimeout);
    await expect(rows(heavy, sql`select pg_sleep(0.5) as slept`)).resolves.toHaveLength(1);
    await expect(rows(heavy, sql`select pg_sleep(2)`)).rejects.toSatisfy(canceledByTimeout);
  });

  it("hold at most HEAVY_POOL_MAX connections, however many statements are sent at once", async () => {
    const heavy = (await operationPoolDb("heavy"))!;
    const pids = await Promise.all(Array.from({ length: 9 }, () => rows<{ pid: number }>(heavy, sql`select pg_backend_pid() as pid, pg_sleep(0.1)`)));
    const distinct = new Set(pids.map((r) => r[0]!.pid));
    expect(distinct.size).toBeGreaterThan(1);
    expect(distinct.size).toBeLessThanOrEqual(3);
  });

  it("reopen with new settings, and are not opened without DATABASE_URL (the embedded database keeps its one connection)", async () => {
    setEnv({ INTERACTIVE_STATEMENT_TIMEOUT_MS: "700" });
    const [i] = await rows<{ t: string }>((await operationPoolDb("interactive"))!, sql`select current_setting('statement_timeout') as t`);
    expect(i?.t).toBe("700ms");
    setEnv({ DATABASE_URL: undefined });
    expect(await operationPoolDb("heavy")).toBeNull();
    expect(await operationPoolDb("interactive")).toBeNull();
    setEnv({ DATABASE_URL: database.url });
  });
});
