import { serveAuth } from "@/lib/dashboard/auth-route";
import { bindServiceRoute } from "@/lib/http/bind-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindServiceRoute("auth", serveAuth);
