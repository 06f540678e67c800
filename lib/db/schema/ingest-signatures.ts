import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { tenantId, timestamptz } from "./columns";

/**
 * Timestamped ingest signatures already used (lib/ingest/verify-signature.ts): a signature is good for
 * one request, so a replay within its 300 s window is refused instead of storing records again (records
 * without their own timestamp are stored at the time they arrive, so a replay would double them). A row
 * is needed only until its timestamp leaves the window (`expires_at`); expired rows are deleted by the
 * tenant's next signed ingest.
 */
export const ingestSignatures = pgTable(
  "ingest_signatures",
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    /** The signature's lowercase hex HMAC. */
    signature: text("signature").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.signature] }), index("ingest_signatures_expiry_idx").on(t.tenantId, t.expiresAt)],
);
