import { listAlerts } from "@/lib/alerts/list-alerts";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { alertsQuerySchema } from "@/lib/schemas/alerts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 2: alerts raised by the detectors. */
export const GET = withApiKey(({ req, ctx }) => listAlerts({ ctx, input: parseQuery(alertsQuerySchema, req) }), {
  scopes: ["fleet:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
