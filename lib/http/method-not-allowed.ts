import { ValidationError } from "@/lib/errors";
import { requestIdFor } from "./request-id";
import { errorResponse } from "./respond";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Handlers for the methods a route does not serve, so they answer the CONTRACT's JSON envelope
 * with an `Allow` header instead of Next.js's empty 405.
 */
export function methodNotAllowed<A extends Method>(allowed: A[]) {
  const handler = async (req: Request): Promise<Response> => {
    const res = errorResponse(
      new ValidationError(`${req.method} is not supported here; use ${allowed.join(" or ")}.`),
      { requestId: requestIdFor(req), isSandbox: false, headers: { Allow: allowed.join(", ") } },
    );
    return new Response(res.body, { status: 405, headers: res.headers });
  };
  const others = METHODS.filter((m) => !(allowed as Method[]).includes(m));
  return Object.fromEntries(others.map((m) => [m, handler])) as Record<Exclude<Method, A>, typeof handler>;
}
