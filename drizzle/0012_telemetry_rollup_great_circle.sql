ALTER TABLE "telemetry_daily" ADD COLUMN "c_gc_km" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "positions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Rows built before this migration hold no great-circle sums (0): every device's rollups are rebuilt by
-- its tenant's next refresh (after its next ingest), and read raw until then, which is right, only slower.
UPDATE "telemetry_rollup_state" SET "clean_before" = '-infinity';
