import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { API_REFERENCE_INIT_PATH, API_REFERENCE_INIT_SCRIPT, API_REFERENCE_TITLE, apiReferenceHtml, SCALAR_BUNDLE_PATH } from "@/lib/docs/api-reference-page";
import { scalarBundle, scalarProvenance, scalarVendorDirectory } from "@/lib/docs/scalar-bundle";

/** The JSON configuration element of the page, parsed as the start-up script parses it. */
function configOf(html: string): Record<string, unknown> {
  const m = /<script id="fdp-api-reference-config" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!) as Record<string, unknown>;
}

/** Runs the start-up script as a browser would, against the page's configuration; returns what it mounted. */
function mount(html: string, origin: string): { selector: string; config: { servers: { url: string }[] } } {
  const configText = /<script id="fdp-api-reference-config" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const calls: { selector: string; config: { servers: { url: string }[] } }[] = [];
  const window = { location: { origin }, Scalar: { createApiReference: (selector: string, config: never) => calls.push({ selector, config }) } };
  const document = { getElementById: (id: string) => (id === "fdp-api-reference-config" ? { textContent: configText } : null) };
  runInNewContext(API_REFERENCE_INIT_SCRIPT, { window, document });
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

describe("Scalar's vendored bundle", () => {
  it("is the release's self-contained browser build as scripts/vendor-scalar.ts took it, served without its source map reference", () => {
    const dir = scalarVendorDirectory();
    const provenance = scalarProvenance(dir);
    const raw = readFileSync(path.join(dir, "standalone.js"));
    // Byte for byte the file of the release's tarball: an edit by hand (or a formatter) would show here.
    expect(createHash("sha256").update(raw).digest("hex")).toBe(provenance.sha256);
    expect(provenance).toMatchObject({ package: "@scalar/api-reference", version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    const { version, source } = scalarBundle();
    expect(version).toBe(provenance.version);
    expect(source).toContain("createApiReference");
    const text = raw.toString("utf8");
    expect(text).toContain("sourceMappingURL=");
    expect(source).not.toContain("sourceMappingURL=");
    expect(source.length).toBeGreaterThan(text.length - 100);
  });

  it("is not also installed: no package brings Scalar's 241 packages back", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain("@scalar/api-reference");
  });
});

describe("the /docs page", () => {
  const html = apiReferenceHtml({ publicBaseUrl: "https://fdp.example/", scalarVersion: "1.72.1" });

  it("loads Scalar and its start-up script from this origin only, in that order", () => {
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([`${SCALAR_BUNDLE_PATH}?v=1.72.1`, API_REFERENCE_INIT_PATH]);
    expect(html).not.toMatch(/<(script|link)\b[^>]*\b(src|href)="(https?:)?\/\//);
    expect(html).toContain(`<title>${API_REFERENCE_TITLE}</title>`);
  });

  it("configures the app's document, the sandbox key for the document's Bearer scheme, and nothing remote", () => {
    const config = configOf(html);
    expect(config.url).toBe("/api/v1/openapi.json");
    expect(config.authentication).toEqual({ preferredSecurityScheme: "bearerAuth", securitySchemes: { bearerAuth: { token: SANDBOX_KEY } } });
    expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true }, mcp: { disabled: true }, showDeveloperTools: "never" });
    expect(config).not.toHaveProperty("proxyUrl");
    expect(config.servers).toEqual([{ url: "https://fdp.example/api/v1", description: expect.any(String) }]);
  });

  it("names the Bearer scheme the OpenAPI document declares", async () => {
    const { openApiDocument } = await import("@/lib/openapi/document");
    const doc = openApiDocument() as { components: { securitySchemes: Record<string, { type: string; scheme: string }> } };
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("uses only option names the vendored Scalar release knows", () => {
    const bundle = scalarBundle().source;
    for (const name of Object.keys(configOf(html))) expect(bundle, name).toContain(`${name}:`);
  });

  it("sends 'try it' to the origin that served the page, keeping PUBLIC_BASE_URL's server when it differs", () => {
    const elsewhere = mount(html, "http://localhost:3301");
    expect(elsewhere.selector).toBe("#fdp-api-reference");
    expect(elsewhere.config.servers.map((s) => s.url)).toEqual(["http://localhost:3301/api/v1", "https://fdp.example/api/v1"]);
    const same = mount(html, "https://fdp.example");
    expect(same.config.servers.map((s) => s.url)).toEqual(["https://fdp.example/api/v1"]);
  });

  it("cannot be broken out of by a configured value", () => {
    const hostile = apiReferenceHtml({ publicBaseUrl: "https://x.example/</script><script>alert(1)</script>", scalarVersion: "1" });
    expect(hostile.match(/<script\b/g)).toHaveLength(3);
    expect((configOf(hostile).servers as { url: string }[])[0]!.url).toBe("https://x.example/</script><script>alert(1)</script>/api/v1");
  });
});
