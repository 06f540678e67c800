import { createHmac, timingSafeEqual } from "node:crypto";
import canonicalize from "canonicalize";
import { InvalidSignatureError } from "@/lib/errors";

export const SIGNATURE_HEADER = "x-fdp-signature";

/** Lowercase hex HMAC-SHA256 with the tenant's ingest secret (its UTF-8 bytes) as key. */
export function hmacHex(secret: string, data: string | Uint8Array): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(data).digest("hex");
}

function sameHex(expected: string, presented: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(presented)) return false;
  return timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(presented, "hex"));
}

/**
 * CONTRACT "OEM ingest" signatures. Either form may be used; every signature present must verify
 * (401 `invalid_signature` otherwise), and a tenant that requires signed ingest refuses a payload
 * with none.
 *  - header `X-FDP-Signature: sha256=<hex>` over the raw request body bytes;
 *  - body field `hmac_signature` over the RFC 8785 canonical JSON of the body without that member.
 */
export function verifyIngestSignature({
  secret,
  required,
  rawBody,
  header,
  body,
}: {
  secret: string;
  required: boolean;
  rawBody: Uint8Array;
  header: string | null;
  body: Record<string, unknown>;
}): { signed: boolean } {
  let signed = false;
  if (header !== null) {
    const match = header.trim().match(/^sha256=(.*)$/i);
    if (!match || !sameHex(hmacHex(secret, rawBody), (match[1] ?? "").toLowerCase())) {
      throw new InvalidSignatureError("The X-FDP-Signature header does not match the body: expected `sha256=<hex HMAC-SHA256 of the raw body>` with your ingest secret.");
    }
    signed = true;
  }
  if (body.hmac_signature !== undefined) {
    const { hmac_signature: presented, ...unsigned } = body;
    const canonical = canonicalize(unsigned);
    if (typeof presented !== "string" || canonical === undefined || !sameHex(hmacHex(secret, canonical), presented.toLowerCase())) {
      throw new InvalidSignatureError(
        "hmac_signature does not match: expected the hex HMAC-SHA256 of the RFC 8785 canonical JSON of the body without hmac_signature, keyed with your ingest secret.",
      );
    }
    signed = true;
  }
  if (required && !signed) {
    throw new InvalidSignatureError("This tenant requires signed ingest: send X-FDP-Signature or hmac_signature.");
  }
  return { signed };
}
