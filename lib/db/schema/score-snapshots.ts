import { integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { tenantId, timestamptz } from "./columns";

/**
 * The dashboard's maintained scores (lib/dashboard/score-snapshots/): each score the fleet and vehicle pages
 * show, computed by the API's own functions after an ingest (and when a page finds it older than
 * SCORE_SNAPSHOT_MAX_AGE_SECONDS), so a page reads one row instead of recomputing the fleet. The API
 * computes on request as before.
 *
 * `device_id` is '' for a fleet score; `period_days` is 0 for a device score. `version` is the
 * method version the row was computed with: a row of another version is never shown (the page
 * computes instead). `answer` is what the API's endpoint for that score answers (the verb's output,
 * checked against its schema again when read).
 */
export const scoreSnapshots = pgTable(
  "score_snapshots",
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    deviceId: text("device_id").notNull(),
    periodDays: integer("period_days").notNull(),
    version: text("version").notNull(),
    answer: jsonb("answer").notNull(),
    computedAt: timestamptz("computed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.deviceId, t.periodDays] })],
);
