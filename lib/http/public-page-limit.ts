import { env } from "@/lib/env";
import { consumeLimit, rateLimitHeaders } from "@/lib/rate-limit/consume-limit";

/**
 * Public web pages limited per client IP (CONTRACT "Rate limits"): the certificate verify page, in the
 * same `public` budget as its JSON twin. Next.js pages cannot answer 429, so server.ts asks here
 * before handing the request to Next.js: over the limit, it answers this module's 429 page itself.
 */
export function isLimitedPublicPage(pathname: string): boolean {
  return pathname.startsWith("/verify/");
}

export interface PageLimitDecision {
  /** RateLimit-* (and Retry-After) headers for the answer, whatever it is. */
  headers: Record<string, string>;
  /** The 429 page to send instead of the page, or null to serve the page. */
  refusal: { status: 429; html: string } | null;
}

export async function limitPublicPage(clientIp: string): Promise<PageLimitDecision> {
  const state = await consumeLimit("public", clientIp, env().RATE_LIMIT_PUBLIC_PER_MIN);
  const headers = rateLimitHeaders(state);
  if (state.allowed) return { headers, refusal: null };
  return { headers, refusal: { status: 429, html: tooManyRequestsPage(state.limit, state.resetSeconds) } };
}

function tooManyRequestsPage(limit: number, retryAfter: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too many requests — FDP certificate verification</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}main{max-width:40rem;margin:4rem auto;padding:0 1.5rem}
h1{font-size:1.75rem}p{color:#475569;line-height:1.6}</style></head>
<body><main><p>FDP · Certificate verification</p><h1>Too many requests</h1>
<p>This address has checked more than ${limit} certificates in the last minute. Please try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.</p>
</main></body></html>`;
}
