import { checkLiveness } from "@/lib/health/check-health";
import { bindServiceRoute } from "@/lib/http/bind-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindServiceRoute("healthLive", checkLiveness);
