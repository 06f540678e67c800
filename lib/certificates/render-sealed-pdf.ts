import { env } from "@/lib/env";
import type { CertifiedContent } from "@/lib/schemas/certificates";
import { certificatePdfInput } from "./certificate-pdf";
import { renderCertificatePdf } from "./pdf/render-certificate-pdf";
import { renderCertificatePdfInWorker } from "./pdf/render-certificate-pdf-in-worker";
import { sealCertificatePdf } from "./pdf/seal-certificate-pdf";
import { signBytes, type SigningKey } from "./signing-key";

/**
 * The certificate's PDF, rendered off the request thread (a worker pool: ~200 ms of CPU per PDF would
 * otherwise stall every other request of this process) and sealed here, where the private key is:
 * the worker never holds it. FDP_PDF_WORKERS=0 renders on the calling thread instead (measured in
 * bench/benchmarks/certificates.ts).
 */
export async function renderSealedCertificatePdf(
  content: CertifiedContent,
  extra: { verify_url: string; verify_hash: string; signature: { kid: string; value: string } },
  key: SigningKey,
): Promise<Buffer> {
  const input = certificatePdfInput(content, extra);
  const unsigned = env().FDP_PDF_WORKERS === 0 ? await renderCertificatePdf(input, { sealKid: key.kid }) : await renderCertificatePdfInWorker(input, { sealKid: key.kid });
  return sealCertificatePdf(unsigned, { kid: key.kid, sign: (bytes) => signBytes(key, bytes) });
}
