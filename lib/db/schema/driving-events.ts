import { sql } from "drizzle-orm";
import { check, doublePrecision, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this schema without the `@/` path alias.
import { DRIVING_EVENT_KINDS, DRIVING_EVENT_SOURCES, type DrivingEventKind, type DrivingEventSource } from "../../vocabulary/driving-events";
import { tenantId, timestamptz } from "./columns";

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * Driving events of a known kind: reported by the OEM in `raw_data.events`, or derived by FDP from
 * dense speed samples. One row per (device, device time, kind, source), so a re-sent payload adds
 * nothing; the primary key also serves the scores' range scans per device and time window.
 * Unknown kinds stay in the telemetry's `raw_data` only.
 */
export const drivingEvents = pgTable(
  "driving_events",
  {
    tenantId: tenantId(),
    deviceId: text("device_id").notNull(),
    /** Device time of the event (its start, for a derived one). */
    ts: timestamptz("ts").notNull(),
    kind: text("kind").$type<DrivingEventKind>().notNull(),
    source: text("source").$type<DrivingEventSource>().notNull(),
    /** g for the harsh kinds (a magnitude), km/h for overspeed. */
    value: doublePrecision("value").notNull(),
    durationS: doublePrecision("duration_s"),
    /** Device time of the telemetry record that carried (oem) or completed (derived) the event. */
    recordTs: timestamptz("record_ts").notNull(),
    receivedAt: timestamptz("received_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.deviceId, t.ts, t.kind, t.source] }),
    check("driving_events_kind_check", sql`${t.kind} in (${list(DRIVING_EVENT_KINDS)})`),
    check("driving_events_source_check", sql`${t.source} in (${list(DRIVING_EVENT_SOURCES)})`),
  ],
);
