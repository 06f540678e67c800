import { seconds, serverPageHtml } from "@/lib/http/server-page";

/**
 * The 429 page of the sign-in limit (CONTRACT "Rate limits": a page over its limit answers a 429
 * page). Next.js pages cannot choose their status, so server.ts answers SIGN_IN_LIMITED_PATH itself
 * with this page; the sign-in action redirects there when the client IP is over the limit.
 */
export function tooManySignInAttemptsAnswer(search: string, limit: number): { status: 429; headers: Record<string, string>; html: string } {
  const asked = Number(new URLSearchParams(search).get("retry"));
  // The window is a minute: a retry hint outside 1–60 s is not one the action wrote.
  const retryAfter = Number.isInteger(asked) && asked >= 1 && asked <= 60 ? asked : 60;
  const html = serverPageHtml({
    title: "Too many sign-in attempts",
    eyebrow: "FDP — Fleet Data Products",
    paragraphs: [
      `This address has tried to sign in more than ${limit} times in the last minute. For the security of every account, sign-in is paused for it. Please try again in ${seconds(retryAfter)}.`,
    ],
    link: { href: "/login", label: "Back to sign-in" },
  });
  return { status: 429, headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" }, html };
}
