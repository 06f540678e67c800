import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/**
 * FDP's database as the code sees it, whichever driver opened it: drizzle's postgres-js and PGlite
 * databases share this base type. Its own module so that what client.ts builds on (prepared.ts,
 * sql-values.ts) can name it without importing client.ts back; everyone else imports it from client.ts.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
