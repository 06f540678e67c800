import { customType, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
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
    /** Ed25519 over the UTF-8 bytes of `content` (base64url), and the signing key's id (JWK thumbprint). */
    signatureKid: text("signature_kid").notNull(),
    signature: text("signature").notNull(),
    /** The sealed PDF, rendered once: every download is these bytes. */
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    revokedAt: timestamptz("revoked_at"),
    revokedReason: text("revoked_reason"),
    createdAt: createdAt(),
  },
  (t) => [index("certificates_tenant_device_idx").on(t.tenantId, t.deviceId, t.generatedAt)],
);

/**
 * Public keys that have signed certificates, published at /.well-known/fdp-certificate-keys.json.
 * A key is added the first time an instance signs with it and never removed, so certificates signed
 * before a rotation keep verifying (docs/certificates.md "Key rotation").
 */
export const certificateSigningKeys = pgTable("certificate_signing_keys", {
  /** RFC 7638 JWK thumbprint of the public key (base64url). */
  kid: text("kid").primaryKey(),
  /** The public JWK: {kty: "OKP", crv: "Ed25519", x}. */
  publicJwk: jsonb("public_jwk").$type<{ kty: "OKP"; crv: "Ed25519"; x: string }>().notNull(),
  firstUsedAt: timestamptz("first_used_at").notNull().defaultNow(),
});
