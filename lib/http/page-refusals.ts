/**
 * Refusals of a server action that proxy.ts answers before Next.js would (with a 500): a post from
 * another origin (403) and a body larger than Next.js's server-action limit (413). Plain functions of
 * the request headers, so they are tested without a server (tests/unit/http/page-refusals.test.ts)
 * and through the built app (tests/integration/security-headers.test.ts).
 */

export interface PageRefusal {
  status: 403 | 413;
  title: string;
  message: string;
}

/** A header value as Next.js reads it: the first of a comma-separated list, trimmed. */
function first(value: string | null): string | undefined {
  const v = value?.split(",")[0]?.trim();
  return v ? v : undefined;
}

/**
 * Next.js's own CSRF rule for server actions (app-render/action-handler: the host of `Origin`, or
 * the string "null", against `X-Forwarded-Host`, else `Host`; a request without Origin passes, as
 * there), made before Next.js makes it. server.ts keeps `X-Forwarded-Host` only with TRUST_PROXY=1,
 * so a client cannot name the host it is compared with. FDP configures no `allowedOrigins`.
 */
export function crossOriginActionRefusal(headers: Headers): PageRefusal | null {
  const origin = headers.get("origin");
  if (origin === null) return null;
  let originHost: string;
  if (origin === "null") originHost = "null";
  else {
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = "(malformed)";
    }
  }
  const host = first(headers.get("x-forwarded-host")) ?? first(headers.get("host"));
  if (host !== undefined && originHost === host) return null;
  return {
    status: 403,
    title: "Request refused",
    message: "This form was sent from another website. FDP accepts a dashboard or verification form only from its own pages: open the page on FDP and send it again.",
  };
}

/** A server action whose announced length is over the limit (a chunked body meets Next.js's own limit instead). */
export function oversizedActionRefusal(headers: Headers, limitBytes: number): PageRefusal | null {
  const length = Number(headers.get("content-length"));
  if (!Number.isFinite(length) || length <= limitBytes) return null;
  return {
    status: 413,
    title: "Upload too large",
    message: `This upload is larger than FDP accepts from a page (${Math.floor(limitBytes / 1024)} KiB). A certificate PDF is checked up to 2 MiB.`,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The refusal as a small self-contained page (no script; styled like the server's other error pages). */
export function refusalPage(refusal: PageRefusal): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(refusal.title)} — FDP</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}main{max-width:40rem;margin:4rem auto;padding:0 1.5rem}
h1{font-size:1.75rem;margin:.5rem 0}p{color:#334155;line-height:1.6}.eyebrow{color:#1550b0;font-weight:600;text-transform:uppercase;font-size:.85rem;letter-spacing:.04em}a{color:#1550b0}</style></head>
<body><main><p class="eyebrow">FDP — Fleet Data Products</p><h1>${escapeHtml(refusal.title)}</h1>
<p>${escapeHtml(refusal.message)}</p>
<p><a href="/dashboard">Dashboard</a></p>
</main></body></html>`;
}
