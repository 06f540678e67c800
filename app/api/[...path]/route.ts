import { NotFoundError } from "@/lib/errors";
import { withRequestId } from "@/lib/http/with-api-key";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Any /api path that no route serves answers the CONTRACT's JSON 404, not an HTML page. */
const notFound = withRequestId<{ path: string[] }>(async ({ req }) => {
  throw new NotFoundError(`No endpoint ${req.method} ${new URL(req.url).pathname}. See /api/v1/openapi.json for the endpoints.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
