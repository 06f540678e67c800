/**
 * Domain errors: they say what went wrong in the domain's words and know nothing of HTTP or MCP.
 * Each edge (lib/http/error-response.ts, the MCP tools) maps them to the CONTRACT's codes in one table.
 */
export interface ErrorDetail {
  /** Dotted path of the offending field, e.g. `limit` or `vehicles.3.vin`. */
  field: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  constructor(message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = new.target.name;
    if (details && details.length > 0) this.details = details;
  }
}

/** The CONTRACT's error codes; lib/http/error-response.ts maps each to its HTTP status. */
export const ERROR_CODES = [
  "invalid_request",
  "unauthorized",
  "invalid_signature",
  "forbidden",
  "not_found",
  "payload_too_large",
  "unsupported_media_type",
  "unprocessable",
  "rate_limited",
  "internal_error",
  "upstream_unavailable",
  "service_unavailable",
  "request_timeout",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ValidationError extends DomainError {
  readonly code = "invalid_request" as const;
}
export class UnauthorizedError extends DomainError {
  readonly code = "unauthorized" as const;
}
export class InvalidSignatureError extends DomainError {
  readonly code = "invalid_signature" as const;
}
export class ForbiddenError extends DomainError {
  readonly code = "forbidden" as const;
}
export class NotFoundError extends DomainError {
  readonly code = "not_found" as const;
}
export class PayloadTooLargeError extends DomainError {
  readonly code = "payload_too_large" as const;
}
export class UnsupportedMediaTypeError extends DomainError {
  readonly code = "unsupported_media_type" as const;
}
export class UnprocessableError extends DomainError {
  readonly code = "unprocessable" as const;
}
export class RateLimitedError extends DomainError {
  readonly code = "rate_limited" as const;
}
export class UpstreamUnavailableError extends DomainError {
  readonly code = "upstream_unavailable" as const;
}

/**
 * FDP itself cannot answer right now (CONTRACT "Reliability"): its database is unreachable, the
 * connection was lost during the request, or a statement ran past STATEMENT_TIMEOUT_MS. Nothing was
 * half-written (every write is one transaction); the same request may be sent again after
 * `retryAfterSeconds`. lib/db/sql-values.ts turns the drivers' failures into this error.
 */
export class ServiceUnavailableError extends DomainError {
  readonly code = "service_unavailable" as const;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
