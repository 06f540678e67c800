import type { PublicCtx } from "@/lib/context";
import type { CertificateVerification } from "@/lib/schemas/certificates";
import { certificateStatus } from "./certificate-status";
import { findCertificate, storedContent, storedSignature } from "./stored-certificate";

/**
 * Public verification (no key): the status of a certificate (its revocation, its signing key's
 * lifecycle, its expiry) and what the certificate itself states: the certified content (from which
 * anyone recomputes `verify_hash`), its JWS, and the hash of the PDF as issued. Never the tenant.
 * Unknown number → 404.
 */
export async function verifyCertificate({ ctx, input, now = new Date() }: { ctx: PublicCtx; input: { certificate_number: string }; now?: Date }): Promise<CertificateVerification> {
  const row = await findCertificate(ctx.db, input.certificate_number);
  const { status, reason } = certificateStatus(row, row.key, now);
  return {
    ...storedContent(row),
    status,
    status_reason: reason,
    verify_hash: row.verifyHash,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    revocation_reason: row.revokedReason,
    ...storedSignature(row),
    pdf_sha256: row.pdfSha256,
  };
}
