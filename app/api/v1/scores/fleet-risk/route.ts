import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { fleetScoreQuerySchema } from "@/lib/schemas/scores-fleet";
import { getFleetRisk } from "@/lib/scores/get-fleet-risk";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 3: fleet risk score over `period` (default 30d). */
export const GET = withApiKey(
  ({ req, ctx }) => getFleetRisk({ ctx, input: { periodDays: parseQuery(fleetScoreQuerySchema, req).period } }),
  { scopes: ["scores:read"] },
);

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
