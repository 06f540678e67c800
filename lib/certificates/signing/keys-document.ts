import { z } from "zod";
import { dateTime } from "@/lib/schemas/common";

/**
 * The published certificate signing keys, served at `/.well-known/fdp-certificate-keys.json` (CONTRACT
 * "Evidence and trust"): every key ever used, each an RFC 8037 OKP JWK (Ed25519, the JWS key) with its
 * lifecycle — `status` active / retired / revoked, `valid_from`, `valid_until` (null while active),
 * `revoked_at` and `revocation_reason` for a revoked key — and the SHA-256 fingerprint of the X.509
 * certificate of its PDF signing key (published at /.well-known/fdp-certificate-signing.pem). It is a
 * JWK Set (RFC 7517 section 5): a JOSE library reads `keys` as is and ignores the lifecycle members.
 */

export const KEYS_PATH = "/.well-known/fdp-certificate-keys.json";
export const SIGNING_CERTIFICATES_PATH = "/.well-known/fdp-certificate-signing.pem";

/** Key ids are RFC 7638 thumbprints (43 base64url characters); anything of this alphabet is accepted when read. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** base64url without padding of exactly 32 bytes: 43 characters, the last one carrying 4 bits. */
const ED25519_X_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

export const KEY_STATUSES = ["active", "retired", "revoked"] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export const publishedKeySchema = z
  .object({
    kid: z.string().regex(KEY_ID_PATTERN, { message: "must be 1–64 letters, digits, '.', '_' or '-'" }),
    kty: z.literal("OKP"),
    crv: z.literal("Ed25519"),
    alg: z.literal("EdDSA"),
    use: z.literal("sig"),
    x: z.string().regex(ED25519_X_PATTERN, { message: "must be the base64url (unpadded) 32-byte Ed25519 public key" }),
    status: z.enum(KEY_STATUSES),
    valid_from: dateTime(),
    valid_until: dateTime().nullable(),
    revoked_at: dateTime().optional(),
    revocation_reason: z.string().optional(),
    pdf_signing_certificate_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable()
      .meta({ description: "SHA-256 of the DER X.509 certificate that signs this key's PDFs; null for a key from before PDF signatures." }),
  })
  .refine((k) => (k.status === "active") === (k.valid_until === null), { message: "valid_until is null exactly while a key is active", path: ["valid_until"] })
  .refine((k) => (k.status === "revoked") === (k.revoked_at !== undefined && k.revocation_reason !== undefined), {
    message: "revoked_at and revocation_reason are set exactly on a revoked key",
    path: ["revoked_at"],
  })
  .meta({ id: "CertificateSigningKey" });

export const keysDocumentSchema = z
  .object({
    issuer: z.literal("FDP"),
    keys: z.array(publishedKeySchema),
    pdf_signing_certificates_url: z.string().optional(),
  })
  .refine((doc) => new Set(doc.keys.map((k) => k.kid)).size === doc.keys.length, { message: "key ids must be unique", path: ["keys"] })
  .refine((doc) => doc.keys.filter((k) => k.status === "active").length <= 1, { message: "at most one key is active", path: ["keys"] });

export type PublishedKey = z.infer<typeof publishedKeySchema>;
export type KeysDocument = z.infer<typeof keysDocumentSchema>;

/** What a key's lifecycle says of a signature dated `at` (a certificate's `generated_at`). */
type KeyValidity = { ok: true } | { ok: false; status: "revoked" | "invalid"; reason: string };

/**
 * CONTRACT "Evidence and trust": a certificate is valid only if its key was valid at its `generated_at`
 * (valid_from ≤ at < valid_until) and is not revoked. A revoked key revokes everything it signed,
 * whenever: once a key may have leaked, nothing it signed can be told apart from a forgery.
 */
export function keyValidityAt(key: Pick<PublishedKey, "kid" | "status" | "valid_from" | "valid_until" | "revoked_at" | "revocation_reason"> | undefined, at: Date): KeyValidity {
  if (!key) return { ok: false, status: "invalid", reason: "signed with a key FDP never published" };
  if (key.status === "revoked") {
    return { ok: false, status: "revoked", reason: `the signing key ${key.kid} was revoked on ${key.revoked_at?.slice(0, 10)}: ${key.revocation_reason}` };
  }
  const from = Date.parse(key.valid_from);
  const until = key.valid_until === null ? Number.POSITIVE_INFINITY : Date.parse(key.valid_until);
  if (!(at.getTime() >= from && at.getTime() < until)) {
    return {
      ok: false,
      status: "invalid",
      reason: `dated ${at.toISOString()}, outside the validity of its key ${key.kid} (${key.valid_from} to ${key.valid_until ?? "now"})`,
    };
  }
  return { ok: true };
}
