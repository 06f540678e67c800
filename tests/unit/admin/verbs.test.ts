import { createHash } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { SCOPES } from "@/lib/auth/key-format";
import { type Db, type DbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import * as schema from "@/lib/db/schema";
import { NotFoundError, ValidationError, type DomainError } from "@/lib/errors";
import { createTenant } from "@/lib/tenants/create-tenant";
import { updateTenant } from "@/lib/tenants/update-tenant";
import { createUser } from "@/lib/users/create-user";
import { verifyUserPassword } from "@/lib/users/verify-user-password";

/** The operator verbs called directly, on one in-memory PGlite database migrated like the real ones. */

let client: PGlite;
let db: Db;
const ctx = () => ({ db });

beforeAll(async () => {
  client = new PGlite();
  await client.waitReady;
  db = drizzle(client, { schema });
  const handle: DbHandle = { db, kind: "pglite", close: () => client.close() };
  await migrateWithPartitions(handle);
}, 120_000);

afterAll(async () => {
  await client?.close();
});

/** Awaits a rejection and returns the domain error, checking its class. */
async function rejection<E extends DomainError>(promise: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}

const fields = (err: DomainError) => (err.details ?? []).map((d) => d.field);

describe("createTenant", () => {
  it("creates a tenant with a tn_ id, a whsec_ secret and de-duplicated entitlements", async () => {
    const { tenantId, ingestSecret } = await createTenant({
      ctx: ctx(),
      input: { name: "  Acme  ", entitlements: ["residual_factors", "beta_x", "residual_factors"], rateLimitPerMin: 100_000 },
    });
    expect(tenantId).toMatch(/^tn_[0-9A-Za-z]{20}$/);
    expect(ingestSecret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    const [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ name: "Acme", entitlements: ["residual_factors", "beta_x"], rateLimitPerMin: 100_000, ingestSecret, requireSignedIngest: false });
  });

  it("defaults to no entitlements and the service rate limit", async () => {
    const { tenantId } = await createTenant({ ctx: ctx(), input: { name: "Plain" } });
    const [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ entitlements: [], rateLimitPerMin: null });
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(201) }, "name"],
    [{ name: "A", entitlements: ["Residual"] }, "entitlements.0"],
    [{ name: "A", entitlements: ["ok", "1abc"] }, "entitlements.1"],
    [{ name: "A", entitlements: ["has-dash"] }, "entitlements.0"],
    [{ name: "A", rateLimitPerMin: 0 }, "rateLimitPerMin"],
    [{ name: "A", rateLimitPerMin: -5 }, "rateLimitPerMin"],
    [{ name: "A", rateLimitPerMin: 1.5 }, "rateLimitPerMin"],
    [{ name: "A", rateLimitPerMin: 100_001 }, "rateLimitPerMin"],
  ])("refuses %j naming %s", async (input, field) => {
    const err = await rejection(createTenant({ ctx: ctx(), input }), ValidationError);
    expect(err.code).toBe("invalid_request");
    expect(fields(err)).toContain(field);
  });
});

