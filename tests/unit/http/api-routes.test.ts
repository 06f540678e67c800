import { describe, expect, it } from "vitest";
import { apiRoutes, matchApiRoute, methodsServedAt } from "@/lib/http/api-routes";
import { OPERATIONS, SERVICE_ROUTES } from "@/lib/operations/registry";

/** The one route matcher (lib/http/api-routes.ts): server.ts, the edge guard and the API tests route with it. */
describe("the route of an operation path", () => {
  const example = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => `x-${name}`);

  it.each([...new Set(OPERATIONS.map((op) => op.path))])("%s is its own operation route, with its parameters", (path) => {
    const m = matchApiRoute(`/api/v1${example(path)}`);
    expect(m?.route).toMatchObject({ kind: "operation", path });
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);
    expect(m!.params).toEqual(Object.fromEntries(names.map((n) => [n, `x-${n}`])));
    expect([...m!.route.methods].sort()).toEqual(
      OPERATIONS.filter((op) => op.path === path)
        .map((op) => op.method)
        .sort(),
    );
  });

  it("every route of the registry is in the table once", () => {
    const templates = apiRoutes().map((r) => r.template);
    expect(templates.sort()).toEqual([...new Set(OPERATIONS.map((op) => `/api/v1${op.path}`)), ...Object.values(SERVICE_ROUTES).map((r) => r.route)].sort());
  });
});

describe("which route wins: static over parameter over catch-all, segment by segment", () => {
  it("/certificates/generate/<x> is the generation, whatever <x> is; a certificate number elsewhere", () => {
    expect(matchApiRoute("/api/v1/certificates/generate/verify")).toMatchObject({ route: { path: "/certificates/generate/{device_id}" }, params: { device_id: "verify" } });
    expect(matchApiRoute("/api/v1/certificates/generate/pdf")?.route).toMatchObject({ path: "/certificates/generate/{device_id}" });
    expect(matchApiRoute("/api/v1/certificates/generate")).toMatchObject({ route: { path: "/certificates/{certificate_number}" }, params: { certificate_number: "generate" } });
    expect(matchApiRoute("/api/v1/certificates/FDP-CERT-20261124-7KQ2M/verify")?.route).toMatchObject({ path: "/certificates/{certificate_number}/verify" });
  });

  it("a static path beats a parameter at the same place: /tas/batch is the batch, /tas/<id> a vehicle", () => {
    expect(matchApiRoute("/api/v1/tas/batch")).toMatchObject({ route: { path: "/tas/batch" }, params: {} });
    expect(matchApiRoute("/api/v1/tas/sbx-001")).toMatchObject({ route: { path: "/tas/{device_id}" }, params: { device_id: "sbx-001" } });
  });

  it("the service routes: health, OpenAPI, MCP, next-auth below /api/auth, and the JSON 404 for every other path under /api", () => {
    const name = (p: string) => {
      const route = matchApiRoute(p)?.route;
      return route?.kind === "service" ? route.name : route?.kind;
    };
    expect(name("/api/health")).toBe("health");
    expect(name("/api/health/live")).toBe("healthLive");
    expect(name("/api/v1/openapi.json")).toBe("openapi");
    expect(name("/api/mcp")).toBe("mcp");
    expect(matchApiRoute("/api/auth/callback/credentials")).toMatchObject({ route: { name: "auth" }, params: { nextauth: ["callback", "credentials"] } });
    for (const p of ["/api/auth", "/api/authx/session", "/api/v2/fleet", "/api/v1/tas/a/b", "/api/v1/fleet/x", "/api/health/x", "/api/v1"]) {
      expect(matchApiRoute(p), p).toMatchObject({ route: { name: "notFound" } });
    }
    expect(matchApiRoute("/api/v1/tas/a/b")?.params).toEqual({ path: ["v1", "tas", "a", "b"] });
  });

  it("paths outside /api, empty segments and malformed escapes have no route", () => {
    for (const p of ["/dashboard", "/", "/api", "/api/v1/tas/", "/api/v1//fleet", "/api/v1/tas/%FF"]) expect(matchApiRoute(p), p).toBeNull();
  });
});

describe("segments are decoded before they are compared, as Next.js does", () => {
  it("parameters arrive decoded, an escaped slash inside one segment included", () => {
    expect(matchApiRoute("/api/v1/tas/dev%20one")?.params).toEqual({ device_id: "dev one" });
    expect(matchApiRoute("/api/v1/tas/a%2Fb")?.params).toEqual({ device_id: "a/b" });
  });

  it("an escaped static segment is the segment: /%61pi/v1/fleet is /api/v1/fleet", () => {
    expect(matchApiRoute("/%61pi/v1/fleet")?.route).toMatchObject({ path: "/fleet" });
  });
});

describe("methods served at a path (the edge guard's 405 and OPTIONS)", () => {
  it("an operation path: its operations' methods", () => {
    expect(methodsServedAt("/api/v1/certificates/generate/verify")).toEqual(["POST"]);
    expect(methodsServedAt("/api/v1/certificates/FDP-CERT-20261124-7KQ2M/verify")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/certificates/FDP-CERT-20261124-7KQ2M")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/certificates/generate")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/fleet")).toEqual(["GET"]);
  });

  it("next-auth's catch-all serves every path below /api/auth; the JSON 404 serves no method", () => {
    expect(methodsServedAt("/api/auth/session")).toEqual(["GET", "POST"]);
    expect(methodsServedAt("/api/auth/callback/credentials")).toEqual(["GET", "POST"]);
    expect(methodsServedAt("/api/auth")).toBeNull();
    expect(methodsServedAt("/api/authx/session")).toBeNull();
    expect(methodsServedAt("/dashboard")).toBeNull();
  });
});
