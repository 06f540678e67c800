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

/** CONTRACT "Reliability and hardening": a timestamp more than this far from the server clock is refused. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** How a tenant wants its ingest signed: not at all, in any form, or with a timestamped header. */
export type SignedIngestRule = "optional" | "required" | "timestamped";

/** A verified timestamped header signature: used once (lib/ingest/ingest-telemetry.ts), until `expiresAt`. */
export interface TimestampedSignature {
  signature: string;
  expiresAt: Date;
}

const HEADER_HELP = 'expected `t=<unix seconds>,sha256=<hex HMAC-SHA256 of "<t>.<raw body>">` (or the older `sha256=<hex HMAC-SHA256 of the raw body>`) with your ingest secret.';

/** `t=<digits>,sha256=<hex>` in either order, or `sha256=<hex>` alone; null for anything else. */
function parseHeader(header: string): { t: string | null; hex: string } | null {
  const parts = header.split(",").map((p) => p.trim());
  const fields = new Map<string, string>();
  for (const part of parts) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const name = part.slice(0, eq).toLowerCase();
    if (fields.has(name) || (name !== "t" && name !== "sha256")) return null;
    fields.set(name, part.slice(eq + 1));
  }
  const hex = fields.get("sha256");
  if (hex === undefined) return null;
  const t = fields.get("t") ?? null;
  if (t !== null && !/^\d{1,12}$/.test(t)) return null;
  return { t, hex: hex.toLowerCase() };
}

/**
 * CONTRACT "OEM ingest" and "Reliability and hardening" signatures. Either form may be used; every
 * signature present must verify (401 `invalid_signature` otherwise), and a tenant that requires signed
 * ingest refuses a payload with none.
 *  - header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>` over `<t>.<raw body>`, the timestamp at
 *    most 300 s from the server clock either way (an old captured request cannot be replayed later);
 *  - header `X-FDP-Signature: sha256=<hex>` over the raw request body bytes;
 *  - body field `hmac_signature` over the RFC 8785 canonical JSON of the body without that member.
 * A tenant whose rule is `timestamped` accepts only the first. The timestamped signature is returned so
 * that the ingest can refuse its second use within the window.
 */
export function verifyIngestSignature({
  secret,
  rule,
  rawBody,
  header,
  body,
  now = new Date(),
}: {
  secret: string;
  rule: SignedIngestRule;
  rawBody: Uint8Array;
  header: string | null;
  body: Record<string, unknown>;
  now?: Date;
}): { signed: boolean; timestamped: TimestampedSignature | null } {
  let signed = false;
  let timestamped: TimestampedSignature | null = null;
  if (header !== null) {
    const parsed = parseHeader(header);
    if (!parsed) throw new InvalidSignatureError(`The X-FDP-Signature header is malformed: ${HEADER_HELP}`);
    const expected = parsed.t === null ? hmacHex(secret, rawBody) : createHmac("sha256", Buffer.from(secret, "utf8")).update(`${parsed.t}.`).update(rawBody).digest("hex");
    if (!sameHex(expected, parsed.hex)) throw new InvalidSignatureError(`The X-FDP-Signature header does not match the body: ${HEADER_HELP}`);
    if (parsed.t !== null) {
      // Checked after the HMAC: only the secret's holder learns that its clock is off.
      const skew = Number(parsed.t) - Math.floor(now.getTime() / 1000);
      if (Math.abs(skew) > SIGNATURE_TOLERANCE_SECONDS) {
        throw new InvalidSignatureError(
          `The X-FDP-Signature timestamp is ${Math.abs(skew)} s ${skew < 0 ? "behind" : "ahead of"} the server clock; at most ${SIGNATURE_TOLERANCE_SECONDS} s is accepted. Sign each request when you send it.`,
        );
      }
      timestamped = { signature: parsed.hex, expiresAt: new Date((Number(parsed.t) + SIGNATURE_TOLERANCE_SECONDS) * 1000) };
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
  if (rule === "timestamped" && !timestamped) {
    throw new InvalidSignatureError('This tenant requires timestamped signatures: send `X-FDP-Signature: t=<unix seconds>,sha256=<hex HMAC-SHA256 of "<t>.<raw body>">`.');
  }
  if (rule === "required" && !signed) {
    throw new InvalidSignatureError("This tenant requires signed ingest: send X-FDP-Signature or hmac_signature.");
  }
  return { signed, timestamped };
}
