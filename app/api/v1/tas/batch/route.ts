import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonObject, readBodyLimited } from "@/lib/http/read-body";
import { withApiKey } from "@/lib/http/with-api-key";
import { tasBatchRequestSchema } from "@/lib/schemas/scores-device";
import { tasBatch } from "@/lib/scores/tas-batch";
import { parseInput } from "@/lib/validation";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = 1024 * 1024;

/** Endpoint 18: TAS grades for up to 1000 devices. */
export const POST = withApiKey(
  async ({ req, ctx }) => {
    const body = parseJsonObject(await readBodyLimited(req, MAX_BODY_BYTES));
    return tasBatch({ ctx, input: parseInput(tasBatchRequestSchema, body) });
  },
  { scopes: ["scores:read"] },
);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
