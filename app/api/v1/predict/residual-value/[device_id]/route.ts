import { bindRoute } from "@/lib/http/bind-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindRoute("/predict/residual-value/{device_id}");
