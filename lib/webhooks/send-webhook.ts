import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { addressKind, httpAllowedOnlyToLoopback, isLocalhostName, refusalOf } from "./webhook-target";

/** What one attempt gave: the receiver's status, or why there was none. */
export type SendResult = { ok: boolean; status: number | null; error: string | null };

/** Longest error text kept on a delivery (it is shown in the dashboard and the API). */
const ERROR_MAX_CHARS = 300;

/**
 * The resolver every delivery connects through: the name is resolved here and each address checked
 * again with the registration's rules (lib/webhooks/webhook-target.ts), so a name that now points at a
 * private address (DNS rebinding) is refused before any connection. `localhost` names are loopback
 * without a lookup, as at registration. With `loopbackOnly` (plain http in production) only loopback
 * passes. The refusal names the kind of address, never the address.
 */
function checkedLookup(loopbackOnly: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const judge = (addresses: LookupAddress[]) => {
      const refused = addresses
        .map((a) => ({
          a,
          why: refusalOf(a.address) ?? (loopbackOnly && addressKind(a.address) !== "loopback" ? "not loopback, and plain http goes only there in production" : null),
        }))
        .find((x) => x.why !== null);
      if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.why}`), { code: "EUNSAFEADDRESS" }), "", 4);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 4);
      if (options.all) return (callback as unknown as (e: null, list: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    };
    if (isLocalhostName(hostname)) {
      const loopback: LookupAddress[] = [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ];
      return judge(options.family === 6 ? loopback.slice(1) : options.family === 4 ? loopback.slice(0, 1) : loopback);
    }
    dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (err, addresses: LookupAddress[]) => (err ? callback(err, "", 4) : judge(addresses)));
  };
}

/**
 * POSTs one delivery: https or http, no redirect followed (a 3xx is a failure like any non-2xx), a new
 * connection each time, the whole exchange bounded by `timeoutMs`. An address-literal URL is checked
 * before connecting; a name is checked by the resolver above. Never throws.
 */
export async function sendWebhook(target: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, status: null, error: "the endpoint's URL no longer parses" };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const loopbackOnly = url.protocol === "http:" && httpAllowedOnlyToLoopback();
  if (isIP(host) !== 0) {
    const why = refusalOf(host) ?? (loopbackOnly && addressKind(host) !== "loopback" ? "not loopback, and plain http goes only there in production" : null);
    if (why) return { ok: false, status: null, error: `refused: ${host} is ${why}` };
  }
  const request = url.protocol === "https:" ? httpsRequest : url.protocol === "http:" ? httpRequest : null;
  if (!request) return { ok: false, status: null, error: `refused: ${url.protocol} is not http(s)` };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, error: r.error === null ? null : r.error.slice(0, ERROR_MAX_CHARS) });
    };
    const req = request(
      url,
      {
        method: "POST",
        agent: false,
        lookup: checkedLookup(loopbackOnly),
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": "FDP-Webhooks/1" },
      },
      (res) => {
        const status = res.statusCode ?? null;
        // The answer's body is not read: only its status counts. The connection goes with it.
        res.destroy();
        const ok = status !== null && status >= 200 && status < 300;
        settle({ ok, status, error: ok ? null : `answered ${status}` });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      const message = err.code === "EUNSAFEADDRESS" ? `refused: ${err.message}` : err.code ? `${err.code}: ${err.message}` : err.message;
      settle({ ok: false, status: null, error: message });
    });
    req.end(body);
  });
}
