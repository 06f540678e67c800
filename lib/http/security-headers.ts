import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "@/lib/env";

/**
 * The response headers of CONTRACT "Reliability and hardening": what a browser must be told about
 * every answer FDP gives, in one place. server.ts calls `applySecurityHeaders` first thing for every
 * request, so the answers it writes itself (edge guard, direct API routes, the 429 pages, Next.js's
 * own 404/500) carry them too; proxy.ts replaces the Content-Security-Policy of pages with one that
 * carries the page's nonce (Next.js's documented nonce pattern).
 *
 * - `X-Content-Type-Options: nosniff`: a JSON or CSV answer that happens to contain markup (a device
 *   name such as `<script>`) is never rendered as HTML or run as a script by a browser that sniffs.
 * - `Referrer-Policy: strict-origin-when-cross-origin`: a link out of the dashboard or the verify page
 *   never carries the path (a device id, a certificate number) to another site.
 * - `Strict-Transport-Security` only when the request arrived over https: over plain http the header
 *   is ignored by browsers (RFC 6797 8.1), and on a loopback deployment without TLS it would pin a
 *   name to https that does not serve it.
 */

const NOSNIFF = "nosniff";
const REFERRER_POLICY = "strict-origin-when-cross-origin";
/** Two years (hstspreload.org's recommendation; its minimum is one); no `includeSubDomains`: FDP does not own its parent domain's hosts. */
const HSTS = "max-age=63072000";

/**
 * The policy of every answer that is not an app page (API JSON, CSV, PDF, the server-written error
 * and 429 answers): such an answer loads nothing, runs nothing and is framed by nobody. `style-src
 * 'unsafe-inline'` is only so the small server-written HTML pages (the 429 pages, with their own
 * <style> element and no script) keep their look; none of them runs a script.
 */
export const NON_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";

/**
 * The policy of the app's pages. Scripts run only with this request's nonce (Next.js puts it on every
 * script it renders when it finds it in the request's Content-Security-Policy header) or when loaded
 * by such a script ('strict-dynamic': the chunks Next.js and the dashboard's map load on demand);
 * no inline handler, no injected <script> runs. 'unsafe-eval' only in development, where React's
 * debugging tools need it (Next.js's documentation says the same).
 *
 * Styles allow 'unsafe-inline', deliberately: React renders `style` props into `style="…"`
 * attributes on the server (the score bars' widths, the map's height and legend swatches), and
 * Leaflet and Scalar insert <style> elements and style attributes at run time; a nonce cannot cover
 * attributes. What an injected style could do is limited (no script runs from CSS), and every value
 * FDP renders is escaped by React.
 *
 * `img-src data: blob:`: Leaflet's and Scalar's icons are data URIs. `connect-src 'self'`: the pages
 * fetch only from their own origin (the dashboard's data, the OpenAPI document).
 */
export function pageCsp({ nonce, dev }: { nonce: string; dev: boolean }): string {
  return appDocumentCsp({
    scriptSrc: `'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Development: Next.js's hot reload talks over a WebSocket to the same host.
    connectSrc: `'self'${dev ? " ws: wss:" : ""}`,
  });
}

/** The directives pages and the API reference share; they differ only in what may run and connect. */
function appDocumentCsp({ scriptSrc, connectSrc }: { scriptSrc: string; connectSrc: string }): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connectSrc}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The policy of the API reference page (/docs): a whole HTML document served by a route handler
 * (lib/docs/api-reference-page.ts) whose scripts are files of this origin (the Scalar bundle and the
 * start-up script), so `script-src 'self'` suffices and no nonce is needed. Styles as for pages
 * (Scalar, built on Vue, sets style attributes and inserts <style> elements).
 */
export const DOCS_CSP = appDocumentCsp({ scriptSrc: "'self'", connectSrc: "'self'" });

/**
 * The files the dashboard serves from its own routes (a certificate PDF, the CSRD PDF, the emissions
 * CSV): not pages, and the certificate PDF is shown in an iframe on /dashboard/certificates, so they
 * may be framed by this origin and nobody else. Nothing more: a browser's PDF viewer builds its own
 * document around the file, and a `default-src`/`object-src` on the file's answer can keep it from
 * showing the PDF at all.
 */
export const DASHBOARD_FILE_CSP = "frame-ancestors 'self'";
export const DASHBOARD_FILE_ROUTE = /^\/dashboard\/(certificates\/[^/]+\/pdf|reports\/csrd-pdf|reports\/emissions-csv)$/;

/** Headers that only a trusted proxy may set; a client's own would be believed by Next.js and next-auth. */
const PROXY_ONLY_HEADERS = ["x-forwarded-proto", "x-forwarded-host"] as const;

type HeaderValue = string | string[] | undefined;

/**
 * The protocol the client used: the socket's (TLS or not), or with TRUST_PROXY=1 the proxy's
 * `X-Forwarded-Proto`. A chain of proxies appends, so the right-most value is the one the nearest
 * (trusted) proxy saw; with one proxy it is the only value.
 */
export function arrivedOverHttps({ encrypted, forwardedProto, trustProxy }: { encrypted: boolean; forwardedProto: HeaderValue; trustProxy: boolean }): boolean {
  if (encrypted) return true;
  if (!trustProxy || forwardedProto === undefined) return false;
  const values = (Array.isArray(forwardedProto) ? forwardedProto.join(",") : forwardedProto).split(",");
  return values[values.length - 1]?.trim().toLowerCase() === "https";
}

/** The headers every answer carries (see the file's comment); HSTS only over https. */
export function securityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": NON_PAGE_CSP,
    "X-Content-Type-Options": NOSNIFF,
    "Referrer-Policy": REFERRER_POLICY,
    ...(https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/**
 * server.ts, for every request before anything answers it: sets the headers of every answer on the
 * response (anything later may replace them: proxy.ts sets the page policy), and, unless
 * TRUST_PROXY=1, drops a client's own `X-Forwarded-Proto`/`X-Forwarded-Host`, so that neither Next.js
 * nor next-auth takes a client's word for the protocol (Secure cookies, HSTS) or the host (links).
 */
export function applySecurityHeaders(req: IncomingMessage, res: Pick<ServerResponse, "setHeader">): void {
  const trustProxy = env().TRUST_PROXY;
  if (!trustProxy) for (const name of PROXY_ONLY_HEADERS) delete req.headers[name];
  const https = arrivedOverHttps({
    encrypted: Boolean((req.socket as { encrypted?: boolean } | undefined)?.encrypted),
    forwardedProto: req.headers["x-forwarded-proto"],
    trustProxy,
  });
  for (const [name, value] of Object.entries(securityHeaders({ https }))) res.setHeader(name, value);
}

/** The same headers as raw HTTP header lines, for answers written on the socket (edge-guard.ts's rawAnswer). */
export function rawSecurityHeaderLines(): string[] {
  // A request Node could not parse has no protocol FDP can believe: no HSTS on these.
  return Object.entries(securityHeaders({ https: false })).map(([k, v]) => `${k}: ${v}`);
}
