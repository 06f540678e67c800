import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { genericPlanRows, preparedRows } from "@/lib/db/prepared";
import { rows } from "@/lib/db/sql-values";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * lib/db/prepared.ts: named statements, and generic plans on their own pool. What Postgres did is read
 * from Postgres itself: the session's plan_cache_mode and `pg_prepared_statements` (how often each
 * named statement was planned generically or per call).
 */

type Planned = { statement: string; generic_plans: number; custom_plans: number };
const PROBE = (tenant: string, since: string) => sql`select count(*)::int as n from telemetry t where t.tenant_id = ${tenant} and t.ts >= ${since}::timestamptz`;
const plansOf = (list: Planned[]) => list.find((p) => p.statement.includes("from telemetry t where t.tenant_id ="));
const LIST_PLANS = sql`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements`;

describe("prepared statements on Postgres", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("genericPlanRows runs on connections that force generic plans; the others keep Postgres's default", async () => {
    const mode = sql`select current_setting('plan_cache_mode') as m`;
    expect((await genericPlanRows<{ m: string }>(tdb.handle.db, mode))[0]!.m).toBe("force_generic_plan");
    expect((await preparedRows<{ m: string }>(tdb.handle.db, mode))[0]!.m).toBe("auto");
    expect((await rows<{ m: string }>(tdb.handle.db, mode))[0]!.m).toBe("auto");
  });

  it("a statement sent through genericPlanRows is one named statement, planned generically at every call", async () => {
    for (const since of ["2026-01-01", "2026-06-01", "2026-11-01"]) {
      expect((await genericPlanRows<{ n: number }>(tdb.handle.db, PROBE("tn_x", since)))[0]!.n).toBe(0);
    }
    // Sequential calls reuse the pool's first connection: its prepared statements are these.
    const planned = plansOf(await genericPlanRows<Planned>(tdb.handle.db, LIST_PLANS));
    expect(planned).toMatchObject({ generic_plans: 3, custom_plans: 0 });
  });

  it("preparedRows keeps one named statement per text on the main pool, with Postgres's own plan choice (custom plans first)", async () => {
    for (const since of ["2026-01-01", "2026-06-01"]) await preparedRows(tdb.handle.db, PROBE("tn_y", since));
    const planned = plansOf(await preparedRows<Planned>(tdb.handle.db, LIST_PLANS));
    expect(planned).toMatchObject({ generic_plans: 0, custom_plans: 2 });
  });

  it("inside a transaction both run on the transaction's connection (they see its uncommitted rows)", async () => {
    await tdb.handle.db.transaction(async (tx) => {
      await tx.execute(sql`create temp table prepared_probe (v int) on commit drop`);
      await tx.execute(sql`insert into prepared_probe values (41), (1)`);
      const sum = sql`select sum(v)::int as s from prepared_probe`;
      expect((await genericPlanRows<{ s: number }>(tx as never, sum))[0]!.s).toBe(42);
      expect((await preparedRows<{ s: number }>(tx as never, sum))[0]!.s).toBe(42);
    });
  });
});

describe("prepared statements on the embedded database", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("both run the statement as db.execute does", async () => {
    const q = sql`select ${7}::int + 35 as answer`;
    expect(await preparedRows(tdb.handle.db, q)).toEqual([{ answer: 42 }]);
    expect(await genericPlanRows(tdb.handle.db, q)).toEqual([{ answer: 42 }]);
  });
});
