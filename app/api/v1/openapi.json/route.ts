import { openApiDocument } from "@/lib/openapi/document";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { withRequestId } from "@/lib/http/with-api-key";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers parse with. */
export const GET = withRequestId(async () => openApiDocument());

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed(["GET"]);
