import { env } from "@/lib/env";

/**
 * Header that server.ts sets on every request from the socket (overwriting anything a client sent),
 * because Next.js keeps a client-supplied X-Forwarded-For and so hides the peer address.
 */
export const CLIENT_IP_HEADER = "x-fdp-client-ip";

/**
 * The `hops`-th X-Forwarded-For entry counted from the right (1 = right-most), trimmed; undefined when
 * the header has fewer entries than that. Each proxy appends the address it received the request from,
 * so the entries a trusted proxy chain wrote are the right-most ones; everything to their left is
 * whatever the client sent and must never be believed (issue 28: prepending a value escaped the limits).
 * Several X-Forwarded-For headers arrive joined with ", " (Node and Fetch alike), which keeps that order.
 */
export function forwardedHopFromRight(xff: string | null | undefined, hops: number): string | undefined {
  if (!xff) return undefined;
  const entries = xff
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return entries.length >= hops ? entries[entries.length - hops] : undefined;
}

/**
 * CONTRACT "Reliability and hardening": the client IP is the socket's peer address, or with
 * TRUST_PROXY=1 the right-most X-Forwarded-For entry (TRUST_PROXY_HOPS=n: the n-th from the right).
 */
export function clientIp(req: Request): string {
  return clientIpFrom(req.headers.get("x-forwarded-for"), req.headers.get(CLIENT_IP_HEADER));
}

/**
 * The same rule from the two header values (server.ts has Node's headers, not a Web Request). With
 * fewer entries than TRUST_PROXY_HOPS the request did not come through the whole configured proxy
 * chain, so no entry is trustworthy and the peer address is used (not the left-most, client-written one).
 */
export function clientIpFrom(xForwardedFor: string | null | undefined, peer: string | null | undefined): string {
  const e = env();
  if (e.TRUST_PROXY) {
    const hop = forwardedHopFromRight(xForwardedFor, e.TRUST_PROXY_HOPS);
    if (hop) return hop;
  }
  return peer ?? "unknown";
}
