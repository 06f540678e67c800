import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this schema without the `@/` path alias.
import type { AlertAgent, Severity } from "../../vocabulary/alerts";
import { createdAt, tenantId, timestamptz } from "./columns";

export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId(),
    deviceId: text("device_id").notNull(),
    /** The detector that raised it (ALERT_AGENTS in lib/vocabulary/alerts.ts). */
    agent: text("agent").$type<AlertAgent>().notNull(),
    severity: text("severity").$type<Severity>().notNull(),
    prediction: text("prediction").notNull(),
    confidence: doublePrecision("confidence").notNull(),
    technicalData: jsonb("technical_data").$type<Record<string, unknown>>().notNull().default({}),
    /** Detector-chosen key so that the same open condition is not raised twice (ALERT_KEYS, diagnosticsKey). */
    dedupeKey: text("dedupe_key"),
    acknowledged: boolean("acknowledged").notNull().default(false),
    acknowledgedBy: text("acknowledged_by"),
    acknowledgedAt: timestamptz("acknowledged_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("alerts_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("alerts_tenant_device_idx").on(t.tenantId, t.deviceId),
    // One open (unacknowledged) alert per device and dedupe key: detectors never raise it twice.
    uniqueIndex("alerts_open_dedupe_idx")
      .on(t.tenantId, t.deviceId, t.dedupeKey)
      .where(sql`${t.acknowledged} = false and ${t.dedupeKey} is not null`),
  ],
);
