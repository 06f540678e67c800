import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** The problem an alert is about (ALERT_KEYS, diagnosticsKey): its occurrences update the open alert. */
    dedupeKey: text("dedupe_key"),
    // Lifecycle (docs/methodology/alerts.md#lifecycle): the evidence of every occurrence of the problem
    // folded into the open alert. The answer exposes them in `technical_data`.
    /** Detections of the problem this alert stands for (1 when raised), each from readings new to FDP. */
    occurrences: integer("occurrences").notNull().default(1),
    /** Device time of the first and the latest occurrence's evidence (null only on rows older than 0003). */
    firstSeenAt: timestamptz("first_seen_at"),
    lastSeenAt: timestamptz("last_seen_at"),
    /** The worst and the latest value of the rule's measure (`technical_data.value_field`), null when it has none. */
    worstValue: doublePrecision("worst_value"),
    latestValue: doublePrecision("latest_value"),
    acknowledged: boolean("acknowledged").notNull().default(false),
    acknowledgedBy: text("acknowledged_by"),
    acknowledgedAt: timestamptz("acknowledged_at"),
    // Dismissal as a false alarm (lib/alerts/dismiss-alert.ts): a dismissed alert is also acknowledged, and a
    // dismissed odometer rollback or low-SoH alert's readings are set aside by the knockout rule
    // (lib/scores/knockout-evidence.ts, docs/methodology/tas.md "Dismissed alerts"). Never in the API's alert shape.
    dismissedAt: timestamptz("dismissed_at"),
    dismissedBy: text("dismissed_by"),
    dismissalReason: text("dismissal_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("alerts_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("alerts_tenant_device_idx").on(t.tenantId, t.deviceId),
    // One open (unacknowledged) alert per device, problem and severity: a more severe occurrence is
    // raised alongside the open one, a repeated one updates it (lib/alerts/alert-lifecycle.ts).
    uniqueIndex("alerts_open_dedupe_idx")
      .on(t.tenantId, t.deviceId, t.dedupeKey, t.severity)
      .where(sql`${t.acknowledged} = false and ${t.dedupeKey} is not null`),
  ],
);
