import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tenantId, timestamptz } from "./columns";

export const SEVERITIES = ["CRITICAL", "WARNING", "INFO"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    tenantId: tenantId(),
    deviceId: text("device_id").notNull(),
    /** The detector that raised it (battery, diagnostics, driving, odometer_integrity, charging). */
    agent: text("agent").notNull(),
    severity: text("severity").$type<Severity>().notNull(),
    prediction: text("prediction").notNull(),
    confidence: doublePrecision("confidence").notNull(),
    technicalData: jsonb("technical_data").$type<Record<string, unknown>>().notNull().default({}),
    /** Detector-chosen key so that the same open condition is not raised twice. */
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
