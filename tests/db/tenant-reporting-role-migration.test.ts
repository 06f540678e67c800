import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORTING_ROLES } from "@/lib/vocabulary/reporting-role";
import { createPostgresDatabase } from "../helpers/databases";
import { migrateUpTo, runMigrationFile } from "../helpers/migration-files";

/**
 * Migration 0015 (the tenant's CSRD reporting role) on a database that already has tenants: every
 * existing tenant reports as `operator` (the default), and the column takes only the vocabulary's roles.
 */
describe("migration 0015 on a database with tenants (postgres)", () => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let pg: postgres.Sql | undefined;
  beforeAll(async () => {
    db = await createPostgresDatabase("fdp_rolemig");
    pg = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await pg?.end({ timeout: 5 });
    await db?.drop();
  });

  it("gives existing tenants the default 'operator', accepts both roles and refuses any other value", async () => {
    const migration = await migrateUpTo(pg!, "0015_");
    expect(migration).toBe("0015_tenant_reporting_role.sql");
    await pg!`insert into tenants (id, name, ingest_secret) values ('t1', 'Old', 'x'), ('t2', 'Old too', 'y')`;
    await runMigrationFile(pg!, migration);

    const rows = await pg!<{ id: string; reporting_role: string }[]>`select id, reporting_role from tenants order by id`;
    expect(rows).toEqual([
      { id: "t1", reporting_role: "operator" },
      { id: "t2", reporting_role: "operator" },
    ]);
    // A tenant created without the column gets the default as well.
    await pg!`insert into tenants (id, name, ingest_secret) values ('t3', 'New', 'z')`;
    expect((await pg!`select reporting_role from tenants where id = 't3'`)[0]!.reporting_role).toBe("operator");
    for (const role of REPORTING_ROLES) await pg!`update tenants set reporting_role = ${role} where id = 't1'`;
    await expect(pg!`update tenants set reporting_role = 'lessee' where id = 't1'`).rejects.toThrow(/tenants_reporting_role_check/);
    await expect(pg!`update tenants set reporting_role = null where id = 't1'`).rejects.toThrow(/null/);
  });
});
