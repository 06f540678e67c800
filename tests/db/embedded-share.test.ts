import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { embeddedSocketPath, isEmbeddedDatabaseShared } from "@/lib/db/embedded-share";
import { createTenant } from "@/lib/tenants/create-tenant";
import { copyPgliteTemplate, providedTemplates } from "../helpers/database-templates";

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
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inTx = new Promise<void>((r) => (started = r));
    const ownerTx = owner.db
      .transaction(async (tx) => {
        await tx.insert(tenants).values({ id: "tn_rolled_back", name: "rolled back", ingestSecret: "x" });
        started();
        await held;
        throw new Error("roll back on purpose");
      })
      .catch((err: Error) => err.message);

    await inTx;
    const guestInsert = guest.db.insert(tenants).values({ id: "tn_from_guest", name: "guest", ingestSecret: "x" });
    setTimeout(release, 300);
    await guestInsert;
    expect(await ownerTx).toBe("roll back on purpose");

    const ids = (await owner.db.select({ id: tenants.id }).from(tenants)).map((r) => r.id);
    expect(ids).toContain("tn_from_guest");
    expect(ids).not.toContain("tn_rolled_back");
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
