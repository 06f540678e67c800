import { listFleet } from "@/lib/fleet/list-fleet";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { fleetQuerySchema } from "@/lib/schemas/fleet";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 1: the fleet snapshot. */
export const GET = withApiKey(({ req, ctx }) => listFleet({ ctx, input: parseQuery(fleetQuerySchema, req) }), {
  scopes: ["fleet:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