describe("updateTenant", () => {
  it("changes only what it is given; null restores the default rate limit", async () => {
    const { tenantId } = await createTenant({ ctx: ctx(), input: { name: "Upd", entitlements: ["residual_factors"], rateLimitPerMin: 50 } });
    expect(await updateTenant({ ctx: ctx(), input: { tenantId, requireSignedIngest: true } })).toEqual({ tenantId, updated: true });
    let [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ entitlements: ["residual_factors"], rateLimitPerMin: 50, requireSignedIngest: true, name: "Upd" });

    await updateTenant({ ctx: ctx(), input: { tenantId, rateLimitPerMin: null, entitlements: [] } });
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ entitlements: [], rateLimitPerMin: null, requireSignedIngest: true });
  });

  it("sets and removes the electricity contract factor (CSRD market-based Scope 2), refusing a unit mistake", async () => {
    const { tenantId } = await createTenant({ ctx: ctx(), input: { name: "Contract" } });
    let [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row?.electricityContractGPerKwh).toBeNull();
    await updateTenant({ ctx: ctx(), input: { tenantId, electricityContractGPerKwh: 12.5 } });
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ electricityContractGPerKwh: 12.5, requireSignedIngest: false });
    await rejection(updateTenant({ ctx: ctx(), input: { tenantId, electricityContractGPerKwh: 88_000 } }), ValidationError);
    await updateTenant({ ctx: ctx(), input: { tenantId, electricityContractGPerKwh: null } });
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row?.electricityContractGPerKwh).toBeNull();
  });

  it("sets the CSRD reporting role (operator by default, lessor), refusing any other role", async () => {
    const { tenantId } = await createTenant({ ctx: ctx(), input: { name: "Role" } });
    let [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row?.reportingRole).toBe("operator");
    expect(await updateTenant({ ctx: ctx(), input: { tenantId, reportingRole: "lessor" } })).toEqual({ tenantId, updated: true });
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row).toMatchObject({ reportingRole: "lessor", requireSignedIngest: false });
    const err = await rejection(updateTenant({ ctx: ctx(), input: { tenantId, reportingRole: "lessee" as never } }), ValidationError);
    expect(fields(err)).toEqual(["reportingRole"]);
    expect(err.message).toMatch(/operator.*lessor/);
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, tenantId));
    expect(row?.reportingRole).toBe("lessor");
    const { tenantId: created } = await createTenant({ ctx: ctx(), input: { name: "Lessor from the start", reportingRole: "lessor" } });
    [row] = await db.select().from(schema.tenants).where(eq(schema.tenants.id, created));
    expect(row?.reportingRole).toBe("lessor");
    await rejection(createTenant({ ctx: ctx(), input: { name: "Bad role", reportingRole: "owner" as never } }), ValidationError);
  });

  it("refuses an update with nothing to change, and an unknown tenant", async () => {
    const { tenantId } = await createTenant({ ctx: ctx(), input: { name: "Nothing" } });
    const err = await rejection(updateTenant({ ctx: ctx(), input: { tenantId } }), ValidationError);
    expect(err.message).toMatch(/nothing to update/i);
    const nf = await rejection(updateTenant({ ctx: ctx(), input: { tenantId: "tn_missing", rateLimitPerMin: 10 } }), NotFoundError);
    expect(nf.code).toBe("not_found");
    await rejection(updateTenant({ ctx: ctx(), input: { tenantId, rateLimitPerMin: 0 } }), ValidationError);
  });
});

describe("createApiKey and revokeApiKey", () => {
  let tenantId = "";
  beforeAll(async () => {
    ({ tenantId } = await createTenant({ ctx: ctx(), input: { name: "Keys" } }));
  });

  it("stores only the hash and display prefix; all scopes by default", async () => {
    const { key, keyId, tenantId: t } = await createApiKey({ ctx: ctx(), input: { tenantId, name: "ci" } });
    expect(t).toBe(tenantId);
    expect(key).toMatch(/^fdp_live_[0-9A-Za-z]{32,}$/);
    expect(keyId).toMatch(/^key_[0-9A-Za-z]{20}$/);
    const [row] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, keyId));
    expect(row).toMatchObject({
      tenantId,
      name: "ci",
      keyHash: createHash("sha256").update(key).digest("hex"),
      displayPrefix: key.slice(0, 13),
      revokedAt: null,
    });
    expect(row?.scopes).toEqual([...SCOPES]);
    expect(JSON.stringify(row)).not.toContain(key.slice(13));
  });

  it("keeps the given scopes, de-duplicated", async () => {
    const { keyId } = await createApiKey({ ctx: ctx(), input: { tenantId, scopes: ["fleet:read", "mcp", "fleet:read"] } });
    const [row] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, keyId));
    expect(row?.scopes).toEqual(["fleet:read", "mcp"]);
    expect(row?.name).toBeNull();
  });

  it("names unknown scopes, refuses an empty list and an unknown tenant", async () => {
    const err = await rejection(createApiKey({ ctx: ctx(), input: { tenantId, scopes: ["fleet:read", "bogus", "fleet:write"] } }), ValidationError);
    expect(err.message).toContain('"bogus"');
    expect(err.message).toContain('"fleet:write"');
    expect(fields(err)).toEqual(["scopes"]);
    await rejection(createApiKey({ ctx: ctx(), input: { tenantId, scopes: [] } }), ValidationError);
    await rejection(createApiKey({ ctx: ctx(), input: { tenantId, scopes: ["bogus"] } }), ValidationError);
    await rejection(createApiKey({ ctx: ctx(), input: { tenantId: "tn_missing" } }), NotFoundError);
  });

  it("revokes idempotently, keeping the first revoked_at; unknown ids are not found", async () => {
    const { keyId } = await createApiKey({ ctx: ctx(), input: { tenantId } });
    expect(await revokeApiKey({ ctx: ctx(), input: { keyId } })).toEqual({ revoked: true });
    const [first] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, keyId));
    expect(first?.revokedAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 20));
    expect(await revokeApiKey({ ctx: ctx(), input: { keyId } })).toEqual({ revoked: true });
    const [second] = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, keyId));
    expect(second?.revokedAt?.getTime()).toBe(first?.revokedAt?.getTime());
    await rejection(revokeApiKey({ ctx: ctx(), input: { keyId: "key_missing" } }), NotFoundError);
    await rejection(revokeApiKey({ ctx: ctx(), input: { keyId: "" } }), ValidationError);
  });
});

