import { listAlerts } from "@/lib/alerts/list-alerts";
import { withApiKey } from "@/lib/http/with-api-key";
import { parseQuery } from "@/lib/http/parse";
import { alertsQuerySchema } from "@/lib/schemas/alerts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 2: alerts raised by the detectors. */
export const GET = withApiKey(({ req, ctx }) => listAlerts({ ctx, input: parseQuery(alertsQuerySchema, req) }), {
  scopes: ["fleet:read"],
});
