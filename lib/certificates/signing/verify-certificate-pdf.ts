import { CERTIFICATE_MARKER, indexesOf, parseCertificateFields } from "../pdf/certificate-pdf-metadata";
import { keyValidityAt, type KeysDocument, type KeyStatus } from "./keys-document";
import { verifyPdfSignature } from "./pades";

type CertificatePdfVerification =
  | {
      ok: true;
      certificate_number: string;
      verify_hash: string;
      generated_at: string;
      /** The key whose PDF signing certificate signed the file. */
      kid: string;
      key_status: KeyStatus;
      pdf_signing_certificate_sha256: string;
    }
  | {
      ok: false;
      reason: string;
      /** `revoked` when the file is intact but its key was revoked; `invalid` otherwise. */
      status: "revoked" | "invalid";
      certificate_number?: string;
    };

/**
 * Whether `pdf` is, byte for byte, a certificate FDP signed (the verify page's drop check and the
 * offline CLI, against the published keys document):
 * 1. its PDF signature verifies and covers the whole file (lib/certificates/signing/pades.ts);
 * 2. the signing certificate is one FDP publishes (by fingerprint, in the keys document);
 * 3. the certificate metadata (number, hash, date, key id) names that same key;
 * 4. the key was valid at the certificate's `generated_at` and is not revoked (keyValidityAt).
 * On failure `certificate_number` is only a hint: it comes from a file that did not verify.
 */
export function verifyCertificatePdf(pdf: Buffer, keys: KeysDocument): CertificatePdfVerification {
  const text = pdf.toString("latin1");
  const markers = indexesOf(text, CERTIFICATE_MARKER);
  const fields = markers.length === 1 ? parseCertificateFields(text.slice(markers[0], markers[0]! + 1024)) : null;
  const hint = fields ? { certificate_number: fields.certificate_number } : {};
  const fail = (reason: string, status: "revoked" | "invalid" = "invalid"): CertificatePdfVerification => ({ ok: false, reason, status, ...hint });

  const signature = verifyPdfSignature(pdf);
  if (!signature.ok) return fail(signature.reason);
  const key = keys.keys.find((k) => k.pdf_signing_certificate_sha256 === signature.certificate_sha256);
  if (!key) return fail(`signed with a certificate FDP does not publish (SHA-256 ${signature.certificate_sha256})`);
  if (!fields) return fail("malformed: the FDP certificate metadata is missing or unreadable");
  if (fields.kid !== key.kid) return fail(`the metadata names key ${fields.kid} but key ${key.kid} signed the file`);
  const validity = keyValidityAt(key, new Date(fields.generated_at));
  if (!validity.ok) return fail(validity.reason, validity.status);
  return {
    ok: true,
    certificate_number: fields.certificate_number,
    verify_hash: fields.verify_hash,
    generated_at: fields.generated_at,
    kid: key.kid,
    key_status: key.status,
    pdf_signing_certificate_sha256: signature.certificate_sha256,
  };
}
