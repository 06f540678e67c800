import { DomainError, ServiceUnavailableError, type ErrorCode, type ErrorDetail } from "@/lib/errors";
import { serviceUnavailableFor } from "@/lib/db/sql-values";
import { rootLogger, type Logger } from "@/lib/log/logger";

/** The one table from error code to HTTP status (CONTRACT "Errors"). */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_signature: 401,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  upstream_unavailable: 503,
  service_unavailable: 503,
  request_timeout: 408,
};

interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  request_id?: string;
  _sandbox?: true;
}

/**
 * The CONTRACT error body for any thrown value, with the headers it needs (`Retry-After` on a 503
 * `service_unavailable`). A driver failure that means "the database cannot answer now" (unreachable,
 * connection lost, statement timeout: lib/db/sql-values.ts `serviceUnavailableFor`) is that 503, logged
 * as a warning. Other unknown errors become a generic 500, logged without data (class, SQLSTATE, a
 * truncated statement without parameters: lib/log/describe-error.ts) and never leaked to the client.
 */
export function errorBodyFor(
  err: unknown,
  requestId: string,
  log: Logger = rootLogger().child({ request_id: requestId }),
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  let domain = err instanceof DomainError ? err : null;
  if (!domain) {
    domain = serviceUnavailableFor(err);
    if (domain) log.warn({ err }, "database unavailable: answered 503");
  }
  if (domain) {
    const body: ErrorBody = { error: domain.code, message: domain.message, request_id: requestId };
    if (domain.details) body.details = domain.details;
    const headers: Record<string, string> = domain instanceof ServiceUnavailableError ? { "Retry-After": String(domain.retryAfterSeconds) } : {};
    return { status: STATUS_BY_CODE[domain.code], body, headers };
  }
  log.error({ err }, "unhandled error");
  return {
    status: 500,
    body: { error: "internal_error", message: "The server failed to answer this request. Quote the request id when reporting it.", request_id: requestId },
    headers: {},
  };
}
