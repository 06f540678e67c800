import pino, { type DestinationStream, type Logger as PinoLogger, type LoggerOptions as PinoOptions } from "pino";
import { env, type LogLevel } from "@/lib/env";
import { describeError, isErrorDescription } from "./describe-error";

import { isError, REDACTED, redactFields, SENSITIVE_FIELD_NAMES } from "./redact-fields";
import { parseTraceparent } from "./trace-context";

export type { LogLevel };
export type Logger = PinoLogger;

/**
 * FDP's logs: one JSON object per line on stderr (pino, written synchronously: no worker thread,
 * nothing lost at exit). Safe by construction, whatever a caller passes:
 * - errors, at any depth and under any key, are logged as `describeError(...)`: no SQL parameters,
 *   no `detail`/`where`, quoted values redacted (lib/log/describe-error.ts);
 * - values under credential or payload names (`authorization`, `*key`, `*token*`, `*password*`,
 *   `*secret*`, `*body`, `*params`, …) are `[Redacted]`, at any depth (lib/log/redact-fields.ts),
 *   and by pino `redact` paths in child bindings too;
 * - `msg` is never taken from an error's message (pino's default), and printf-style arguments
 *   are redacted like fields. Keep messages constant and put facts in fields.
 */

interface LoggerOptions {
  /** Default: env LOG_LEVEL (`info`). */
  level?: LogLevel;
  /** Default: stderr (fd 2), synchronous. Tests pass an in-memory stream (any object with `write(line)`). */
  destination?: DestinationStream;
}

interface RequestLogContext {
  /** The request's X-Request-Id. */
  requestId: string;
  /** What is being done, stable across requests: e.g. `POST /api/v1/oem/ingest` or `ingestTelemetry`. */
  operation: string;
  /** The request's `traceparent` header (W3C Trace Context), if any: a valid one adds `trace_id` and `parent_span_id`. */
  traceparent?: string | null;
}

/** Paths for pino's `redact`: each name at the top level and two levels down (it also covers child bindings). */
const REDACT_PATHS = SENSITIVE_FIELD_NAMES.flatMap((n) => [`["${n}"]`, `*["${n}"]`, `*.*["${n}"]`]);

/** `err` (pino's error key) and `error`: always a description, whatever was put there. */
const safeError = (v: unknown) => (isErrorDescription(v) ? v : describeError(v));

function options(level: LogLevel): PinoOptions {
  return {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (obj) => redactFields(obj) as Record<string, unknown>,
    },
    serializers: { err: safeError, error: safeError },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: {
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        let merge: unknown = first;
        if (typeof first === "object" && first !== null && isError(first)) merge = { err: first };
        if (typeof merge === "object" && merge !== null) {
          // pino would use the error's own message as `msg` when none is given: use the safe one.
          const err = (merge as { err?: unknown }).err;
          if (typeof rest[0] !== "string" && err !== undefined) rest.unshift(describeError(err).message || "error");
          const [msg, ...values] = rest;
          const tail = msg === undefined ? [] : [msg, ...values.map((v) => redactFields(v))];
          return method.apply(this, [merge, ...tail] as Parameters<typeof method>);
        }
        return method.apply(this, [first, ...rest.map((v) => redactFields(v))] as Parameters<typeof method>);
      },
    },
  };
}

/** A logger with FDP's safety rules writing to `destination` (default stderr); for tests and scripts. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? env().LOG_LEVEL;
  return pino(options(level), opts.destination ?? pino.destination({ fd: 2, sync: true }));
}

type Global = typeof globalThis & { __fdpLogger?: Logger };
const g = globalThis as Global;

/** The process-wide logger (stderr, level LOG_LEVEL), created on first use (nothing at import or `next build`). */
export function rootLogger(): Logger {
  g.__fdpLogger ??= createLogger();
  return g.__fdpLogger;
}

/** Replaces the process-wide logger (tests capture lines with `createLogger({ destination })`); `undefined` resets it. */
export function setRootLogger(logger: Logger | undefined): void {
  g.__fdpLogger = logger;
}

/**
 * A child logger whose every line carries `request_id` and `operation`, and, when the caller sent a
 * valid `traceparent` (OpenTelemetry's propagation), its `trace_id` and `parent_span_id`
 * (lib/log/trace-context.ts).
 */
export function requestLogger({ requestId, operation, traceparent }: RequestLogContext, parent: Logger = rootLogger()): Logger {
  const trace = parseTraceparent(traceparent);
  return parent.child({ request_id: requestId, operation, ...(trace ? { trace_id: trace.traceId, parent_span_id: trace.parentId } : {}) });
}
