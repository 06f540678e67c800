/**
 * "The SQL alone" of a verb: record the statements it sends at run time, then replay them with a raw
 * postgres.js client. Nothing here knows how a verb queries (one `db.execute`, the query builder, a
 * transaction, several statements): the recording sits in the driver, below drizzle, so whatever the
 * verb sends is what gets replayed.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { nowMs } from "./timing";

/** One statement as the driver sent it: text and parameters (values as the verb passed them). */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * drizzle-orm/postgres-js makes the client pass date/time values through as text, both ways. The app's
 * client is configured so; the replay client is too, so that parameters serialise and rows parse as
 * they do in the app (the replay's statements themselves go straight through `client.unsafe`).
 */
function configureLikeTheApp(client: postgres.Sql): void {
  drizzle(client);
}

/**
 * Runs `run` once against a drizzle database on its own one-connection postgres.js client whose
 * `debug` hook records every statement sent (in the order sent: with one connection, statements a verb
 * runs concurrently are queued, so the recorded order is a valid sequential order; the replay runs
 * them one after another, which makes the baseline slower, never faster, than a verb that runs
 * statements in parallel on the app's pool). Returns the statements, the verb's result and its
 * in-process time.
 */
export async function recordStatements<T>(databaseUrl: string, run: (db: Db) => Promise<T>): Promise<{ statements: RecordedStatement[]; result: T; ms: number }> {
  const statements: RecordedStatement[] = [];
  const client = postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    connection: { jit: "off" }, // the app's connection settings (lib/db/client.ts)
    debug: (_connection, query, parameters) => void statements.push({ sql: query, params: [...(parameters as unknown[])] }),
  });
  try {
    const db = drizzle(client, { schema }) as unknown as Db;
    // Connect first: the driver's own start-up statements (its array-type lookup) are not the verb's.
    await client`select 1`;
    statements.length = 0;
    const t0 = nowMs();
    const result = await run(db);
    return { statements, result, ms: nowMs() - t0 };
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** A raw postgres.js client that replays recorded statements, one after another, on one connection. */
interface Replayer {
  /** Sends every statement in order on one reserved connection (so BEGIN … COMMIT and SET LOCAL hold); resolves to the rows each returned. */
  replay(statements: readonly RecordedStatement[]): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Opens the replay client: postgres.js with the app's pool options (`prepare` on, as the app's
 * client has it by default) and the app's date/time handling. Each statement is sent with
 * `client.unsafe(text, params)`, which is what drizzle's postgres-js session does for `db.execute`;
 * rows are fetched in full (the time covers the transfer of every row).
 */
export function openReplayer(databaseUrl: string): Replayer {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { jit: "off" } });
  configureLikeTheApp(client);
  return {
    async replay(statements) {
      const conn = await client.reserve();
      try {
        const counts: number[] = [];
        for (const s of statements) {
          const rows = await conn.unsafe(s.sql, s.params as postgres.ParameterOrJSON<never>[]);
          counts.push(rows.length);
        }
        return counts;
      } finally {
        conn.release();
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** The statement texts, shortened, for the results JSON (what was replayed, without the parameters). */
export function describeStatements(statements: readonly RecordedStatement[], maxChars = 400): { sql: string; params: number }[] {
  return statements.map((s) => {
    const text = s.sql.replace(/\s+/g, " ").trim();
    return { sql: text.length > maxChars ? `${text.slice(0, maxChars)}…` : text, params: s.params.length };
  });
}
