/**
 * A source could not give a usable series: unreachable, timed out, non-2xx, malformed, or empty (or, `backoff`, not asked because it failed moments ago).
 * Internal to lib/energy: the verb turns it into a stale answer, the recorded series, or a
 * domain UpstreamUnavailableError (503).
 */
export class UpstreamFetchError extends Error {
  constructor(
    message: string,
    readonly reason: "unreachable" | "timeout" | "status" | "malformed" | "empty" | "backoff",
  ) {
    super(message);
    this.name = "UpstreamFetchError";
  }
}
