import { createHash } from "node:crypto";
import type { PublicCtx } from "@/lib/context";
import { NotFoundError } from "@/lib/errors";
import { keysDocument } from "./signing/signing-keys";
import { verifyCertificatePdf } from "./signing/verify-certificate-pdf";
import { findCertificate } from "./stored-certificate";
import { MAX_CHECKED_PDF_BYTES, PDF_TOO_LARGE_STATEMENT } from "./pdf-check-limits";

export type PdfCheck = { authentic: true; certificate_number: string; statement: string } | { authentic: false; statement: string };

/**
 * What the verify page tells an auditor who drops a PDF: whether it is the authentic, unaltered FDP
 * certificate with this number. Two independent checks must both hold: the PDF signature (PAdES over
 * every byte, by a published signing certificate whose key was valid at the certificate's date and is
 * not revoked, exactly as the offline CLI checks it) and the SHA-256 of the file against the one FDP
 * stored when it issued the certificate.
 */
export async function checkCertificatePdf({ ctx, input }: { ctx: PublicCtx; input: { certificate_number: string; pdf: Buffer } }): Promise<PdfCheck> {
  const { certificate_number: number, pdf } = input;
  if (pdf.length > MAX_CHECKED_PDF_BYTES) return { authentic: false, statement: PDF_TOO_LARGE_STATEMENT };
  const signed = verifyCertificatePdf(pdf, await keysDocument(ctx.db));
  if (!signed.ok) {
    return {
      authentic: false,
      statement: signed.status === "revoked" ? `Do not rely on this PDF: ${signed.reason}.` : `Not an authentic, unaltered FDP certificate: ${signed.reason}.`,
    };
  }
  if (signed.certificate_number !== number) {
    return { authentic: false, statement: `This PDF is FDP certificate ${signed.certificate_number}, not ${number}. Open its own verification page.` };
  }
  let storedSha: string;
  try {
    storedSha = (await findCertificate(ctx.db, number)).pdfSha256;
  } catch (err) {
    if (err instanceof NotFoundError) return { authentic: false, statement: `FDP has no certificate ${number}.` };
    throw err;
  }
  if (createHash("sha256").update(pdf).digest("hex") !== storedSha) {
    return { authentic: false, statement: "The signature verifies but the file differs from the one FDP issued: do not rely on it." };
  }
  return { authentic: true, certificate_number: number, statement: `Authentic: this is the unaltered FDP certificate ${number}, byte for byte as issued.` };
}
