import type { PublicCtx } from "@/lib/context";
import type { CertificateVerification } from "@/lib/schemas/certificates";
import { certificateStatus } from "./certificate-status";
import { findCertificate, storedContent, storedSignature } from "./stored-certificate";

/**
 * Public verification (no key): the status of a certificate and what the certificate itself states:
 * the certified content (from which anyone recomputes `verify_hash`), its signature, and the hash of
 * the PDF as issued. Never the tenant. Unknown number → 404.
 */
export async function verifyCertificate({ ctx, input, now = new Date() }: { ctx: PublicCtx; input: { certificate_id: string }; now?: Date }): Promise<CertificateVerification> {
  const row = await findCertificate(ctx.db, input.certificate_id);
  return {
    ...storedContent(row),
    status: certificateStatus(row, now),
    verify_hash: row.verifyHash,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    revocation_reason: row.revokedReason,
    signature: storedSignature(row),
    pdf_sha256: row.pdfSha256,
  };
}
