import { CompactSign, compactVerify, decodeProtectedHeader, importJWK } from "jose";
import type { KeyObject } from "node:crypto";

/**
 * The certificate's content signature: a JWS (RFC 7515) in compact serialization with a detached
 * payload (appendix F: `<protected header>..<signature>`), `alg` EdDSA over Ed25519 (RFC 8037) and the
 * signing key's `kid` in the protected header. The payload is the UTF-8 bytes of the RFC 8785 canonical
 * JSON of the certified content: the bytes `verify_hash` digests. Any JOSE library verifies it with the
 * published JWK after putting the base64url payload back between the dots.
 */

const JWS_ALG = "EdDSA";

export async function signDetachedJws(payload: Uint8Array, key: { kid: string; privateKey: KeyObject }): Promise<string> {
  const compact = await new CompactSign(payload).setProtectedHeader({ alg: JWS_ALG, kid: key.kid }).sign(key.privateKey);
  const [header, , signature] = compact.split(".");
  return `${header}..${signature}`;
}

/** The signature part of a compact JWS (what the `signature` column keeps). */
export const jwsSignature = (jws: string): string => jws.split(".")[2] ?? "";

type JwsCheck = { ok: true; kid: string } | { ok: false; reason: string };

/**
 * Verifies a detached compact JWS over `payload` with the key its header names, among `keys` (JWKs
 * with `kid`). Cryptography only: whether that key may sign at the certificate's date is the caller's
 * rule (lib/certificates/signing/key-validity.ts).
 */
export async function verifyDetachedJws(jws: string, payload: Uint8Array, keys: ReadonlyArray<{ kid: string; kty: string; crv: string; x: string }>): Promise<JwsCheck> {
  const parts = jws.split(".");
  if (parts.length !== 3 || parts[1] !== "") return { ok: false, reason: "not a compact JWS with a detached payload" };
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return { ok: false, reason: "malformed JWS protected header" };
  }
  if (header.alg !== JWS_ALG) return { ok: false, reason: `unexpected JWS alg ${String(header.alg)}` };
  if (typeof header.kid !== "string") return { ok: false, reason: "the JWS names no key (kid)" };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return { ok: false, reason: `unknown key id ${header.kid}: not in the published FDP keys` };
  try {
    const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, JWS_ALG);
    await compactVerify(`${parts[0]}.${Buffer.from(payload).toString("base64url")}.${parts[2]}`, key, { algorithms: [JWS_ALG] });
  } catch {
    return { ok: false, reason: "the JWS does not verify: the content differs from what FDP signed" };
  }
  return { ok: true, kid: header.kid };
}
