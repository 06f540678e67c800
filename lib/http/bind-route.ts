import { NotFoundError, ValidationError } from "@/lib/errors";
import type { Operation } from "@/lib/operations/define-operation";
import { presentsSandboxKey } from "@/lib/auth/authenticate-api-key";
import { heavyCapKey } from "@/lib/operations/budget";
import { invokeOperation } from "@/lib/operations/invoke-operation";
import { requestLogger, type Logger } from "@/lib/log/logger";
import { operationsAt, SERVICE_ROUTES, type ServiceRouteName } from "@/lib/operations/registry";
import { authorize, lacksEndpointScope } from "./authorize";
import { requestIdFor } from "./request-id";
import { readRawInput } from "./read-input";
import { decorate, errorResponse, jsonResponse, type ResponseDecor } from "./respond";

/**
 * The one place where HTTP meets an operation. A route file is a single line,
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindRoute("/tas/{device_id}")`,
 * and every answer it gives comes from here: the operation's method runs
 * request id → key and rate limit → invokeOperation (scope → input: media type, size, I-JSON, then
 * validation → verb → output check; lib/operations/invoke-operation.ts) → the CONTRACT's envelope and
 * headers; the other methods answer 405 with `Allow`, and OPTIONS lists what is served. (HEAD is
 * answered from GET by the server: lib/http/api-request-handler.ts.)
 */

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, context: RouteContext) => Promise<Response>;

const BOUND_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type BoundMethod = (typeof BOUND_METHODS)[number];
export type RouteHandlers = Record<BoundMethod | "OPTIONS", RouteHandler>;

/**
 * What every answer starts from: the request id, and the sandbox flag when the request presents the
 * public sandbox key (CONTRACT: every JSON body answered to it carries `_sandbox: true`, errors
 * included, even those given before the key is looked up: a 405, a 404, a malformed URL).
 */
export function baseDecor(req: Request): ResponseDecor {
  return { requestId: requestIdFor(req), isSandbox: presentsSandboxKey(req.headers.get("authorization")) };
}

/** The `Allow` list of a route serving `methods`: HEAD rides along with GET, OPTIONS is always served. */
export function allowHeader(methods: readonly string[]): string {
  return [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/** 405 in the envelope, for a method a route does not serve. */
export function methodNotAllowedResponse(method: string, methods: readonly string[], decor: ResponseDecor): Response {
  const allow = allowHeader(methods);
  const err = new ValidationError(`${method} is not supported here; this path serves ${allow}.`);
  const res = errorResponse(err, { ...decor, headers: { ...decor.headers, Allow: allow } });
  return new Response(res.body, { status: 405, headers: res.headers });
}

/** 204 with `Allow`: what OPTIONS answers on a served path. */
export function optionsResponse(methods: readonly string[], decor: ResponseDecor): Response {
  return decorate(new Response(null, { status: 204 }), { ...decor, headers: { ...decor.headers, Allow: allowHeader(methods) } });
}

function operationHandler(op: Operation): RouteHandler {
  return async (req, context) => {
    const base = baseDecor(req);
    const decor = { ...base, log: requestLogger({ requestId: base.requestId, operation: op.id, traceparent: req.headers.get("traceparent") }) } satisfies ResponseDecor;
    try {
      const { ctx, scopes } = await authorize(op.access, req, decor);
      const params = (await context.params) ?? {};
      // Within the operation's budget (heavy: the tenant's cap, the instance's slots, the heavy pool;
      // lib/operations/budget.ts), then the replica for `reads: "replica"` operations, else the primary
      // plus the tenant's read-your-writes mark once the verb has committed (lib/db/replica.ts).
      const { answer } = await invokeOperation({
        op,
        ctx,
        scopes,
        lacksScope: lacksEndpointScope,
        rawInput: () => readRawInput(op, req, params, ctx),
        capKey: heavyCapKey(ctx, req),
        log: decor.log,
        setHeaders: (headers) => (decor.headers = { ...decor.headers, ...headers }),
      });
      if (answer instanceof Response) return decorate(answer, decor);
      if (op.success === 204) return decorate(new Response(null, { status: 204 }), decor);
      return jsonResponse(answer, op.success ?? 200, decor);
    } catch (err) {
      return errorResponse(err, decor);
    }
  };
}

export function routeHandlers(methods: readonly string[], handlerFor: (method: BoundMethod) => RouteHandler | undefined): RouteHandlers {
  const handlers = {} as RouteHandlers;
  for (const method of BOUND_METHODS) {
    handlers[method] = handlerFor(method) ?? (async (req) => methodNotAllowedResponse(req.method, methods, baseDecor(req)));
  }
  handlers.OPTIONS = async (req) => optionsResponse(methods, baseDecor(req));
  return handlers;
}

const boundRoutes = new Map<string, RouteHandlers>();

/**
 * The handlers of the route that serves `path` (relative to /api/v1, as in the registry), bound once:
 * the route file and server.ts's request handler (lib/http/api-request-handler.ts) hold the same object.
 */
export function bindRoute(path: string): RouteHandlers {
  let handlers = boundRoutes.get(path);
  if (!handlers) boundRoutes.set(path, (handlers = bindOperations(path)));
  return handlers;
}

function bindOperations(path: string): RouteHandlers {
  const ops = operationsAt(path);
  if (ops.length === 0) throw new Error(`bindRoute: no operation at ${path}`);
  return routeHandlers(
    ops.map((op) => op.method),
    (method) => {
      const op = ops.find((o) => o.method === method);
      return op ? operationHandler(op) : undefined;
    },
  );
}

/**
 * The handlers of a service route (lib/operations/registry.ts SERVICE_ROUTES): no key, no rate limit,
 * the same envelope and request id. `serve` returns a JSON-able body (marked `_sandbox` for the sandbox
 * key) or a finished Response, sent as is.
 */
export function bindServiceRoute(name: ServiceRouteName, serve: (args: { req: Request; log: Logger; requestId: string }) => Promise<unknown>): RouteHandlers {
  const { methods } = SERVICE_ROUTES[name];
  return routeHandlers(methods, (method) =>
    (methods as readonly string[]).includes(method)
      ? async (req) => {
          const base = baseDecor(req);
          const log = requestLogger({ requestId: base.requestId, operation: name, traceparent: req.headers.get("traceparent") });
          const decor: ResponseDecor = { ...base, log };
          try {
            const result = await serve({ req, log, requestId: base.requestId });
            return result instanceof Response ? decorate(result, decor) : jsonResponse(result, 200, decor);
          } catch (err) {
            return errorResponse(err, decor);
          }
        }
      : undefined,
  );
}

/** The catch-all under /api: every method of every unserved path is the CONTRACT's JSON 404. */
export function bindNotFound(): RouteHandlers {
  const notFound: RouteHandler = async (req) =>
    errorResponse(new NotFoundError(`No endpoint ${req.method} ${new URL(req.url).pathname}. See /api/v1/openapi.json for the endpoints.`), baseDecor(req));
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound, OPTIONS: notFound };
}
