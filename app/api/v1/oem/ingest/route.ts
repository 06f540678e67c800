import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { SIGNATURE_HEADER } from "@/lib/ingest/verify-signature";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { readBodyLimited } from "@/lib/http/read-body";
import { withApiKey } from "@/lib/http/with-api-key";
import { INGEST_MAX_BYTES } from "@/lib/schemas/ingest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 16: OEM telemetry bulk ingest. */
export const POST = withApiKey(
  async ({ req, ctx }) =>
    ingestTelemetry({
      ctx,
      input: { rawBody: await readBodyLimited(req, INGEST_MAX_BYTES), signatureHeader: req.headers.get(SIGNATURE_HEADER) },
    }),
  { scopes: ["ingest:write"] },
);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
