import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { getEolSummary } from "@/lib/scores/get-eol-summary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 7: end-of-life condition summary of one device. */
export const GET = withApiKey<{ device_id: string }>(({ ctx, params }) => getEolSummary({ ctx, deviceId: params.device_id }), {
  scopes: ["scores:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
