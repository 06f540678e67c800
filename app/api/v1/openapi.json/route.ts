import { bindServiceRoute } from "@/lib/http/bind-route";
import { openApiDocument } from "@/lib/openapi/document";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindServiceRoute("openapi", async () => Response.json(openApiDocument()));
