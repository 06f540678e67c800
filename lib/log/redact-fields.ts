import { describeError } from "./describe-error";

/**
 * Field names whose values never reach a log line, at any depth, in objects and arrays alike:
 * credentials (`authorization`, `cookie`, `password`, `*secret*` such as `ingest_secret`, `*token*`,
 * `key`, `api_key`, `apiKey`, `x-api-key`, `key_hash`) and payloads (`body`, `raw_body`, `params`,
 * `parameters`, `payload`). Names are compared lower-cased without `_`/`-`, so `ingestSecret`,
 * `ingest_secret` and `Ingest-Secret` are one name. `key_id` (which key, not the key) stays.
 */
const SENSITIVE_NAME_RE = /authorization|cookie|passw(?:or)?d|secret|token|apikey|privatekey|keyhash|key$|body$|params$|parameters$|payload$/;

/** The same rule spelt out as exact names, for pino's path-based `redact` (child bindings). */
export const SENSITIVE_FIELD_NAMES = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "ingest_secret",
  "ingestSecret",
  "token",
  "access_token",
  "refresh_token",
  "key",
  "api_key",
  "apiKey",
  "x-api-key",
  "key_hash",
  "keyHash",
  "body",
  "raw_body",
  "rawBody",
  "params",
  "parameters",
  "payload",
] as const;

export const REDACTED = "[Redacted]";
const MAX_DEPTH = 8;
/** A log line is not a dump: longer arrays and strings are cut (a 10 MiB body under an innocent name stays out). */
const MAX_ARRAY_ITEMS = 50;
const MAX_STRING_CHARS = 1000;

export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME_RE.test(name.toLowerCase().replace(/[-_\s]/g, ""));
}

export const isError = (v: object): boolean => v instanceof Error || Object.prototype.toString.call(v) === "[object Error]";

/**
 * A copy of a log object that is safe to serialise: values under sensitive names are replaced by
 * `[Redacted]`, errors anywhere become `describeError(...)`, binary data becomes its size, strings
 * past 1,000 characters and arrays past 50 items are cut, and cycles and depth are bounded. The
 * caller's object is never modified.
 */
export function redactFields(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === "string") return value.length > MAX_STRING_CHARS ? `${value.slice(0, MAX_STRING_CHARS)}…[${value.length} chars]` : value;
  if (typeof value !== "object" || value === null) return value;
  if (isError(value)) return describeError(value);
  if (value instanceof Date) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return "[Depth]";
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ARRAY_ITEMS).map((v) => redactFields(v, depth + 1, seen));
      return value.length > MAX_ARRAY_ITEMS ? [...items, `[${value.length - MAX_ARRAY_ITEMS} more]`] : items;
    }
    if (value instanceof Map) return redactFields(Object.fromEntries(value), depth, seen);
    if (value instanceof Set) return redactFields([...value], depth, seen);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSensitiveName(k) ? REDACTED : redactFields(v, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}
