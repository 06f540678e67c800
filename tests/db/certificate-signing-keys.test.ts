import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { revokeSigningKey } from "@/lib/certificates/revoke-signing-key";
import { rotateSigningKey } from "@/lib/certificates/rotate-signing-key";
import { keysDocumentSchema } from "@/lib/certificates/signing/keys-document";
import {
  activeSigningKey,
  forgetActiveKey,
  keysDocument,
  lockActiveKey,
  publicJwkOf,
  signingCertificatesPem,
  SigningKeyUnavailableError,
} from "@/lib/certificates/signing/signing-keys";
import { certificateDer, certificateFingerprint } from "@/lib/certificates/signing/pdf-signing-certificate";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { certificates, certificateSigningKeys } from "@/lib/db/schema";
import { setEnv } from "../helpers/test-env";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import { createPostgresDatabase, createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { migrateUpTo, runMigrationFile } from "../helpers/migration-files";

/**
 * The certificate signing keys' lifecycle on a real database (CONTRACT "Evidence and trust"): the first
 * key (configured or generated), stored encrypted; rotation and revocation with their validity windows;
 * one active key; and migration 0014 on keys from before the lifecycle. Both drivers.
 */

const work = mkdtempSync(path.join(tmpdir(), "fdp-keys-"));
const baseEnv = {
  FDP_CERT_SIGNING_KEY: undefined,
  FDP_CERT_SIGNING_KEY_FILE: path.join(work, "no-such-legacy-key.pem"),
  FDP_CERT_KEY_SECRET: "test-key-encryption-secret-0123456789",
  // The test environment's modulus (vitest.config.ts TEST_ENV), put back after a test that unsets it.
  FDP_PDF_SIGNING_RSA_BITS: process.env.FDP_PDF_SIGNING_RSA_BITS,
};

afterAll(() => {
  setEnv({ FDP_CERT_SIGNING_KEY: undefined, FDP_CERT_SIGNING_KEY_FILE: undefined, FDP_CERT_KEY_SECRET: undefined });
  rmSync(work, { recursive: true, force: true });
});

for (const kind of ["postgres", "pglite"] as const) {
  describe(`the key lifecycle (${kind})`, () => {
    let tdb: TestDatabase;
    beforeAll(async () => {
      tdb = await createTestDatabase(kind);
    }, 120_000);
    afterAll(async () => {
      await tdb?.dispose();
    });
    afterEach(() => {
      forgetActiveKey(tdb.handle.db);
      setEnv(baseEnv);
    });

    const rows = () => tdb.handle.db.select().from(certificateSigningKeys).orderBy(certificateSigningKeys.validFrom, certificateSigningKeys.kid);

    it("makes the first key on first use, stores both private halves encrypted, and keeps signing with it", async () => {
      setEnv(baseEnv);
      const db = tdb.handle.db;
      const now = new Date("2026-11-28T10:00:00.400Z");
      const key = await activeSigningKey(db, now);
      const [row] = await rows();
      expect(row).toMatchObject({ kid: key.kid, status: "active", validUntil: null, revokedAt: null });
      expect(row!.validFrom.toISOString()).toBe("2026-11-28T10:00:00.000Z"); // whole seconds, like generated_at
      expect(row!.privateKeyEnc).toMatch(/^v1\./);
      expect(row!.privateKeyEnc).not.toContain("PRIVATE KEY");
      expect(row!.pdfPrivateKeyEnc).toMatch(/^v1\./);
      expect(row!.pdfCertificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/);
      // The PDF key has the configured modulus (2048 in the test environment: vitest.config.ts TEST_ENV).
      expect(new X509Certificate(row!.pdfCertificatePem!).publicKey.asymmetricKeyDetails?.modulusLength).toBe(env().FDP_PDF_SIGNING_RSA_BITS);
      forgetActiveKey(db);
      expect((await activeSigningKey(db)).kid).toBe(key.kid);
      expect(await rows()).toHaveLength(1);
    });

    it("a database copy alone signs nothing: another deployment secret cannot decrypt the key", async () => {
      setEnv({ ...baseEnv, FDP_CERT_KEY_SECRET: "another-deployment-secret-0123456789" });
      await expect(activeSigningKey(tdb.handle.db)).rejects.toThrow(/cannot be decrypted with this deployment's secret/);
    });

    it("rotation: the old key retired at the end of that second, the new one active from its start; only the active key passes the insert lock", async () => {
      setEnv(baseEnv);
      const db = tdb.handle.db;
      const old = await activeSigningKey(db);
      const at = new Date("2026-11-28T12:00:00.700Z");
      const r = await rotateSigningKey({ ctx: { db }, input: {}, now: at });
      expect(r).toMatchObject({ rotated: true, retired_kid: old.kid });
      expect(r.kid).not.toBe(old.kid);
      const doc = keysDocumentSchema.parse(await keysDocument(db, "https://fdp.example.com"));
      expect(doc.keys.map((k) => [k.kid, k.status, k.valid_until])).toEqual([
        [old.kid, "retired", "2026-11-28T12:00:01.000Z"], // to the end of the rotation's second (generated_at is whole seconds)
        [r.kid, "active", null],
      ]);
      expect(doc.pdf_signing_certificates_url).toBe("https://fdp.example.com/.well-known/fdp-certificate-signing.pem");
      expect((await activeSigningKey(db)).kid).toBe(r.kid);
      // An expired-window key cannot sign: the certificate insert's lock refuses it.
      const later = new Date("2026-11-28T12:00:01Z");
      expect(await db.transaction((tx) => lockActiveKey(tx, old.kid, later))).toBe(false);
      expect(await db.transaction((tx) => lockActiveKey(tx, r.kid, later))).toBe(true);
      // Nor can the new key sign a date before its window.
      expect(await db.transaction((tx) => lockActiveKey(tx, r.kid, new Date("2026-11-28T11:59:59Z")))).toBe(false);
      // The published PEM: the active key's certificate first, every one with its fingerprint.
      const pem = await signingCertificatesPem(db);
      const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
      expect(blocks).toHaveLength(2);
      expect(pem.indexOf(`FDP certificate signing key ${r.kid} (active)`)).toBe(0);
      expect(doc.keys[1]!.pdf_signing_certificate_sha256).toBe(certificateFingerprint(certificateDer(blocks[0])));
    });

    it("a rotation never ends a key before a certificate it signed (an instance whose clock runs ahead)", async () => {
      setEnv(baseEnv);
      const db = tdb.handle.db;
      const key = await activeSigningKey(db);
      const t = await createTenantWithKey(db, { name: "Clock ahead" });
      const at = new Date("2026-11-28T13:00:00.200Z");
      await db.insert(certificates).values({
        number: "FDP-CERT-20261128-AHEAD",
        tenantId: t.tenantId,
        deviceId: "d1",
        content: "{}",
        verifyHash: "0".repeat(64),
        confidence: "high",
        grade: "B",
        generatedAt: new Date("2026-11-28T13:00:05Z"),
        expiresAt: new Date("2027-05-27T13:00:05Z"),
        signatureKid: key.kid,
        signature: "sig",
        pdf: Buffer.from("%PDF-1.7 stand-in"),
        pdfSha256: "0".repeat(64),
      });
      const r = await rotateSigningKey({ ctx: { db }, input: {}, now: at });
      const [retired] = await db.select().from(certificateSigningKeys).where(eq(certificateSigningKeys.kid, key.kid));
      expect(retired!.validUntil!.toISOString()).toBe("2026-11-28T13:00:06.000Z");
      const [successor] = await db.select().from(certificateSigningKeys).where(eq(certificateSigningKeys.kid, r.kid));
      expect(successor!.validFrom.toISOString()).toBe("2026-11-28T13:00:00.000Z");
    });

    it("one active key: the database refuses a second", async () => {
      const db = tdb.handle.db;
      const [active] = await db.select().from(certificateSigningKeys).where(eq(certificateSigningKeys.status, "active"));
      const other = publicJwkOf(generateKeyPair("ed25519").privateKey);
      await expect(db.insert(certificateSigningKeys).values({ ...active!, kid: other.kid, publicJwk: other.publicJwk })).rejects.toThrow();
    });

    it("revocation: of the active key replaces it at once; of a retired key keeps its window; again changes nothing; unknown → not found", async () => {
      setEnv(baseEnv);
      const db = tdb.handle.db;
      const active = await activeSigningKey(db);
      const [retired] = (await rows()).filter((r) => r.status === "retired");
      const at = new Date("2026-11-29T08:30:00Z");
      const r1 = await revokeSigningKey({ ctx: { db }, input: { kid: active.kid, reason: "key leaked in a backup" }, now: at });
      expect(r1.new_active_kid).toBeTruthy();
      expect((await activeSigningKey(db)).kid).toBe(r1.new_active_kid);
      const r2 = await revokeSigningKey({ ctx: { db }, input: { kid: retired!.kid, reason: "superseded and distrusted" }, now: at });
      expect(r2.new_active_kid).toBeNull();
      const again = await revokeSigningKey({ ctx: { db }, input: { kid: active.kid, reason: "another reason" }, now: new Date() });
      expect(again.new_active_kid).toBeNull();
      const doc = keysDocumentSchema.parse(await keysDocument(db));
      const byKid = new Map(doc.keys.map((k) => [k.kid, k]));
      expect(byKid.get(active.kid)).toMatchObject({
        status: "revoked",
        revoked_at: at.toISOString(),
        revocation_reason: "key leaked in a backup",
        valid_until: "2026-11-29T08:30:01.000Z",
      });
      expect(byKid.get(retired!.kid)).toMatchObject({ status: "revoked", valid_until: retired!.validUntil!.toISOString(), revocation_reason: "superseded and distrusted" });
      expect(doc.keys.filter((k) => k.status === "active").map((k) => k.kid)).toEqual([r1.new_active_kid]);
      await expect(revokeSigningKey({ ctx: { db }, input: { kid: "no-such-key", reason: "whatever" } })).rejects.toBeInstanceOf(NotFoundError);
      await expect(revokeSigningKey({ ctx: { db }, input: { kid: active.kid, reason: "x" } })).rejects.toThrow(/at least 3 characters/);
    });

    it("makes a new PDF key of 3072 bits, the production setting, when FDP_PDF_SIGNING_RSA_BITS is unset (last: it adds a key)", async () => {
      setEnv({ ...baseEnv, FDP_PDF_SIGNING_RSA_BITS: undefined });
      const db = tdb.handle.db;
      const rotated = await rotateSigningKey({ ctx: { db }, input: {}, now: new Date("2026-12-31T00:00:00Z") });
      const [row] = (await rows()).filter((r) => r.kid === rotated.kid);
      expect(new X509Certificate(row!.pdfCertificatePem!).publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    });
  });
}

describe("the first key from FDP_CERT_SIGNING_KEY (postgres)", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    forgetActiveKey(tdb.handle.db);
    await tdb?.dispose();
  });

  it("is adopted as the first active key, written with its newlines as \\n; a retired configured key is not adopted again", async () => {
    const { privateKey } = generateKeyPair("ed25519");
    setEnv({ ...baseEnv, FDP_CERT_SIGNING_KEY: (privateKey.export({ format: "pem", type: "pkcs8" }) as string).replace(/\n/g, "\\n") });
    const db = tdb.handle.db;
    expect((await activeSigningKey(db)).kid).toBe(publicJwkOf(privateKey).kid);
    await revokeSigningKey({ ctx: { db }, input: { kid: publicJwkOf(privateKey).kid, reason: "test: revoked" } });
    await db.delete(certificateSigningKeys).where(eq(certificateSigningKeys.status, "active"));
    forgetActiveKey(db);
    const next = await activeSigningKey(db);
    expect(next.kid).not.toBe(publicJwkOf(privateKey).kid);
    expect(() => publicJwkOf(generateKeyPair("rsa", { modulusLength: 1024 }).privateKey)).toThrow(/Ed25519/);
  });
});

