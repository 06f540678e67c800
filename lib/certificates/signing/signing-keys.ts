import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import canonicalize from "canonicalize";
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { certificates, certificateSigningKeys } from "@/lib/db/schema";
import { sqlDate } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { decryptPrivateKey, encryptPrivateKey } from "./key-encryption";
import type { KeysDocument } from "./keys-document";
import { certificateDer, certificateFingerprint, createPdfSigningCertificate } from "./pdf-signing-certificate";
import type { PdfSigner } from "./pades";

/**
 * The certificate signing keys and their lifecycle (CONTRACT "Evidence and trust";
 * docs/certificates.md "Signing keys"). The database holds every key, one `active`; every instance
 * signs with that one, read at most KEY_CACHE_MS ago, and the insert of a certificate checks under a
 * share lock that its key is still active (lib/certificates/generate-certificate.ts), so a rotation or
 * revocation takes effect everywhere at once and no instance signs with a retired key.
 *
 * The first key of a database is FDP_CERT_SIGNING_KEY (or the key file of versions before the
 * lifecycle) when one is configured, else a new one; later keys come from `signing-key:rotate`.
 */

interface PublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
}

/** The active key with its private halves: Ed25519 for the JWS, RSA + X.509 for the PDF. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  pdf: PdfSigner;
}

/** Rotation and revocation reach every instance within this (CONTRACT's other revocations: 5 s). */
const KEY_CACHE_MS = 5_000;

/** The active key cannot sign here: not stored, and not the one this instance was configured with. */
export class SigningKeyUnavailableError extends Error {}

/** RFC 7638: SHA-256 over the canonical JSON of the required members {crv, kty, x}, base64url. */
function jwkThumbprint(jwk: PublicJwk): string {
  return createHash("sha256")
    .update(canonicalize({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }) as string)
    .digest("base64url");
}

export function publicJwkOf(privateKey: KeyObject): { kid: string; publicJwk: PublicJwk } {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The certificate signing key must be an Ed25519 key.");
  const jwk = createPublicKey(privateKey).export({ format: "jwk" }) as { x: string };
  const publicJwk: PublicJwk = { kty: "OKP", crv: "Ed25519", x: jwk.x };
  return { kid: jwkThumbprint(publicJwk), publicJwk };
}

/**
 * Whole seconds: certificates carry `generated_at` in whole seconds (floored), so window edges do too.
 * A key starts at the second it is made and a retired key ends at the second after its retirement
 * (exclusive): a certificate it signed earlier in that same second has that second as `generated_at`.
 * Both keys are valid in that one second; the insert lock decides which one signs.
 */
const floorSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);
const endOfSecond = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 + 1000);

function legacyKeyFile(): string {
  return env().FDP_CERT_SIGNING_KEY_FILE ?? path.join(path.dirname(path.resolve(/*turbopackIgnore: true*/ env().FDP_DATA_DIR)), "certificate-signing-key.pem");
}

/** FDP_CERT_SIGNING_KEY, else the key file an earlier version generated (never created any more). */
function configuredKey(): KeyObject | null {
  const configured = env().FDP_CERT_SIGNING_KEY;
  if (configured) return createPrivateKey(configured.replace(/\\n/g, "\n"));
  const file = legacyKeyFile();
  // turbopackIgnore: a configured path, not a file of the app (else the standalone build traces the whole project).
  return existsSync(/*turbopackIgnore: true*/ file) ? createPrivateKey(readFileSync(/*turbopackIgnore: true*/ file, "utf8")) : null;
}

type KeyRow = typeof certificateSigningKeys.$inferSelect;

/**
 * A new key's row: both private halves encrypted, its PDF certificate, active from `now`. Making the
 * RSA key takes up to a second or so: callers make the row first and date it (`validFrom`) once they
 * hold the lock that decides when the old key ends.
 */
