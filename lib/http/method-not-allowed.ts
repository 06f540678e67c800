import { ValidationError } from "@/lib/errors";
import { requestIdFor } from "./request-id";
import { errorResponse } from "./respond";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Handlers for the methods a route does not serve, so they answer the CONTRACT's JSON envelope
 * with an `Allow` header instead of Next.js's empty 405.
 */
export function methodNotAllowed(allowed: Method[]) {
  const handler = async (req: Request): Promise<Response> => {
    const res = errorResponse(
      new ValidationError(`${req.method} is not supported here; use ${allowed.join(" or ")}.`),
      { requestId: requestIdFor(req), isSandbox: false, headers: { Allow: allowed.join(", ") } },
    );
    return new Response(res.body, { status: 405, headers: res.headers });
  };
  return Object.fromEntries(METHODS.filter((m) => !allowed.includes(m)).map((m) => [m, handler])) as Record<
    Exclude<Method, (typeof allowed)[number]>,
    typeof handler
  >;
}
