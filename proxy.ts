import { randomBytes } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { SERVER_ACTION_BODY_LIMIT_BYTES } from "@/lib/certificates/pdf-check-limits";
import { DASHBOARD_FILE_CSP, DASHBOARD_FILE_ROUTE, DOCS_CSP, NON_PAGE_CSP, pageCsp } from "@/lib/http/security-headers";
import { crossOriginActionRefusal, oversizedActionRefusal, refusalPage } from "@/lib/http/page-refusals";

/**
 * Next.js's proxy (the file convention formerly called middleware) for the app's pages:
 *
 * 1. The Content-Security-Policy of pages, with a fresh nonce per request (Next.js's documented
 *    nonce pattern: the policy goes on the request, where Next.js reads the nonce and puts it on every
 *    script it renders, and on the answer). server.ts has already set the headers of every answer
 *    (lib/http/security-headers.ts); this replaces its restrictive non-page policy.
 * 2. A server action posted from another origin is answered 403 here, a page saying why. Next.js's
 *    own check (the Origin's host against X-Forwarded-Host or Host) refuses it too, but with a 500 and
 *    a plain-text or generic error page; this check is the same comparison made first, so Next.js's
 *    stays behind it unchanged.
 * 3. A server action whose announced body exceeds Next.js's body limit (next.config.ts) is answered
 *    413, a page, instead of Next.js's 500.
 */
export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  if (request.method === "POST") {
    const refusal = crossOriginActionRefusal(request.headers) ?? oversizedActionRefusal(request.headers, SERVER_ACTION_BODY_LIMIT_BYTES);
    if (refusal) {
      return new NextResponse(refusalPage(refusal), {
        status: refusal.status,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": NON_PAGE_CSP },
      });
    }
  }
  // A file (PDF, CSV) the dashboard serves: framed by its own pages only, no page policy.
  if (DASHBOARD_FILE_ROUTE.test(pathname)) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", DASHBOARD_FILE_CSP);
    return response;
  }
  // The API reference's scripts are files of this origin: no nonce needed (security-headers.ts).
  if (pathname === "/docs" || pathname.startsWith("/docs/")) {
    const response = NextResponse.next();
    response.headers.set("Content-Security-Policy", DOCS_CSP);
    return response;
  }
  // 128 bits from the CSPRNG, base64 (CSP's nonce-source grammar), unguessable and new for every page.
  const nonce = randomBytes(16).toString("base64");
  const csp = pageCsp({ nonce, dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  // `x-nonce`: for a component that renders a script of its own (`headers().get("x-nonce")`); none does yet.
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but the API (server.ts and the route handlers answer it with the non-page policy)
      // and Next.js's static files (scripts and styles: a policy on them would do nothing).
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      // A link's prefetch fetches the page's data, not a document: no policy needed (Next.js's advice).
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
