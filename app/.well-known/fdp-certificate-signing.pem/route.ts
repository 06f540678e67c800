import { signingCertificatesPem } from "@/lib/certificates/signing/signing-keys";
import { getDb } from "@/lib/db/client";
import { errorResponse } from "@/lib/http/respond";
import { requestIdFor } from "@/lib/http/request-id";
import { requestLogger } from "@/lib/log/logger";

/**
 * The X.509 certificates that sign certificate PDFs (CONTRACT "Evidence and trust"): the active key's
 * first, then every other, each after a line naming its key id, status and SHA-256 fingerprint. A PDF
 * reader shows the signer as "issuer unknown" (FDP is not a trust service provider); this file is what
 * its fingerprint is compared with. No key, no limit, like the keys document.
 */
export async function GET(req: Request): Promise<Response> {
  const requestId = requestIdFor(req);
  try {
    const pem = await signingCertificatesPem(await getDb());
    return new Response(pem, { headers: { "Content-Type": "application/x-pem-file", "Cache-Control": "public, max-age=60", "X-Request-Id": requestId } });
  } catch (err) {
    return errorResponse(err, { requestId, isSandbox: false, log: requestLogger({ requestId, operation: "certificateSigningCertificates" }) });
  }
}
