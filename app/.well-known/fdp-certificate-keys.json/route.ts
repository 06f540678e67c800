import { keysDocument } from "@/lib/certificates/signing-key";
import { getDb } from "@/lib/db/client";
import { errorResponse } from "@/lib/http/respond";
import { requestIdFor } from "@/lib/http/request-id";
import { requestLogger } from "@/lib/log/logger";

/**
 * The public keys that sign FDP certificates (docs/certificates.md): every key that ever signed, the
 * newest `active`, older ones `retired` but still listed so their certificates keep verifying.
 * No key, no limit: it is what auditors and the offline CLI check signatures against.
 */
export async function GET(req: Request): Promise<Response> {
  const requestId = requestIdFor(req);
  try {
    const doc = await keysDocument(await getDb());
    return Response.json(doc, { headers: { "Cache-Control": "public, max-age=300", "X-Request-Id": requestId } });
  } catch (err) {
    return errorResponse(err, { requestId, isSandbox: false, log: requestLogger({ requestId, operation: "certificateKeys" }) });
  }
}
