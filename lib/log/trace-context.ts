/**
 * The W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header),
 * which OpenTelemetry propagates: a caller that traces its requests sends it, and FDP's log lines of
 * that request carry its trace id, so that the caller's trace and FDP's logs join up. FDP starts no spans
 * of its own; the header's parent id is the caller's span.
 *
 * Parsed as the recommendation says a receiver must: lowercase hex only; version `ff` is invalid; a
 * trace id or parent id of all zeros is invalid; a version above `00` may carry more fields after a
 * `-`, read past. An invalid header is ignored (logged without a trace id), never an error.
 */
interface TraceParent {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** The caller's span: 16 lowercase hex digits. */
  parentId: string;
  /** Two hex digits; bit 0 is "sampled". */
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export function parseTraceparent(header: string | null | undefined): TraceParent | null {
  if (!header || header.length > 512) return null;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return null;
  const [, version, traceId, parentId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff") return null;
  // Version 00 has exactly four fields; a later version may add more after them.
  if (version === "00" && rest !== undefined) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return null;
  return { traceId, parentId, flags };
}
