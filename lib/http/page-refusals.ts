/**
 * Refusals of a server action that proxy.ts answers before Next.js would (with a 500): a post from
 * another origin (403) and a body larger than Next.js's server-action limit (413). Plain functions of
 * the request headers, so they are tested without a server (tests/unit/http/page-refusals.test.ts)
 * and through the built app (tests/integration/security-headers.test.ts).
 */
import { serverPageHtml } from "@/lib/http/server-page";

interface PageRefusal {
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

/** The refusal as a small self-contained page (lib/http/server-page.ts). */
export function refusalPage(refusal: PageRefusal): string {
  return serverPageHtml({ title: refusal.title, eyebrow: "FDP — Fleet Data Products", paragraphs: [refusal.message], link: { href: "/dashboard", label: "Dashboard" } });
}
