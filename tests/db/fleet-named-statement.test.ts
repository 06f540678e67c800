import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootLogger } from "@/lib/log/logger";
import { rows } from "@/lib/db/sql-values";
import type { SQL } from "drizzle-orm";
import { fleetPageQuery, fleetStatement, listFleet } from "@/lib/fleet/list-fleet";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * GET /fleet's statement goes to Postgres as a named prepared statement (lib/db/prepared.ts: parsed
 * once per connection, one round trip), like the bench's floor sends it, and answers the same page as
 * the unnamed statement drizzle's `execute` sends.
 */
describe("listFleet on Postgres", () => {
  let tdb: TestDatabase;
  const sent: { query: string; prepare?: boolean }[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
    const client = (tdb.handle.db as unknown as { session: { client: { unsafe: (query: unknown, params: unknown, options?: { prepare?: boolean }) => unknown } } }).session.client;
    const unsafe = client.unsafe.bind(client);
    client.unsafe = (query: unknown, params: unknown, options?: { prepare?: boolean }) => {
      if (typeof query === "string") sent.push({ query, prepare: options?.prepare });
      return unsafe(query, params, options);
    };
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("builds, from the text compiled once, exactly fleetPageQuery's statement and parameters", () => {
    const dialect = (tdb.handle.db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect;
    for (const [tenantId, limit] of [
      ["tn_a", 500],
      ["tn_$1 b'", 1],
      ["tn_c", 37],
    ] as const) {
      const ctx = { db: tdb.handle.db, tenantId, isSandbox: false, log: rootLogger() };
      const expected = fleetPageQuery({ ctx, input: { limit } }).toSQL();
      const built = dialect.sqlToQuery(fleetStatement({ ctx, input: { limit } }));
      expect({ sql: built.sql, params: built.params }).toEqual({ sql: expected.sql, params: expected.params });
      expect(expected.params).toContain(tenantId);
      expect(expected.params).toContain(limit);
    }
  });

  it("sends one named statement per page, the same for every tenant and page size, with the unnamed statement's rows", async () => {
    const a = await createTenantWithKey(tdb.handle.db);
    const b = await createTenantWithKey(tdb.handle.db);
    await insertDevices(tdb.handle.db, a.tenantId, [{ deviceId: "A1", speedKmh: 40 }, { deviceId: "A2" }, { deviceId: "A3", chargingStatus: "charging" }]);
    await insertDevices(tdb.handle.db, b.tenantId, [{ deviceId: "B1" }]);
    const ctxA = { db: tdb.handle.db, tenantId: a.tenantId, isSandbox: false, log: rootLogger() };
    const ctxB = { ...ctxA, tenantId: b.tenantId };

    sent.length = 0;
    const pageA = await listFleet({ ctx: ctxA, input: { limit: 2 } });
    const pageB = await listFleet({ ctx: ctxB, input: { limit: 500 } });
    expect(sent).toHaveLength(2);
    expect(sent.every((s) => s.prepare === true)).toBe(true);
    expect(sent[0]!.query).toBe(sent[1]!.query);

    expect(pageA.data.map((r) => r.device_id)).toEqual(["A1", "A2"]);
    expect(pageA.data[0]).toMatchObject({ status: "driving", ignition: 1 });
    expect(pageB).toMatchObject({ count: 1, tenant_id: b.tenantId, data: [{ device_id: "B1", status: "parked" }] });
    // The same rows as drizzle's unnamed statement.
    const unnamed = await rows<Record<string, unknown>>(tdb.handle.db, fleetPageQuery({ ctx: ctxA, input: { limit: 2 } }).getSQL());
    expect(unnamed.map((r) => r.device_id)).toEqual(["A1", "A2"]);
    expect(unnamed.map((r) => r.updated_at)).toEqual(pageA.data.map((r) => r.updated_at));
  });
});
