import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { authenticateApiKey, clearKeyCache } from "@/lib/auth/authenticate-api-key";
import { SANDBOX_TENANT_ID, hashKey } from "@/lib/auth/key-format";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { getIngestSettings } from "@/lib/dashboard/key-management/ingest-settings";
import { issueApiKey } from "@/lib/dashboard/key-management/issue-api-key";
import { revealIngestSecret } from "@/lib/dashboard/key-management/reveal-ingest-secret";
import { revokeTenantApiKey } from "@/lib/dashboard/key-management/revoke-tenant-api-key";
import { rotateTenantIngestSecret } from "@/lib/dashboard/key-management/rotate-tenant-ingest-secret";
import { setRequireSignedIngest } from "@/lib/dashboard/key-management/set-require-signed-ingest";
import { apiKeys, auditEvents, tenants } from "@/lib/db/schema";
import { InvalidSignatureError, NotFoundError, UnprocessableError } from "@/lib/errors";
import { hmacHex, SIGNATURE_HEADER } from "@/lib/ingest/verify-signature";
import { ingestOperation } from "@/lib/operations/ingest";
import { rootLogger } from "@/lib/log/logger";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * The keys page's verbs at the database: each change and its audit row commit together, the tenant
 * comes from the context only (another tenant's key id is "not found" and changes nothing), no secret
 * reaches the audit log, and a rotated ingest secret stops verifying at once.
 */
let tdb: TestDatabase;
const actor = { userId: "usr_test", email: "manager@example.com" };
const ctxOf = (tenantId: string, who = actor): AuditedCtx => ({ db: tdb.handle.db, tenantId, isSandbox: tenantId === SANDBOX_TENANT_ID, log: rootLogger(), actor: who });
const auditRows = (tenantId: string) => tdb.handle.db.select().from(auditEvents).where(eq(auditEvents.tenantId, tenantId));

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.dispose();
});
beforeEach(() => clearKeyCache());

describe("issueApiKey", () => {
  it("issues a key of the session's tenant with the chosen scopes and records who created it, without the key", async () => {
    const { tenantId } = await createTenantWithKey(tdb.handle.db, { name: "Issue" });
    const { key, keyId } = await issueApiKey({ ctx: ctxOf(tenantId), input: { name: " Ingest bridge ", scopes: ["fleet:read"] } });

    const principal = await authenticateApiKey({ db: tdb.handle.db, token: key });
    expect(principal).toMatchObject({ keyId, tenantId });
    expect([...principal!.scopes]).toEqual(["fleet:read"]);
    const [stored] = await tdb.handle.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(stored!.keyHash).toBe(hashKey(key));
    expect(JSON.stringify(stored)).not.toContain(key);

    const rows = await auditRows(tenantId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "api_key.created", targetId: keyId, actorUserId: actor.userId, actorEmail: actor.email });
    expect(rows[0]!.details).toEqual({ name: "Ingest bridge", scopes: ["fleet:read"], display_prefix: stored!.displayPrefix });
    expect(JSON.stringify(rows[0])).not.toContain(key.slice(9));
  });

  it("creates nothing when the audit record cannot be written (one transaction)", async () => {
    const { tenantId } = await createTenantWithKey(tdb.handle.db, { name: "Atomic" });
    const before = await listApiKeys({ ctx: { db: tdb.handle.db, tenantId } });
    const broken = ctxOf(tenantId, { userId: "usr_x", email: null as unknown as string }); // actor_email is NOT NULL
    await expect(issueApiKey({ ctx: broken, input: { name: "never" } })).rejects.toThrow();
    expect(await listApiKeys({ ctx: { db: tdb.handle.db, tenantId } })).toEqual(before);
    expect(await auditRows(tenantId)).toHaveLength(0);
  });

  it("refuses an unknown scope with the verb's validation message", async () => {
    const { tenantId } = await createTenantWithKey(tdb.handle.db, { name: "Scopes" });
    await expect(issueApiKey({ ctx: ctxOf(tenantId), input: { scopes: ["fleet:write"] } })).rejects.toThrow(/Unknown scope "fleet:write"/);
    expect(await auditRows(tenantId)).toHaveLength(0);
  });
});