function newKeyValues(privateKey: KeyObject, now: Date) {
  const { kid, publicJwk } = publicJwkOf(privateKey);
  const validFrom = floorSecond(now);
  const pdf = createPdfSigningCertificate(kid, validFrom, env().FDP_PDF_SIGNING_RSA_BITS);
  return {
    kid,
    publicJwk,
    firstUsedAt: now,
    status: "active" as const,
    validFrom,
    privateKeyEnc: encryptPrivateKey(privateKey.export({ format: "pem", type: "pkcs8" }) as string, kid, "jws-ed25519"),
    pdfPrivateKeyEnc: encryptPrivateKey(pdf.privateKey.export({ format: "pem", type: "pkcs8" }) as string, kid, "pdf-rsa"),
    pdfCertificatePem: pdf.certificatePem,
  };
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Ends the active key `row` (already locked FOR UPDATE by the caller: every certificate insert that
 * holds its share lock has committed, and none can start): at the end of the current second, and never
 * before the second after the last certificate it signed (an instance whose clock runs ahead dates its
 * certificates later than this one's clock). `at`: the time, read once the lock is held. Returns the
 * time the successor starts.
 */
async function endOfActiveKey(tx: Tx, kid: string, at: Date): Promise<{ validUntil: Date; successorFrom: Date }> {
  const [last] = await tx
    .select({ at: sql<unknown>`max(${certificates.generatedAt})` })
    .from(certificates)
    .where(eq(certificates.signatureKid, kid));
  const lastSigned = sqlDate(last?.at);
  const validUntil = new Date(Math.max(endOfSecond(at).getTime(), lastSigned ? lastSigned.getTime() + 1000 : 0));
  return { validUntil, successorFrom: floorSecond(at) };
}

const freshKey = () => generateKeyPair("ed25519").privateKey;

function keyFromRow(row: KeyRow): SigningKey {
  if (!row.privateKeyEnc || !row.pdfPrivateKeyEnc || !row.pdfCertificatePem) throw new SigningKeyUnavailableError(`signing key ${row.kid} has no stored private key`);
  return {
    kid: row.kid,
    privateKey: createPrivateKey(decryptPrivateKey(row.privateKeyEnc, row.kid, "jws-ed25519")),
    pdf: { privateKey: createPrivateKey(decryptPrivateKey(row.pdfPrivateKeyEnc, row.kid, "pdf-rsa")), certificatePem: row.pdfCertificatePem },
  };
}

const cache = new WeakMap<Db, { key: SigningKey; readAt: number }>();

/** Forgets the cached active key of `db` (after a rotation or revocation in this process, or when a signature was refused). */
export function forgetActiveKey(db: Db): void {
  cache.delete(db);
}

async function readActive(db: Db): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(certificateSigningKeys).where(eq(certificateSigningKeys.status, "active")).limit(1);
  return row;
}

/**
 * The first key of a database: the configured one (unless it already served and was retired or revoked:
 * a retired key never signs again), else a new one. Concurrent first signatures race on the one-active
 * index; the loser reads the winner's.
 */
async function createFirstKey(db: Db, now: Date): Promise<void> {
  const configured = configuredKey();
  let key = configured ?? freshKey();
  if (configured) {
    const [known] = await db
      .select({ status: certificateSigningKeys.status })
      .from(certificateSigningKeys)
      .where(eq(certificateSigningKeys.kid, publicJwkOf(configured).kid));
    if (known) {
      rootLogger().warn(
        { kid: publicJwkOf(configured).kid, status: known.status },
        "certificates: the configured signing key was already retired or revoked; a new key is generated",
      );
      key = freshKey();
    }
  }
  await db.insert(certificateSigningKeys).values(newKeyValues(key, now)).onConflictDoNothing();
  if (!configured || key !== configured) rootLogger().warn("certificates: generated a new signing key (stored encrypted in the database)");
}

/**
 * A key from before the lifecycle (migration 0014) is active without its private half: the configured
 * key adopts it when it is the same key; otherwise this instance cannot sign until an operator rotates.
 */
async function adoptLegacyKey(db: Db, row: KeyRow, now: Date): Promise<void> {
  const configured = configuredKey();
  if (!configured || publicJwkOf(configured).kid !== row.kid) {
    throw new SigningKeyUnavailableError(
      `the active certificate signing key ${row.kid} dates from before the key lifecycle and this instance does not hold it (FDP_CERT_SIGNING_KEY); run \`npm run admin -- signing-key:rotate\` to make a new one`,
    );
  }
  const values = newKeyValues(configured, now);
  await db
    .update(certificateSigningKeys)
    .set({ privateKeyEnc: values.privateKeyEnc, pdfPrivateKeyEnc: values.pdfPrivateKeyEnc, pdfCertificatePem: values.pdfCertificatePem })
    .where(and(eq(certificateSigningKeys.kid, row.kid), isNull(certificateSigningKeys.privateKeyEnc)));
}

/** The key to sign with now: the database's active key (made on first use), cached for KEY_CACHE_MS. */
export async function activeSigningKey(db: Db, now: Date = new Date()): Promise<SigningKey> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.readAt < KEY_CACHE_MS) return hit.key;
  let row = await readActive(db);
  if (!row) {
    await createFirstKey(db, now);
    row = await readActive(db);
  }
  if (row && !row.privateKeyEnc) {
    await adoptLegacyKey(db, row, now);
    row = await readActive(db);
  }
  if (!row) throw new SigningKeyUnavailableError("no active certificate signing key could be made");
  const key = keyFromRow(row);
  cache.set(db, { key, readAt: Date.now() });
  return key;
}

