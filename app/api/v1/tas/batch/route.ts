import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse";
import { withApiKey } from "@/lib/http/with-api-key";
import { tasBatchRequestSchema } from "@/lib/schemas/scores-device";
import { tasBatch } from "@/lib/scores/tas-batch";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 18: TAS grades for up to 1000 devices. */
export const POST = withApiKey(
  async ({ req, ctx }) => tasBatch({ ctx, input: await parseJsonBody(tasBatchRequestSchema, req) }),
  { scopes: ["scores:read"] },
);

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed(["POST"]);