describe("revokeTenantApiKey", () => {
  it("revokes the tenant's own key (the API refuses it) and records it", async () => {
    const { tenantId } = await createTenantWithKey(tdb.handle.db, { name: "Revoke" });
    const { key, keyId } = await issueApiKey({ ctx: ctxOf(tenantId), input: { name: "old" } });
    expect(await revokeTenantApiKey({ ctx: ctxOf(tenantId), input: { keyId } })).toEqual({ revoked: true });
    clearKeyCache(); // the 5-second cache is the verb's documented window; the database refuses at once
    expect(await authenticateApiKey({ db: tdb.handle.db, token: key })).toBeNull();
    const listed = (await listApiKeys({ ctx: { db: tdb.handle.db, tenantId } })).find((k) => k.id === keyId);
    expect(listed).toMatchObject({ status: "revoked", name: "old" });
    expect(listed!.revokedAt).toBeInstanceOf(Date);
    const revoked = (await listAuditEvents({ ctx: { db: tdb.handle.db, tenantId } }))[0];
    expect(revoked).toMatchObject({ action: "api_key.revoked", targetId: keyId, actorEmail: actor.email, details: { name: "old", display_prefix: listed!.displayPrefix } });
  });

  it("another tenant's key id is not found, stays active, and leaves no audit row", async () => {
    const a = await createTenantWithKey(tdb.handle.db, { name: "Owner" });
    const b = await createTenantWithKey(tdb.handle.db, { name: "Intruder" });
    await expect(revokeTenantApiKey({ ctx: ctxOf(b.tenantId), input: { keyId: a.keyId } })).rejects.toBeInstanceOf(NotFoundError);
    const [row] = await tdb.handle.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, a.keyId));
    expect(row!.revokedAt).toBeNull();
    expect(await authenticateApiKey({ db: tdb.handle.db, token: a.key })).toMatchObject({ tenantId: a.tenantId });
    expect(await auditRows(b.tenantId)).toHaveLength(0);
    expect(await auditRows(a.tenantId)).toHaveLength(0);
    // And B's listing never shows A's keys.
    expect((await listApiKeys({ ctx: { db: tdb.handle.db, tenantId: b.tenantId } })).map((k) => k.id)).toEqual([b.keyId]);
  });
});

