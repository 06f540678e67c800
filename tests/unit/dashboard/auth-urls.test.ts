import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { publicAuthUrl, sameOriginRedirect, sessionCookiesSecure } from "@/lib/dashboard/auth-urls";

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

describe("sameOriginRedirect (next-auth's redirect callback)", () => {
  const baseUrl = "https://fdp.example";
  it("keeps a path or a URL of this origin", () => {
    expect(sameOriginRedirect({ url: "/dashboard/keys?x=1", baseUrl })).toBe("https://fdp.example/dashboard/keys?x=1");
    expect(sameOriginRedirect({ url: "https://fdp.example/dashboard/alerts", baseUrl })).toBe("https://fdp.example/dashboard/alerts");
  });

  it("never leaves the origin, whatever callbackUrl says", () => {
    for (const url of [
      "https://evil.example/",
      "//evil.example/dashboard",
      "/\\evil.example",
      "\\\\evil.example",
      "https://fdp.example.evil.example/",
      "https://fdp.example@evil.example/",
      "http://fdp.example/dashboard",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "https://fdp.example:8443/",
    ]) {
      expect(new URL(sameOriginRedirect({ url, baseUrl })).origin, url).toBe(baseUrl);
    }
    expect(sameOriginRedirect({ url: "https://evil.example/", baseUrl })).toBe("https://fdp.example/dashboard");
  });
});

describe("publicAuthUrl", () => {
  it("is the configured PUBLIC_BASE_URL (an explicit AUTH_URL wins), nothing when neither is set", () => {
    expect(publicAuthUrl({ PUBLIC_BASE_URL: "https://fdp.example/" })).toBe("https://fdp.example");
    expect(publicAuthUrl({ PUBLIC_BASE_URL: "https://fdp.example", AUTH_URL: "https://auth.example" })).toBe("https://auth.example");
    expect(publicAuthUrl({})).toBeUndefined();
    expect(publicAuthUrl({ PUBLIC_BASE_URL: "" })).toBeUndefined();
  });
});

describe("sessionCookiesSecure", () => {
  it("Secure when a trusted proxy says https; never on a client's word alone", () => {
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    expect(sessionCookiesSecure("https")).toBe(true);
    expect(sessionCookiesSecure("http")).toBe(false);
    expect(sessionCookiesSecure(null)).toBe(false);
    process.env.TRUST_PROXY = "0";
    resetEnvCache();
    expect(sessionCookiesSecure("https")).toBe(false);
  });
});
