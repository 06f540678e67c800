/**
 * A source could not give a usable series: unreachable, timed out, non-2xx, malformed, or empty.
 * Internal to lib/energy: the verb turns it into a stale answer, the recorded series, or a
 * domain UpstreamUnavailableError (503).
 */
export class UpstreamFetchError extends Error {
  constructor(
    message: string,
    readonly reason: "unreachable" | "timeout" | "status" | "malformed" | "empty",
  ) {
    super(message);
    this.name = "UpstreamFetchError";
  }
}