describe("createUser and verifyUserPassword", () => {
  let tenantId = "";
  let otherTenant = "";
  beforeAll(async () => {
    ({ tenantId } = await createTenant({ ctx: ctx(), input: { name: "Users" } }));
    ({ tenantId: otherTenant } = await createTenant({ ctx: ctx(), input: { name: "Users 2" } }));
  });

  it("stores the e-mail lower-cased and a cost-12 bcrypt hash; signs in with either case", async () => {
    const { userId } = await createUser({ ctx: ctx(), input: { tenantId, email: " Alice@Example.COM ", password: "s3cret-enough" } });
    expect(userId).toMatch(/^usr_[0-9A-Za-z]{20}$/);
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
    expect(row?.email).toBe("alice@example.com");
    expect(row?.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(row?.passwordHash).not.toContain("s3cret-enough");

    expect(await verifyUserPassword({ ctx: ctx(), input: { email: "ALICE@example.com", password: "s3cret-enough" } })).toEqual({
      userId,
      tenantId,
      credentialFingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    expect(await verifyUserPassword({ ctx: ctx(), input: { email: "alice@example.com", password: "s3cret-enougH" } })).toBeNull();
  }, 30_000);

  it("spends a bcrypt comparison on unknown e-mails too", async () => {
    const started = performance.now();
    expect(await verifyUserPassword({ ctx: ctx(), input: { email: "nobody@example.com", password: "whatever-123" } })).toBeNull();
    // A cost-12 comparison takes well over 50 ms; a bare "no such user" answer takes a few.
    expect(performance.now() - started).toBeGreaterThan(50);
    expect(await verifyUserPassword({ ctx: ctx(), input: { email: "", password: "" } })).toBeNull();
  }, 30_000);

  it("refuses a duplicate e-mail in any tenant and any case", async () => {
    await createUser({ ctx: ctx(), input: { tenantId, email: "bob@example.com", password: "long enough 1" } });
    const err = await rejection(createUser({ ctx: ctx(), input: { tenantId: otherTenant, email: "BOB@example.com", password: "long enough 2" } }), ValidationError);
    expect(err.message).toMatch(/already exists/);
    expect(fields(err)).toEqual(["email"]);
  }, 30_000);

  it.each([
    [{ email: "not-an-email", password: "long enough pw" }, "email"],
    [{ email: "c@example.com", password: "short" }, "password"],
    [{ email: "c@example.com", password: "é".repeat(37) }, "password"], // 74 bytes: bcrypt would ignore the end
  ])("refuses %j naming %s", async (input, field) => {
    const err = await rejection(createUser({ ctx: ctx(), input: { tenantId, ...input } }), ValidationError);
    expect(fields(err)).toContain(field);
  });

  it("refuses an unknown tenant", async () => {
    await rejection(createUser({ ctx: ctx(), input: { tenantId: "tn_missing", email: "d@example.com", password: "long enough pw" } }), NotFoundError);
  });
});