describe("ingest secret", () => {
  const body = { vehicles: [{ vin: "WAUDIT00000000001", timestamp: "2026-01-01T00:00:00Z" }] };
  const raw = new TextEncoder().encode(JSON.stringify(body));
  const verify = (tenantId: string, header: string | null) =>
    ingestOperation.verifyRequest!({
      ctx: { db: tdb.handle.db, tenantId, isSandbox: false, log: rootLogger() },
      rawBody: raw,
      body,
      headers: new Headers(header === null ? {} : { [SIGNATURE_HEADER]: header }),
    });

  it("reveal returns the stored secret and records the reveal without it", async () => {
    const { tenantId, ingestSecret } = await createTenantWithKey(tdb.handle.db, { name: "Reveal" });
    expect(await revealIngestSecret({ ctx: ctxOf(tenantId) })).toEqual({ ingestSecret });
    const [row] = await auditRows(tenantId);
    expect(row).toMatchObject({ action: "ingest_secret.revealed", targetId: tenantId, details: {} });
    expect(JSON.stringify(row)).not.toContain(ingestSecret);
  });

  it("rotate replaces the secret: the old one's signature is refused, the new one's accepted; recorded without either", async () => {
    const { tenantId, ingestSecret: old } = await createTenantWithKey(tdb.handle.db, { name: "Rotate" });
    await expect(verify(tenantId, `sha256=${hmacHex(old, raw)}`)).resolves.toBeUndefined();
    const { ingestSecret } = await rotateTenantIngestSecret({ ctx: ctxOf(tenantId) });
    expect(ingestSecret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(ingestSecret).not.toBe(old);
    const [stored] = await tdb.handle.db.select({ s: tenants.ingestSecret }).from(tenants).where(eq(tenants.id, tenantId));
    expect(stored!.s).toBe(ingestSecret);
    await expect(verify(tenantId, `sha256=${hmacHex(old, raw)}`)).rejects.toBeInstanceOf(InvalidSignatureError);
    await expect(verify(tenantId, `sha256=${hmacHex(ingestSecret, raw)}`)).resolves.toBeUndefined();
    const [row] = await auditRows(tenantId);
    expect(row).toMatchObject({ action: "ingest_secret.rotated", actorUserId: actor.userId });
    expect(JSON.stringify(row)).not.toContain(ingestSecret);
    expect(JSON.stringify(row)).not.toContain(old);
  });

  it("the signed-ingest switch turns unsigned payloads away and back, each change recorded", async () => {
    const { tenantId } = await createTenantWithKey(tdb.handle.db, { name: "Switch" });
    await setRequireSignedIngest({ ctx: ctxOf(tenantId), input: { required: true } });
    expect(await getIngestSettings({ ctx: ctxOf(tenantId) })).toEqual({ requireSignedIngest: true, managedBySandbox: false });
    await expect(verify(tenantId, null)).rejects.toBeInstanceOf(InvalidSignatureError);
    await setRequireSignedIngest({ ctx: ctxOf(tenantId), input: { required: false } });
    await expect(verify(tenantId, null)).resolves.toBeUndefined();
    const events = await listAuditEvents({ ctx: { db: tdb.handle.db, tenantId } });
    expect(events.map((e) => [e.action, e.details.required])).toEqual([
      ["signed_ingest.required_changed", false],
      ["signed_ingest.required_changed", true],
    ]);
  });

  it("the sandbox's public secret is neither rotated nor made mandatory", async () => {
    await tdb.handle.db.insert(tenants).values({ id: SANDBOX_TENANT_ID, name: "FDP Sandbox", ingestSecret: "public" }).onConflictDoNothing();
    await expect(rotateTenantIngestSecret({ ctx: ctxOf(SANDBOX_TENANT_ID) })).rejects.toBeInstanceOf(UnprocessableError);
    await expect(setRequireSignedIngest({ ctx: ctxOf(SANDBOX_TENANT_ID), input: { required: true } })).rejects.toBeInstanceOf(UnprocessableError);
    const [row] = await tdb.handle.db.select().from(tenants).where(eq(tenants.id, SANDBOX_TENANT_ID));
    expect(row).toMatchObject({ ingestSecret: "public", requireSignedIngest: false });
    expect(await auditRows(SANDBOX_TENANT_ID)).toHaveLength(0);
  });
});

describe("listAuditEvents", () => {
  it("answers the tenant's own events, newest first, at most the limit", async () => {
    const a = await createTenantWithKey(tdb.handle.db, { name: "Log A" });
    const b = await createTenantWithKey(tdb.handle.db, { name: "Log B" });
    for (let i = 0; i < 3; i++) await issueApiKey({ ctx: ctxOf(a.tenantId), input: { name: `k${i}` } });
    await issueApiKey({ ctx: ctxOf(b.tenantId, { userId: "usr_b", email: "b@example.com" }), input: { name: "b" } });
    const events = await listAuditEvents({ ctx: { db: tdb.handle.db, tenantId: a.tenantId }, input: { limit: 2 } });
    expect(events.map((e) => e.details.name)).toEqual(["k2", "k1"]);
    expect(events.every((e) => e.actorEmail === actor.email)).toBe(true);
  });
});
