import { env } from "@/lib/env";
import { seconds, serverPageHtml } from "@/lib/http/server-page";
import { consumeLimit, rateLimitHeaders } from "@/lib/rate-limit/consume-limit";

/**
 * Public web pages limited per client IP (CONTRACT "Rate limits"): the certificate verify page, in the
 * same `public` budget as its JSON twin. Next.js pages cannot answer 429, so server.ts asks here
 * before handing the request to Next.js: over the limit, it answers this module's 429 page itself.
 */
export function isLimitedPublicPage(pathname: string): boolean {
  return pathname.startsWith("/verify/");
}

interface PageLimitDecision {
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
  return serverPageHtml({
    title: "Too many requests",
    eyebrow: "FDP · Certificate verification",
    paragraphs: [`This address has checked more than ${limit} certificates in the last minute. Please try again in ${seconds(retryAfter)}.`],
  });
}
