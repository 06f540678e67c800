-- Rows built before this migration hold no great-circle sums: they are dropped and rebuilt by each
-- tenant's next refresh (after its next ingest). Scores read raw telemetry until then, which is right,
-- only slower. The new columns have no default, so an instance still running the previous code
-- (a rolling deploy) cannot write rows without them: its refresh fails and is logged, and its answers
-- read raw telemetry.
TRUNCATE TABLE "telemetry_daily";--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "c_gc_km" double precision NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "positions" integer NOT NULL;--> statement-breakpoint
-- Every device has a state row, marked stale from its first day: a device whose telemetry predates its
-- state row (written before migration 0009) would otherwise get one at its next ingest saying that the
-- days before that ingest are rolled up, with no rows for them.
INSERT INTO "telemetry_rollup_state" ("tenant_id", "device_id", "clean_before")
  SELECT "tenant_id", "device_id", '-infinity'::date FROM "devices"
  ON CONFLICT ("tenant_id", "device_id") DO UPDATE SET "clean_before" = '-infinity'::date;
