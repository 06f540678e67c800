import { serviceRouteHandlers } from "@/lib/http/service-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serviceRouteHandlers("metrics");