/**
 * Inside the certificate's insert transaction: true when `kid` is still the active key and was valid at
 * `generatedAt`. The share lock makes a concurrent rotation or revocation wait for this insert, so a
 * certificate is never stored under a key that was retired before it was.
 */
export async function lockActiveKey(tx: Pick<Db, "select">, kid: string, generatedAt: Date): Promise<boolean> {
  const rows = await tx
    .select({ kid: certificateSigningKeys.kid })
    .from(certificateSigningKeys)
    .where(and(eq(certificateSigningKeys.kid, kid), eq(certificateSigningKeys.status, "active"), lte(certificateSigningKeys.validFrom, generatedAt)))
    .for("share");
  return rows.length === 1;
}

export interface RotationResult {
  rotated: true;
  kid: string;
  retired_kid: string | null;
}

/** `signing-key:rotate`: the active key is retired now and a new one becomes active from now. */
export async function rotateSigningKey(db: Db, now?: Date): Promise<RotationResult> {
  const values = newKeyValues(freshKey(), now ?? new Date());
  const retired = await db.transaction(async (tx) => {
    // The lock first, the time after: a certificate stored meanwhile is dated before the old key ends.
    const [old] = await tx.select({ kid: certificateSigningKeys.kid }).from(certificateSigningKeys).where(eq(certificateSigningKeys.status, "active")).for("update");
    const at = now ?? new Date();
    let from = floorSecond(at);
    if (old) {
      const end = await endOfActiveKey(tx, old.kid, at);
      from = end.successorFrom;
      await tx.update(certificateSigningKeys).set({ status: "retired", validUntil: end.validUntil }).where(eq(certificateSigningKeys.kid, old.kid));
    }
    await tx.insert(certificateSigningKeys).values({ ...values, validFrom: from, firstUsedAt: from });
    return old?.kid ?? null;
  });
  forgetActiveKey(db);
  rootLogger().info({ kid: values.kid, retired_kid: retired }, "certificates: signing key rotated");
  return { rotated: true, kid: values.kid, retired_kid: retired };
}

export interface RevocationResult {
  revoked: true;
  kid: string;
  /** When the active key was revoked, the key that replaces it at once. */
  new_active_kid: string | null;
}

/**
 * `signing-key:revoke`: everything the key signed verifies as revoked from now on. Revoking the active
 * key also makes a new one, in the same transaction, so signing never stops. Revoking a revoked key
 * again changes nothing (the first reason stands).
 */
