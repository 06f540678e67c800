import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withApiKey } from "@/lib/http/with-api-key";
import { getVehicleHealth } from "@/lib/scores/get-vehicle-health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Endpoint 4: vehicle health score of one device. */
export const GET = withApiKey<{ device_id: string }>(({ ctx, params }) => getVehicleHealth({ ctx, deviceId: params.device_id }), {
  scopes: ["scores:read"],
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
