import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { getBatterySnapshot } from "@/lib/scores/get-battery-snapshot";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 6: battery health snapshot of one device. */
export const GET = withApiKey<{ device_id: string }>(({ ctx, params }) => getBatterySnapshot({ ctx, deviceId: params.device_id }), {
  scopes: ["scores:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