export async function revokeSigningKey(db: Db, input: { kid: string; reason: string }, now?: Date): Promise<RevocationResult> {
  const replacement = newKeyValues(freshKey(), now ?? new Date());
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(certificateSigningKeys).where(eq(certificateSigningKeys.kid, input.kid)).for("update");
    if (!row) throw new NotFoundError(`No certificate signing key ${input.kid}.`);
    if (row.status === "revoked") return { revoked: true as const, kid: row.kid, new_active_kid: null };
    const at = now ?? new Date();
    const end = row.status === "active" ? await endOfActiveKey(tx, row.kid, at) : null;
    await tx
      .update(certificateSigningKeys)
      .set({ status: "revoked", revokedAt: at, revocationReason: input.reason, validUntil: row.validUntil ?? end!.validUntil })
      .where(eq(certificateSigningKeys.kid, row.kid));
    if (row.status !== "active") return { revoked: true as const, kid: row.kid, new_active_kid: null };
    await tx.insert(certificateSigningKeys).values({ ...replacement, validFrom: end!.successorFrom, firstUsedAt: end!.successorFrom });
    return { revoked: true as const, kid: row.kid, new_active_kid: replacement.kid };
  });
  forgetActiveKey(db);
  rootLogger().warn({ kid: result.kid, new_active_kid: result.new_active_kid }, "certificates: signing key revoked");
  return result;
}

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/** Every key ever used, oldest first, as published (keys-document.ts). */
export async function keysDocument(db: Db, baseUrl?: string): Promise<KeysDocument> {
  const rows = await db
    .select({
      kid: certificateSigningKeys.kid,
      publicJwk: certificateSigningKeys.publicJwk,
      status: certificateSigningKeys.status,
      validFrom: certificateSigningKeys.validFrom,
      validUntil: certificateSigningKeys.validUntil,
      revokedAt: certificateSigningKeys.revokedAt,
      revocationReason: certificateSigningKeys.revocationReason,
      pdfCertificatePem: certificateSigningKeys.pdfCertificatePem,
    })
    .from(certificateSigningKeys)
    .orderBy(asc(certificateSigningKeys.validFrom), asc(certificateSigningKeys.kid));
  return {
    issuer: "FDP",
    keys: rows.map((row) => ({
      ...row.publicJwk,
      kid: row.kid,
      alg: "EdDSA" as const,
      use: "sig" as const,
      status: row.status,
      valid_from: row.validFrom.toISOString(),
      valid_until: isoOrNull(row.validUntil),
      ...(row.status === "revoked" ? { revoked_at: row.revokedAt!.toISOString(), revocation_reason: row.revocationReason! } : {}),
      pdf_signing_certificate_sha256: row.pdfCertificatePem ? certificateFingerprint(certificateDer(row.pdfCertificatePem)) : null,
    })),
    ...(baseUrl ? { pdf_signing_certificates_url: `${baseUrl.replace(/\/+$/, "")}/.well-known/fdp-certificate-signing.pem` } : {}),
  };
}

/**
 * /.well-known/fdp-certificate-signing.pem: the X.509 certificates of every key's PDF signing key, the
 * active one first, each preceded by a line naming its key, status and fingerprint (RFC 7468 parsers
 * skip text between the blocks; `openssl x509` reads the first).
 */
export async function signingCertificatesPem(db: Db): Promise<string> {
  const rows = await db
    .select({ kid: certificateSigningKeys.kid, status: certificateSigningKeys.status, pem: certificateSigningKeys.pdfCertificatePem })
    .from(certificateSigningKeys)
    .where(sql`${certificateSigningKeys.pdfCertificatePem} is not null`)
    .orderBy(sql`${certificateSigningKeys.status} = 'active' desc`, asc(certificateSigningKeys.validFrom));
  return rows.map((r) => `FDP certificate signing key ${r.kid} (${r.status}), SHA-256 ${certificateFingerprint(certificateDer(r.pem!))}\n${r.pem!.trim()}\n`).join("\n");
}
