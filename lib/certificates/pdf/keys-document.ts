import { createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";
import { dateTime } from "@/lib/schemas/common";

/**
 * The published certificate keys, served at `/.well-known/fdp-certificate-keys.json`.
 *
 * Each key is an RFC 8037 OKP JWK (Ed25519) plus FDP's bookkeeping: `status` and the dates. A retired
 * key is never removed from the document: certificates it signed stay verifiable for their whole life
 * (rotation only changes which key signs new certificates).
 */

/**
 * Key ids travel inside the PDF's Info dictionary as a literal string and in the seal placeholder, so
 * they are restricted to characters that need no PDF string escaping and no URL encoding.
 */
export const KEY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** base64url without padding of exactly 32 bytes: 43 characters, the last one carrying 4 bits. */
const ED25519_X_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

export const certificateKeySchema = z
  .object({
    kid: z.string().regex(KEY_ID_PATTERN, { message: "must be 1–64 letters, digits, '.', '_' or '-'" }),
    kty: z.literal("OKP"),
    crv: z.literal("Ed25519"),
    alg: z.literal("EdDSA"),
    use: z.literal("sig"),
    x: z.string().regex(ED25519_X_PATTERN, { message: "must be the base64url (unpadded) 32-byte Ed25519 public key" }),
    status: z.enum(["active", "retired"]),
    created_at: dateTime(),
    retired_at: dateTime().optional(),
  })
  .refine((k) => k.status === "retired" || k.retired_at === undefined, {
    message: "retired_at is only set on a retired key",
    path: ["retired_at"],
  });

export const keysDocumentSchema = z
  .object({
    issuer: z.literal("FDP"),
    keys: z.array(certificateKeySchema),
  })
  .refine((doc) => new Set(doc.keys.map((k) => k.kid)).size === doc.keys.length, {
    message: "key ids must be unique",
    path: ["keys"],
  });

export type CertificateKey = z.infer<typeof certificateKeySchema>;
export type KeysDocument = z.infer<typeof keysDocumentSchema>;

/** node:crypto imports an Ed25519 public JWK directly (only kty, crv and x matter to it). */
export function publicKeyFromJwk(key: Pick<CertificateKey, "kty" | "crv" | "x">): KeyObject {
  return createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x }, format: "jwk" });
}

/**
 * The public half of an Ed25519 key as the published JWK fields (`x` = raw 32 bytes, base64url) —
 * for whoever builds the keys document from a private key.
 */
export function jwkFieldsFromPublicKey(publicKey: KeyObject): Pick<CertificateKey, "kty" | "crv" | "x"> {
  const jwk = publicKey.export({ format: "jwk" });
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string") {
    throw new Error("not an Ed25519 public key");
  }
  return { kty: "OKP", crv: "Ed25519", x: jwk.x };
}
