import { keysDocument } from "@/lib/certificates/signing/signing-keys";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorResponse } from "@/lib/http/respond";
import { requestIdFor } from "@/lib/http/request-id";
import { requestLogger } from "@/lib/log/logger";

/**
 * The certificate signing keys (CONTRACT "Evidence and trust", docs/certificates.md): every key ever
 * used as a JWK with its lifecycle (status, valid_from, valid_until, revocation), so a certificate is
 * checked against the key that was valid at its date. No key, no limit: it is what auditors, JOSE
 * libraries and the offline CLI check signatures against. Cached 60 s: a revocation shows within that.
 */
export async function GET(req: Request): Promise<Response> {
  const requestId = requestIdFor(req);
  try {
    const doc = await keysDocument(await getDb(), env().PUBLIC_BASE_URL);
    return Response.json(doc, { headers: { "Cache-Control": "public, max-age=60", "X-Request-Id": requestId } });
  } catch (err) {
    return errorResponse(err, { requestId, isSandbox: false, log: requestLogger({ requestId, operation: "certificateKeys" }) });
  }
}
