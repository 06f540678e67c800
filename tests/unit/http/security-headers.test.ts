import { afterEach, describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { resetEnvCache } from "@/lib/env";
import { malformedHttpAnswer } from "@/lib/http/edge-guard";
import { applySecurityHeaders, arrivedOverHttps, DOCS_CSP, NON_PAGE_CSP, pageCsp, securityHeaders } from "@/lib/http/security-headers";

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

describe("the policies", () => {
  it("every policy forbids framing, plugins and a foreign <base> (CONTRACT)", () => {
    for (const policy of [NON_PAGE_CSP, DOCS_CSP, pageCsp({ nonce: "abc", dev: false }), pageCsp({ nonce: "abc", dev: true })]) {
      const d = directives(policy);
      expect(d.get("frame-ancestors"), policy).toEqual(["'none'"]);
      expect(d.get("object-src"), policy).toEqual(["'none'"]);
      expect(d.get("base-uri"), policy).toEqual(["'self'"]);
    }
  });

  it("pages run only scripts with this request's nonce (or loaded by one): no 'unsafe-inline', no 'unsafe-eval' in production", () => {
    const scripts = directives(pageCsp({ nonce: "bm9uY2U=", dev: false })).get("script-src")!;
    expect(scripts).toContain("'nonce-bm9uY2U='");
    expect(scripts).toContain("'strict-dynamic'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    // Development only: React's debugging tools evaluate code.
    expect(directives(pageCsp({ nonce: "x", dev: true })).get("script-src")).toContain("'unsafe-eval'");
  });

  it("the API reference runs its own files only; answers that are not pages run nothing", () => {
    expect(directives(DOCS_CSP).get("script-src")).toEqual(["'self'"]);
    expect(directives(NON_PAGE_CSP).get("default-src")).toEqual(["'none'"]);
    expect(directives(NON_PAGE_CSP).has("script-src")).toBe(false);
  });
});

describe("arrivedOverHttps", () => {
  it("believes X-Forwarded-Proto only from a trusted proxy, and then its right-most value", () => {
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: "https", trustProxy: false })).toBe(false);
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: "https", trustProxy: true })).toBe(true);
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: "HTTPS", trustProxy: true })).toBe(true);
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: "https, http", trustProxy: true })).toBe(false);
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: "http, https", trustProxy: true })).toBe(true);
    expect(arrivedOverHttps({ encrypted: false, forwardedProto: undefined, trustProxy: true })).toBe(false);
    expect(arrivedOverHttps({ encrypted: true, forwardedProto: undefined, trustProxy: false })).toBe(true);
  });
});

describe("securityHeaders and applySecurityHeaders", () => {
  it("nosniff and the referrer policy always; HSTS only over https", () => {
    const plain = securityHeaders({ https: false });
    expect(plain["X-Content-Type-Options"]).toBe("nosniff");
    expect(plain["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ https: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}$/);
  });

  function applied(headers: Record<string, string>, trustProxy: boolean) {
    process.env.TRUST_PROXY = trustProxy ? "1" : "0";
    resetEnvCache();
    const req = { headers: { ...headers }, socket: {} } as unknown as IncomingMessage;
    const set = new Map<string, string>();
    applySecurityHeaders(req, { setHeader: (name: string, value: string) => set.set(name.toLowerCase(), value) } as never);
    return { req, set };
  }

  it("without TRUST_PROXY a client's X-Forwarded-Proto/-Host are dropped and earn no HSTS", () => {
    const { req, set } = applied({ "x-forwarded-proto": "https", "x-forwarded-host": "evil.example", host: "fdp.example" }, false);
    expect(req.headers["x-forwarded-proto"]).toBeUndefined();
    expect(req.headers["x-forwarded-host"]).toBeUndefined();
    expect(req.headers.host).toBe("fdp.example");
    expect(set.has("strict-transport-security")).toBe(false);
    expect(set.get("x-content-type-options")).toBe("nosniff");
    expect(set.get("content-security-policy")).toBe(NON_PAGE_CSP);
  });

  it("with TRUST_PROXY=1 the proxy's https earns HSTS and its headers stay", () => {
    const { req, set } = applied({ "x-forwarded-proto": "https", "x-forwarded-host": "fdp.example" }, true);
    expect(req.headers["x-forwarded-host"]).toBe("fdp.example");
    expect(set.get("strict-transport-security")).toMatch(/^max-age=/);
  });

  it("the raw answers written on the socket carry the headers too", () => {
    const raw = malformedHttpAnswer({ code: "HPE_INVALID_METHOD" });
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
    expect(head).toMatch(/\r\nReferrer-Policy: strict-origin-when-cross-origin\r\n/);
    expect(head).toMatch(/\r\nContent-Security-Policy: [^\r]*frame-ancestors 'none'/);
  });
});
