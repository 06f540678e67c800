import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse";
import { withApiKey } from "@/lib/http/with-api-key";
import { scoresBatchRequestSchema } from "@/lib/schemas/scores-device";
import { scoresBatch } from "@/lib/scores/score-batch";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 9: several scores for up to 100 devices. */
export const POST = withApiKey(
  async ({ req, ctx }) => scoresBatch({ ctx, input: await parseJsonBody(scoresBatchRequestSchema, req) }),
  { scopes: ["scores:read"] },
);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
