import { env } from "@/lib/env";
import { arrivedOverHttps } from "@/lib/http/security-headers";

/**
 * Where next-auth's links and redirects point, and when its cookies are Secure (CONTRACT "Reliability
 * and hardening"). Kept apart from lib/dashboard/auth.ts so the rules are tested on their own
 * (tests/unit/dashboard/auth-urls.test.ts).
 */

/**
 * next-auth builds its URLs (the sign-in action's redirect, callback links) from `AUTH_URL` when set,
 * else from the request's `X-Forwarded-Host`/`Host`: behind a proxy that does not forward the public
 * host, that was the bind address (`http://0.0.0.0:3200/dashboard`). An explicitly configured
 * PUBLIC_BASE_URL is the address users reach, so it becomes `AUTH_URL` (next-auth reads it from
 * process.env on every call). Left unset, the local default (`http://localhost:<PORT>`) is not used:
 * a browser on `127.0.0.1:<PORT>` would be sent to another origin, where its session cookie is not.
 * An AUTH_URL set by the operator wins.
 */
export function publicAuthUrl(environment: { AUTH_URL?: string; PUBLIC_BASE_URL?: string } = process.env as { AUTH_URL?: string; PUBLIC_BASE_URL?: string }): string | undefined {
  if (environment.AUTH_URL) return environment.AUTH_URL;
  const configured = environment.PUBLIC_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, "") : undefined;
}

export function applyPublicAuthUrl(): void {
  const url = publicAuthUrl();
  if (url) process.env.AUTH_URL = url;
}

/**
 * next-auth's `redirect` callback: where a browser goes after signing in or out. Only a place on this
 * origin, whatever `callbackUrl` or `redirectTo` says (`https://evil.example`, `//evil.example`,
 * `/\evil.example`, `javascript:`): those all resolve to another origin or scheme and are replaced by
 * the dashboard.
 */
export function sameOriginRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const base = new URL(baseUrl);
  try {
    const target = new URL(url, base);
    if (target.origin === base.origin) return target.href;
  } catch {
    /* not a URL at all: the dashboard below */
  }
  return new URL("/dashboard", base).href;
}

/**
 * Session (and CSRF, callback) cookies are Secure when the request arrived over https: with
 * TRUST_PROXY=1 per the proxy's `X-Forwarded-Proto` (server.ts drops a client's own otherwise, and
 * FDP itself serves plain http).
 */
export function sessionCookiesSecure(forwardedProto: string | null | undefined): boolean {
  return arrivedOverHttps({ encrypted: false, forwardedProto: forwardedProto ?? undefined, trustProxy: env().TRUST_PROXY });
}
