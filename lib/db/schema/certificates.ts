import { sql } from "drizzle-orm";
import { check, customType, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tenantId, timestamptz } from "./columns";
import { tenants } from "./tenants";

/** bytea as a Node Buffer on both drivers (postgres.js and PGlite both hand back a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Digital vehicle health certificates (SPEC 2.10, CONTRACT "Certificates and verification").
 * A row is written once and never changes, but for its revocation: a trigger in migration 0004
 * refuses any other update, so "immutable" does not rest on the application's good behaviour.
 */
export const certificates = pgTable(
  "certificates",
  {
    /** `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>`, unique across tenants (the public verify page looks it up alone). */
    number: text("number").primaryKey(),
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    /**
     * The certified content exactly as hashed and signed: the RFC 8785 canonical JSON of
     * {certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot,
     * generated_at, expires_at}. Kept as text, so the hash recomputes byte for byte from what is stored.
     */
    content: text("content").notNull(),
    /** Lowercase hex SHA-256 of `content`. */
    verifyHash: text("verify_hash").notNull(),
    /** Not certified (SPEC: generation answers it, retrieval does not); kept for the dashboard's list. */
    confidence: text("confidence").notNull(),
    grade: text("grade").notNull(),
    generatedAt: timestamptz("generated_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    /**
     * The signing key's id (JWK thumbprint) and the Ed25519 signature (base64url): before 0014 over the
     * UTF-8 bytes of `content`; from 0014 the JWS's signature, over its signing input (`jws`).
     */
    signatureKid: text("signature_kid").notNull(),
    signature: text("signature").notNull(),
    /** RFC 7515 compact JWS with detached payload (`content`), EdDSA, `kid` in the protected header; null before 0014. */
    jws: text("jws"),
    /** The signed PDF, rendered once: every download is these bytes. */
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    revokedAt: timestamptz("revoked_at"),
    revokedReason: text("revoked_reason"),
    createdAt: createdAt(),
  },
  (t) => [index("certificates_tenant_device_idx").on(t.tenantId, t.deviceId, t.generatedAt)],
);

/**
 * Certificate signing keys with their lifecycle (CONTRACT "Evidence and trust"), published at
 * /.well-known/fdp-certificate-keys.json. One key is `active` at a time (a partial unique index) and
 * every instance signs with it; `signing-key:rotate` retires it (`valid_until`) and creates the next,
 * `signing-key:revoke` revokes one. Rows are never deleted, so certificates keep verifying under the
 * key that was valid at their `generated_at` (docs/certificates.md "Signing keys").
 *
 * A key is a pair: Ed25519 for the JWS over the certified content, and RSA with a self-signed X.509
 * certificate for the PDF's PAdES signature (poppler's and most readers' CMS code has no Ed25519).
 * Private halves are stored encrypted (lib/certificates/signing/key-encryption.ts); keys of versions
 * before 0014 have none (they signed, they can no longer sign).
 */
export const certificateSigningKeys = pgTable(
  "certificate_signing_keys",
  {
    /** RFC 7638 JWK thumbprint of the Ed25519 public key (base64url). */
    kid: text("kid").primaryKey(),
    /** The public JWK: {kty: "OKP", crv: "Ed25519", x}. */
    publicJwk: jsonb("public_jwk").$type<{ kty: "OKP"; crv: "Ed25519"; x: string }>().notNull(),
    firstUsedAt: timestamptz("first_used_at").notNull().defaultNow(),
    /** active | retired | revoked. */
    status: text("status").$type<"active" | "retired" | "revoked">().notNull(),
    /** From when certificates signed with this key are valid. */
    validFrom: timestamptz("valid_from").notNull(),
    /** Until when (exclusive); null while active. */
    validUntil: timestamptz("valid_until"),
    revokedAt: timestamptz("revoked_at"),
    revocationReason: text("revocation_reason"),
    /** Encrypted PKCS#8 PEM of the Ed25519 key; null for keys adopted from before 0014. */
    privateKeyEnc: text("private_key_enc"),
    /** Encrypted PKCS#8 PEM of the RSA key that signs PDFs, and its self-signed X.509 certificate (PEM). */
    pdfPrivateKeyEnc: text("pdf_private_key_enc"),
    pdfCertificatePem: text("pdf_certificate_pem"),
  },
  (t) => [
    uniqueIndex("certificate_signing_keys_one_active")
      .on(t.status)
      .where(sql`status = 'active'`),
    check("certificate_signing_keys_status", sql`status in ('active', 'retired', 'revoked')`),
    check("certificate_signing_keys_active_open", sql`(status = 'active') = (valid_until is null)`),
    check("certificate_signing_keys_revoked_reason", sql`(status = 'revoked') = (revoked_at is not null and revocation_reason is not null)`),
  ],
);
