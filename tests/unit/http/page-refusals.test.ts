import { describe, expect, it } from "vitest";
import { crossOriginActionRefusal, oversizedActionRefusal, refusalPage } from "@/lib/http/page-refusals";

const h = (init: Record<string, string>) => new Headers(init);

describe("crossOriginActionRefusal (Next.js's server-action origin rule, answered 403)", () => {
  it("passes a post from the page's own origin, by Host or by a (trusted) X-Forwarded-Host", () => {
    expect(crossOriginActionRefusal(h({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }))).toBeNull();
    expect(crossOriginActionRefusal(h({ origin: "https://fdp.example", host: "10.0.0.5:3000", "x-forwarded-host": "fdp.example" }))).toBeNull();
  });

  it("passes a post without Origin, as Next.js does (no browser sends a cross-site post without one)", () => {
    expect(crossOriginActionRefusal(h({ host: "fdp.example" }))).toBeNull();
  });

  it("refuses another site, another port, `null` and a malformed Origin with 403", () => {
    for (const origin of ["https://evil.example", "http://fdp.example:8080", "null", "not a url", "http://fdp.example.evil.example"]) {
      const refusal = crossOriginActionRefusal(h({ origin, host: "fdp.example" }));
      expect(refusal?.status, origin).toBe(403);
    }
    // The host compared with is the forwarded one when present, as in Next.js: Host alone does not pass.
    expect(crossOriginActionRefusal(h({ origin: "http://10.0.0.5:3000", host: "10.0.0.5:3000", "x-forwarded-host": "fdp.example" }))?.status).toBe(403);
  });
});

describe("oversizedActionRefusal", () => {
  it("413 above the limit, nothing at or below it or without a length", () => {
    expect(oversizedActionRefusal(h({ "content-length": "1001" }), 1000)?.status).toBe(413);
    expect(oversizedActionRefusal(h({ "content-length": "1000" }), 1000)).toBeNull();
    expect(oversizedActionRefusal(h({}), 1000)).toBeNull();
  });
});

describe("refusalPage", () => {
  it("is a script-free page that says what happened", () => {
    const page = refusalPage({ status: 403, title: "Request refused", message: "Sent from <another> site." });
    expect(page).toContain("<h1>Request refused</h1>");
    expect(page).toContain("Sent from &#60;another&#62; site.");
    expect(page).not.toMatch(/<script/i);
  });
});
