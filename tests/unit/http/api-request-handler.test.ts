import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiHandlersOf, operationLabel } from "@/lib/http/api-request-handler";
import { apiRoutes, matchApiRoute } from "@/lib/http/api-routes";
import { OPERATIONS, routeFolderOf } from "@/lib/operations/registry";

/**
 * server.ts serves each API route with the very handlers its route file exports (not a copy that could
 * drift): the route files are what Next.js would serve, the request handler what runs.
 */
const APP_DIR = path.resolve(import.meta.dirname, "../../../app");

const routeFileOf = (template: string) => path.join(APP_DIR, template.replace(/\{([a-z_]+)\}/g, "[$1]"), "route.ts");

describe("the handlers of each route", () => {
  it.each(apiRoutes().map((r) => [r.template, r] as const))("%s", async (_, route) => {
    const mod = (await import(routeFileOf(route.kind === "operation" ? routeFolderOf(route.path) : route.template))) as Record<string, unknown>;
    const handlers = apiHandlersOf(route);
    if (route.kind === "service" && route.name === "auth") {
      expect(handlers).toBeNull(); // Next.js serves next-auth
      return;
    }
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) expect(handlers?.[method], method).toBe(mod[method]);
  });
});

/** The metrics' `operation` label (lib/metrics/metrics.ts): a closed set, whatever the request. */
describe("operationLabel", () => {
  it("names the operation a route and method serve, HEAD as its GET", () => {
    for (const op of OPERATIONS) {
      const route = apiRoutes().find((r) => r.kind === "operation" && r.path === op.path);
      expect(operationLabel(route, op.method), `${op.method} ${op.path}`).toBe(op.id);
      if (op.method === "GET") expect(operationLabel(route, "HEAD")).toBe(op.id);
    }
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
  });

  it("names what answers when no operation serves the method, the service routes by name, and no route as not_found", () => {
    const fleet = matchApiRoute("/api/v1/fleet")?.route;
    expect(operationLabel(fleet, "OPTIONS")).toBe("options");
    expect(operationLabel(fleet, "DELETE")).toBe("method_not_allowed");
    expect(operationLabel(matchApiRoute("/api/health")?.route, "GET")).toBe("health");
    expect(operationLabel(matchApiRoute("/api/metrics")?.route, "GET")).toBe("metrics");
    expect(operationLabel(matchApiRoute("/api/auth/session")?.route, "GET")).toBe("auth");
    expect(operationLabel(matchApiRoute("/api/no/such/thing")?.route, "GET")).toBe("not_found");
    expect(operationLabel(undefined, "GET")).toBe("not_found");
  });
});
