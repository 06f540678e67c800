import type { Db } from "@/lib/db/client";
import type { Logger } from "@/lib/log/logger";

/**
 * What every domain verb receives besides its input. The tenant comes only from here (from the
 * authenticated key), never from the request body or query.
 */
export interface TenantCtx {
  db: Db;
  tenantId: string;
  /** True for the public sandbox key: answers carry `_sandbox: true`, ingest stores nothing. */
  isSandbox: boolean;
  /** This request's logger: every line carries its request id and operation. */
  log: Logger;
}

/** What a public operation's verb receives: the database, and no tenant. */
export interface PublicCtx {
  db: Db;
  log: Logger;
}
