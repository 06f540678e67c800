import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonObject, readBodyLimited } from "@/lib/http/read-body";
import { withApiKey } from "@/lib/http/with-api-key";
import { scoresBatchRequestSchema } from "@/lib/schemas/scores-device";
import { scoresBatch } from "@/lib/scores/score-batch";
import { parseInput } from "@/lib/validation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 1024 * 1024;

/** Endpoint 9: several scores for up to 100 devices. */
export const POST = withApiKey(
  async ({ req, ctx }) => {
    const body = parseJsonObject(await readBodyLimited(req, MAX_BODY_BYTES));
    return scoresBatch({ ctx, input: parseInput(scoresBatchRequestSchema, body) });
  },
  { scopes: ["scores:read"] },
);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
