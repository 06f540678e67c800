import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCOPES } from "@/lib/auth/key-format";
import { openApiDocument } from "@/lib/openapi/document";
import { OPERATIONS, routeFolderOf, SERVICE_ROUTES } from "@/lib/operations/registry";

/**
 * The registry is the only list of endpoints: a route file that binds anything else, or an
 * operation without its route file, fails here.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const API_DIR = path.join(ROOT, "app/api");

const routeFiles = readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
  .filter((f) => /(^|\/)route\.tsx?$/.test(f))
  .map((f) => ({ folder: `/api/${path.dirname(f)}`, source: readFileSync(path.join(API_DIR, f), "utf8") }));

/** A route file's code without comments and blank lines. */
const code = (source: string) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("//"))
    .join("\n");

const HANDLERS = "export const { GET, POST, PUT, PATCH, DELETE, OPTIONS }";

describe("route files on disk", () => {
  it("every operation has its route file, which is exactly one binding of that operation's path", () => {
    for (const op of OPERATIONS) {
      const file = routeFiles.find((f) => f.folder === routeFolderOf(op.path));
      expect(file, `no route file for ${op.method} ${op.path}`).toBeDefined();
      expect(code(file!.source)).toBe(`import { bindRoute } from "@/lib/http/bind-route";\n${HANDLERS} = bindRoute(${JSON.stringify(op.path)});`);
    }
  });

  it("no route file exists outside the registry's operations and service routes", () => {
    const known = new Set([...OPERATIONS.map((op) => routeFolderOf(op.path)), ...Object.values(SERVICE_ROUTES).map((r) => r.route)]);
    const outside = routeFiles.map((f) => f.folder).filter((folder) => !known.has(folder));
    expect(outside).toEqual([]);
  });

  it("service routes export the handlers server.ts serves them with (next-auth's: its own binding, Next.js serves it)", () => {
    for (const [name, { route }] of Object.entries(SERVICE_ROUTES)) {
      const file = routeFiles.find((f) => f.folder === route);
      expect(file, `no route file for ${route}`).toBeDefined();
      const body = code(file!.source);
      expect(body).toContain(HANDLERS);
      const binding = name === "auth" ? /= bindServiceRoute\("auth", serveAuth\);$/ : new RegExp(`= serviceRouteHandlers\\("${name}"\\);$`);
      expect(body).toMatch(binding);
      expect(body).not.toMatch(/export (async )?function|export const (GET|POST) =/);
    }
  });
});

describe("the registry", () => {
  it("has unique ids and one operation per method and path, each path parameter declared in input.path", () => {
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`)).size).toBe(OPERATIONS.length);
    for (const op of OPERATIONS) expect(Object.keys(op.input.path?.shape ?? {})).toEqual(op.pathParams);
  });

  it("gives every operation a valid example request", () => {
    for (const op of OPERATIONS) {
      const ex = op.requestExample as { path?: object; query?: object; body?: object };
      const result = op.inputSchema.safeParse({ ...ex.body, ...ex.query, ...ex.path });
      expect(result.error, op.id).toBeUndefined();
    }
  });
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string; tags: string[]; description: string }>> };

  it("describes exactly the registry's operations, with their ids, tags and scopes", () => {
    const described = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
    expect(described.sort()).toEqual(OPERATIONS.map((op) => `${op.method} ${op.path}`).sort());
    for (const op of OPERATIONS) {
      const described = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(described?.operationId).toBe(op.id);
      expect(described?.tags).toEqual([op.tag]);
      if ("scope" in op.access) expect(described?.description).toContain(`Scope: \`${op.access.scope}\``);
      else if ("anyKey" in op.access) expect(described?.description).toContain("Any valid API key");
      else expect(described?.description).toContain("No key needed");
    }
  });

  it("is built by a loop over the registry: its source holds no path or scope literal", () => {
    const source = readFileSync(path.join(ROOT, "lib/openapi/document.ts"), "utf8");
    expect(source).not.toMatch(/["'`]\/(fleet|alerts|scores|tas|vehicles|oem)/);
    for (const scope of SCOPES) expect(source).not.toContain(`"${scope}"`);
  });
});
