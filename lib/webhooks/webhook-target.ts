import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";
import { ValidationError } from "@/lib/errors";

/**
 * Where a webhook may send (CONTRACT "Webhooks and the changes feed", docs/webhooks.md "Targets"): FDP
 * posts to an address a customer typed, from inside its own network, so an endpoint must not reach
 * what only FDP can reach (its database, a cloud's metadata service, a router). Checked at
 * registration (400, nothing connected to) and again when delivering, on the address the connection
 * actually uses (a name that resolved to a public address at registration may resolve elsewhere later:
 * DNS rebinding). Redirects are never followed (lib/webhooks/send-webhook.ts).
 */

/** Why an address is refused; `public` is the only kind FDP sends to (and `loopback` with WEBHOOK_ALLOW_LOOPBACK=1). */
type AddressKind = "public" | "loopback" | "private" | "link_local" | "multicast" | "unspecified" | "reserved";

/** IANA special-purpose ranges (RFC 6890 and the IPv4/IPv6 Special-Purpose Address Registries), by kind. */
const RANGES: Record<Exclude<AddressKind, "public">, { v4: [string, number][]; v6: [string, number][] }> = {
  loopback: { v4: [["127.0.0.0", 8]], v6: [["::1", 128]] },
  // RFC 1918, and IPv6 unique local addresses (RFC 4193).
  private: {
    v4: [
      ["10.0.0.0", 8],
      ["172.16.0.0", 12],
      ["192.168.0.0", 16],
    ],
    v6: [["fc00::", 7]],
  },
  // 169.254.169.254 (the cloud metadata services) is in here.
  link_local: { v4: [["169.254.0.0", 16]], v6: [["fe80::", 10]] },
  multicast: { v4: [["224.0.0.0", 4]], v6: [["ff00::", 8]] },
  unspecified: { v4: [["0.0.0.0", 8]], v6: [["::", 128]] },
  reserved: {
    v4: [
      ["100.64.0.0", 10], // shared address space (carrier-grade NAT, RFC 6598)
      ["192.0.0.0", 24], // IETF protocol assignments
      ["192.0.2.0", 24], // documentation (TEST-NET-1)
      ["198.18.0.0", 15], // benchmarking
      ["198.51.100.0", 24], // documentation (TEST-NET-2)
      ["203.0.113.0", 24], // documentation (TEST-NET-3)
      ["240.0.0.0", 4], // reserved, and the limited broadcast 255.255.255.255
    ],
    v6: [
      ["64:ff9b::", 96], // NAT64: reaches an IPv4 address FDP could not check
      ["64:ff9b:1::", 48],
      ["100::", 64], // discard-only
      ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID, …)
      ["2001:db8::", 32], // documentation
      ["2002::", 16], // 6to4: reaches an IPv4 address FDP could not check
      ["3fff::", 20], // documentation
    ],
  },
};

const LISTS = Object.entries(RANGES).map(([kind, { v4, v6 }]) => {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, "ipv6");
  return { kind: kind as Exclude<AddressKind, "public">, list };
});

/** The kind of an IP address (an IPv4-mapped IPv6 address counts as its IPv4 address: BlockList checks it so). */
export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  const type = family === 4 ? "ipv4" : "ipv6";
  return LISTS.find(({ list }) => list.check(address, type))?.kind ?? "public";
}

const KIND_WORDS: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address",
  private: "a private address",
  link_local: "a link-local address (cloud metadata services live there)",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
};

/** Why FDP will not send to `address` ("a private address"), or null when it will. */
export function refusalOf(address: string, allowLoopback = env().WEBHOOK_ALLOW_LOOPBACK): string | null {
  const kind = addressKind(address);
  if (kind === "public" || (kind === "loopback" && allowLoopback)) return null;
  return `${KIND_WORDS[kind]}${kind === "loopback" ? " (allowed only with WEBHOOK_ALLOW_LOOPBACK=1)" : ""}`;
}

/** `localhost` and its subdomains (RFC 6761), with or without the root's trailing dot: loopback by definition, never looked up. */
export const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/** Whether FDP sends webhooks over plain http at all here: outside production; in production only to loopback. */
export const httpAllowedOnlyToLoopback = () => process.env.NODE_ENV === "production";

/** A URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Longest a registration waits for DNS. */
const LOOKUP_TIMEOUT_MS = 5_000;

/** The addresses a host stands for: itself when it is an IP address, else what DNS answers. */
async function addressesOf(host: string): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  if (isLocalhostName(host)) return ["127.0.0.1", "::1"];
  // Bounded: a resolver that does not answer must not hold the request (or a delivery slot).
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${host} was not resolved within ${LOOKUP_TIMEOUT_MS} ms`)), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a URL a customer registers and returns it normalised, or throws a ValidationError (400) that
 * says why. Resolves the name once (every address must be allowed); connects to nothing.
 */
export async function checkWebhookTarget(raw: string): Promise<string> {
  const refuse = (message: string): never => {
    throw new ValidationError(message, [{ field: "url", message }]);
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("url is not an absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") refuse(`url must use https (or http outside production), not ${url.protocol.replace(/:$/, "")}.`);
  if (url.username || url.password) refuse("url must not carry a user name or password: the payload's signature authenticates FDP.");
  if (url.hash) refuse("url must not carry a #fragment.");
  const host = bareHost(url);
  const allowLoopback = env().WEBHOOK_ALLOW_LOOPBACK;
  let addresses: string[];
  try {
    addresses = await addressesOf(host);
  } catch {
    return refuse(`url's host ${host} could not be resolved.`);
  }
  if (addresses.length === 0) refuse(`url's host ${host} could not be resolved.`);
  for (const address of addresses) {
    const why = refusalOf(address, allowLoopback);
    // A name's addresses are not echoed: the answer would map FDP's own network for whoever asks.
    if (why) refuse(`${host === address ? `url's host ${address} is` : `url's host ${host} resolves to`} ${why}: FDP does not send webhooks there.`);
  }
  if (url.protocol === "http:" && httpAllowedOnlyToLoopback() && !addresses.every((a) => addressKind(a) === "loopback")) {
    refuse("url must use https in production (http is allowed only to loopback, with WEBHOOK_ALLOW_LOOPBACK=1).");
  }
  return url.toString();
}
