import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * /docs on the built app (`npm start`): Scalar's API reference, with everything it needs served by
 * the app itself. What a browser then draws from it (operation names, "try it") needs a browser: the
 * e2e suite's job.
 */
describe("the API reference at /docs", () => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let app: AppProcess;
  let html: string;

  beforeAll(async () => {
    pg = await createPostgresDatabase("fdp_it_docs", "seeded");
    app = await startApp({ mode: "start", env: { DATABASE_URL: pg.url, REDIS_URL: undefined } });
    const res = await fetch(`${app.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    html = await res.text();
  });

  afterAll(async () => {
    await app?.stop();
    await pg?.drop();
  });

  it("is a public HTML page titled for FDP, loading scripts only from its own origin", () => {
    expect(html).toContain("<title>API reference — FDP</title>");
    const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) expect(ref, ref).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/https:\/\/[^"'\s]*\.(js|css|woff2?)\b/);
  });

  it("serves Scalar's bundle and the start-up script as JavaScript from the same origin", async () => {
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.some((s) => s.startsWith("/docs/assets/scalar-api-reference.js"))).toBe(true);
    for (const src of scripts) {
      const res = await fetch(new URL(src, app.url));
      expect(res.status, src).toBe(200);
      expect(res.headers.get("content-type"), src).toMatch(/^text\/javascript/);
      const body = await res.text();
      if (src.includes("scalar-api-reference")) {
        expect(body).toContain("createApiReference");
        expect(body.length).toBeGreaterThan(1_000_000);
      } else expect(body).toContain("Scalar.createApiReference");
    }
  });

  it("configures the app's OpenAPI document and the sandbox key for its Bearer scheme", async () => {
    const config = JSON.parse(/<script id="fdp-api-reference-config" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
      url: string;
      authentication: { preferredSecurityScheme: string; securitySchemes: Record<string, { token: string }> };
      withDefaultFonts: boolean;
      telemetry: boolean;
    };
    expect(config.url).toBe("/api/v1/openapi.json");
    expect(config.authentication.securitySchemes[config.authentication.preferredSecurityScheme]).toEqual({ token: SANDBOX_KEY });
    expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false });

    const doc = (await (await fetch(new URL(config.url, app.url))).json()) as { components: { securitySchemes: Record<string, unknown> } };
    expect(Object.keys(doc.components.securitySchemes)).toContain(config.authentication.preferredSecurityScheme);
  });

  it("answers without a sign-in (public documentation: no redirect to /login)", async () => {
    const res = await fetch(`${app.url}/docs`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
  });
});
