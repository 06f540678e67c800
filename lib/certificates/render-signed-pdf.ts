import { env } from "@/lib/env";
import type { CertifiedContent } from "@/lib/schemas/certificates";
import { certificatePdfInput } from "./certificate-pdf";
import { renderCertificatePdf } from "./pdf/render-certificate-pdf";
import { renderCertificatePdfInWorker } from "./pdf/render-certificate-pdf-in-worker";
import { signPdf } from "./signing/pades";
import { certificateDer, certificateFingerprint } from "./signing/pdf-signing-certificate";
import type { SigningKey } from "./signing/signing-keys";

/**
 * The certificate's PDF, rendered off the request thread (a worker pool: ~200 ms of CPU per PDF would
 * otherwise stall every other request of this process) and signed here (PAdES), where the private key
 * is: the worker never holds it. FDP_PDF_WORKERS=0 renders on the calling thread instead (measured in
 * bench/benchmarks/certificates.ts).
 */
export async function renderSignedCertificatePdf(content: CertifiedContent, extra: { verify_url: string; verify_hash: string; jws: string }, key: SigningKey): Promise<Buffer> {
  const input = certificatePdfInput(content, {
    verify_url: extra.verify_url,
    verify_hash: extra.verify_hash,
    signing: { kid: key.kid, jws: extra.jws, pdf_certificate_sha256: certificateFingerprint(certificateDer(key.pdf.certificatePem)) },
  });
  const unsigned = env().FDP_PDF_WORKERS === 0 ? await renderCertificatePdf(input) : await renderCertificatePdfInWorker(input);
  return signPdf(unsigned, key.pdf, { signingTime: new Date(content.generated_at), reason: `FDP vehicle certificate ${content.certificate_number}` });
}
