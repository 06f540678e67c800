import { checkHealth, checkLiveness } from "@/lib/health/check-health";
import { bindMcpRoute } from "@/lib/mcp/bind-mcp-route";
import { serveMetrics } from "@/lib/metrics/serve-metrics";
import { openApiDocument } from "@/lib/openapi/document";
import type { ServiceRouteName } from "@/lib/operations/registry";
import { bindNotFound, bindServiceRoute, type RouteHandlers } from "./bind-route";

/**
 * The handlers of the service routes under /api (lib/operations/registry.ts SERVICE_ROUTES) that
 * server.ts serves, bound once: their route files export these same objects. next-auth's
 * `/api/auth/*` is not here: Next.js serves it (its route file binds it), since next-auth runs inside
 * Next.js's request context.
 */
const BINDINGS = {
  health: () => bindServiceRoute("health", checkHealth),
  healthLive: () => bindServiceRoute("healthLive", checkLiveness),
  openapi: () => bindServiceRoute("openapi", async () => Response.json(openApiDocument())),
  mcp: bindMcpRoute,
  metrics: () => bindServiceRoute("metrics", serveMetrics),
  notFound: bindNotFound,
} satisfies Record<Exclude<ServiceRouteName, "auth">, () => RouteHandlers>;

type ServedServiceRoute = keyof typeof BINDINGS;

const bound = new Map<ServedServiceRoute, RouteHandlers>();

export function serviceRouteHandlers(name: ServedServiceRoute): RouteHandlers {
  let handlers = bound.get(name);
  if (!handlers) bound.set(name, (handlers = BINDINGS[name]()));
  return handlers;
}

export function isServedServiceRoute(name: ServiceRouteName): name is ServedServiceRoute {
  return Object.hasOwn(BINDINGS, name);
}
