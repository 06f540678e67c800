import type { SQL } from "drizzle-orm";
import { ServiceUnavailableError } from "@/lib/errors";
import type { Db } from "./db-type";

/**
 * The one place where the two drivers' raw results are made alike. Drizzle's query builder does this
 * for typed columns; raw SQL (aggregates, laterals, CTEs) comes back as each driver sees fit:
 * - postgres.js answers an array of rows, PGlite `{ rows }`;
 * - numeric and bigint values (`count(*)`, `sum(...)`) are strings on one and numbers on the other;
 * - timestamps are Date objects or strings, booleans `true` or `"t"`, arrays JS arrays or `{a,b}` literals.
 * Query modules read every raw column through these functions and never see the difference.
 *
 * The same goes for the drivers' failures (`databaseFailureKind`, `serviceUnavailableFor` at the end):
 * postgres.js, PGlite and Node name a lost or refused connection differently, and drizzle wraps them.
 */

export async function rows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] }).rows ?? [];
}

/** A finite number from a number or a numeric string; null for null, NaN, ±Infinity or anything else. */
export function sqlNumber(x: unknown): number | null {
  if (typeof x === "number") return Number.isFinite(x) ? x : null;
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return Number(x);
  if (typeof x === "bigint") return Number(x);
  return null;
}

/** A count: like sqlNumber, with 0 for "no row" (a left join that found nothing). */
export function sqlCount(x: unknown): number {
  return sqlNumber(x) ?? 0;
}

/** A valid Date from a Date, an ISO string or epoch milliseconds; else null. */
export function sqlDate(x: unknown): Date | null {
  if (x === null || x === undefined) return null;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object reads as "[object Object]", an invalid date: null
  const d = x instanceof Date ? x : new Date(typeof x === "number" ? x : String(x));
  return Number.isFinite(d.getTime()) ? d : null;
}

export function sqlText(x: unknown): string | null {
  return typeof x === "string" ? x : null;
}

export function sqlBool(x: unknown): boolean | null {
  if (x === true || x === "t" || x === "true") return true;
  if (x === false || x === "f" || x === "false") return false;
  return null;
}

/** A text[] column: a JS array, or a Postgres array literal `{a,"b c"}` from a driver that did not parse it. */
export function sqlTextArray(x: unknown): string[] | null {
  if (x === null || x === undefined) return null;
  if (Array.isArray(x)) return x.filter((v): v is string => typeof v === "string");
  if (typeof x !== "string") return null;
  const inner = x.replace(/^\{|\}$/g, "");
  if (inner === "") return [];
  const out: string[] = [];
  for (const m of inner.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? ""));
  return out;
}

/** A jsonb column: parsed already (postgres.js) or a JSON string (PGlite in some paths). */
export function sqlJson<T>(x: unknown): T | null {
  if (x === null || x === undefined) return null;
  if (typeof x === "string") {
    try {
      return JSON.parse(x) as T;
    } catch {
      return null;
    }
  }
  return x as T;
}

// ---------------------------------------------------------------------------------------------
// Driver failures that mean "the database cannot answer now" (CONTRACT "Reliability": 503
// `service_unavailable` with Retry-After), told apart from every other error (a bug: 500).

/** SQLSTATEs of a server that is going away, starting up, out of connections, or of a cut statement. */
const UNAVAILABLE_SQLSTATES: Record<string, DatabaseFailureKind> = {
  "57014": "statement_timeout", // query_canceled: statement_timeout (or an operator's pg_cancel_backend)
  "57P01": "connection_lost", // admin_shutdown: pg_terminate_backend, a fast shutdown or restart
  "57P02": "connection_lost", // crash_shutdown: another backend crashed, the server resets
  "57P03": "unreachable", // cannot_connect_now: starting up, shutting down, in recovery
  "53300": "unreachable", // too_many_connections
};

/** Codes the drivers and Node put on connection failures (postgres.js: CONNECTION_*, CONNECT_TIMEOUT). */
const UNAVAILABLE_CODES: Record<string, DatabaseFailureKind> = {
  CONNECTION_CLOSED: "connection_lost",
  CONNECTION_DESTROYED: "connection_lost",
  CONNECTION_ENDED: "connection_lost",
  ECONNRESET: "connection_lost",
  EPIPE: "connection_lost",
  CONNECT_TIMEOUT: "unreachable",
  ECONNREFUSED: "unreachable",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  ENOTFOUND: "unreachable",
  EAI_AGAIN: "unreachable",
  ETIMEDOUT: "unreachable",
};

type DatabaseFailureKind = "unreachable" | "connection_lost" | "statement_timeout";

/** Seconds a client is told to wait before sending the same request again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * What kind of database failure `err` is, or null when it is none of them. Follows drizzle's `cause`
 * chain (DrizzleQueryError wraps the driver's error) and Node's AggregateError (a host name with
 * several addresses, each refused). Connection exceptions are SQLSTATE class 08.
 */
export function databaseFailureKind(err: unknown): DatabaseFailureKind | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 10) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      const kind = UNAVAILABLE_SQLSTATES[code] ?? UNAVAILABLE_CODES[code] ?? (/^08[0-9A-Z]{3}$/.test(code) ? "connection_lost" : undefined);
      if (kind) return kind;
    }
    queue.push((e as { cause?: unknown }).cause);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) queue.push(...(inner as unknown[]));
  }
  return null;
}

/** Client-facing sentences: what happened and what to do, nothing of the driver's own words. */
export const DATABASE_FAILURE_MESSAGES: Record<DatabaseFailureKind, string> = {
  unreachable: "The database is unreachable right now. Send the same request again after Retry-After seconds.",
  connection_lost: "The connection to the database was lost during this request; each write is stored whole or not at all. Send the same request again after Retry-After seconds.",
  statement_timeout:
    "This request took longer than the database's time budget and was stopped; each write is stored whole or not at all. Send it again after Retry-After seconds, or ask for a shorter period.",
};

/** The domain error for a database failure (see `databaseFailureKind`), or null for any other error. */
export function serviceUnavailableFor(err: unknown): ServiceUnavailableError | null {
  const kind = databaseFailureKind(err);
  return kind ? new ServiceUnavailableError(DATABASE_FAILURE_MESSAGES[kind], DATABASE_RETRY_AFTER_SECONDS) : null;
}
