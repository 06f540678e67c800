import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { rows, sqlNumber } from "@/lib/db/sql-values";
import { embeddedSocketPath, isEmbeddedDatabaseShared, shareEmbeddedDatabase } from "@/lib/db/embedded-share";
import { createTenant } from "@/lib/tenants/create-tenant";
import { copyPgliteTemplate, providedTemplates } from "../helpers/database-templates";

/**
 * A transaction on `handle` that inserts tenant `id`, then waits for `release` and rolls back: `inTx`
 * resolves once the row is written, `ended` with the rollback's reason.
 */
function insertThenRollBack(handle: DbHandle, id: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const inTx = new Promise<void>((r) => (started = r));
  const ended = handle.db
    .transaction(async (tx) => {
      await tx.insert(tenants).values({ id, name: "rolled back", ingestSecret: "x" });
      started();
      await held;
      throw new Error("roll back on purpose");
    })
    .catch((err: Error) => err.message);
  return { inTx, release, ended };
}

/** The serving process shares its embedded database; a second process goes through the socket. */
describe("embedded database sharing", () => {
  // A copy of the project's migrated data directory.
  const dataDir = copyPgliteTemplate(providedTemplates().pgliteMigrated!, "fdp-share-");
  let owner: DbHandle;
  let guest: DbHandle;

  beforeAll(async () => {
    owner = await openDatabase({ url: null, dataDir, share: true });
    guest = await openDatabase({ url: null, dataDir });
  });

  afterAll(async () => {
    await guest?.close();
    await owner?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lets a second opener reach the same database through the socket", async () => {
    expect(owner.kind).toBe("pglite");
    expect(guest.viaEmbeddedSocket).toBe(true);
    const { tenantId } = await createTenant({ ctx: { db: guest.db }, input: { name: "Through the socket" } });
    const [row] = await owner.db.select().from(tenants).where(eq(tenants.id, tenantId));
    expect(row?.name).toBe("Through the socket");
  });

  it("never runs a socket statement inside the owner's open transaction", async () => {
    const { inTx, release, ended: ownerTx } = insertThenRollBack(owner, "tn_rolled_back");
    await inTx;
    const guestInsert = guest.db.insert(tenants).values({ id: "tn_from_guest", name: "guest", ingestSecret: "x" });
    setTimeout(release, 300);
    await guestInsert;
    expect(await ownerTx).toBe("roll back on purpose");

    const ids = (await owner.db.select({ id: tenants.id }).from(tenants)).map((r) => r.id);
    expect(ids).toContain("tn_from_guest");
    expect(ids).not.toContain("tn_rolled_back");
  });

  it("keeps a socket client's statement whole (parse, bind, execute) while the owner runs its own", async () => {
    // PGlite is one session with one unnamed prepared statement: an owner query slipped between a socket
    // client's Parse and Bind replaced it ("bind message supplies 2 parameters, but prepared statement
    // \"\" requires 3"), which failed a CI run of the admin CLI beside `npm run dev`.
    // Owner loops keep a query of the owner waiting for the session while the guest runs its own.
    let guestDone = false;
    const ownerLoop = async () => {
      const sums: number[] = [];
      for (let i = 0; !guestDone; i++) {
        sums.push(sqlNumber((await rows<{ n: number }>(owner.db, sql`select ${i}::int + ${2}::int + ${3}::int as n`))[0]!.n)! - i);
        // PGlite answers without I/O: without a turn of the event loop the socket's data would never be read.
        await new Promise(setImmediate);
      }
      return sums;
    };
    const ownerLoops = Promise.all([ownerLoop(), ownerLoop(), ownerLoop(), ownerLoop()]);
    const guestSums: number[] = [];
    try {
      for (let i = 0; i < 100; i++) guestSums.push(sqlNumber((await rows<{ n: number }>(guest.db, sql`select ${i}::int + ${1}::int as n`))[0]!.n)! - i);
    } finally {
      guestDone = true;
    }
    expect(new Set(guestSums)).toEqual(new Set([1]));
    const ownerSums = (await ownerLoops).flat();
    expect(ownerSums.length).toBeGreaterThan(100);
    expect(new Set(ownerSums)).toEqual(new Set([5]));
  });

  it("never runs an owner statement inside a socket client's open transaction", async () => {
    const { inTx, release, ended: guestTx } = insertThenRollBack(guest, "tn_guest_rolled_back");
    await inTx;
    // The owner's read and write wait for the guest's transaction to end: neither sees nor commits its row.
    const ownerRead = owner.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, "tn_guest_rolled_back"));
    const ownerInsert = owner.db.insert(tenants).values({ id: "tn_from_owner", name: "owner", ingestSecret: "x" });
    setTimeout(release, 300);
    expect(await ownerRead).toEqual([]);
    await ownerInsert;
    expect(await guestTx).toBe("roll back on purpose");

    const ids = (await owner.db.select({ id: tenants.id }).from(tenants)).map((r) => r.id);
    expect(ids).toContain("tn_from_owner");
    expect(ids).not.toContain("tn_guest_rolled_back");
  });

  it("rolls back what a socket client that went away left open, and gives the session back", async () => {
    const { default: postgres } = await import("postgres");
    const client = postgres({ path: embeddedSocketPath(dataDir), max: 1, onnotice: () => {} });
    await client`begin`;
    await client`insert into tenants (id, name, ingest_secret) values ('tn_left_open', 'left open', 'x')`;
    const ownerRead = owner.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, "tn_left_open"));
    await client.end({ timeout: 0 });
    expect(await ownerRead).toEqual([]);
  });

  it("disconnects a socket client that holds the session and goes quiet, so the owner is not stalled", async () => {
    const dir = copyPgliteTemplate(providedTemplates().pgliteMigrated!, "fdp-share-idle-");
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = new PGlite(dir);
    const stopSharing = await shareEmbeddedDatabase(pglite, dir, { idleLimitMs: 300 });
    const { default: postgres } = await import("postgres");
    const client = postgres({ path: embeddedSocketPath(dir), max: 1, onnotice: () => {} });
    try {
      await client`begin`;
      await client`insert into tenants (id, name, ingest_secret) values ('tn_gone_quiet', 'gone quiet', 'x')`;
      // The owner waits for the quiet client's transaction; the idle limit ends it with a rollback.
      expect((await pglite.query("select id from tenants where id = 'tn_gone_quiet'")).rows).toEqual([]);
    } finally {
      await client.end({ timeout: 0 });
      await stopSharing();
      await pglite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops sharing when the owner closes, and the socket file goes away", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdp-share-close-"));
    const h = await openDatabase({ url: null, dataDir: dir, share: true });
    expect(await isEmbeddedDatabaseShared(dir)).toBe(true);
    await h.close();
    expect(await isEmbeddedDatabaseShared(dir)).toBe(false);
    const { existsSync } = await import("node:fs");
    expect(existsSync(embeddedSocketPath(dir))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
