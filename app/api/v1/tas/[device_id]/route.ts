import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { getTas } from "@/lib/scores/get-tas";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 17: Total Asset Score of one device. */
export const GET = withApiKey<{ device_id: string }>(({ ctx, params }) => getTas({ ctx, deviceId: params.device_id }), {
  scopes: ["scores:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
