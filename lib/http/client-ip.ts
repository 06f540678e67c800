import { env } from "@/lib/env";

/**
 * Header that server.ts sets on every request from the socket (overwriting anything a client sent),
 * because Next.js keeps a client-supplied X-Forwarded-For and so hides the peer address.
 */
export const CLIENT_IP_HEADER = "x-fdp-client-ip";

/** First hop of X-Forwarded-For, trimmed; undefined when absent or empty. */
export function firstForwardedHop(xff: string | null | undefined): string | undefined {
  const first = xff?.split(",")[0]?.trim();
  return first ? first : undefined;
}

/**
 * CONTRACT: the client IP is the socket's peer address, or the first X-Forwarded-For hop when the
 * app runs with TRUST_PROXY=1.
 */
export function clientIp(req: Request): string {
  return clientIpFrom(req.headers.get("x-forwarded-for"), req.headers.get(CLIENT_IP_HEADER));
}

/** The same rule from the two header values (server.ts has Node's headers, not a Web Request). */
export function clientIpFrom(xForwardedFor: string | null | undefined, peer: string | null | undefined): string {
  if (env().TRUST_PROXY) {
    const hop = firstForwardedHop(xForwardedFor);
    if (hop) return hop;
  }
  return peer ?? "unknown";
}