/**
 * Migration 0014 on keys from before the lifecycle: the newest stays active (adopted from the configured
 * key at the next signature), every older one is retired at the migration, not at its successor's first
 * use, so that certificates signed side by side by two instances all stay valid.
 */
describe("migration 0014 on keys from before the lifecycle (postgres)", () => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let pg: postgres.Sql;
  let handle: DbHandle | undefined;
  const older = generateKeyPair("ed25519").privateKey;
  const newest = generateKeyPair("ed25519").privateKey;
  beforeAll(async () => {
    db = await createPostgresDatabase("fdp_keymig");
    pg = postgres(db.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    if (handle) forgetActiveKey(handle.db);
    await handle?.close();
    await pg?.end({ timeout: 5 });
    await db?.drop();
  });

  it("keeps the newest key active, retires the older, and the configured key adopts the newest", async () => {
    const file = await migrateUpTo(pg, "0014_");
    const a = publicJwkOf(older);
    const b = publicJwkOf(newest);
    await pg`insert into certificate_signing_keys (kid, public_jwk, first_used_at) values
      (${a.kid}, ${pg.json({ ...a.publicJwk })}, '2026-01-01T00:00:00.250Z'), (${b.kid}, ${pg.json({ ...b.publicJwk })}, '2026-06-01T00:00:01.400Z')`;
    // The old code read the clock, then recorded the key (first_used_at, the database's time) before
    // storing the certificate with its generated_at floored to the second: the first certificate of a
    // key can be dated before its first_used_at.
    await pg`insert into tenants (id, name, ingest_secret) values ('t1', 'T', 'x')`;
    await pg`insert into certificates (number, tenant_id, device_id, content, verify_hash, confidence, grade, generated_at, expires_at, signature_kid, signature, pdf, pdf_sha256)
      values ('FDP-CERT-20260601-AAAAA', 't1', 'd1', '{}', ${"0".repeat(64)}, 'high', 'B', '2026-06-01T00:00:00Z', '2026-11-28T00:00:00Z', ${b.kid}, 'sig', '\\x00', ${"0".repeat(64)})`;
    await runMigrationFile(pg, file);
    const after = await pg<
      { kid: string; status: string; valid_from: Date; valid_until: Date | null }[]
    >`select kid, status, valid_from, valid_until from certificate_signing_keys order by valid_from`;
    expect(after.map((r) => [r.kid, r.status, r.valid_from.toISOString()])).toEqual([
      [a.kid, "retired", "2026-01-01T00:00:00.000Z"], // its first use, to the second
      [b.kid, "active", "2026-06-01T00:00:00.000Z"], // its first certificate, before its first_used_at
    ]);
    expect(after[0]!.valid_until!.getTime()).toBeGreaterThan(Date.now() - 60_000); // retired at the migration
    expect(after[1]!.valid_until).toBeNull();

    // The next signature: only the holder of the newest key (here the key file of the old versions) may adopt it.
    handle = await openDatabase({ url: db!.url });
    const legacyFile = path.join(work, "legacy-key.pem");
    writeFileSync(legacyFile, older.export({ format: "pem", type: "pkcs8" }));
    setEnv({ ...baseEnv, FDP_CERT_SIGNING_KEY_FILE: legacyFile });
    await expect(activeSigningKey(handle.db)).rejects.toBeInstanceOf(SigningKeyUnavailableError);
    writeFileSync(legacyFile, newest.export({ format: "pem", type: "pkcs8" }));
    expect((await activeSigningKey(handle.db)).kid).toBe(b.kid);
    const [adopted] = await pg<{ private_key_enc: string | null }[]>`select private_key_enc from certificate_signing_keys where kid = ${b.kid}`;
    expect(adopted!.private_key_enc).toMatch(/^v1\./);
  });
});
