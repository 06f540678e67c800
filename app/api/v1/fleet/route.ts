import { listFleet } from "@/lib/fleet/list-fleet";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { fleetQuerySchema } from "@/lib/schemas/fleet";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 1: the fleet snapshot. */
export const GET = withApiKey(({ req, ctx }) => listFleet({ ctx, input: parseQuery(fleetQuerySchema, req) }), {
  scopes: ["fleet:read"],
});
