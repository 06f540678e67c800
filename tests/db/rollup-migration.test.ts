import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/databases";
import { migrateUpTo, runMigrationFile } from "../helpers/migration-files";

/** A fresh Postgres database for the describe block, and one raw connection to it. */
function useFreshDatabase(prefix: string): () => postgres.Sql {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let pg: postgres.Sql | undefined;
  beforeAll(async () => {
    db = await createPostgresDatabase(prefix);
    pg = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await pg?.end({ timeout: 5 });
    await db?.drop();
  });
  return () => pg!;
}

/** A tenant with two devices: 'rolled' has a rollup state row (as the previous code left it), 'old' has none. */
async function seedDevices(pg: postgres.Sql): Promise<void> {
  await pg`insert into tenants (id, name, ingest_secret) values ('t1', 'T', 'x')`;
  await pg`insert into devices (tenant_id, device_id, name) values ('t1', 'rolled', 'R'), ('t1', 'old', 'O')`;
  await pg`insert into telemetry_rollup_state (tenant_id, device_id, clean_before) values ('t1', 'rolled', '2026-11-20')`;
}

/** After the migration: no rollup rows, and every device stale from its first day. */
async function expectRebuiltFromScratch(pg: postgres.Sql): Promise<void> {
  expect((await pg`select count(*)::int as n from telemetry_daily`)[0]!.n).toBe(0);
  const states = await pg<{ device_id: string; clean_before: string }[]>`select device_id, clean_before::text from telemetry_rollup_state order by device_id`;
  expect(states).toEqual([
    { device_id: "old", clean_before: "-infinity" },
    { device_id: "rolled", clean_before: "-infinity" },
  ]);
}

/**
 * Migration 0012 (the rollups' great-circle sums) on a database that already has rollups: the rows
 * built before it hold no great-circle sums, so they are dropped and every device is marked stale
 * from its first day, including a device whose telemetry predates its state row (written before
 * migration 0009), which would otherwise get a state row at its next ingest saying that the days
 * before were rolled up. The new columns have no default: an instance still running the previous code
 * during a rolling deploy cannot write a row without them.
 */
describe("migration 0012 on a database with rollups (postgres)", () => {
  const connection = useFreshDatabase("fdp_rollmig");

  it("drops the old rows, marks every device stale from its first day, and refuses rows without the new sums", async () => {
    const pg = connection();
    const migration = await migrateUpTo(pg, "0012_");
    // 'rolled' has a state row and rollups (as the previous code built them); 'old' has neither.
    await seedDevices(pg);
    const zeros = Array.from({ length: 33 }, () => "0").join(", ");
    const columns = (
      await pg<{ c: string }[]>`
      select string_agg(column_name, ', ' order by ordinal_position) as c from information_schema.columns
      where table_name = 'telemetry_daily' and column_name like 'c\\_%'`
    )[0]!.c;
    expect(columns.split(", ")).toHaveLength(33);
    await pg.unsafe(`insert into telemetry_daily (tenant_id, device_id, day, ${columns}, ev_cover_km) values ('t1', 'rolled', '2026-11-19', ${zeros}, 0)`);

    await runMigrationFile(pg, migration);

    await expectRebuiltFromScratch(pg);
    // The previous code's insert (every column but the two new ones) is refused.
    await expect(pg.unsafe(`insert into telemetry_daily (tenant_id, device_id, day, ${columns}, ev_cover_km) values ('t1', 'rolled', '2026-11-19', ${zeros}, 0)`)).rejects.toThrow(
      /null value in column "(c_gc_km|positions)"/,
    );
  });
});

/**
 * Migration 0013 (each rolled-up day's resting 12 V reading) likewise: rows built before it do not say
 * whether a day had a resting reading, and a missing one would read as "none that day". They are
 * dropped, every device is marked stale from its first day, and the previous code's insert (without
 * `rest12_settled`, which has no default) is refused.
 */
describe("migration 0013 on a database with rollups (postgres)", () => {
  const connection = useFreshDatabase("fdp_rollmig13");

  it("drops the old rows, marks every device stale from its first day, and refuses rows without the resting readings", async () => {
    const pg = connection();
    const migration = await migrateUpTo(pg, "0013_");
    await seedDevices(pg);
    const columns = (
      await pg<{ c: string }[]>`
      select string_agg(column_name, ', ' order by ordinal_position) as c from information_schema.columns
      where table_name = 'telemetry_daily' and column_name like 'c\\_%'`
    )[0]!.c;
    const zeros = columns
      .split(", ")
      .map(() => "0")
      .join(", ");
    // The previous code's row: every running total, the coverage and the positions.
    const previousInsert = `insert into telemetry_daily (tenant_id, device_id, day, ${columns}, ev_cover_km, positions) values ('t1', 'rolled', '2026-11-19', ${zeros}, 0, 0)`;
    await pg.unsafe(previousInsert);

    await runMigrationFile(pg, migration);

    await expectRebuiltFromScratch(pg);
    await expect(pg.unsafe(previousInsert)).rejects.toThrow(/null value in column "rest12_settled"/);
  });
});

/**
 * Migration 0016 (each rolled-up day's odometer chain, read by the period distance) likewise: rows built
 * before it do not say which days' odometer readings only rise plausibly, and a missing chain would be
 * read as "none". They are dropped, every device is marked stale from its first day, and the previous
 * code's insert (without `odo_readings`, `c_odo_readings`, `odo_joined`, which have no default) is refused.
 */
describe("migration 0016 on a database with rollups (postgres)", () => {
  const connection = useFreshDatabase("fdp_rollmig16");

  it("drops the old rows, marks every device stale from its first day, and refuses rows without the odometer chain", async () => {
    const pg = connection();
    const migration = await migrateUpTo(pg, "0016_");
    await seedDevices(pg);
    const columns = (
      await pg<{ c: string }[]>`
      select string_agg(column_name, ', ' order by ordinal_position) as c from information_schema.columns
      where table_name = 'telemetry_daily' and column_name like 'c\\_%'`
    )[0]!.c;
    const zeros = columns
      .split(", ")
      .map(() => "0")
      .join(", ");
    // The previous code's row: every running total, the coverage, the positions and the resting readings' count.
    const previousInsert = `insert into telemetry_daily (tenant_id, device_id, day, ${columns}, ev_cover_km, positions, rest12_settled) values ('t1', 'rolled', '2026-11-19', ${zeros}, 0, 0, 0)`;
    await pg.unsafe(previousInsert);

    await runMigrationFile(pg, migration);

    await expectRebuiltFromScratch(pg);
    await expect(pg.unsafe(previousInsert)).rejects.toThrow(/null value in column "(odo_readings|c_odo_readings|odo_joined)"/);
  });
});
