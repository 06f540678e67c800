import { bindMcpRoute } from "@/lib/mcp/bind-mcp-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindMcpRoute();
