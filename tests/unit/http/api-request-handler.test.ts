import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiHandlersOf } from "@/lib/http/api-request-handler";
import { apiRoutes } from "@/lib/http/api-routes";
import { routeFolderOf } from "@/lib/operations/registry";

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
