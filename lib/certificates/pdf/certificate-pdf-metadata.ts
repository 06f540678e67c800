import { KEY_ID_PATTERN } from "../signing/keys-document";

/**
 * The machine-readable part of the certificate PDF's metadata: one line in the Info dictionary's
 * `Keywords`, readable by `pdfinfo` and by an offline tool scanning the bytes:
 *
 *   fdp-certificate:v2 number=<certificate_number> verify_hash=<64 hex> generated_at=<RFC 3339 UTC> kid=<key id>
 *
 * Every character is printable ASCII without `(`, `)` or `\`, so pdfkit writes the string literally.
 * The PDF signature (PAdES, lib/certificates/signing/pades.ts) covers the whole file, these bytes
 * included, so once the signature verifies the fields are authentic. (v1, before issue 27, also carried
 * FDP's own byte seal; it is no longer written or accepted.)
 */

export const CERTIFICATE_MARKER = "fdp-certificate:v2 ";

const CERTIFICATE_NUMBER_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
const VERIFY_HASH_PATTERN = /^[0-9a-f]{64}$/;
const GENERATED_AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

interface CertificateMetadataFields {
  certificate_number: string;
  verify_hash: string;
  generated_at: string;
  /** The key that signed the content (JWS) and the PDF. */
  kid: string;
}

/** Refuses values that could not travel literally in the Info string (rather than signing a mangled one). */
export function buildCertificateKeywords(fields: CertificateMetadataFields): string {
  const problems: string[] = [];
  if (!CERTIFICATE_NUMBER_PATTERN.test(fields.certificate_number)) problems.push("certificate_number");
  if (!VERIFY_HASH_PATTERN.test(fields.verify_hash)) problems.push("verify_hash (lowercase hex SHA-256)");
  if (!GENERATED_AT_PATTERN.test(fields.generated_at)) problems.push("generated_at (RFC 3339 UTC)");
  if (!KEY_ID_PATTERN.test(fields.kid)) problems.push("kid");
  if (problems.length > 0) throw new Error(`certificate PDF metadata: invalid ${problems.join(", ")}`);
  return `${CERTIFICATE_MARKER}number=${fields.certificate_number} verify_hash=${fields.verify_hash} generated_at=${fields.generated_at} kid=${fields.kid}`;
}

const CERTIFICATE_FIELDS = new RegExp(
  `^${CERTIFICATE_MARKER}number=([A-Za-z0-9-]{1,64}) verify_hash=([0-9a-f]{64}) generated_at=(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{3})?Z) kid=([A-Za-z0-9._-]{1,64})\\)`,
);

/** Parses the fields that start at `text` (the file as latin1, from the certificate marker on). */
export function parseCertificateFields(text: string): CertificateMetadataFields | null {
  const m = CERTIFICATE_FIELDS.exec(text);
  if (!m) return null;
  return { certificate_number: m[1]!, verify_hash: m[2]!, generated_at: m[3]!, kid: m[4]! };
}

/** Occurrences of `needle` in `haystack` (non-overlapping positions). */
export function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}
