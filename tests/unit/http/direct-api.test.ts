import { describe, expect, it } from "vitest";
import { acceptsGzip } from "@/lib/http/accept-encoding";
import { matchDirectRoute } from "@/lib/http/direct-api";
import { bindRoute } from "@/lib/http/bind-route";
import { OPERATIONS } from "@/lib/operations/registry";

/** server.ts's direct routing (lib/http/direct-api.ts): every operation path, and only those. */
describe("direct routes of the operations", () => {
  const example = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => `x-${name}`);

  it.each([...new Set(OPERATIONS.map((op) => op.path))])("%s reaches the handlers of its own route, with its parameters", (path) => {
    const m = matchDirectRoute(`/api/v1${example(path)}`);
    expect(m).not.toBeNull();
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!);
    expect(m!.params).toEqual(Object.fromEntries(names.map((n) => [n, `x-${n}`])));
    // The same methods as the route file's handlers: compare what OPTIONS would list.
    expect(Object.keys(m!.handlers).sort()).toEqual(Object.keys(bindRoute(path)).sort());
  });

  it("a static segment wins over a parameter, parameters are decoded, anything else is left to Next.js", () => {
    expect(matchDirectRoute("/api/v1/tas/batch")?.params).toEqual({});
    expect(matchDirectRoute("/api/v1/tas/dev%20one")?.params).toEqual({ device_id: "dev one" });
    for (const path of ["/api/v1/openapi.json", "/api/v1/health", "/api/mcp", "/api/v1/fleet/", "/api/v1/tas/a/b", "/dashboard", "/api/v1/tas/%FF"]) {
      expect(matchDirectRoute(path), path).toBeNull();
    }
  });
});

describe("Accept-Encoding", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["gzip;q=0", false],
    ["gzip;q=0.0, *", false],
    ["*;q=0", false],
    ["identity", false],
    ["", false],
    [undefined, false],
    ["deflate, *;q=0.1", true],
  ] as const)("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
