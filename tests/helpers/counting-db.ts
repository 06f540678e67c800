import type { Db } from "@/lib/db/client";

const ENTRY_POINTS = new Set(["execute", "select", "selectDistinct", "insert", "update", "delete", "transaction", "$count"]);

/**
 * The real database behind a proxy that counts the statements sent through it (every drizzle entry
 * point that reaches the server, and lib/db/prepared.ts's named statements), so a test can say how many
 * round trips a verb or loader made.
 */
export function countingDb(db: Db): { db: Db; statements: () => number; reset: () => void } {
  let n = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      // lib/db/prepared.ts sends its named statements through the session's postgres.js client, reading
      // `session` once per statement (drizzle's own methods run on the target, so they never read it
      // through the proxy); on PGlite it falls back to `execute`, which is counted above.
      if (prop === "session" && typeof (value as { client?: { unsafe?: unknown } } | undefined)?.client?.unsafe === "function") n++;
      if (typeof prop === "string" && ENTRY_POINTS.has(prop) && typeof value === "function") {
        return (...args: unknown[]) => {
          n++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
  return { db: proxy, statements: () => n, reset: () => void (n = 0) };
}
