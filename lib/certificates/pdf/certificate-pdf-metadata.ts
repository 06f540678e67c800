import { KEY_ID_PATTERN } from "./keys-document";

/**
 * The machine-readable part of the certificate PDF's metadata: one line in the Info dictionary's
 * `Keywords`, readable by `pdfinfo` and by an offline tool scanning the bytes.
 *
 *   fdp-certificate:v1 number=<certificate_number> verify_hash=<64 hex> content_sig=<kid>:<base64url>
 *   fdp-pdf-seal:v1:<kid>:<128 hex>
 *
 * (one line, fields separated by single spaces). Every character is printable ASCII without `(`, `)`
 * or `\`, so pdfkit writes the string literally (no UTF-16, no escapes) and it appears verbatim in the
 * file; the renderer checks that before it returns. The seal's 128 hex digits are the Ed25519 signature
 * of the whole file with those digits set to `0` (see seal-certificate-pdf.ts).
 */

export const CERTIFICATE_MARKER = "fdp-certificate:v1 ";
export const SEAL_MARKER = "fdp-pdf-seal:v1:";
/** 64-byte Ed25519 signature as lowercase hex. */
export const SEAL_SIGNATURE_HEX_LENGTH = 128;
export const SEAL_PLACEHOLDER_DIGITS = "0".repeat(SEAL_SIGNATURE_HEX_LENGTH);

const CERTIFICATE_NUMBER_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
const VERIFY_HASH_PATTERN = /^[0-9a-f]{64}$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export interface CertificateMetadataFields {
  certificate_number: string;
  verify_hash: string;
  content_signature: { kid: string; value: string };
  /** The key that will seal the file (normally the one that signed the content). */
  seal_kid: string;
}

/** Refuses values that could not travel literally in the Info string (rather than sealing a mangled one). */
export function buildCertificateKeywords(fields: CertificateMetadataFields): string {
  const problems: string[] = [];
  if (!CERTIFICATE_NUMBER_PATTERN.test(fields.certificate_number)) problems.push("certificate_number");
  if (!VERIFY_HASH_PATTERN.test(fields.verify_hash)) problems.push("verify_hash (lowercase hex SHA-256)");
  if (!KEY_ID_PATTERN.test(fields.content_signature.kid)) problems.push("content_signature.kid");
  if (!BASE64URL_PATTERN.test(fields.content_signature.value)) problems.push("content_signature.value (base64url)");
  if (!KEY_ID_PATTERN.test(fields.seal_kid)) problems.push("seal kid");
  if (problems.length > 0) throw new Error(`certificate PDF metadata: invalid ${problems.join(", ")}`);
  return (
    `${CERTIFICATE_MARKER}number=${fields.certificate_number} verify_hash=${fields.verify_hash} ` +
    `content_sig=${fields.content_signature.kid}:${fields.content_signature.value} ` +
    `${SEAL_MARKER}${fields.seal_kid}:${SEAL_PLACEHOLDER_DIGITS}`
  );
}

const CERTIFICATE_FIELDS = new RegExp(
  `^${CERTIFICATE_MARKER}number=([A-Za-z0-9-]{1,64}) verify_hash=([0-9a-f]{64}) content_sig=([A-Za-z0-9._-]{1,64}):([A-Za-z0-9_-]{1,200}) ${SEAL_MARKER}`,
);

export interface ParsedCertificateFields {
  certificate_number: string;
  verify_hash: string;
  content_signature: { kid: string; alg: "Ed25519"; value: string };
}

/** Parses the fields that start at `text` (the file as latin1, from the certificate marker on). */
export function parseCertificateFields(text: string): ParsedCertificateFields | null {
  const m = CERTIFICATE_FIELDS.exec(text);
  if (!m) return null;
  return {
    certificate_number: m[1]!,
    verify_hash: m[2]!,
    content_signature: { kid: m[3]!, alg: "Ed25519", value: m[4]! },
  };
}

/** Occurrences of `needle` in `haystack` (non-overlapping positions). */
export function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}
