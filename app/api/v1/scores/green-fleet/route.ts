import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { fleetScoreQuerySchema } from "@/lib/schemas/scores-fleet";
import { getGreenFleet } from "@/lib/scores/get-green-fleet";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 5: green fleet score over `period` (default 30d). */
export const GET = withApiKey(
  ({ req, ctx }) => getGreenFleet({ ctx, input: { periodDays: parseQuery(fleetScoreQuerySchema, req).period } }),
  { scopes: ["scores:read"] },
);

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
