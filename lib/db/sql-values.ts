import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/**
 * The one place where the two drivers' raw results are made alike. Drizzle's query builder does this
 * for typed columns; raw SQL (aggregates, laterals, CTEs) comes back as each driver sees fit:
 * - postgres.js answers an array of rows, PGlite `{ rows }`;
 * - numeric and bigint values (`count(*)`, `sum(...)`) are strings on one and numbers on the other;
 * - timestamps are Date objects or strings, booleans `true` or `"t"`, arrays JS arrays or `{a,b}` literals.
 * Query modules read every raw column through these functions and never see the difference.
 */

export async function rows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
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
