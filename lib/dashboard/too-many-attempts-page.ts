/**
 * The 429 page of the sign-in limit (CONTRACT "Rate limits": a page over its limit answers a 429
 * page). Next.js pages cannot choose their status, so server.ts answers SIGN_IN_LIMITED_PATH itself
 * with this page; the sign-in action redirects there when the client IP is over the limit.
 */
export function tooManySignInAttemptsAnswer(search: string, limit: number): { status: 429; headers: Record<string, string>; html: string } {
  const asked = Number(new URLSearchParams(search).get("retry"));
  // The window is a minute: a retry hint outside 1–60 s is not one the action wrote.
  const retryAfter = Number.isInteger(asked) && asked >= 1 && asked <= 60 ? asked : 60;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too many sign-in attempts — FDP</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}main{max-width:32rem;margin:4rem auto;padding:0 1.5rem}
h1{font-size:1.75rem;margin:.5rem 0}p{color:#334155;line-height:1.6}.eyebrow{color:#1550b0;font-weight:600;text-transform:uppercase;font-size:.85rem;letter-spacing:.04em}
a{color:#1550b0}</style></head>
<body><main><p class="eyebrow">FDP — Fleet Data Products</p><h1>Too many sign-in attempts</h1>
<p>This address has tried to sign in more than ${limit} times in the last minute. For the security of every account, sign-in is paused for it. Please try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.</p>
<p><a href="/login">Back to sign-in</a></p>
</main></body></html>`;
  return { status: 429, headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" }, html };
}
